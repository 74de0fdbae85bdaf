package notesindex

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// The notes' state reads back as written, and a file damaged anywhere (a
// byte changed, cut short, another file's bytes) is refused whole.
func TestNotesStateRoundTripAndDamage(t *testing.T) {
	st := newState()
	st.stamps["node:coupon"] = "active/1/abc"
	st.stamps["chunk:20260101-x"] = "deadbeef"
	st.stamps["node:old"] = "superseded/2/def"
	st.mentions["node:coupon"] = []mention{{"maria", "Maria", true}, {"sweden", "Sweden", false}}
	st.mentions["chunk:20260101-x"] = []mention{}
	data := st.encode()
	got, err := decodeState(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Errorf("read back %+v, wrote %+v", got, st)
	}
	if _, ok := got.mentions["node:old"]; ok {
		t.Error("a document never scanned reads back as scanned")
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x20
		if _, err := decodeState(bad); err == nil {
			t.Fatalf("a change of byte %d is not noticed", i)
		}
	}
	for n := range len(data) {
		if _, err := decodeState(data[:n]); err == nil {
			t.Fatalf("the state cut to %d bytes is read", n)
		}
	}
}

// Names read from a version of a note are kept for it and only for it:
// relating with the state's names gives the same links as reading every
// text again, and a note whose text changed is read again.
func TestNotesStateKeepsNamesPerVersion(t *testing.T) {
	items := []item{
		{id: "node:a", stamp: "1", text: "Maria went to Sweden with PROJ-42."},
		{id: "node:b", stamp: "1", text: "The PROJ-42 ticket: Maria again."},
		{id: "node:c", stamp: "1", text: "Nothing to see in Lisbon."},
	}
	first := newState()
	for _, it := range items {
		first.stamps[it.id] = it.stamp
	}
	first.withMentions(nil, items)
	want := relatedEdges(items, false, 8)

	again := make([]item, len(items))
	for i, it := range items {
		again[i] = item{id: it.id, stamp: it.stamp, text: "not read"} // a text the state must stand for
	}
	kept := newState()
	kept.withMentions(first, again)
	if got := relatedEdges(again, false, 8); !reflect.DeepEqual(got, want) {
		t.Errorf("the kept names link\n%v\nreading the texts links\n%v", got, want)
	}

	// A new version of c names Maria: it is read, and linked.
	again[2] = item{id: "node:c", stamp: "2", text: "Maria flew to Lisbon."}
	kept = newState()
	kept.withMentions(first, again)
	if ms := kept.mentions["node:c"]; len(ms) == 0 || ms[0].key != "maria" {
		t.Errorf("the changed note's names are %v", ms)
	}
}

// A one-shot process (a hook) reads the notes' state mapped, not copied:
// it reads the same state, and a damaged one no more.
func TestNotesStateMappedInAOneShotProcess(t *testing.T) {
	dir := indexWith(t, "notes.bin", "notes.edits")
	copied := load(dir, false)
	if copied == nil || copied.snap == nil || copied.Edits() == 0 {
		t.Fatal("the state with a snapshot and edits reads as nothing")
	}
	if mapped := load(dir, true); !reflect.DeepEqual(mapped, copied) {
		t.Errorf("mapped, the state reads %+v; copied, %+v", mapped, copied)
	}
	path := filepath.Join(dir, StateFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := load(dir, true); st != nil {
		t.Error("a damaged state mapped is read")
	}
}

// The notes' state is read from the project's .rubi/, which a clone may
// hold as anyone wrote it: whatever its bytes, reading it never fails
// but with an error, and what it reads writes back to the same state.
func FuzzNotesState(f *testing.F) {
	st := newState()
	st.stamps["node:coupon"] = "active/1/abc"
	st.stamps["chunk:20260101-x"] = "deadbeef"
	st.mentions["node:coupon"] = []mention{{"maria", "Maria", true}, {"sweden", "sweden", false}}
	st.snap = &snapshot{
		manifest:   "1/2",
		chunkFiles: []snapFile{{path: "/p/.rubi/sessions/20260101-x.md", version: "1/2/3"}},
		files:      []snapFile{{path: "/p/.rubi/knowledge/coupon.md", version: "4/5/6", doc: "node:coupon"}},
		nodes:      []snapNode{{doc: "node:coupon", id: "coupon", active: true, created: 7, edges: []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: EdgeAbout, Weight: 1}}}},
		chunks:     []snapChunk{{doc: "chunk:20260101-x", session: "s1", created: 8}},
	}
	f.Add(st.encode())
	f.Add([]byte(stateMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeState(data)
		if err != nil {
			return
		}
		again, err := decodeState(got.encode())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("read back %+v (%v), wrote %+v", again, err, got)
		}
	})
}

// The names a saved state keeps are next's own, and prev's for the
// versions next did not scan again, whether next scanned a few (an edit)
// or many.
func TestKeptMentions(t *testing.T) {
	for _, rescanned := range []int{1, 30} {
		prev, next := newState(), newState()
		want := map[string][]mention{}
		for i := range 40 {
			id := fmt.Sprintf("node:n%02d", i)
			prev.stamps[id] = "v1"
			prev.mentions[id] = []mention{{key: id, display: id}}
			switch {
			case i == 39: // gone
			case i < rescanned: // a new version, scanned again
				next.stamps[id] = "v2"
				next.mentions[id] = []mention{{key: "new " + id, display: "new " + id}}
				want[id] = next.mentions[id]
			case i == 38: // a new version, not scanned: its old names are not its own
				next.stamps[id] = "v2"
			default:
				next.stamps[id] = "v1"
				want[id] = prev.mentions[id]
			}
		}
		next.stamps["node:added"] = "v1"
		next.mentions["node:added"] = []mention{}
		want["node:added"] = []mention{}
		if got := keptMentions(prev, next); !sameMentions(got, want) {
			t.Errorf("%d scanned again: kept %v, want %v", rescanned, got, want)
		}
	}
}

// The edits file is read from the project's .rubi/ as anyone wrote it:
// whatever its bytes, reading it never fails but with an error, and what
// it reads writes back the same.
func FuzzNotesEdits(f *testing.F) {
	f.Add(encodeEdits(stateID{size: 1234, crc: 0xdeadbeef}, []edit{
		{file: 2, node: 1, doc: "node:coupon", stamp: "active/1/abc", ver: "1/2/3", n: snapNode{doc: "node:coupon", active: true, critical: true, created: 7, edges: []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: EdgeAbout, Weight: 1}}}, mentions: []mention{{"maria", "Maria", true}}, scanned: true},
		{file: 0, node: 0, doc: "node:old", stamp: "superseded/2/def", ver: "4/5/6", n: snapNode{doc: "node:old"}},
	}))
	f.Add([]byte(editsMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		base, edits, err := decodeEdits(data)
		if err != nil {
			return
		}
		b2, e2, err := decodeEdits(encodeEdits(base, edits))
		if err != nil || b2 != base || !reflect.DeepEqual(e2, edits) {
			t.Fatalf("read back %v %+v (%v), wrote %v %+v", b2, e2, err, base, edits)
		}
	})
}
