package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi"
)

func TestNestingIsCountedBeforeParsing(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for _, c := range []struct {
		name string
		src  string
		line int // 0: accepted
	}{
		{"rubi's own settings", "index {\n  hidden_roles = [\"vendored\", \"generated\"]\n}\nranker \"rank.bm25\" {\n  weight = 1\n}\n", 0},
		{"64 brackets", "x = " + deep("[", "]", 64) + "\n", 0},
		{"65 brackets", "x = " + deep("[", "]", 65) + "\n", 1},
		{"a deep list on line 3", "index {\n}\nx = " + deep("[", "]", 100000) + "\n", 3},
		{"mixed brackets", "x = " + deep("{a = [(", ")]}", 30) + "\n", 1},
		{"brackets in a string", "x = \"" + strings.Repeat("[", 5000) + "\"\n", 0},
		{"brackets in comments", "# " + strings.Repeat("[", 5000) + "\n// " + strings.Repeat("{", 5000) + "\n/* " + strings.Repeat("(", 5000) + " */\nx = 1\n", 0},
		{"a closing bracket in a string hides nothing", "x = " + strings.Repeat("[\"]\", ", 100) + "\n", 1},
		{"interpolations nest", "x = \"" + deep("${\"", "\"}", 40) + "\"\n", 1},
		{"an escaped quote keeps the string open", "x = \"\\\"" + strings.Repeat("[", 100) + "\"\n", 0},
		{"$${ is no interpolation", "x = \"" + strings.Repeat("$${", 100) + "\"\n", 0},
		{"a heredoc's text", "x = <<EOT\n" + strings.Repeat("[", 200) + "\nEOT\ny = 1\n", 0},
		{"a heredoc's interpolation", "x = <<-EOT\n  ${" + deep("[", "]", 100) + "}\n  EOT\n", 2},
		{"after a heredoc", "x = <<EOT\ntext\nEOT\ny = " + deep("[", "]", 80) + "\n", 4},
		{"unary operators", "x = " + strings.Repeat("!", 65) + "true\n", 1},
		{"unary operators apart", "x = " + strings.Repeat("- ", 300) + "1\n", 1},
		{"subtractions", "x = 1" + strings.Repeat(" - 1", 300) + "\n", 0},
		{"a negated comparison", "x = !(1 == -1)\n", 0},
		{"an unterminated string", "x = \"" + strings.Repeat("[", 100) + "\ny = " + deep("[", "]", 80) + "\n", 2},
	} {
		diags := CheckShape("rubi.hcl", []byte(c.src))
		switch {
		case c.line == 0 && diags.HasErrors():
			t.Errorf("%s: refused: %s", c.name, diags.Error())
		case c.line != 0 && !diags.HasErrors():
			t.Errorf("%s: accepted", c.name)
		case c.line != 0 && (diags[0].Subject == nil || diags[0].Subject.Start.Line != c.line || !strings.Contains(diags[0].Detail, "64")):
			t.Errorf("%s: want line %d and the limit, got %s", c.name, c.line, diags.Error())
		}
	}
}

func TestAHostileRubiHCLIsAClearError(t *testing.T) {
	for name, src := range map[string][]byte{
		"nested":    append([]byte("x = "), bytes.Repeat([]byte("["), 200<<10)...),
		"negated":   append([]byte("x = "), bytes.Repeat([]byte("!"), 300<<10)...),
		"too large": append([]byte("x = 1\n"), bytes.Repeat([]byte("# padding\n"), MaxFileSize/10+1)...),
	} {
		cfg, diags := Load(Options{Root: projectWith(t, src), UserConfig: "-"})
		if cfg != nil || !diags.HasErrors() {
			t.Errorf("%s: loaded", name)
			continue
		}
		if d := diags[0]; d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, FileName) {
			t.Errorf("%s: the error does not name rubi.hcl: %s", name, diags.Error())
		}
	}
}

// A cloned repository's rubi.hcl cannot point the personal vault (read
// and written as the user's own notes) at a folder of its choosing.
func TestTheProjectCannotChooseTheVault(t *testing.T) {
	root := projectWith(t, []byte("vault = \"~/.ssh\"\n"))
	user := filepath.Join(t.TempDir(), "config.hcl")
	os.WriteFile(user, []byte("vault = \"/tmp/my-vault\"\n"), 0o644)
	cfg, diags := Load(Options{Root: root, UserConfig: user})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Vault != "/tmp/my-vault" {
		t.Errorf("vault = %q, want the user's", cfg.Vault)
	}
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Subject == nil || diags[0].Subject.Start.Line != 1 || !strings.Contains(diags[0].Detail, "cannot choose the personal vault") {
		t.Errorf("diagnostics: %v", diags)
	}
}

// A project whose rubi.hcl is a copy of the defaults (rubi's own
// repository, a project that ran `rubi init`) names the vault the
// defaults name: it chooses nothing, and no command warns about it.
func TestACopyOfTheDefaultsIsNotWarnedAboutTheVault(t *testing.T) {
	cfg, diags := Load(Options{Root: projectWith(t, rubi.DefaultConfig), UserConfig: "-"})
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if cfg.Vault != "~/rubi-vault" {
		t.Errorf("vault = %q, want the defaults'", cfg.Vault)
	}
}
