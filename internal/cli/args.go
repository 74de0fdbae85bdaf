package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// argsBetween accepts from min to max positional arguments (max < 0: no
// upper bound) and otherwise says what the command takes, with its usage
// line and first example, instead of cobra's "requires at least 1 arg(s),
// only received 0".
func argsBetween(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		var what string
		switch {
		case len(args) < min && min == 1:
			what = "is missing its argument"
		case len(args) < min:
			what = fmt.Sprintf("needs %d arguments, got %d", min, len(args))
		case max >= 0 && len(args) > max && max == 0:
			what = fmt.Sprintf("takes no argument, got %q", strings.Join(args, " "))
		case max >= 0 && len(args) > max:
			what = fmt.Sprintf("takes at most %d, got %d: %q (quote an argument that has spaces)", max, len(args), strings.Join(args, " "))
		default:
			return nil
		}
		msg := fmt.Sprintf("%s %s; usage: %s", cmd.CommandPath(), what, cmd.UseLine())
		if ex := firstExample(cmd.Example); ex != "" {
			msg += "; for example: " + ex
		}
		return fmt.Errorf("%s", msg)
	}
}

// firstExample is the first line of a command's examples, trimmed.
func firstExample(examples string) string {
	for _, line := range strings.Split(examples, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}
