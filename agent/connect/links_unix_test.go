//go:build unix

package connect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// linkEnv is a home, a project and a folder outside both, the user's
// environment kept out.
func linkEnv(t *testing.T) (home, project, outside string) {
	t.Helper()
	root := t.TempDir()
	home, project, outside = filepath.Join(root, "home"), filepath.Join(root, "project"), filepath.Join(root, "outside")
	for _, d := range []string{home, project, outside} {
		os.MkdirAll(d, 0o755)
	}
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "CODEX_HOME", "APPDATA"} {
		t.Setenv(v, "")
	}
	return home, project, outside
}

// A repository that commits its agents' files as links out of the project
// (AGENTS.md -> ~/.bashrc, GEMINI.md -> ~/.ssh/id_ed25519, .gemini ->
// ~/.gemini...): connect and its undo refuse, naming the file and where
// the link leads, and change nothing, inside the project or out of it;
// no copy of what the link points at is left anywhere.
func TestConnectRefusesLinksOutOfTheProject(t *testing.T) {
	for _, name := range AgentNames() {
		for _, how := range []string{"file", "folder"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				home, project, outside := linkEnv(t)
				o := ConnectOptions{Project: project, Home: home, Scope: ScopeProject, Rubi: "rubi"}
				a, _ := findAgent(name)
				parts, err := o.partsOf(a)
				if err != nil {
					t.Skip(err) // no project scope
				}
				linked := map[string]string{} // link → where it leads
				for i, p := range parts {
					rel, _ := filepath.Rel(project, p.file.path)
					if p.file.project == "" {
						continue // a file of the user's, whatever the scope
					}
					first := strings.Split(rel, string(filepath.Separator))[0]
					link, target := p.file.path, filepath.Join(outside, "file"+string(rune('a'+i)))
					if how == "folder" && first != rel {
						link, target = filepath.Join(project, first), filepath.Join(outside, "dir-"+first)
						os.MkdirAll(filepath.Join(target, strings.TrimPrefix(filepath.Dir(rel), first)), 0o755)
						os.WriteFile(filepath.Join(target, strings.TrimPrefix(rel, first)), []byte(sampleConfig(p.file.path)), 0o600)
					} else {
						os.MkdirAll(filepath.Dir(link), 0o755)
						os.WriteFile(target, []byte("ssh-ed25519 THE USER'S KEY\n"), 0o600)
					}
					if _, done := linked[link]; !done {
						if err := os.Symlink(target, link); err != nil {
							t.Fatal(err)
						}
						linked[link] = target
					}
				}
				if len(linked) == 0 {
					t.Skip("no file in the project")
				}
				beforeOut, beforeProject, beforeHome := lsnapshot(t, outside), lsnapshot(t, project), lsnapshot(t, home)
				for _, run := range []func(context.Context, string, ConnectOptions) (*Report, error){Connect, Disconnect} {
					_, err := run(context.Background(), name, o)
					if err == nil || !errors.Is(err, store.ErrNotOwned) {
						t.Fatalf("connected through links out of the project: %v", err)
					}
					named := false
					for link, target := range linked {
						named = named || strings.Contains(err.Error(), link) && strings.Contains(err.Error(), target)
					}
					if !named || !strings.Contains(err.Error(), "nothing was changed") {
						t.Errorf("the error names neither a link and its target nor that nothing changed: %v", err)
					}
				}
				if !equalSnapshots(beforeOut, lsnapshot(t, outside)) {
					t.Error("a file outside the project changed")
				}
				if !equalSnapshots(beforeProject, lsnapshot(t, project)) || !equalSnapshots(beforeHome, lsnapshot(t, home)) {
					t.Error("the project or the home changed: every file is checked before any is written")
				}
			})
		}
	}
}

// lsnapshot is every file, folder and link under dir, a link as where it
// leads, never followed.
func lsnapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = []byte("link " + target)
		case d.IsDir():
			out[p+"/"] = nil
		default:
			data, _ := os.ReadFile(p)
			out[p] = data
		}
		return nil
	})
	return out
}

// A project's backups are kept out of the repository, readable by the
// user alone, and the undo still finds them; a user's file linked by a
// dotfile manager is changed through its link, its backup 0600 too.
func TestBackupsAreTheUsers(t *testing.T) {
	home, project, outside := linkEnv(t)
	os.WriteFile(filepath.Join(project, "AGENTS.md"), []byte("# Rules\n\nKeep tests green.\n"), 0o644)
	o := ConnectOptions{Project: project, Home: home, Scope: ScopeProject, Rubi: "rubi"}
	rep, err := Connect(context.Background(), "codex", o)
	if err != nil {
		t.Fatal(err)
	}
	var backups []string
	for _, f := range rep.Files {
		if f.Backup != "" && filepath.Base(f.Path) == "AGENTS.md" {
			backups = append(backups, f.Backup)
		}
	}
	if len(backups) == 0 {
		t.Fatal("no backup of AGENTS.md")
	}
	for _, b := range backups {
		if rel, err := filepath.Rel(project, b); err == nil && !strings.HasPrefix(rel, "..") {
			t.Errorf("backup %s is inside the repository", b)
		}
		if fi, err := os.Stat(b); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("backup %s: %v, mode %v, want 0600", b, err, fi.Mode().Perm())
		}
	}
	filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, BackupSuffix) {
			t.Errorf("%s left in the repository", p)
		}
		return nil
	})
	rep, err = Disconnect(context.Background(), "codex", o)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(project, "AGENTS.md")); string(data) != "# Rules\n\nKeep tests green.\n" {
		t.Errorf("after the undo AGENTS.md holds %q", data)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), backups[0]) {
		t.Errorf("the undo does not name the backup it kept: %q", rep.Notes)
	}

	// The user's Codex settings, linked from a dotfiles folder.
	dotfiles := filepath.Join(outside, "dotfiles")
	os.MkdirAll(dotfiles, 0o755)
	os.MkdirAll(filepath.Join(home, ".codex"), 0o755)
	os.WriteFile(filepath.Join(dotfiles, "config.toml"), []byte("model = \"o3\"\n"), 0o644)
	os.Symlink(filepath.Join(dotfiles, "config.toml"), filepath.Join(home, ".codex", "config.toml"))
	g := o
	g.Scope = ScopeGlobal
	if _, err := Connect(context.Background(), "codex", g); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(home, ".codex", "config.toml")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the user's link was replaced: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dotfiles, "config.toml")); !strings.Contains(string(data), "mcp_servers.rubi") {
		t.Errorf("not written through the user's link: %q", data)
	}
	if fi, err := os.Stat(filepath.Join(home, ".codex", "config.toml"+BackupSuffix)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the user's backup: %v, want mode 0600", err)
	}
}

// rubi install on a FIFO settings.json is refused at once, naming it:
// it hung for ever reading it.
func TestInstallRefusesAFIFO(t *testing.T) {
	home, _, _ := linkEnv(t)
	claude := filepath.Join(home, ".claude")
	os.MkdirAll(claude, 0o755)
	if err := syscall.Mkfifo(filepath.Join(claude, "settings.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Install(context.Background(), Options{Claude: ClaudePaths{Dir: claude, State: filepath.Join(home, ".claude.json")},
			UserConfig: filepath.Join(home, ".config", "rubi", "config.hcl"), Vault: filepath.Join(home, "vault"), Window: 200_000, Hooks: true, Rubi: "rubi"})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), filepath.Join(claude, "settings.json")) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("install on a FIFO settings.json: %v, want a refusal naming it", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("install hangs on a FIFO settings.json")
	}
}
