package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/manifest/manifesttest"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// exercise reads everything a decoded manifest offers, as index runs and
// queries do, with the symbols of syms (a symbols file).
func exercise(t *testing.T, m *Manifest, syms *os.File) {
	recs := m.Records()
	for p, rec := range recs {
		if rec.Path != p {
			t.Fatalf("record of %q filed under %q", rec.Path, p)
		}
		rec.DecodedImports()
		rec.ImportCount()
		// A manifest read for queries finds a record by binary search:
		// of records out of order it may miss some, but never fails.
		if got, ok := m.File(p); m.table == nil && (!ok || got.Path != p) {
			t.Fatalf("File(%q) = %v, %v", p, got, ok)
		}
		m.Has(p)
		m.RoleIn(p, []string{"vendored", "generated"})
		NewSymbolReader(syms).Read(rec)
	}
	m.File("no/such/file.go")
	m.EachPath(func(string) bool { return true })
	m.AllFacts()
	m.ModuleSummaries()
	m.ImportEdges()
	m.ImportPairs()
	dir := filepath.Dir(syms.Name())
	m.SymbolsIntact(dir)
	if m.Generation != "" && filepath.Dir(SymbolsFile(dir, m.Generation)) != dir {
		t.Fatalf("generation %q names a symbols file outside the index: %s", m.Generation, SymbolsFile(dir, m.Generation))
	}
}

// The manifest is .rubi/index/manifest.bin, which a cloned repository may
// hold in any state. Decoding it, whole (an index run) or its head alone
// (a query), never panics or hangs; a change the checksums catch is
// refused, and a manifest that decodes is usable: every record can be
// read back, with its symbols, and it encodes again into a manifest that
// decodes whole. (That a query and the map read it without failing the
// process is the pipeline's FuzzManifestQueries.)
//
// Each input is also tried with its checksums recomputed, so that the
// fuzzer's changes reach the decoding past them.
func FuzzManifest(f *testing.F) {
	data, err := os.ReadFile(filepath.Join(fixture, FileName))
	if err != nil {
		f.Fatal(err)
	}
	if !bytes.Equal(manifesttest.Reseal(data), data) {
		f.Fatal("manifesttest.Reseal does not follow the manifest's layout")
	}
	good, err := decode(data, true)
	if err != nil {
		f.Fatal(err)
	}
	symsPath := SymbolsFile(fixture, good.Generation)
	old, err := os.ReadFile(symsPath)
	if err != nil {
		f.Fatal(err)
	}
	syms, err := os.Open(symsPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { syms.Close() })
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzManifest")()
		for _, in := range [][]byte{data, manifesttest.Reseal(data)} {
			for _, whole := range []bool{true, false} {
				m, err := decode(in, whole)
				if err != nil {
					continue
				}
				if _, ok := codec.Unseal(in); whole && !ok {
					t.Fatal("a manifest whose checksum fails was decoded whole")
				}
				exercise(t, m, syms)
				if whole {
					// What an index run does with the previous manifest:
					// carry the unchanged records' symbols over.
					if err := m.rewriteSymbols(t.TempDir(), old); err != nil {
						t.Fatal(err)
					}
				}
				again, err := m.encode()
				if err != nil {
					t.Fatalf("a decoded manifest does not encode: %v", err)
				}
				if _, err := decode(again, true); err != nil {
					t.Fatalf("a decoded manifest encodes into one that does not decode: %v", err)
				}
			}
		}
	})
}
