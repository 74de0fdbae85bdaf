package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/manifest/manifesttest"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// indexedShop is the shop fixture indexed, for the fuzz targets: its
// engine, its manifest's and symbols file's bytes.
type indexedShop struct {
	e                *Engine
	manifest, syms   []byte
	symsPath, mfPath string
}

func newIndexedShop(f *testing.F) *indexedShop {
	e := engine(f, shop(f))
	index(f, e)
	s := &indexedShop{e: e, mfPath: filepath.Join(e.folder.dir, manifest.FileName)}
	var err error
	if s.manifest, err = os.ReadFile(s.mfPath); err != nil {
		f.Fatal(err)
	}
	m, err := manifest.Load(e.folder.dir, true, false)
	if err != nil {
		f.Fatal(err)
	}
	s.symsPath = manifest.SymbolsFile(e.folder.dir, m.Generation)
	if s.syms, err = os.ReadFile(s.symsPath); err != nil {
		f.Fatal(err)
	}
	return s
}

// queries are questions whose answers read symbols, units, modules and
// notes of the shop.
var fuzzQueries = []answer.Query{
	{Text: "how is the configuration file loaded"},
	{Text: "finishing a purchase", Terms: []string{"checkout", "cart"}, Limit: 12},
	{Text: "Traceback: File \"report/export.py\", line 3, in export\ninternal/checkout/checkout.go:12 panics"},
	{Text: "coupon discount", PathPrefix: "internal/", Kinds: []string{"file", "module"}},
}

// ask runs the queries and renders the map: what a query reads of the
// index. Errors are answers; a panic is the failure.
func (s *indexedShop) ask(t *testing.T) {
	for _, q := range fuzzQueries {
		s.e.folder.set(nil) // read the index from disk again
		s.e.Retrieve(context.Background(), q)
	}
	s.e.folder.set(nil)
	s.e.MapText("")
	s.e.MapText("internal/checkout")
}

// The manifest is .rubi/index/manifest.bin, which a cloned repository may
// hold in any state. A manifest that decodes, checksums forged, is served
// to queries and the map without failing the process. (That decoding
// never panics or hangs, and what a decoded manifest offers, is
// core/manifest's FuzzManifest.)
//
// Each input has its checksums recomputed, so that the fuzzer's changes
// reach past them.
func FuzzManifestQueries(f *testing.F) {
	s := newIndexedShop(f)
	f.Add(s.manifest)
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzManifestQueries")()
		if err := os.WriteFile(s.mfPath, manifesttest.Reseal(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := manifest.Load(filepath.Dir(s.mfPath), false, false); err != nil {
			return
		}
		s.ask(t)
	})
}

// The symbols file (.rubi/index/symbols-*.jsonl) holds each file's
// symbols at the offset the manifest gives. Whatever it holds, reading a
// record's symbols never panics: it gives the symbols or says the file
// is damaged; and queries, which list a file's symbols and rank its
// functions by their lines, never fail the process on what they read.
func FuzzSymbols(f *testing.F) {
	s := newIndexedShop(f)
	f.Add(s.syms)
	m, err := manifest.Load(filepath.Dir(s.mfPath), true, false)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzSymbols")()
		if err := os.WriteFile(s.symsPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		syms, err := os.Open(s.symsPath)
		if err != nil {
			t.Fatal(err)
		}
		defer syms.Close()
		for _, rec := range m.Records() {
			rec.Loaded, rec.Syms = false, nil
			if err := manifest.NewSymbolReader(syms).Read(rec); err != nil && !errors.Is(err, manifest.ErrSymbolsDamaged) {
				t.Fatalf("reading the symbols of %s: %v, not a damaged file", rec.Path, err)
			}
		}
		s.ask(t)
	})
}

// The critical notes a session starts with are read from one small file
// of the index (.rubi/index/critical.json), which the repository may
// hold in any state: CriticalNodes gives notes, each with an id and a
// title, or an error.
func FuzzCriticalNodes(f *testing.F) {
	e := engine(f, shop(f))
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{
		{Type: knowledge.TypeDecision, Title: "Money is stored in cents", Importance: knowledge.ImportanceCritical,
			Body: "Every amount is an int of cents.", Files: []string{"internal/checkout/checkout.go"}},
		{Type: knowledge.TypeGotcha, Title: "Coupons apply once", Importance: knowledge.ImportanceCritical, Body: "After the total."},
	}); err != nil {
		f.Fatal(err)
	}
	index(f, e)
	path := filepath.Join(e.folder.dir, "critical.json")
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("[null]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzCriticalNodes")()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		crit, err := e.Notes().Critical()
		if err != nil {
			return
		}
		for i, n := range crit {
			if n == nil || n.ID == "" || n.Title == "" {
				t.Fatalf("critical note %d: %+v", i, n)
			}
		}
	})
}
