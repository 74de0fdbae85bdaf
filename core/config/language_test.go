package config

import (
	"os"
	"path/filepath"
	"testing"
)

// language names a language rubi speaks, as a tag or a locale name, and is
// kept as the catalog's code; a later layer overrides an earlier one; no
// layer leaves it empty (the locale chooses).
func TestLanguage(t *testing.T) {
	for in, want := range map[string]string{"ja": "ja", "pt-BR": "pt", "pt_PT.UTF-8": "pt", "fr-CA": "fr", "en-GB": "en", "JA": "ja"} {
		cfg, diags := Load(Options{Root: projectWith(t, []byte("language = \""+in+"\"\n")), UserConfig: "-"})
		if diags.HasErrors() {
			t.Errorf("language = %q: %v", in, diags)
			continue
		}
		if cfg.Language != want {
			t.Errorf("language = %q: Language %q, want %q", in, cfg.Language, want)
		}
	}

	user := filepath.Join(t.TempDir(), "config.hcl")
	os.WriteFile(user, []byte("language = \"fr\"\n"), 0o644)
	cfg, diags := Load(Options{Root: projectWith(t, []byte("language = \"ja\"\n")), UserConfig: user})
	if diags.HasErrors() || cfg.Language != "ja" {
		t.Errorf("the project's language over the user's: %q %v", cfg.Language, diags)
	}
	cfg, diags = Load(Options{Root: t.TempDir(), UserConfig: user})
	if diags.HasErrors() || cfg.Language != "fr" {
		t.Errorf("the user's language: %q %v", cfg.Language, diags)
	}
	cfg, diags = Load(Options{Root: t.TempDir(), UserConfig: "-"})
	if diags.HasErrors() || cfg.Language != "" {
		t.Errorf("no language set: %q %v", cfg.Language, diags)
	}
}
