//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// A rubi.hcl another user owns is not read: its plugins would run as the
// user. One warning names it, its owner and the way out; the user's own
// safe_directories brings it back.
func TestAnotherUsersRubiHCLIsIgnored(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	root := t.TempDir()
	path := filepath.Join(root, FileName)
	if err := os.WriteFile(path, []byte("budgets {\n  context = 900\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	cfg, diags := Load(Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Budgets.Context == 900 {
		t.Error("another user's rubi.hcl was read: its budget is configured")
	}
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Summary, path) || !strings.Contains(diags[0].Summary, "uid 65534") || !strings.Contains(diags[0].Summary, "safe_directories") {
		t.Errorf("want one warning naming %s, its owner and safe_directories; got %v", path, diags)
	}

	user := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(user, []byte("safe_directories = [\""+root+"\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags = Load(Options{Root: root, UserConfig: user})
	if diags.HasErrors() || len(diags) != 0 {
		t.Fatal(diags)
	}
	if cfg.Budgets.Context != 900 {
		t.Error("the rubi.hcl of a folder in the user's safe_directories was not read")
	}
}

// Only the user's own config names safe directories: a project's rubi.hcl
// that names its own (or every folder) gets a warning and changes nothing.
func TestSafeDirectoriesOnlyFromTheUsersConfig(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, FileName), []byte("safe_directories = [\"*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := Load(Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() || len(diags) != 1 || diags[0].Summary != "safe_directories ignored" || diags[0].Subject == nil || diags[0].Subject.Start.Line != 1 {
		t.Errorf("want one warning at rubi.hcl:1; got %v", diags)
	}
	if got := SafeDirectories(); len(got) != 0 {
		t.Errorf("SafeDirectories() = %v without a user config", got)
	}
	if err := os.MkdirAll(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rubi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(UserConfigPath(), []byte("safe_directories = [\"/srv/ci\", \"~/mnt\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SafeDirectories(); len(got) != 2 || got[0] != "/srv/ci" || got[1] != "~/mnt" {
		t.Errorf("SafeDirectories() = %v", got)
	}
}
