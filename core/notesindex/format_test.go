package notesindex

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// indexWith copies the named files of testdata/ into a new index folder.
func indexWith(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testdata/notes.bin and notes.edits were written by the encoder rubi had
// before this package held the notes' state (core/pipeline, commit
// e33d0e7), from the state below: an index written then is read now
// without a rebuild, its edits applied, and what is written now from the
// same state is the same bytes, which that rubi reads as well.
func TestStateFilesOfEarlierRubiRead(t *testing.T) {
	about := func(from string) core.Edge {
		return core.Edge{From: from, To: "file:internal/cart.go", Kind: EdgeAbout, Weight: 1}
	}
	want := &State{
		stamps: map[string]string{
			"node:coupon":         "active/1/abc",
			"node:old":            "superseded/2/def",
			"node:personal:habit": "active/3/0a1b",
			"chunk:20260101-x":    "deadbeef",
		},
		mentions: map[string][]mention{
			"node:coupon":         {{"maria", "Maria", true}, {"sweden", "Sweden", false}, {"core/when", "core/when", true}},
			"node:personal:habit": {{"proj-42", "PROJ-42", true}},
			"chunk:20260101-x":    {},
		},
		snap: &snapshot{
			manifest:   "4096/1767225600000000000",
			chunkFiles: []snapFile{{path: "/p/.rubi/sessions/20260101-x.md", version: "1/2/3"}},
			files: []snapFile{
				{path: "/home/u/.rubi/vault/habit.md", version: "7/8/9", doc: "node:personal:habit"},
				{path: "/p/.rubi/knowledge/coupon.md", version: "4/5/6", doc: "node:coupon"},
				{path: "/p/.rubi/knowledge/notes.txt", version: "10/11/12"},
				{path: "/p/.rubi/knowledge/old.md", version: "13/14/15", doc: "node:old"},
			},
			nodes: []snapNode{
				{doc: "node:personal:habit", id: "habit", active: true, created: 1767225600000000000},
				{doc: "node:coupon", id: "coupon", active: true, critical: true, created: 1767225660000000000, edges: []core.Edge{
					about("node:coupon"), {From: "node:coupon", To: "node:old", Kind: EdgeLinks, Weight: 1},
				}},
				{doc: "node:old", id: "old", created: -5},
			},
			chunks: []snapChunk{{doc: "chunk:20260101-x", session: "s1", created: 1767225720000000000, edges: []core.Edge{about("chunk:20260101-x")}}},
		},
	}
	old, err := os.ReadFile(filepath.Join("testdata", StateFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeState(old)
	if err != nil {
		t.Fatalf("the state an earlier rubi wrote does not decode: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the state an earlier rubi wrote reads\n%+v\nwant\n%+v", got, want)
	}
	if now := want.encode(); !bytes.Equal(now, old) {
		t.Errorf("the same state is written as\n%q\nan earlier rubi wrote\n%q", now, old)
	}

	// Its edits: the coupon's text, names and a link changed, the old
	// note's text; read through the index's folder, as a run reads them.
	x := New(Options{Dir: indexWith(t, StateFile, EditsFile)})
	st := x.Load()
	if st == nil {
		t.Fatal("the state an earlier rubi wrote, with its edits, reads as nothing")
	}
	if st.Edits() != 2 || st.Stamp("node:coupon") != "active/1/abd" || st.Stamp("node:old") != "superseded/2/deg" {
		t.Errorf("with its edits, the state holds %d edits, stamps %v", st.Edits(), st.stamps)
	}
	if ms := st.mentions["node:coupon"]; !reflect.DeepEqual(ms, []mention{{"maria", "Maria", true}, {"lisbon", "Lisbon", true}}) {
		t.Errorf("the edited coupon's names read %v", ms)
	}
	if _, ok := st.mentions["node:old"]; ok {
		t.Error("an edit whose names were not scanned left the old names")
	}
	if n := st.snap.nodes[1]; !reflect.DeepEqual(n.edges, []core.Edge{about("node:coupon")}) || st.snap.files[1].version != "4/5/7" {
		t.Errorf("the edited coupon reads %+v, its file %+v", n, st.snap.files[1])
	}
	edits, err := os.ReadFile(filepath.Join("testdata", EditsFile))
	if err != nil {
		t.Fatal(err)
	}
	if now := encodeEdits(baseOf(old), st.edits); !bytes.Equal(now, edits) {
		t.Errorf("the same edits are written as\n%q\nan earlier rubi wrote\n%q", now, edits)
	}
}
