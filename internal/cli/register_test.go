package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// A node refused is told on stderr in rubi's words, naming the node; a
// title alone is no note: nothing is written and the message says how to
// give its text.
func TestRegisterRefusals(t *testing.T) {
	root := rubitest.Project(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	t.Chdir(root)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"register", "--title", "x"}, `rubi: "x": a new note needs its text (body): nothing was written; give its text with --body TEXT, --body-file FILE, or a JSON array of nodes on standard input` + "\n"},
		{"", []string{"register", "--type", "concept", "--title", "Checkout", "--tag", "cart", "--importance", "high"}, `rubi: "Checkout": a new note needs its text (body): nothing was written; give its text with --body TEXT, --body-file FILE, or a JSON array of nodes on standard input` + "\n"},
		{`[{"type": "note", "title": "x"}]`, []string{"register"}, `rubi: "x": a new note needs its text (body): nothing was written; give its text with --body TEXT, --body-file FILE, or a JSON array of nodes on standard input` + "\n"},
		{"", []string{"register", "--type", "bogus", "--title", "y", "--body", "z"}, `rubi: "y": unknown type "bogus": use one of decision, bug, gotcha, concept, howto, preference, task, note` + "\n"},
		{`[{"type": "note", "body": "b"}, {"type": "note", "title": "ok", "body": "b"}]`, []string{"register"}, "rubi: node 1: title is required\n"},
		{"", []string{"register", "--title", "x", "--body", "a", "--body-file", "b.md"}, "rubi: --body and --body-file both give the node's text: give one\n"},
	} {
		code, out, errOut := runRubiIn(t, c.stdin, c.args...)
		if code != 1 || errOut != c.want || strings.Contains(out, "error") {
			t.Errorf("rubi %s: exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", strings.Join(c.args, " "), code, out, errOut, c.want)
		}
	}
	for _, id := range []string{"note-x", "concept-checkout", "note-y"} {
		if _, err := os.Stat(filepath.Join(root, ".rubi", "knowledge", id+".md")); err == nil {
			t.Errorf("%s was written", id)
		}
	}
}

// --body-file gives the node's text from a file, or from standard input
// with "-"; a file or symbol beside the title is enough for a node.
func TestRegisterBodyFile(t *testing.T) {
	root := rubitest.Project(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "release.md": "Tag, then push the tag.\n", "main.go": "package main\n"})
	t.Chdir(root)
	code, out, errOut := runRubi(t, "register", "--type", "howto", "--title", "Release", "--body-file", "release.md")
	if code != 0 || out != "created: howto-release (.rubi/knowledge/howto-release.md)\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runRubiIn(t, "From standard input.\n", "register", "--type", "howto", "--title", "Piped", "--body-file", "-")
	if code != 0 || out != "created: howto-piped (.rubi/knowledge/howto-piped.md)\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runRubi(t, "register", "--type", "concept", "--title", "Entry point", "--file", "main.go")
	if code != 0 || out != "created: concept-entry-point (.rubi/knowledge/concept-entry-point.md)\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for file, want := range map[string]string{"howto-release.md": "Tag, then push the tag.", "howto-piped.md": "From standard input."} {
		data, _ := os.ReadFile(filepath.Join(root, ".rubi", "knowledge", file))
		if !strings.Contains(string(data), want) {
			t.Errorf("%s:\n%s\nwant %q in it", file, data, want)
		}
	}
	code, _, errOut = runRubi(t, "register", "--type", "howto", "--title", "Missing", "--body-file", "nope.md")
	if code != 1 || !strings.HasPrefix(errOut, "rubi: --body-file: ") || !strings.Contains(errOut, "nope.md") {
		t.Errorf("a missing file: exit %d, stderr %q", code, errOut)
	}
}
