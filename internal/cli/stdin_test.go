package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// stdinCommands are the commands that read their input from standard
// input when no flag or file gives it, and what each says at a terminal.
var stdinCommands = []struct {
	args []string
	want string
}{
	{[]string{"register"}, `rubi: register reads a JSON array of nodes on standard input, which is a terminal: give one node with flags instead, e.g. rubi register --type gotcha --title "Coupon applied twice" --body "applyCoupon runs again on retry" (rubi register --help shows the JSON)` + "\n"},
	{[]string{"handoff", "save"}, `rubi: handoff save reads a JSON handoff object on standard input, which is a terminal: give the handoff with flags instead, e.g. rubi handoff save --goal "fix the coupon applied twice" --done "found the retry" --next "write its test" (rubi handoff save --help shows the JSON)` + "\n"},
	{[]string{"memory", "save", "--tag", "x"}, `rubi: memory save reads the chunk to save on standard input, which is a terminal: give a file instead, e.g. rubi memory save notes.md, or pipe the chunk in: git log -p -3 | rubi memory save` + "\n"},
	{[]string{"hook"}, `rubi: hook reads the agent's JSON payload on standard input, which is a terminal: an agent's hook runs it with the payload piped in, e.g. echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi hook UserPromptSubmit (rubi hook --help lists the events)` + "\n"},
	{[]string{"hook", "SessionStart"}, `rubi: hook reads the agent's JSON payload on standard input, which is a terminal: an agent's hook runs it with the payload piped in, e.g. echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi hook UserPromptSubmit (rubi hook --help lists the events)` + "\n"},
}

// At a terminal, a command that would read its input from standard input
// says what it reads and how else to give it, and exits 2, instead of
// waiting; it writes nothing.
func TestStdinAtATerminal(t *testing.T) {
	root := rubitest.Project(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	t.Chdir(root)
	for _, c := range stdinCommands {
		var out, errb bytes.Buffer
		code := run(context.Background(), c.args, rubitest.Terminal{}, &out, &errb)
		if code != 2 || errb.String() != c.want || out.String() != "" {
			t.Errorf("rubi %s: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", strings.Join(c.args, " "), code, out.String(), errb.String(), c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi")); err == nil {
		t.Error("a command at a terminal created .rubi/")
	}
}

// Piped input is read as before; flags, a file, or "-" (standard input
// named: read even at a terminal) give the input without it.
func TestStdinPiped(t *testing.T) {
	root := rubitest.Project(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	t.Chdir(root)
	code, out, errOut := runRubiIn(t, `[{"type": "gotcha", "title": "Coupon applied twice", "body": "applyCoupon runs again on retry"}]`, "register")
	if code != 0 || out != "created: gotcha-coupon-applied-twice (.rubi/knowledge/gotcha-coupon-applied-twice.md)\n" {
		t.Errorf("piped register: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runRubiIn(t, `{"goal": "ship it", "next": ["test"]}`, "handoff", "save")
	if code != 0 || !strings.HasPrefix(out, "saved: .rubi/handoffs/") {
		t.Errorf("piped handoff save: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var outb, errb bytes.Buffer
	code = run(context.Background(), []string{"register", "--type", "howto", "--title", "Release", "--body", "tag, then push"}, rubitest.Terminal{}, &outb, &errb)
	if code != 0 || outb.String() != "created: howto-release (.rubi/knowledge/howto-release.md)\n" {
		t.Errorf("register with flags at a terminal: exit %d, stdout %q, stderr %q", code, outb.String(), errb.String())
	}
	outb.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"memory", "save", "-", "--summary", "typed"}, rubitest.Terminal{Reader: strings.NewReader("typed at the terminal\n")}, &outb, &errb)
	if code != 0 || !strings.HasPrefix(outb.String(), "saved: ") {
		t.Errorf(`memory save - at a terminal: exit %d, stdout %q, stderr %q`, code, outb.String(), errb.String())
	}
}
