package manifest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/manifest/manifesttest"
)

// fixture is the index of the pipeline's shop project (core/pipeline's
// testdata/shop) as an index run wrote it: a manifest and its symbols
// file. Tests read it and never write it.
const fixture = "testdata/index"

// fixtureData returns the bytes of the fixture's manifest.
func fixtureData(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixture, FileName))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The manifest reads back to the same bytes it was written as, whether
// its records were decoded at once or one by one, with the imports
// (decoded only on demand) and edges intact. The fixture was written by
// an earlier rubi of this format: the bytes are the format.
func TestManifestRoundTrip(t *testing.T) {
	data := fixtureData(t)
	for _, whole := range []bool{true, false} {
		m, err := decode(data, whole)
		if err != nil {
			t.Fatal(err)
		}
		again, err := m.encode()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("re-encoded manifest (whole %v) differs (%v)", whole, err)
		}
	}
	m, err := decode(data, false)
	if err != nil {
		t.Fatal(err)
	}
	imps := m.Records()["cmd/shop/main.go"].DecodedImports()
	var specs []string
	for _, im := range imps {
		specs = append(specs, im.Spec)
	}
	if !slices.Contains(specs, "example.com/shop/internal/config") || !slices.Contains(specs, "log") {
		t.Errorf("imports of main.go = %v", specs)
	}
	if edges, err := m.ImportEdges(); err != nil || len(edges) == 0 || !m.HasEdges() {
		t.Errorf("edges = %v, %v", edges, err)
	}
	for _, bad := range [][]byte{data[:len(data)/2], append([]byte("rubi-manifest\n\x09"), data[15:]...)} {
		if _, err := decode(bad, false); err == nil {
			t.Error("a damaged manifest decoded")
		}
	}
}

// headEnd is where the head of a manifest ends: the offset of its
// checksum.
func headEnd(data []byte) int {
	end := len(Magic) + 1
	for ; end < len(data); end++ {
		if codec.Sum(data[:end]) == binary.LittleEndian.Uint32(data[end:]) {
			break
		}
	}
	return end
}

// manifesttest.Reseal follows the layout: it mends both checksums of a
// manifest.
func TestReseal(t *testing.T) {
	data := fixtureData(t)
	bad := bytes.Clone(data)
	at := headEnd(data)
	bad[at] ^= 1
	bad[len(bad)-1] ^= 1
	if _, err := decode(bad, false); err == nil {
		t.Fatal("a damaged head checksum went unnoticed")
	}
	if !bytes.Equal(manifesttest.Reseal(bad), data) {
		t.Error("Reseal does not mend the checksums")
	}
}

// A manifest of another format, intact otherwise, is refused with its
// format named, so that the index is rebuilt rather than misread.
func TestOldManifestRefused(t *testing.T) {
	data := fixtureData(t)
	body := data[len(Magic) : len(data)-4]
	_, n := binary.Uvarint(body)
	old := binary.AppendUvarint([]byte(Magic), Version-1)
	old = codec.Seal(append(old, body[n:]...))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), old, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, whole := range []bool{true, false} {
		if _, err := Load(dir, whole, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has format %d", Version-1)) {
			t.Errorf("whole %v: %v", whole, err)
		}
	}
	if _, err := Load(t.TempDir(), false, false); err != ErrNoIndex {
		t.Errorf("no manifest: %v, want ErrNoIndex", err)
	}
}

// A byte changed inside a record's imports, which a load steps over
// without reading, is still caught by the checksum.
func TestManifestImportsDamageDetected(t *testing.T) {
	data := fixtureData(t)
	at := bytes.Index(data, []byte("example.com/shop/internal/config"))
	if at < 0 {
		t.Fatal("no import spec in the manifest")
	}
	bad := bytes.Clone(data)
	bad[at] ^= 0x20
	if _, err := decode(bad, true); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("damaged imports: %v", err)
	}
}

// A manifest read for queries decodes records one at a time; they are the
// records an index run decodes all at once, and each path has one record
// however it is asked for, by many queries at once.
func TestLazyManifestMatchesWhole(t *testing.T) {
	whole, err := Load(fixture, true, false)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := Load(fixture, false, false)
	if err != nil {
		t.Fatal(err)
	}
	paths := whole.SortedPaths()
	var wg sync.WaitGroup
	got := make([][]*Record, 4)
	for g := range got {
		wg.Go(func() {
			for _, p := range paths {
				r, ok := lazy.File(p)
				if !ok {
					t.Errorf("lazy manifest: %s not found", p)
				}
				if !lazy.Has(p) {
					t.Errorf("lazy manifest: has no %s", p)
				}
				got[g] = append(got[g], r)
			}
			if g == 0 {
				lazy.Records()
			}
		})
	}
	wg.Wait()
	all := lazy.Records()
	if len(all) != len(paths) {
		t.Fatalf("lazy manifest has %d records, want %d", len(all), len(paths))
	}
	for i, p := range paths {
		want := *whole.Records()[p]
		r := all[p]
		for g := range got {
			if got[g][i] != r {
				t.Fatalf("%s: two records for one path", p)
			}
		}
		w, l := want, *r
		if !reflect.DeepEqual(w.Facts(), l.Facts()) {
			t.Errorf("%s: imports differ", p)
		}
		w.importsRaw, l.importsRaw = nil, nil
		if !reflect.DeepEqual(w, l) {
			t.Errorf("%s: lazy record %+v, whole %+v", p, l, w)
		}
		for _, roles := range [][]string{{w.Role}, {"vendored", w.Role}, {"nothing"}, nil} {
			if a, b := whole.RoleIn(p, roles), lazy.RoleIn(p, roles); a != b || a != (w.Role != "" && slices.Contains(roles, w.Role)) {
				t.Errorf("%s: role %q in %q: whole %v, lazy %v", p, w.Role, roles, a, b)
			}
		}
	}
	var each []string
	lazy.EachPath(func(p string) bool { each = append(each, p); return true })
	if !slices.Equal(each, paths) {
		t.Errorf("EachPath gave %q, want %q", each, paths)
	}
	for _, p := range []string{"", "a", "zzz", paths[0] + "x", "internal"} {
		if _, ok := lazy.File(p); ok || lazy.Has(p) || lazy.RoleIn(p, []string{"code"}) {
			t.Errorf("lazy manifest found %q", p)
		}
	}
}

// Damage in the head is caught by a query's load too; damage in a record,
// which a query does not check, never makes it fail or panic: the record
// decodes, or is left out. An index run's load catches every byte.
func TestLazyManifestDamage(t *testing.T) {
	data := fixtureData(t)
	good, err := decode(data, true)
	if err != nil {
		t.Fatal(err)
	}
	paths := good.SortedPaths()
	headEnd := headEnd(data)
	for at := len(Magic) + 1; at < len(data)-4; at++ {
		bad := bytes.Clone(data)
		bad[at] ^= 0x41
		if _, err := decode(bad, true); err == nil {
			t.Fatalf("byte %d damaged: the whole load did not notice", at)
		}
		m, err := decode(bad, false)
		if at < headEnd+4 {
			if err == nil {
				t.Fatalf("byte %d of the head damaged: the query load did not notice", at)
			}
			continue
		}
		if err != nil {
			continue // a length or the end: the sections do not add up
		}
		for _, p := range paths {
			m.File(p)
		}
		m.Records()
	}
}

// A module's summary names its six most central files; the summary read
// back from a manifest is the one computed from its records.
func TestModuleSummary(t *testing.T) {
	m := New()
	files := m.Records()
	for i := range 8 {
		p := fmt.Sprintf("pkg/f%d.go", i)
		files[p] = &Record{Path: p, Module: "pkg", Rank: float64(i % 3)}
	}
	files["lib/a.go"] = &Record{Path: "lib/a.go", Module: "lib"}
	sums := summarizeModules(files)
	want := map[string]ModuleSummary{
		"pkg": {Files: 8, Central: []string{"f2.go", "f5.go", "f1.go", "f4.go", "f7.go", "f0.go"}},
		"lib": {Files: 1, Central: []string{"a.go"}},
	}
	if !reflect.DeepEqual(sums, want) {
		t.Errorf("got %v, want %v", sums, want)
	}
	data, err := m.encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(data, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.ModuleSummaries(), sums) {
		t.Errorf("read back %v, want %v", back.ModuleSummaries(), sums)
	}
	if !reflect.DeepEqual(m.ModuleSummaries(), sums) {
		t.Errorf("a new manifest's summaries: %v, want %v", m.ModuleSummaries(), sums)
	}
}

// synthetic returns a New manifest of n files, each with imports and two
// symbols, parsed in this run, and import edges between them.
func synthetic(n int) *Manifest {
	m := New()
	var edges []core.Edge
	name := func(i int) string { return fmt.Sprintf("pkg%02d/sub%d/file%05d.go", i%40, i%7, i) }
	for i := range n {
		p := name(i)
		rec := &Record{
			Path: p, Language: "go", Size: int64(1000 + i), ModTime: int64(i) * 1e9,
			Package: fmt.Sprintf("pkg%02d", i%40), Module: fmt.Sprintf("pkg%02d", i%40),
			Doc: "Package does one thing well.", Role: "code", Rank: float64(i%97) / 97, Importers: i % 13,
			Imports: []core.Import{
				{Spec: fmt.Sprintf("example.com/x/pkg%02d", (i+1)%40), Kind: "import", Line: 3},
				{Spec: "fmt", Kind: "import", Line: 4, Names: []string{"Sprintf"}},
			},
			Syms: []core.Symbol{
				{Name: fmt.Sprintf("F%d", i), Kind: core.SymbolFunction, Line: 10, EndLine: 20, Exported: true, Signature: "func F() error"},
				{Name: fmt.Sprintf("t%d", i), Kind: core.SymbolType, Line: 22, EndLine: 30},
			},
			Loaded: true, Fresh: true,
		}
		rec.Symbols = len(rec.Syms)
		m.Records()[p] = rec
		if i > 0 {
			edges = append(edges, core.Edge{From: core.DocID(core.DocFile, p), To: core.DocID(core.DocFile, name(i-1)), Kind: core.EdgeImports, Weight: 1})
		}
	}
	m.SetEdges(edges)
	return m
}

// What Save writes, Load reads back: the records, their imports and
// edges, and each record's symbols through a SymbolReader. A save that
// changes one file appends its symbols to the generation's file, which
// the previous manifest still reads.
func TestSaveLoad(t *testing.T) {
	dir := t.TempDir()
	m := synthetic(50)
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, whole := range []bool{true, false} {
		back, err := Load(dir, whole, false)
		if err != nil {
			t.Fatal(err)
		}
		if !back.SymbolsIntact(dir) || back.Generation != m.Generation || back.Version != Version {
			t.Fatalf("whole %v: generation %q, want %q", whole, back.Generation, m.Generation)
		}
		if !reflect.DeepEqual(back.AllFacts(), m.AllFacts()) {
			t.Errorf("whole %v: facts differ", whole)
		}
		edges, err := back.ImportEdges()
		if err != nil || !reflect.DeepEqual(edges, m.edges) {
			t.Errorf("whole %v: edges %v, %v", whole, len(edges), err)
		}
		f, err := back.OpenSymbols(dir)
		if err != nil {
			t.Fatal(err)
		}
		r := NewSymbolReader(f)
		for _, p := range back.SortedPaths() {
			rec, _ := back.File(p)
			if err := r.Read(rec); err != nil || !rec.Loaded || !reflect.DeepEqual(rec.Syms, m.Records()[p].Syms) {
				t.Fatalf("whole %v: symbols of %s: %v, %v", whole, p, rec.Syms, err)
			}
		}
		r.Close()
	}

	prev, err := Load(dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	next := New()
	for p, rec := range prev.Records() {
		next.Records()[p] = rec
	}
	changed := *prev.Records()["pkg01/sub1/file00001.go"]
	changed.Syms, changed.Symbols, changed.Loaded, changed.Fresh = []core.Symbol{{Name: "Refund", Kind: core.SymbolFunction, Line: 3}}, 1, true, true
	next.Records()[changed.Path] = &changed
	next.CarryEdges(prev)
	if err := next.Save(dir, prev); err != nil {
		t.Fatal(err)
	}
	if next.Generation != prev.Generation {
		t.Errorf("a one-file change started generation %s (was %s)", next.Generation, prev.Generation)
	}
	after, err := Load(dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if edges, err := after.ImportEdges(); err != nil || !reflect.DeepEqual(edges, m.edges) {
		t.Errorf("carried edges: %d, %v", len(edges), err)
	}
	f, err := after.OpenSymbols(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, mf := range []*Manifest{after, prev} {
		rec := *mf.Records()[changed.Path]
		rec.Loaded, rec.Syms = false, nil
		if err := NewSymbolReader(f).Read(&rec); err != nil {
			t.Fatal(err)
		}
		if got := rec.Syms[0].Name; (got == "Refund") != (mf == after) {
			t.Errorf("the symbols read back are %s's", got)
		}
	}
}

// A symbols line that is not the record's is damaged, and says the
// generation may be gone; one out of the file's bounds is damaged.
// An index run writes its symbols as soon as it parsed the files and
// lets them go (WriteSymbols, ReleaseSymbols): the records read them
// back from the new generation, and the manifest Save writes then, and
// its symbols file, are those Save alone writes.
func TestWriteSymbolsAhead(t *testing.T) {
	alone, ahead := t.TempDir(), t.TempDir()
	want := synthetic(60)
	if err := want.Save(alone, nil); err != nil {
		t.Fatal(err)
	}
	m := synthetic(60)
	if err := m.WriteSymbols(ahead, nil); err != nil {
		t.Fatal(err)
	}
	if !m.SymbolsWritten() {
		t.Fatal("SymbolsWritten is false after WriteSymbols")
	}
	m.ReleaseSymbols()
	f, err := m.OpenSymbols(ahead)
	if err != nil {
		t.Fatal(err)
	}
	r := NewSymbolReader(f)
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		if rec.Loaded || rec.Syms != nil {
			t.Fatalf("%s still holds its symbols after ReleaseSymbols", p)
		}
		if err := r.Read(rec); err != nil || !reflect.DeepEqual(rec.Syms, want.Records()[p].Syms) {
			t.Fatalf("symbols of %s read back: %v, %v; want %v", p, rec.Syms, err, want.Records()[p].Syms)
		}
	}
	r.Close()
	m.ReleaseSymbols()
	if err := m.Save(ahead, nil); err != nil {
		t.Fatal(err)
	}
	a, errA := os.ReadFile(SymbolsFile(alone, want.Generation))
	b, errB := os.ReadFile(SymbolsFile(ahead, m.Generation))
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("the symbols file written ahead differs from Save's (%v, %v)", errA, errB)
	}
	back, err := Load(ahead, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if !back.SymbolsIntact(ahead) || !reflect.DeepEqual(back.AllFacts(), want.AllFacts()) {
		t.Error("the manifest saved after WriteSymbols does not read back as Save's alone")
	}
	if files, _ := filepath.Glob(filepath.Join(ahead, "symbols-*.jsonl")); len(files) != 1 {
		t.Errorf("symbols files after Save: %v, want the one generation", files)
	}
}

func TestSymbolsDamaged(t *testing.T) {
	m, err := Load(fixture, true, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.OpenSymbols(fixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := *m.Records()["cmd/shop/main.go"]
	other := *m.Records()["internal/checkout/checkout.go"]
	rec.SymOff, rec.SymLen = other.SymOff, other.SymLen
	if err := NewSymbolReader(f).Read(&rec); !errors.Is(err, ErrSymbolsDamaged) || !IsGenerationGone(err) {
		t.Errorf("another file's line: %v", err)
	}
	rec.SymOff, rec.SymLen = 1<<40, 10
	if err := NewSymbolReader(f).Read(&rec); !errors.Is(err, ErrSymbolsDamaged) || IsGenerationGone(err) {
		t.Errorf("a line past the end: %v", err)
	}
	if _, err := (*Manifest)(nil).OpenSymbols(fixture); !IsGenerationGone(err) {
		t.Errorf("no manifest: %v", err)
	}
}

// A manifest an index run loads whole keeps its records, strings and
// imports whatever becomes of the file after: they are its own, not the
// file's (Load), even when the file is overwritten in place.
func TestLoadWholeOutlivesFile(t *testing.T) {
	dir := t.TempDir()
	m := synthetic(30)
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	want := m.AllFacts()
	path := filepath.Join(dir, FileName)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte{'#'}, int(info.Size())), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := back.AllFacts(); !reflect.DeepEqual(got, want) {
		t.Errorf("the records changed with the file they were read from")
	}
	for p, rec := range back.Records() {
		if rec.Path != p || rec.Doc != "Package does one thing well." {
			t.Fatalf("record %q reads path %q, doc %q", p, rec.Path, rec.Doc)
		}
	}
}

// SortedPaths is the paths in order however the records were filled:
// paths handed in order are taken as they are, and paths out of order,
// or too few, are not taken at all.
func TestInOrder(t *testing.T) {
	m := synthetic(200)
	want := slices.Sorted(maps.Keys(m.Records()))
	for name, paths := range map[string][]string{
		"in order":     slices.Clone(want),
		"out of order": append(slices.Clone(want[1:]), want[0]),
		"too few":      slices.Clone(want[1:]),
		"repeated":     append(slices.Clone(want[:len(want)-1]), want[len(want)-2]),
	} {
		m := synthetic(200)
		m.InOrder(paths)
		if got := m.SortedPaths(); !slices.Equal(got, want) {
			t.Errorf("%s: SortedPaths gives %d paths, first %q; want %d in order", name, len(got), got[:min(3, len(got))], len(want))
		}
	}
}

// A manifest that takes over the records of the one it replaces, as a
// run that changed nothing does, gives the module summaries it would
// have computed from them.
func TestCarrySummaries(t *testing.T) {
	dir := t.TempDir()
	if err := synthetic(120).Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	prev, err := Load(dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	next := New()
	for p, rec := range prev.Records() {
		next.Records()[p] = rec
	}
	next.CarrySummaries(prev)
	want := summarizeModules(prev.Records())
	if got := next.ModuleSummaries(); !reflect.DeepEqual(got, want) || len(got) != 40 {
		t.Errorf("carried %d summaries, want the %d computed", len(got), len(want))
	}
}

// A manifest given its records in path order (an index run's, as the
// walk yields them) answers as one filled by path: every record found,
// the paths in order, a replaced record seen the same whether the map
// was asked for before or after; records out of order are taken too.
// A manifest read whole answers the same way, and says so of the records
// it holds in order.
func TestSetRecords(t *testing.T) {
	src := synthetic(300)
	paths := src.SortedPaths()
	recs := make([]*Record, len(paths))
	for i, p := range paths {
		recs[i] = src.Records()[p]
	}
	shuffled := slices.Clone(recs)
	shuffled[0], shuffled[len(shuffled)-1] = shuffled[len(shuffled)-1], shuffled[0]
	dir := t.TempDir()
	if err := src.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	var kept *Manifest // the manifest the case took its records from
	for _, c := range []struct {
		name  string
		make  func() *Manifest
		early bool // ask for the map before the replacement
	}{
		{"in order", func() *Manifest { m := New(); m.SetRecords(slices.Clone(recs), nil); return m }, false},
		{"in order, map first", func() *Manifest { m := New(); m.SetRecords(slices.Clone(recs), nil); return m }, true},
		{"out of order", func() *Manifest { m := New(); m.SetRecords(slices.Clone(shuffled), nil); return m }, false},
		{"read whole", func() *Manifest {
			m, err := Load(dir, true, false)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}, true},
		{"the last run's", func() *Manifest {
			prev, err := Load(dir, true, false)
			if err != nil {
				t.Fatal(err)
			}
			m := New()
			m.SetRecords(slices.Clone(prev.ReadInOrder()), prev)
			kept = prev
			return m
		}, false},
	} {
		kept = nil
		m := c.make()
		if got := m.SortedPaths(); !slices.Equal(got, paths) {
			t.Fatalf("%s: SortedPaths gives %d paths, want the %d in order", c.name, len(got), len(paths))
		}
		if m.Len() != len(paths) {
			t.Errorf("%s: Len %d, want %d", c.name, m.Len(), len(paths))
		}
		if c.early && len(m.Records()) != len(paths) {
			t.Fatalf("%s: the map holds %d records", c.name, len(m.Records()))
		}
		p := paths[len(paths)/2]
		old, _ := m.File(p)
		moved := *old
		moved.Module = "elsewhere"
		m.Replace(&moved)
		for _, q := range paths {
			rec, ok := m.File(q)
			if !ok || rec.Path != q || m.Records()[q] != rec || !m.Has(q) {
				t.Fatalf("%s: %q found %v (%v), the map has %v", c.name, q, ok, rec, m.Records()[q])
			}
		}
		if rec, _ := m.File(p); rec.Module != "elsewhere" {
			t.Errorf("%s: the replaced record reads module %q", c.name, rec.Module)
		}
		if kept != nil {
			// The manifest it took its records from keeps its own.
			if rec, _ := kept.File(p); rec.Module == "elsewhere" || kept.Records()[p] != rec {
				t.Errorf("%s: the last run's manifest reads module %q", c.name, rec.Module)
			}
		}
		if !m.RoleIn(p, []string{"code"}) || m.Has("pkg00/none.go") || m.RoleIn("pkg00/none.go", []string{"code"}) {
			t.Errorf("%s: RoleIn or Has answer for the wrong paths", c.name)
		}
		var inOrder []string
		for rec := range m.RecordsInOrder() {
			inOrder = append(inOrder, rec.Path)
		}
		if !slices.Equal(inOrder, paths) {
			t.Errorf("%s: RecordsInOrder gives %d paths, want the %d in order", c.name, len(inOrder), len(paths))
		}
		if (m.ReadInOrder() != nil) == (c.name == "out of order") {
			t.Errorf("%s: ReadInOrder gives %d records", c.name, len(m.ReadInOrder()))
		}
	}
}

// A query reads the head of the very manifest an index run saved
// without its checksum (store.Unchanged); a byte of the head changed in
// place since, its size and modification time as they were, is caught
// by the checksum again.
func TestAManifestChangedInPlaceIsCheckedAgain(t *testing.T) {
	dir := t.TempDir()
	m := synthetic(50)
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	if _, err := Load(dir, false, true); err != nil {
		t.Fatalf("the manifest just saved: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The generation's time, in the head, where no check of its shape
	// looks: a digit of it changed to another.
	at := bytes.Index(data, []byte(m.Generation)) + len(m.Generation) - 1
	fi, _ := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := data[at]
	if c == '0' {
		c = '1'
	} else {
		c = '0'
	}
	if _, err := f.WriteAt([]byte{c}, int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, false, true); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("a manifest changed in place: %v, want a checksum mismatch", err)
	}
}

// TestCompactedAsSaved keeps a run's imports and edges encoded
// (CompactImports, CompactEdges) and reads the same facts and edges
// back, and writes the same bytes, as from the manifest that kept them
// whole.
func TestCompactedAsSaved(t *testing.T) {
	whole, compact := synthetic(50), synthetic(50)
	compact.CompactImports()
	if err := compact.CompactEdges(); err != nil {
		t.Fatal(err)
	}
	for _, rec := range compact.Records() {
		if rec.Imports != nil || rec.ImportCount() != 2 {
			t.Fatalf("%s: imports %v kept whole, %d counted", rec.Path, rec.Imports, rec.ImportCount())
		}
	}
	if compact.edges != nil {
		t.Fatal("the edges were kept whole")
	}
	if !reflect.DeepEqual(compact.AllFacts(), whole.AllFacts()) {
		t.Error("the facts differ")
	}
	edges, err := compact.ImportEdges()
	if err != nil || !reflect.DeepEqual(edges, whole.edges) {
		t.Errorf("edges: %d of %d, %v", len(edges), len(whole.edges), err)
	}
	// The same edges by the places of their ends among the sorted paths.
	from, to, err := compact.ImportPairs()
	paths := compact.SortedPaths()
	if err != nil || len(from) != len(whole.edges) || len(to) != len(from) {
		t.Fatalf("pairs: %d and %d of %d, %v", len(from), len(to), len(whole.edges), err)
	}
	for k, e := range whole.edges {
		if got := [2]string{core.DocID(core.DocFile, paths[from[k]]), core.DocID(core.DocFile, paths[to[k]])}; got != [2]string{e.From, e.To} {
			t.Errorf("pair %d: %v, want %s -> %s", k, got, e.From, e.To)
		}
	}
	a, err := whole.encode()
	if err != nil {
		t.Fatal(err)
	}
	b, err := compact.encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("compacted, the manifest encodes to %d bytes unlike %d", len(b), len(a))
	}
}

// A full run writes its symbols file as its files are parsed
// (SymbolsWriter), in path order, letting each file's symbols go: the
// file, and the manifest Save writes then, are those Save alone writes.
// A record out of order, or missing at the end, is an error.
func TestSymbolsWrittenAsParsed(t *testing.T) {
	alone, asParsed := t.TempDir(), t.TempDir()
	want := synthetic(60)
	if err := want.Save(alone, nil); err != nil {
		t.Fatal(err)
	}
	// What a run that crashed while writing left.
	stale := filepath.Join(asParsed, ".symbols-18eed0.jsonl.tmp-123")
	if err := os.WriteFile(stale, []byte("{\"path\":"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := synthetic(60)
	m.Records()["pkg00/sub0/empty.go"] = &Record{Path: "pkg00/sub0/empty.go", Language: "go", Loaded: true, Fresh: true}
	want.Records()["pkg00/sub0/empty.go"] = &Record{Path: "pkg00/sub0/empty.go", Language: "go", Loaded: true, Fresh: true}
	sw, err := NewSymbolsWriter(asParsed)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range m.SortedPaths() {
		if err := sw.Add(m.Records()[p]); err != nil {
			t.Fatal(err)
		}
		if rec := m.Records()[p]; rec.Syms != nil && rec.SymLen > 0 {
			t.Fatalf("%s still holds its symbols once written", p)
		}
	}
	if err := sw.Finish(m); err != nil {
		t.Fatal(err)
	}
	if !m.SymbolsWritten() {
		t.Fatal("SymbolsWritten is false after Finish")
	}
	if _, err := os.Lstat(stale); err == nil {
		t.Error("a half-written symbols file a crash left is still there")
	}
	if err := want.Save(alone, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(asParsed, nil); err != nil {
		t.Fatal(err)
	}
	a, errA := os.ReadFile(SymbolsFile(alone, want.Generation))
	b, errB := os.ReadFile(SymbolsFile(asParsed, m.Generation))
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("the symbols file written as parsed differs from Save's (%v, %v)", errA, errB)
	}
	back, err := Load(asParsed, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if !back.SymbolsIntact(asParsed) || !reflect.DeepEqual(back.AllFacts(), want.AllFacts()) {
		t.Error("the manifest saved after the symbols were written as parsed differs")
	}

	m = synthetic(3)
	sw, err = NewSymbolsWriter(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	paths := m.SortedPaths()
	if err := sw.Add(m.Records()[paths[1]]); err != nil {
		t.Fatal(err)
	}
	if err := sw.Add(m.Records()[paths[0]]); err == nil {
		t.Error("a record out of order: no error")
	}
	if err := sw.Finish(m); err == nil {
		t.Error("Finish with records not written: no error")
	}
}

// TestSpilledAsSaved spills a run's imports and edges (Spill) and writes
// the manifest a run keeping them in memory writes, and reads the same
// edges meanwhile; read back (Unspill), every record has its imports
// again, and the manifest its edges. Reading a record's imports while
// they are spilled is a bug of the caller's, and says whose imports
// were read.
func TestSpilledAsSaved(t *testing.T) {
	kept, spilled := synthetic(50), synthetic(50)
	for _, m := range []*Manifest{kept, spilled} {
		m.CompactImports()
		if err := m.CompactEdges(); err != nil {
			t.Fatal(err)
		}
	}
	wantEdges, err := kept.ImportEdges()
	if err != nil || len(wantEdges) == 0 {
		t.Fatalf("%d edges, %v", len(wantEdges), err)
	}
	// A record without imports is left as it is, and counts none.
	bare := spilled.Records()[spilled.SortedPaths()[7]]
	bare.importsRaw, bare.importsN = nil, 0
	keptBare := kept.Records()[kept.SortedPaths()[7]]
	keptBare.importsRaw, keptBare.importsN = nil, 0
	f, err := os.CreateTemp(t.TempDir(), "spill")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := spilled.Spill(f); err != nil {
		t.Fatal(err)
	}
	if err := spilled.Spill(f); err == nil {
		t.Error("imports spilled twice")
	}
	if spilled.edgesRaw != nil {
		t.Error("the edges are still held")
	}
	if edges, err := spilled.ImportEdges(); err != nil || !reflect.DeepEqual(edges, wantEdges) {
		t.Errorf("spilled, %d edges of %d, %v", len(edges), len(wantEdges), err)
	}
	from, _, err := spilled.ImportPairs()
	if err != nil || len(from) != len(wantEdges) {
		t.Errorf("spilled, %d pairs of %d, %v", len(from), len(wantEdges), err)
	}
	for _, rec := range spilled.Records() {
		if rec.importsRaw != nil {
			t.Fatalf("%s: imports still held", rec.Path)
		}
		if want := kept.Records()[rec.Path].ImportCount(); rec.ImportCount() != want {
			t.Errorf("%s: %d imports counted, want %d", rec.Path, rec.ImportCount(), want)
		}
	}
	func() {
		defer func() {
			if e := recover(); e == nil || !strings.Contains(fmt.Sprint(e), spilled.SortedPaths()[3]) {
				t.Errorf("a spilled record's imports read: %v", e)
			}
		}()
		spilled.Records()[spilled.SortedPaths()[3]].DecodedImports()
	}()
	want, err := kept.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := spilled.encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("spilled, the manifest encodes to %d bytes unlike %d", len(got), len(want))
	}
	if err := spilled.Unspill(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(spilled.AllFacts(), kept.AllFacts()) {
		t.Error("read back, the facts differ")
	}
	if edges, err := spilled.ImportEdges(); err != nil || !reflect.DeepEqual(edges, wantEdges) {
		t.Errorf("read back, %d edges of %d, %v", len(edges), len(wantEdges), err)
	}
	if again, err := spilled.encode(); err != nil || !bytes.Equal(again, want) {
		t.Errorf("read back, the manifest encodes to %d bytes unlike %d (%v)", len(again), len(want), err)
	}
	if err := spilled.Unspill(); err != nil {
		t.Errorf("nothing spilled: %v", err)
	}
	// A tree whose files import nothing of one another has imports and
	// no edges to spill.
	noEdges, want2 := synthetic(20), synthetic(20)
	for _, m := range []*Manifest{noEdges, want2} {
		m.CompactImports()
		m.edges = nil
	}
	f2, err := os.CreateTemp(t.TempDir(), "spill")
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	if err := noEdges.Spill(f2); err != nil {
		t.Fatal(err)
	}
	for _, rec := range noEdges.Records() {
		if rec.importsRaw != nil {
			t.Fatalf("without edges, %s: imports still held", rec.Path)
		}
	}
	if err := noEdges.Unspill(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(noEdges.AllFacts(), want2.AllFacts()) {
		t.Error("without edges, the facts read back differ")
	}
}
