//go:build unix

package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nobody is the uid the tests give another user's files (they run as
// root, who owns nothing of another uid either).
const nobody = 65534

// sharedFolder makes a folder as another user leaves one in /tmp: mode
// (1777: sticky and world-writable, as /tmp is; 0755: theirs alone)
// owned by owner, holding a rubi.hcl and a .rubi/ of theirs; and the
// victim's folder work below it, the user's own.
func sharedFolder(t *testing.T, mode os.FileMode, owner int) (shared, work string) {
	t.Helper()
	shared = filepath.Join(t.TempDir(), "shared")
	work = filepath.Join(shared, "work")
	for _, d := range []string{filepath.Join(shared, DataDir, "knowledge"), work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(shared, "rubi.hcl"), []byte("ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(shared, "rubi.hcl"), filepath.Join(shared, DataDir, "knowledge"), filepath.Join(shared, DataDir), shared} {
		if err := os.Chown(p, owner, owner); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(shared, mode); err != nil {
		t.Fatal(err)
	}
	return shared, work
}

// userConfig makes the user's own config hold text.
func userConfig(t *testing.T, text string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "rubi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rubi", "config.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The search for a project never goes up into another user's folder nor
// one every user may write: what another user put there is passed over,
// with a line naming it, its owner and the way out.
func TestFindPassesOverOtherUsersFolders(t *testing.T) {
	for name, tt := range map[string]struct {
		mode  os.FileMode
		owner int
		says  string
	}{
		"a sticky folder every user may write, as /tmp": {os.ModeSticky | 0o777, os.Getuid(), "writable by every user"},
		"another user's folder":                         {0o755, nobody, "uid 65534"},
		"another user's sticky folder":                  {os.ModeSticky | 0o777, nobody, "uid 65534"},
	} {
		t.Run(name, func(t *testing.T) {
			userConfig(t, "")
			t.Setenv("LC_ALL", "en_US.UTF-8")
			shared, work := sharedFolder(t, tt.mode, tt.owner)
			found := Find(work)
			if found.Root != work || found.Marker != "" || found.Refused != nil {
				t.Fatalf("Find(%s) = root %s, marker %q, refused %v; want the working folder, no project", work, found.Root, found.Marker, found.Refused)
			}
			if FindRoot(work) != work {
				t.Errorf("FindRoot(%s) = %s", work, FindRoot(work))
			}
			warnings := strings.Join(found.Warnings(), "\n")
			for _, want := range []string{filepath.Join(shared, "rubi.hcl"), filepath.Join(shared, DataDir), tt.says, "safe_directories"} {
				if !strings.Contains(warnings, want) {
					t.Errorf("the warnings do not say %q:\n%s", want, warnings)
				}
			}
			if n := len(found.Warnings()); n != 2 {
				t.Errorf("%d warnings, want one line for each of rubi.hcl and .rubi/:\n%s", n, warnings)
			}
			// Started in the folder itself, it is refused.
			if f := Find(shared); f.Refused == nil {
				t.Errorf("Find(%s) took the folder for a project (root %s, marker %q)", shared, f.Root, f.Marker)
			}
		})
	}
}

// A folder the user names in safe_directories is theirs to use, as git's
// safe.directory: its rubi.hcl makes it the project.
func TestFindTakesSafeDirectories(t *testing.T) {
	for name, entry := range map[string]func(shared string) string{
		"the folder":        func(s string) string { return s },
		"a folder above":    func(s string) string { return filepath.Dir(s) },
		"git's /* spelling": func(s string) string { return filepath.Dir(s) + "/*" },
		"every folder":      func(string) string { return "*" },
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", "")
			shared, work := sharedFolder(t, 0o755, nobody)
			userConfig(t, "safe_directories = [\""+entry(shared)+"\"]\n")
			found := Find(work)
			if found.Root != shared || found.Marker != DataDir || found.Refused != nil || len(found.Ignored) != 0 {
				t.Fatalf("Find(%s) = root %s, marker %q, refused %v, ignored %v; want %s by its .rubi/", work, found.Root, found.Marker, found.Refused, found.Ignored, shared)
			}
		})
	}
}

// A project of the user's own is found as before, whoever owns the
// folders above it.
func TestFindOwnProject(t *testing.T) {
	userConfig(t, "")
	shared, _ := sharedFolder(t, os.ModeSticky|0o777, nobody)
	own := filepath.Join(shared, "mine")
	sub := filepath.Join(own, "src", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "rubi.hcl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	found := Find(sub)
	if found.Root != own || found.Marker != "rubi.hcl" || found.Refused != nil || len(found.Ignored) != 0 {
		t.Fatalf("Find(%s) = root %s, marker %q, refused %v, ignored %v; want %s", sub, found.Root, found.Marker, found.Refused, found.Ignored, own)
	}
}

// The project's own .rubi/ of another user's cannot be passed over (rubi
// would keep its index and read its notes there): the project is refused.
func TestFindRefusesAnotherUsersDataFolder(t *testing.T) {
	userConfig(t, "")
	own := t.TempDir()
	if err := os.Mkdir(filepath.Join(own, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(own, DataDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(own, DataDir), nobody, nobody); err != nil {
		t.Fatal(err)
	}
	found := Find(own)
	if found.Root != own || found.Refused == nil || found.Refused.Path != filepath.Join(own, DataDir) {
		t.Fatalf("Find(%s) = root %s, refused %v; want .rubi/ refused", own, found.Root, found.Refused)
	}
}
