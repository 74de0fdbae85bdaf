package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// rubi's own rubi.hcl as a project's, with and without a trust record.
func BenchmarkLoadPlain(b *testing.B) {
	root := b.TempDir()
	src, _ := os.ReadFile("../../rubi.hcl")
	os.WriteFile(filepath.Join(root, FileName), src, 0o644)
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.ReportAllocs()
	for b.Loop() {
		if _, d := Load(Options{Root: root}); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

// A trusted project whose rubi.hcl names a 20 MB plugin inside it.
func BenchmarkLoadTrustedPlugin(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	os.WriteFile(filepath.Join(root, "bin", "x"), make([]byte, 20<<20), 0o755)
	os.WriteFile(filepath.Join(root, FileName), []byte("ranker \"rank.x\" {\n  plugin = \"bin/x\"\n}\n"), 0o644)
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	time.Sleep(2100 * time.Millisecond) // past the racy window: the plugin gets a stamp
	if _, err := TrustProject(b.Context(), Options{Root: root}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		cfg, d := Load(Options{Root: root})
		if d.HasErrors() || !cfg.Trusted {
			b.Fatal(d)
		}
	}
}
