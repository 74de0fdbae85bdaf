package cli

import (
	"strings"
	"testing"
)

// A flag not understood is said in rubi's words: which flag, why, and a
// value that would do, or the flag most likely meant.
func TestFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"context", "--budget", "abc", "q"}, `rubi: --budget: "abc" is not a whole number (e.g. --budget 800)`},
		{[]string{"context", "--limit", "1.5", "q"}, `rubi: --limit: "1.5" is not a whole number (e.g. --limit 10)`},
		{[]string{"context", "--budget", "99999999999999999999", "q"}, `rubi: --budget: "99999999999999999999" is out of range (e.g. --budget 800)`},
		{[]string{"context", "q", "--budget"}, `rubi: --budget needs a value (e.g. --budget 800)`},
		{[]string{"xray", "--days", "week"}, `rubi: --days: "week" is not a whole number (e.g. --days 30)`},
		{[]string{"memory", "grep", "--typos", "x", "coupon"}, `rubi: --typos: "x" is not a whole number (e.g. --typos 1)`},
		{[]string{"--json=maybe", "status"}, `rubi: --json: "maybe" is neither true nor false (write --json, or --json=false)`},
		{[]string{"context", "--budgte", "800", "q"}, `rubi: unknown flag --budgte; did you mean --budget?`},
		{[]string{"register", "--titel", "x"}, `rubi: unknown flag --titel; did you mean --title?`},
		{[]string{"context", "--rot", ".", "q"}, `rubi: unknown flag --rot; did you mean --root?`},
		{[]string{"index", "--budget", "800"}, `rubi: unknown flag --budget; rubi index --help lists its flags`},
		{[]string{"context", "-x", "q"}, `rubi: unknown flag -x; rubi context --help lists its flags`},
		{[]string{"context", "---x", "q"}, `rubi: "---x" is no flag: write --name, or --name=value; rubi context --help lists its flags`},
	} {
		code, out, errOut := runRubi(t, c.args...)
		if code != 1 || out != "" || errOut != c.want+"\n" {
			t.Errorf("rubi %s: exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
}
