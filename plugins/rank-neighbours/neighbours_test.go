package neighbours

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"

	"github.com/rubi-dev/rubi/core"
)

// sitting is three notes registered one after the other (a before b
// before c, as index.link_sessions links them) and one of another
// sitting.
func sitting(t *testing.T, settings string) *Ranker {
	t.Helper()
	r := New()
	setup := core.Setup{StateDir: t.TempDir()}
	if settings != "" {
		setup.Settings = json.RawMessage(settings)
	}
	if err := r.Configure(context.Background(), setup); err != nil {
		t.Fatal(err)
	}
	var docs []core.Document
	for _, k := range []string{"a", "b", "c", "other"} {
		docs = append(docs, core.Document{ID: "node:" + k, Kind: core.DocNode, Title: k})
	}
	docs = append(docs, core.Document{ID: "file:x.go", Kind: core.DocFile, Path: "x.go"})
	edges := []core.Edge{
		{From: "node:b", To: "node:a", Kind: core.EdgeSession, Weight: 1, Label: "written minutes after"},
		{From: "node:c", To: "node:b", Kind: core.EdgeSession, Weight: 1, Label: "written minutes after"},
		{From: "node:a", To: "file:x.go", Kind: "about", Weight: 1},
	}
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: docs, Edges: edges}); err != nil {
		t.Fatal(err)
	}
	return r
}

// words is the list of a ranker of the question's words: the note that
// raised the question matches best, another sitting's note a little.
func words(kinds ...string) core.Query {
	return core.Query{Text: "what did we decide about the retries", Limit: 10, Kinds: kinds,
		Seeds: []core.RankedList{{Stage: "rank.bm25", Weight: 1, Hits: []core.Hit{{ID: "node:a", Score: 4}, {ID: "file:x.go", Score: 3}, {ID: "node:other", Score: 2}}}}}
}

func ids(hits []core.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.ID)
	}
	return out
}

// The note registered right after the one the question's words match
// (the decision after the note that raised it) is found, ahead of a note
// of another sitting that matches a little, and says why.
func TestTheNoteWrittenAfterAMatchIsFound(t *testing.T) {
	r := sitting(t, `{"previous": 2, "next": 0, "sitting": 0}`)
	hits, err := r.Rank(context.Background(), words(core.DocNode, core.DocChunk))
	if err != nil {
		t.Fatal(err)
	}
	got := ids(hits)
	if len(got) != 3 || got[0] != "node:b" || got[1] != "node:a" || got[2] != "node:other" {
		t.Fatalf("ranked %v, want node:b (after the match), node:a, node:other", got)
	}
	if hits[0].Reason != "written next to node:a" {
		t.Errorf("the note after the match says %q", hits[0].Reason)
	}
}

// With the sitting term, every note of the matching sitting is found,
// the one two places after the match too.
func TestTheMatchingSittingIsFound(t *testing.T) {
	r := sitting(t, `{"previous": 0, "next": 0, "sitting": 1}`)
	hits, err := r.Rank(context.Background(), words(core.DocNode))
	if err != nil {
		t.Fatal(err)
	}
	got := ids(hits)
	if len(got) != 4 || got[0] != "node:a" || got[3] != "node:other" {
		t.Fatalf("ranked %v, want node:a, then node:b and node:c of its sitting, then node:other", got)
	}
	if hits[1].Reason != "written in a sitting that matches the question" {
		t.Errorf("a note of the sitting says %q", hits[1].Reason)
	}
}

// A question of every kind (rubi context without --kinds) is left to the
// other stages, so that code answers do not move; with questions = "all"
// it is ranked, files left out.
func TestOnlyQuestionsOfNotesAreRanked(t *testing.T) {
	r := sitting(t, "")
	hits, err := r.Rank(context.Background(), words())
	if err != nil || len(hits) != 0 {
		t.Fatalf("a question of every kind: %v %v, want nothing", ids(hits), err)
	}
	r = sitting(t, `{"questions": "all"}`)
	hits, err = r.Rank(context.Background(), words())
	if err != nil || len(hits) == 0 {
		t.Fatalf("questions = all: %v %v, want the notes", ids(hits), err)
	}
	for _, h := range hits {
		if h.ID == "file:x.go" {
			t.Errorf("a file is in the list: %v", ids(hits))
		}
	}
}

// Chunks are left to their own context (index.session_context) unless
// kinds names them.
func TestKindsSaysWhatIsScored(t *testing.T) {
	r := sitting(t, "")
	hits, err := r.Rank(context.Background(), words(core.DocChunk))
	if err != nil || len(hits) != 0 {
		t.Fatalf("a question of chunks alone, kinds [node]: %v %v, want nothing", ids(hits), err)
	}
}

func TestSettingsAreChecked(t *testing.T) {
	for _, s := range []string{`{"previous": -1}`, `{"sitting": 11}`, `{"kinds": ["file"]}`, `{"questions": "some"}`, `{"candidates": 0}`} {
		err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(s), StateDir: t.TempDir()})
		var se *core.SettingError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a setting error", s, err)
		}
	}
}

// In a question of notes and chunks together (the recall hook's), a
// chunk the question's words match is listed by its own match beside
// the notes, and no chunk is found by its neighbours (kinds ["node"]).
func TestChunksKeepTheirPlaceBesideNotes(t *testing.T) {
	r := New()
	if err := r.Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(`{"sitting": 0}`)}); err != nil {
		t.Fatal(err)
	}
	docs := []core.Document{{ID: "node:a", Kind: core.DocNode}, {ID: "node:b", Kind: core.DocNode}, {ID: "chunk:x", Kind: core.DocChunk}, {ID: "chunk:y", Kind: core.DocChunk}}
	edges := []core.Edge{
		{From: "node:b", To: "node:a", Kind: core.EdgeSession, Weight: 1},
		{From: "chunk:y", To: "chunk:x", Kind: core.EdgeSession, Weight: 1},
	}
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: docs, Edges: edges}); err != nil {
		t.Fatal(err)
	}
	q := core.Query{Text: "retries", Limit: 10, Kinds: []string{core.DocNode, core.DocChunk},
		Seeds: []core.RankedList{{Stage: "rank.bm25", Weight: 1, Hits: []core.Hit{{ID: "chunk:x", Score: 4}, {ID: "node:a", Score: 4}}}}}
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	got := ids(hits)
	if !slices.Contains(got, "chunk:x") || slices.Contains(got, "chunk:y") || !slices.Contains(got, "node:b") {
		t.Errorf("ranked %v, want chunk:x by its match, node:b by its neighbour, and no chunk:y", got)
	}
}

// A state file changed by hand or by a hostile repository, with its
// checksum made right again, is refused as damaged or ranks without
// reading out of bounds: every word of a real state is set to values an
// attacker would choose.
func TestAStateFileIsCheckedBeforeItIsRead(t *testing.T) {
	r := sitting(t, `{"sitting": 1}`)
	data, err := os.ReadFile(filepath.Join(r.stateDir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	body, ok := codec.Unseal(data)
	if !ok {
		t.Fatal("the state written does not unseal")
	}
	refused := 0
	for at := len(magic); at+4 <= len(body); at += 4 {
		for _, v := range []uint32{0, 1, 3, 7, 1 << 20, math.MaxUint32} {
			bad := slices.Clone(body)
			binary.LittleEndian.PutUint32(bad[at:], v)
			if err := os.WriteFile(filepath.Join(r.stateDir, stateFile), codec.Seal(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			// Verify reads the file again whatever its stamp says.
			err := r.Verify(context.Background())
			if err == nil {
				_, err = r.Rank(context.Background(), words(core.DocNode, core.DocChunk))
			}
			if err != nil {
				if !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), "rubi index --full") {
					t.Fatalf("word at %d set to %d: %v, want it said damaged, with what to do", at, v, err)
				}
				refused++
			}
		}
	}
	if refused == 0 {
		t.Fatal("no changed state was refused")
	}
	if err := os.WriteFile(filepath.Join(r.stateDir, stateFile), data[:len(data)-9], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Verify(context.Background()); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("a cut state: %v, want it said damaged", err)
	}
}

// The state an index run wrote is read without its checksum while it is
// that very version (store.Unchanged); a byte changed in place since,
// its size and modification time as they were, is caught by the
// checksum again.
func TestAStateChangedInPlaceIsCheckedAgain(t *testing.T) {
	r := sitting(t, `{"sitting": 1}`)
	path := filepath.Join(r.stateDir, stateFile)
	if _, err := os.Stat(path + store.WrittenSuffix); err != nil {
		t.Fatalf("the index run left no record of the version it wrote: %v", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A byte of the first edge's weight, which no check of the shape
	// reads: the file's header, then the ids', sittings', before',
	// later and earlier tables of 4-byte words.
	st := r.state
	at := int64(len(magic) + 16 + 4*((st.n+1)+st.n+(st.n+1)+2*st.e) + 6)
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x20
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := r.Verify(context.Background()); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("a state changed in place: %v, want it said damaged", err)
	}
	// A one-shot process, which maps the file, catches it too.
	mapped := New()
	if err := mapped.Configure(context.Background(), core.Setup{StateDir: r.stateDir, OneShot: true, Settings: json.RawMessage(`{"sitting": 1}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := mapped.Rank(context.Background(), words(core.DocNode, core.DocChunk)); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("one-shot, a state changed in place: %v, want it said damaged", err)
	}
}
