package config_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"

	_ "github.com/rubi-dev/rubi/plugins/standard" // every built-in stage
)

// A stage opened from a cached configuration gets the settings a fresh
// load gives it, for every built-in, with rubi's own rubi.hcl and with a
// project's overrides; a schema other than the built-in's is decoded
// afresh, its errors included.
func TestCachedStagesHaveTheLoadedSettings(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	overrides := []byte("ranker \"rank.bm25\" {\n  k1 = 1.4\n  weight = 2\n}\nreranker \"rerank.floor\" {\n  type_floors = { note = 0.1, gotcha = 0 }\n}\n")
	for name, project := range map[string][]byte{"rubi's own": rubi.DefaultConfig, "overrides": overrides} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, config.FileName), project, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := config.Options{Root: root, UserConfig: "-", TrustFile: filepath.Join(t.TempDir(), "trust.json")}
			dir := t.TempDir()
			loaded, diags := config.Load(opts)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if _, err := config.LoadCached(opts, dir); err != nil {
				t.Fatal(err)
			}
			cached, err := config.LoadCached(opts, dir)
			if err != nil {
				t.Fatal(err)
			}
			builtins := 0
			for i, st := range cached.Stages {
				b, ok := core.LookupBuiltin(st.Name)
				if !ok || b.Kind != st.Kind {
					continue
				}
				builtins++
				schema := b.Factory().Info().Schema
				want, wd := loaded.Stages[i].Settings(schema)
				got, gd := st.Settings(schema)
				if !bytes.Equal(got, want) || gd.HasErrors() != wd.HasErrors() {
					t.Errorf("%s: settings %s (%v), loaded %s (%v)", st.Name, got, gd, want, wd)
				}
				// A schema that requires one more setting is not the
				// built-in's: its error comes back.
				other := append(append(core.Schema{}, schema...), core.Attribute{Name: "zz_required", Type: "string", Required: true})
				if _, d := st.Settings(other); !d.HasErrors() {
					t.Errorf("%s: a schema requiring zz_required was given the kept settings", st.Name)
				}
			}
			if builtins < 8 {
				t.Fatalf("%d built-in stages checked", builtins)
			}
		})
	}
}
