package project

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// The project around a folder is the nearest one up that holds .rubi/,
// rubi.hcl or .git; a folder in none is its own.
func TestFindRoot(t *testing.T) {
	top := t.TempDir()
	for _, dir := range []string{"repo/.git", "repo/sub/.rubi", "repo/sub/deep/er", "repo/cfg/x", "alone/y"} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "repo/cfg", config.FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for from, want := range map[string]string{
		"repo/sub/deep/er": "repo/sub",
		"repo/cfg/x":       "repo/cfg",
		"repo":             "repo",
		"alone/y":          "alone/y",
	} {
		if got := FindRoot(filepath.Join(top, from)); got != filepath.Join(top, want) {
			t.Errorf("FindRoot(%s) = %s, want %s", from, got, filepath.Join(top, want))
		}
	}
}

// A project is a folder with a marker at or above it; the home folder's
// .git alone makes none (a dotfiles repository), its rubi.hcl or .rubi/ do.
func TestIsProject(t *testing.T) {
	top := t.TempDir()
	for _, dir := range []string{"home/.git", "home/work", "home/code/.git", "home/cfg", "alone"} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(top, "home/cfg", config.FileName), nil, 0o644)
	home := filepath.Join(top, "home")
	for from, want := range map[string]bool{
		"home/code": true, "home/cfg": true, "home/work": false, "home": false, "alone": false,
	} {
		if got := Find(filepath.Join(top, from)).IsProject(home); got != want {
			t.Errorf("%s: IsProject = %v, want %v", from, got, want)
		}
	}
	if !Find(filepath.Join(top, "home/work")).IsProject("") {
		t.Error("with no home folder, a .git is a project wherever it is")
	}
	os.Mkdir(filepath.Join(home, DataDir), 0o755)
	if !Find(filepath.Join(top, "home/work")).IsProject(home) {
		t.Error("the home folder's .rubi/ makes it a project")
	}
}

// The vault is RUBI_VAULT, else the configuration's, with ~/ expanded;
// SetVault overrides both.
func TestVault(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("RUBI_VAULT", "")
	if got := VaultPath("~/notes"); got != filepath.Join(home, "notes") {
		t.Errorf("VaultPath(~/notes) = %s", got)
	}
	t.Setenv("RUBI_VAULT", "/srv/vault")
	if got := VaultPath("~/notes"); got != "/srv/vault" {
		t.Errorf("with RUBI_VAULT: %s", got)
	}
	p := New(&config.Config{Root: t.TempDir(), Vault: "~/notes"}, nil, nil)
	if p.VaultDir() != "/srv/vault" {
		t.Errorf("VaultDir = %s", p.VaultDir())
	}
	p.SetVault("/elsewhere")
	if p.VaultDir() != "/elsewhere" {
		t.Errorf("after SetVault: %s", p.VaultDir())
	}
}

// A handoff is written to .rubi/handoffs/ and kept whole in the
// conversation memory, tagged handoff; saving it again finds the chunk.
func TestSaveHandoff(t *testing.T) {
	t.Setenv("RUBI_VAULT", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	p := New(&config.Config{Root: root}, nil, nil)
	if p.Dir() != filepath.Join(root, DataDir) {
		t.Fatalf("Dir %s", p.Dir())
	}
	h := knowledge.Handoff{Goal: "Add a second coupon type", Next: []string{"wire the endpoint zebra-42"}, Created: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	path, chunk, err := p.SaveHandoff(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, filepath.Join(p.Dir(), "handoffs")) {
		t.Errorf("the handoff went to %s", path)
	}
	s, _ := p.Memory()
	chunks, err := s.List(memory.Filter{})
	if err != nil || len(chunks) != 1 {
		t.Fatalf("chunks %v, %v", chunks, err)
	}
	c := chunks[0]
	if c.ID != chunk.ID || !slices.Contains(c.Tags, HandoffTag) || !strings.Contains(c.Summary, "Add a second coupon type") {
		t.Errorf("chunk %+v", c)
	}
	if _, again, err := p.SaveHandoff(context.Background(), h); err != nil || !again.Duplicate || again.ID != chunk.ID {
		t.Errorf("saved again: %+v, %v", again, err)
	}
}
