package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// On a real terminal (a pseudo-terminal's), as a user runs them: each
// command says what it reads instead of waiting for it.
func TestStdinOnAPseudoTerminal(t *testing.T) {
	root := rubitest.Project(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	t.Chdir(root)
	for _, c := range stdinCommands {
		tty, typed := rubitest.PTY(t)
		typed.Write([]byte{4}) // Ctrl-D: a command that reads gets an end of input, not a wait
		var out, errb bytes.Buffer
		code := run(context.Background(), c.args, tty, &out, &errb)
		if code != 2 || errb.String() != c.want {
			t.Errorf("rubi %s: exit %d, stderr:\n%s\nwant exit 2 and:\n%s", strings.Join(c.args, " "), code, errb.String(), c.want)
		}
	}
}
