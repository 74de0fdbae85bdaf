package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/knowledge"
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
	s := &indexedShop{e: e, mfPath: filepath.Join(e.indexDir(), manifestFile)}
	var err error
	if s.manifest, err = os.ReadFile(s.mfPath); err != nil {
		f.Fatal(err)
	}
	m, err := decodeManifest(s.manifest, true)
	if err != nil {
		f.Fatal(err)
	}
	s.symsPath = symbolsFile(e.indexDir(), m.Generation)
	if s.syms, err = os.ReadFile(s.symsPath); err != nil {
		f.Fatal(err)
	}
	if !bytes.Equal(resealManifest(s.manifest), s.manifest) {
		f.Fatal("resealManifest does not follow the manifest's layout")
	}
	return s
}

// queries are questions whose answers read symbols, units, modules and
// notes of the shop.
var fuzzQueries = []Query{
	{Text: "how is the configuration file loaded"},
	{Text: "finishing a purchase", Terms: []string{"checkout", "cart"}, Limit: 12},
	{Text: "Traceback: File \"report/export.py\", line 3, in export\ninternal/checkout/checkout.go:12 panics"},
	{Text: "coupon discount", PathPrefix: "internal/", Kinds: []string{"file", "module"}},
}

// ask runs the queries and renders the map: what a query reads of the
// index. Errors are answers; a panic is the failure.
func (s *indexedShop) ask(t *testing.T) {
	for _, q := range fuzzQueries {
		s.e.setManifest(nil) // read the index from disk again
		s.e.Retrieve(context.Background(), q)
	}
	s.e.setManifest(nil)
	s.e.MapText("")
	s.e.MapText("internal/checkout")
}

// resealManifest returns data with both checksums of a manifest
// recomputed (the head's and the whole file's), so that a fuzzer's
// change reaches the decoding past them; data as is when its head does
// not even parse.
func resealManifest(data []byte) []byte {
	if len(data) < len(manifestMagic)+4 || string(data[:len(manifestMagic)]) != manifestMagic {
		return data
	}
	d := newMDecoder(data[len(manifestMagic):])
	d.Uvarint()
	d.Varint()
	d.Bytes()
	d.Uvarint()
	d.Bytes()
	for range 3 { // rankers, parsers, node stamps
		for range d.Count(2) {
			d.Bytes()
			d.Bytes()
		}
	}
	for range d.Count(1) {
		d.Bytes()
	}
	for range 3 { // the resolution
		for range d.Count(2) {
			d.Bytes()
			d.Uvarint()
		}
	}
	for range d.Count(3) {
		d.Bytes()
		d.Uvarint()
		for range d.Count(1) {
			d.Bytes()
		}
	}
	d.Raw(4 * d.Count(4))
	head := len(data) - len(d.B)
	if d.Err != nil || len(d.B) < 8 {
		return data
	}
	out := bytes.Clone(data)
	binary.LittleEndian.PutUint32(out[head:], codec.Sum(out[:head]))
	binary.LittleEndian.PutUint32(out[len(out)-4:], codec.Sum(out[:len(out)-4]))
	return out
}

// exercise reads everything a decoded manifest offers, as index runs and
// queries do, with the symbols of syms (a symbols file).
func exercise(t *testing.T, m *manifest, syms *os.File) {
	recs := m.records()
	for p, rec := range recs {
		if rec.Path != p {
			t.Fatalf("record of %q filed under %q", rec.Path, p)
		}
		rec.imports()
		rec.importCount()
		// A manifest read for queries finds a record by binary search:
		// of records out of order it may miss some, but never fails.
		if got, ok := m.file(p); m.table == nil && (!ok || got.Path != p) {
			t.Fatalf("file(%q) = %v, %v", p, got, ok)
		}
		(&symbolReader{f: syms}).read(rec)
	}
	m.file("no/such/file.go")
	m.eachPath(func(string) bool { return true })
	m.allFacts()
	m.moduleSummaries()
	m.importEdges()
	dir := filepath.Dir(syms.Name())
	m.symbolsIntact(dir)
	if m.Generation != "" && filepath.Dir(symbolsFile(dir, m.Generation)) != dir {
		t.Fatalf("generation %q names a symbols file outside the index: %s", m.Generation, symbolsFile(dir, m.Generation))
	}
}

// The manifest is .rubi/index/manifest.bin, which a cloned repository may
// hold in any state. Decoding it, whole (an index run) or its head alone
// (a query), never panics or hangs; a change the checksums catch is
// refused, and a manifest that decodes is usable: every record can be
// read back, it encodes again into a manifest that decodes whole, and a
// query and the map read it without failing the process.
//
// Each input is also tried with its checksums recomputed, so that the
// fuzzer's changes reach the decoding past them.
func FuzzManifest(f *testing.F) {
	s := newIndexedShop(f)
	f.Add(s.manifest)
	syms, err := os.Open(s.symsPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { syms.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzManifest")()
		resealed := resealManifest(data)
		for _, in := range [][]byte{data, resealed} {
			for _, whole := range []bool{true, false} {
				m, err := decodeManifest(in, whole)
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
					if err := m.rewriteSymbols(t.TempDir(), s.syms); err != nil {
						t.Fatal(err)
					}
				}
				again, err := m.encode()
				if err != nil {
					t.Fatalf("a decoded manifest does not encode: %v", err)
				}
				if _, err := decodeManifest(again, true); err != nil {
					t.Fatalf("a decoded manifest encodes into one that does not decode: %v", err)
				}
			}
		}
		if _, err := decodeManifest(resealed, false); err != nil {
			return
		}
		if err := os.WriteFile(s.mfPath, resealed, 0o644); err != nil {
			t.Fatal(err)
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
	m, err := decodeManifest(s.manifest, true)
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
		for _, rec := range m.records() {
			rec.loaded, rec.syms = false, nil
			if err := (&symbolReader{f: syms}).read(rec); err != nil && !errors.Is(err, errSymbolsDamaged) {
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
	path := filepath.Join(e.indexDir(), criticalFile)
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
		crit, err := e.CriticalNodes()
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
