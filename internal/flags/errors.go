package flags

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rubi-dev/rubi/core/config"
)

// exampleKey is the annotation of a flag that holds a value to show in
// its errors (SetExample).
const exampleKey = "rubi-example"

// SetExample gives the flag name of fs a value to show when one given is
// not understood ("e.g. --budget 800"); a flag without one shows its
// default when that is not a zero.
func SetExample(fs *pflag.FlagSet, name, value string) {
	_ = fs.SetAnnotation(name, exampleKey, []string{value})
}

// Explain turns an error of parsing the flags of a command (cmdPath, such
// as "rubi context", whose flags are fs) into a sentence in rubi's words:
// which flag, what was wrong with its value and a value that would do,
// and for a flag that does not exist the one most likely meant. Cobra
// takes it as the root command's FlagErrorFunc; other errors pass as
// they are.
func Explain(cmdPath string, fs *pflag.FlagSet, err error) error {
	var (
		invalid  *pflag.InvalidValueError
		missing  *pflag.ValueRequiredError
		unknown  *pflag.NotExistError
		malform  *pflag.InvalidSyntaxError
		helpLine = fmt.Sprintf("%s --help lists its flags", cmdPath)
	)
	switch {
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return fmt.Errorf("--%s: %q %s", f.Name, invalid.GetValue(), notA(f, invalid.Unwrap()))
	case errors.As(err, &missing):
		f := missing.GetFlag()
		if ex := example(f); ex != "" {
			return fmt.Errorf("--%s needs a value (e.g. --%s %s)", f.Name, f.Name, ex)
		}
		return fmt.Errorf("--%s needs a value; %s", f.Name, helpLine)
	case errors.As(err, &unknown):
		if sh := unknown.GetSpecifiedShortnames(); sh != "" {
			c := unknown.GetSpecifiedName()[:1]
			if sh == c {
				return fmt.Errorf("unknown flag -%s; %s", c, helpLine)
			}
			return fmt.Errorf("unknown flag -%s in -%s; %s", c, sh, helpLine)
		}
		name := unknown.GetSpecifiedName()
		var names []string
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if s := config.Suggest(name, names); s != "" {
			return fmt.Errorf("unknown flag --%s; did you mean --%s?", name, s)
		}
		return fmt.Errorf("unknown flag --%s; %s", name, helpLine)
	case errors.As(err, &malform):
		return fmt.Errorf("%q is no flag: write --name, or --name=value; %s", malform.GetSpecifiedFlag(), helpLine)
	}
	return err
}

// notA says what the value given to f is not, and what would do, from
// the flag's type and the parser's error (cause).
func notA(f *pflag.Flag, cause error) string {
	eg := ""
	if ex := example(f); ex != "" {
		eg = fmt.Sprintf(" (e.g. --%s %s)", f.Name, ex)
	}
	typ := f.Value.Type()
	switch {
	case errors.Is(cause, strconv.ErrRange):
		return "is out of range" + eg
	case strings.HasPrefix(typ, "uint"):
		return "is not a whole number of 0 or more" + eg
	case strings.HasPrefix(typ, "int"):
		return "is not a whole number" + eg
	case strings.HasPrefix(typ, "float"):
		return "is not a number" + eg
	case typ == "duration":
		if eg == "" {
			eg = fmt.Sprintf(" (e.g. --%s 90s, 15m or 2h)", f.Name)
		}
		return "is not a duration" + eg
	case typ == "bool":
		return fmt.Sprintf("is neither true nor false (write --%s, or --%s=false)", f.Name, f.Name)
	}
	return "is not understood: " + cause.Error()
}

// example is the value f shows in its errors: SetExample's, else its
// default when that is not a zero.
func example(f *pflag.Flag) string {
	if ex := f.Annotations[exampleKey]; len(ex) > 0 {
		return ex[0]
	}
	switch f.DefValue {
	case "", "0", "0s", "false", "[]":
		return ""
	}
	return f.DefValue
}
