package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// A manifest of an older format, intact otherwise, is reported and
// rebuilt rather than misread.
func TestOldManifestIsRebuilt(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	path := filepath.Join(e.indexDir(), manifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := data[len(manifestMagic) : len(data)-4]
	_, n := binary.Uvarint(body)
	old := binary.AppendUvarint([]byte(manifestMagic), manifestVersion-1)
	old = codec.Seal(append(old, body[n:]...))
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	st := index(t, engine(t, root))
	if st.Parsed != 14 || len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], fmt.Sprintf("has format %d", manifestVersion-1)) {
		t.Errorf("parsed %d, warnings %q", st.Parsed, st.Warnings)
	}
}

// A byte changed inside a record's imports, which a load steps over
// without reading, is still caught by the checksum.
func TestManifestImportsDamageDetected(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	data, err := os.ReadFile(filepath.Join(e.indexDir(), manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte("example.com/shop/internal/config"))
	if at < 0 {
		t.Fatal("no import spec in the manifest")
	}
	bad := bytes.Clone(data)
	bad[at] ^= 0x20
	if _, err := decodeManifest(bad, true); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("damaged imports: %v", err)
	}
}

// In a one-shot process the records slice the mapped manifest: an update
// that carries them into the next manifest writes the same imports and
// edges as one that copied them.
func TestOneShotManifestCarriesRecords(t *testing.T) {
	defer store.SetOneShot(false)
	var want []core.FileFacts
	var wantEdges []core.Edge
	for _, oneShot := range []bool{false, true} {
		store.SetOneShot(oneShot)
		root := shop(t)
		e := engine(t, root)
		index(t, e)
		if _, err := e.Retrieve(context.Background(), Query{Text: "coupon"}); err != nil {
			t.Fatal(err)
		}
		edit(t, root, "README.md", "", "\nmore words\n")
		if st := index(t, e); st.Parsed != 1 {
			t.Fatalf("one-shot %v: parsed %d", oneShot, st.Parsed)
		}
		m, err := loadManifest(e.indexDir(), true)
		if err != nil {
			t.Fatal(err)
		}
		edges, err := m.importEdges()
		if err != nil || len(edges) == 0 {
			t.Fatalf("one-shot %v: edges %v, %v", oneShot, edges, err)
		}
		if want == nil {
			want, wantEdges = m.allFacts(), edges
			continue
		}
		if got := m.allFacts(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(edges, wantEdges) {
			t.Error("the one-shot update wrote other imports or edges")
		}
	}
}

// A manifest read for queries decodes records one at a time; they are the
// records an index run decodes all at once, and each path has one record
// however it is asked for, by many queries at once.
func TestLazyManifestMatchesWhole(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	whole, err := loadManifest(e.indexDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := loadManifest(e.indexDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	paths := whole.sortedPaths()
	var wg sync.WaitGroup
	got := make([][]*fileRecord, 4)
	for g := range got {
		wg.Go(func() {
			for _, p := range paths {
				r, ok := lazy.file(p)
				if !ok {
					t.Errorf("lazy manifest: %s not found", p)
				}
				got[g] = append(got[g], r)
			}
			if g == 0 {
				lazy.records()
			}
		})
	}
	wg.Wait()
	all := lazy.records()
	if len(all) != len(paths) {
		t.Fatalf("lazy manifest has %d records, want %d", len(all), len(paths))
	}
	for i, p := range paths {
		want := *whole.records()[p]
		r := all[p]
		for g := range got {
			if got[g][i] != r {
				t.Fatalf("%s: two records for one path", p)
			}
		}
		w, l := want, *r
		if !reflect.DeepEqual(w.facts(), l.facts()) {
			t.Errorf("%s: imports differ", p)
		}
		w.importsRaw, l.importsRaw = nil, nil
		if !reflect.DeepEqual(w, l) {
			t.Errorf("%s: lazy record %+v, whole %+v", p, l, w)
		}
	}
	for _, p := range []string{"", "a", "zzz", paths[0] + "x", "internal"} {
		if _, ok := lazy.file(p); ok {
			t.Errorf("lazy manifest found %q", p)
		}
	}
}

// Damage in the head is caught by a query's load too; damage in a record,
// which a query does not check, never makes it fail or panic: the record
// decodes, or is left out. An index run's load catches every byte.
func TestLazyManifestDamage(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	data, err := os.ReadFile(filepath.Join(e.indexDir(), manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	good, err := decodeManifest(data, true)
	if err != nil {
		t.Fatal(err)
	}
	paths := good.sortedPaths()
	headEnd := len(manifestMagic) + 1
	for ; headEnd < len(data); headEnd++ {
		if codec.Sum(data[:headEnd]) == binary.LittleEndian.Uint32(data[headEnd:]) {
			break
		}
	}
	for at := len(manifestMagic) + 1; at < len(data)-4; at++ {
		bad := bytes.Clone(data)
		bad[at] ^= 0x41
		if _, err := decodeManifest(bad, true); err == nil {
			t.Fatalf("byte %d damaged: the whole load did not notice", at)
		}
		m, err := decodeManifest(bad, false)
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
			m.file(p)
		}
		m.records()
	}
}

// A module's summary names its six most central files, then "…"; the
// summary read back from a manifest is the one computed from its records.
func TestModuleSummary(t *testing.T) {
	files := map[string]*fileRecord{}
	for i := range 8 {
		p := fmt.Sprintf("pkg/f%d.go", i)
		files[p] = &fileRecord{Path: p, Module: "pkg", Rank: float64(i % 3)}
	}
	files["lib/a.go"] = &fileRecord{Path: "lib/a.go", Module: "lib"}
	sums := summarizeModules(files)
	if got, want := renderModule("pkg", sums["pkg"]), "module pkg (8 files): f2.go, f5.go, f1.go, f4.go, f7.go, f0.go, …"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := renderModule("lib", sums["lib"]), "module lib (1 file): a.go"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	m := newManifest()
	m.files = files
	data, err := m.encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeManifest(data, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.moduleSummaries(), sums) {
		t.Errorf("read back %v, want %v", back.moduleSummaries(), sums)
	}
}
