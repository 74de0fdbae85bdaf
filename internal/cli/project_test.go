package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// Run in a folder that is no project, every command that would create
// .rubi/ and index refuses, says how to name the folder, and writes
// nothing; --root names it, and a marker makes it a project.
func TestNotAProject(t *testing.T) {
	files := map[string]string{"main.go": "package main\n\n// Open opens the plugins.\nfunc Open() {}\n"}
	dir := rubitest.Project(t, files)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(dir)
	note := filepath.Join(t.TempDir(), "note.md")
	os.WriteFile(note, []byte("a chunk\n"), 0o644)
	for _, c := range []struct {
		stdin string
		args  []string
		again string // the command line the message gives, after "rubi "
	}{
		{"", []string{"context", "how are plugins loaded"}, "context --root " + dir + " 'how are plugins loaded'"},
		{"", []string{"--json", "context", "plugins", "--budget", "300"}, "context --root " + dir + " --json plugins --budget 300"},
		{"", []string{"index"}, "index --root " + dir},
		{"", []string{"map"}, "map --root " + dir},
		{"", []string{"read", "Open"}, "read --root " + dir + " Open"},
		{"", []string{"register", "--type", "note", "--title", "x", "--body", "y"}, "register --root " + dir + " --type note --title x --body y"},
		{"", []string{"handoff", "save", "--goal", "ship it"}, "handoff save --root " + dir + " --goal 'ship it'"},
		{"", []string{"memory", "save", note}, "memory save --root " + dir + " " + note},
		{"", []string{"summary", "map", "A shop."}, "summary --root " + dir + " map 'A shop.'"},
	} {
		code, out, errOut := runRubiIn(t, c.stdin, c.args...)
		want := "rubi: " + dir + " is not a project (no .git, rubi.hcl or .rubi/ here or above): rubi keeps a project's index and notes in its .rubi/ and would make one here; run rubi in a project, or name this folder: rubi " + c.again + "\n"
		if code != 1 || out != "" || errOut != want {
			t.Errorf("rubi %s: exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", strings.Join(c.args, " "), code, out, errOut, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".rubi")); err == nil {
		t.Fatal(".rubi/ was created in a folder that is no project")
	}

	// --root names the folder: it is indexed as it is.
	code, out, errOut := runRubi(t, "context", "how are plugins loaded", "--root", dir)
	if code != 0 || !strings.Contains(out, "main.go") {
		t.Errorf("with --root: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// A .git makes a folder a project.
	marked := rubitest.Project(t, files)
	os.Mkdir(filepath.Join(marked, ".git"), 0o755)
	t.Chdir(marked)
	code, out, errOut = runRubi(t, "context", "how are plugins loaded")
	if code != 0 || !strings.Contains(out, "main.go") {
		t.Errorf("with .git: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// The home folder's .git is a dotfiles repository, no project (as the
// hooks take it): a folder below it is refused with that said; rubi.hcl
// in the home folder makes it a project.
func TestHomeGitIsNoProject(t *testing.T) {
	home := rubitest.Project(t, map[string]string{"work/main.go": "package main\n", ".git/HEAD": "ref: refs/heads/main\n"})
	t.Setenv("HOME", home)
	work := filepath.Join(home, "work")
	t.Chdir(work)
	code, out, errOut := runRubi(t, "index")
	want := "rubi: " + work + " is not a project: the only marker here or above is the .git of your home folder " + home + ", which rubi takes for your dotfiles, not a project to index; run rubi in a project, or name this folder: rubi index --root " + work + "\n"
	if code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", code, out, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(home, ".rubi")); err == nil {
		t.Fatal(".rubi/ was created in the home folder")
	}
	os.WriteFile(filepath.Join(home, "rubi.hcl"), nil, 0o644)
	if code, out, errOut := runRubi(t, "index"); code != 0 || !strings.HasPrefix(out, "indexed ") {
		t.Errorf("with rubi.hcl at home: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
