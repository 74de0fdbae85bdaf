package config

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// hclSeeds are real configuration files: rubi's defaults, this
// repository's, the fixtures of the tests.
func hclSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{rubi.DefaultConfig, []byte("ranker \"rank.bm25\" {\n  b = 7\n}\n"), []byte("x = <<-EOT\n  ${[[1]]}\n  EOT\n")}
	files, _ := filepath.Glob("testdata/*/*.hcl")
	files = append(files, filepath.Join("..", "..", FileName))
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	return seeds
}

// fuzzSchema has a setting of each type a stage's schema can publish.
var fuzzSchema = core.Schema{
	{Name: "k1", Type: "number"}, {Name: "b", Type: "number"}, {Name: "mode", Type: "string"},
	{Name: "names", Type: "list(string)"}, {Name: "on", Type: "bool"}, {Name: "n", Type: "number"},
}

// A project's rubi.hcl is whatever the cloned repository holds: loading it
// never panics, and a configuration with an error is never returned. What
// a loaded one is asked afterwards (a stage's settings, its fingerprint,
// the diagnostics rendered with their source lines) does not panic
// either.
func FuzzLoad(f *testing.F) {
	for _, s := range hclSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(fuzzLoad)
}

func fuzzLoad(t *testing.T, src []byte) {
	defer rubitest.Bound(rubitest.FuzzBound, "FuzzLoad")()
	cfg, diags := Load(Options{Root: projectWith(t, src), UserConfig: "-"})
	if diags.HasErrors() != (cfg == nil) {
		t.Fatalf("errors %v, config returned %v: %s", diags.HasErrors(), cfg != nil, diags.Error())
	}
	var out bytes.Buffer
	files := map[string]*hcl.File{}
	if cfg != nil {
		files = cfg.Files
		for _, st := range cfg.Stages {
			_, sd := st.Settings(fuzzSchema)
			diags = append(diags, sd...)
			cfg.Fingerprint(st)
			for _, a := range st.Attrs {
				diags = append(diags, st.SettingDiagnostic(&core.SettingError{Setting: a.Name, Message: "rejected"}))
			}
		}
	}
	WriteDiagnostics(&out, files, diags)
}

// CheckShape scans any bytes without recursing: it never panics, and a
// file it accepts is one HCL's parser takes without exhausting the stack
// (a fatal error, which the fuzzing engine reports as a crash).
func FuzzCheckShape(f *testing.F) {
	for _, s := range hclSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzCheckShape")()
		diags := CheckShape(FileName, src)
		if len(diags) > 1 || len(diags) == 1 && (diags[0].Subject == nil || diags[0].Severity != hcl.DiagError) {
			t.Fatalf("diagnostics %v", diags)
		}
		if len(src) > MaxFileSize && !diags.HasErrors() {
			t.Fatal("a file past the size limit was accepted")
		}
		if !diags.HasErrors() {
			hclsyntax.ParseConfig(src, FileName, hcl.InitialPos)
		}
	})
}
