package names

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
)

// world is a project as a whole corpus has it: its files and modules, and
// its notes and chunks by id.
type world struct {
	rest  []core.Document
	notes map[string]core.Document
	next  int // the number of the next note added
}

func (w *world) documents() []core.Document {
	docs := slices.Clone(w.rest)
	for _, id := range slices.Sorted(maps.Keys(w.notes)) {
		docs = append(docs, w.notes[id])
	}
	return docs
}

// widget is a name of a family of hundreds that share a prefix and lie
// within two edits of each other ("widgetsab", "widgetsfk"), given to
// files and notes alike: a prefix or a typo of it reaches more names than
// maxExpand, some in one part, some in the other, some in both.
func widget(rng *rand.Rand) string {
	return "widgets" + string(rune('a'+rng.IntN(16))) + string(rune('a'+rng.IntN(16)))
}

func newWorld(seed uint64, files, notes int) (*world, *rand.Rand) {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := &world{notes: map[string]core.Document{}}
	for _, d := range synthCorpus(seed, files, 0) {
		if d.Kind == core.DocFile && rng.IntN(3) == 0 {
			d.Names = append(d.Names, widget(rng))
		}
		if d.Kind == core.DocFile && rng.IntN(30) == 0 {
			d.Names = append(d.Names, "Widgets") // a name, and a prefix of the family
		}
		w.rest = append(w.rest, d)
	}
	for range notes {
		w.add(rng)
	}
	return w, rng
}

// note makes note i, or rewrites it: its title, names and kind vary with
// the version.
func (w *world) note(rng *rand.Rand, i, version int) core.Document {
	d := synthNote(rng, i, version)
	if rng.IntN(3) == 0 {
		d.Names = append(d.Names, widget(rng))
	}
	return d
}

func (w *world) add(rng *rand.Rand) core.Document {
	d := w.note(rng, w.next, 0)
	w.next++
	w.notes[d.ID] = d
	return d
}

// queries asks for names of the world as a user would write them: given
// exactly, as a plural, as a prefix, with a typo, as words, as a title,
// restricted to kinds, with the agent's terms; and names in both parts.
func (w *world) queries(rng *rand.Rand) []core.Query {
	qs := []core.Query{
		{Text: "WidgetsQq"},   // a typo of many names, a prefix of none
		{Text: "widgetsqq"},   // the same as prose: typos alone
		{Text: "the Widgets"}, // a prefix of them all
		{Text: "find WidgetsB"},
		{Text: "widgetsab"},
		{Text: "widgetsabs"},
		{Text: "Check"},
		{Text: "how does the checkout apply the coupon"},
		{Text: "session cache", Terms: []string{"SessionCache", "Widgetsb"}},
	}
	pickDoc := func(docs []core.Document) core.Document { return docs[rng.IntN(len(docs))] }
	notes := slices.Collect(maps.Values(w.notes))
	slices.SortFunc(notes, func(a, b core.Document) int { return strings.Compare(a.ID, b.ID) })
	for range 4 {
		f := pickDoc(w.rest)
		n := pickDoc(notes)
		for _, d := range []core.Document{f, n} {
			if len(d.Names) == 0 {
				continue
			}
			name := d.Names[rng.IntN(len(d.Names))]
			qs = append(qs, core.Query{Text: name}, core.Query{Text: name + "s"})
			if len(name) > 5 {
				qs = append(qs, core.Query{Text: strings.ToUpper(name[:1]) + name[1:5]})
				typo := []byte(name)
				typo[2], typo[3] = typo[3], typo[2]
				qs = append(qs, core.Query{Text: string(typo)})
			}
			if words := splitCamel(name); len(words) > 1 {
				qs = append(qs, core.Query{Text: strings.Join(words, " ")})
			}
		}
		qs = append(qs, core.Query{Text: n.Title}, core.Query{Text: f.Title})
	}
	// Names both parts have: their rarity is counted over both.
	inRest := map[string]bool{}
	for i := range w.rest {
		for _, e := range namesOf(&w.rest[i]) {
			inRest[e.key] = true
		}
	}
	var shared []string
	for _, d := range notes {
		for _, name := range d.Names {
			if inRest[normalize(name)] {
				shared = append(shared, name)
			}
		}
	}
	for range min(len(shared), 4) {
		name := shared[rng.IntN(len(shared))]
		qs = append(qs, core.Query{Text: name}, core.Query{Text: "the " + name + " thing"})
	}
	for i, n := 0, len(qs); i < n; i += 5 {
		q := qs[i]
		q.Kinds = []string{core.DocNode, core.DocChunk}
		qs = append(qs, q)
		q.Kinds = []string{core.DocFile}
		qs = append(qs, q)
	}
	for i := range qs {
		qs[i].Limit = 1000
		if i%7 == 0 {
			qs[i].Limit = 3
		}
	}
	return qs
}

func splitCamel(s string) []string {
	var words []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			words = append(words, strings.ToLower(s[start:i]))
			start = i
		}
	}
	return append(words, strings.ToLower(s[start:]))
}

// fullIndex indexes docs in full in a state directory of its own.
func fullIndex(t *testing.T, docs []core.Document) *Ranker {
	t.Helper()
	r := configured(t, t.TempDir(), "")
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: docs}); err != nil {
		t.Fatal(err)
	}
	return r
}

// single is the index of docs as one index of them all would rank: every
// document in one part, the other empty. The parts' merging then has
// nothing to merge, and Rank reads the one index as rubi did when the
// index was a single file.
func single(t *testing.T, docs []core.Document) *Ranker {
	t.Helper()
	var all []doc
	seen := map[string]bool{}
	for i := range docs {
		if !seen[docs[i].ID] {
			seen[docs[i].ID] = true
			all = append(all, doc{id: docs[i].ID, kind: docs[i].Kind, names: namesOf(&docs[i])})
		}
	}
	slices.SortFunc(all, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	// No file in the state directory: the ranker ranks with these.
	r := configured(t, t.TempDir(), "")
	for p := range numParts {
		var err error
		if p == 0 {
			r.idx[p], err = decode(encode(all, nil), true)
		} else {
			r.idx[p], err = decode(encode(nil, nil), true)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// differ says how two rankers' answers to the queries differ: ids, order,
// scores to the last bit, reasons; "" when they do not.
func differ(t *testing.T, got, want *Ranker, qs []core.Query) string {
	t.Helper()
	for _, q := range qs {
		g, w := rank(t, got, q), rank(t, want, q)
		if !slices.Equal(g, w) {
			return fmt.Sprintf("%+v:\n got %v\nwant %v", q, g, w)
		}
	}
	return ""
}

// The index kept in two parts ranks exactly as one index of the whole
// corpus would: the same ids, order, scores and reasons, for names
// given exactly, as plurals, prefixes, typos, words and titles, whose
// rarity and whose prefixes' reach are counted over both parts. (That
// an updated index ranks as a full one is rankertest.Contract's.)
func TestPartsRankAsOne(t *testing.T) {
	for seed := range uint64(2) {
		w, rng := newWorld(seed, 300, 150)
		want := single(t, w.documents())
		qs := w.queries(rng)
		if d := differ(t, fullIndex(t, w.documents()), want, qs); d != "" {
			t.Fatalf("seed %d: %s", seed, d)
		}
		// The queries would tell an index that lost the files from the
		// right one.
		var notes []core.Document
		for _, d := range w.documents() {
			if partOf(d.ID) == partNotes {
				notes = append(notes, d)
			}
		}
		if differ(t, single(t, notes), want, qs) == "" {
			t.Errorf("seed %d: the queries cannot tell an index without its files", seed)
		}
	}
}

// A scoped corpus the index cannot apply asks for a full one: with no
// index yet, with Full set, or reaching past the notes.
func TestScopedNeedsFull(t *testing.T) {
	ctx := context.Background()
	note := node("n1", "A note", "Thing")
	scoped := func() *core.Corpus {
		return &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}, Changed: []string{note.ID}}
	}
	if err := configured(t, t.TempDir(), "").Index(ctx, scoped()); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("no index yet: %v", err)
	}
	r := indexed(t, "")
	full := scoped()
	full.Full = true
	if err := r.Index(ctx, full); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("full and scoped: %v", err)
	}
	wide := scoped()
	wide.Scope = []string{core.DocNode, core.DocFile}
	if err := r.Index(ctx, wide); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("a scope with files: %v", err)
	}
	stray := scoped()
	stray.Documents = append(stray.Documents, file("x.go", "X"))
	if err := r.Index(ctx, stray); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("a file in a delta of the notes: %v", err)
	}
	strayRemoved := scoped()
	strayRemoved.Removed = []string{"file:core/host/host.go"}
	if err := r.Index(ctx, strayRemoved); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("a file removed by a delta of the notes: %v", err)
	}
	// None of these changed the index.
	if d := differ(t, r, indexed(t, ""), []core.Query{{Text: "Thing"}, {Text: "LoadPlugin"}, {Text: "coupon applied twice"}}); d != "" {
		t.Errorf("a refused delta changed the index: %s", d)
	}
	if err := r.Index(ctx, scoped()); err != nil {
		t.Fatal(err)
	}
	if id, _ := top(t, r, "Thing"); id != note.ID {
		t.Errorf("the delta was not applied: %q", id)
	}
}

// A damaged notes' part makes a scoped corpus ask for a full one, and
// fails Verify; a files' part of another format (an older rubi's single
// file) does too, and Verify calls it outdated, not damaged.
func TestScopedDamagedParts(t *testing.T) {
	ctx := context.Background()
	note := node("n1", "A note", "Thing")
	scoped := &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}, Changed: []string{note.ID}}
	for p, name := range partFiles {
		for _, damage := range []string{"flipped", "version", "missing"} {
			r := indexed(t, "")
			file := filepath.Join(r.stateDir, name)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			switch damage {
			case "flipped":
				if p == partRest {
					continue // a scoped update does not read it: Verify finds it
				}
				data[len(data)/2] ^= 1
			case "version":
				data[len(magic)] = 1 // format 1: one file of all documents
			}
			if damage == "missing" {
				err = os.Remove(file)
			} else {
				err = os.WriteFile(file, data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Index(ctx, scoped); !errors.Is(err, core.ErrFullIndexNeeded) {
				t.Errorf("%s %s: scoped Index: %v", name, damage, err)
			}
			err = configured(t, r.stateDir, "").Verify(ctx)
			if err == nil || errors.Is(err, core.ErrOutdated) != (damage == "version") {
				t.Errorf("%s %s: Verify: %v", name, damage, err)
			}
			if err := r.Index(ctx, &core.Corpus{Full: true, Documents: append(corpus(), note)}); err != nil {
				t.Fatal(err)
			}
			if err := configured(t, r.stateDir, "").Verify(ctx); err != nil {
				t.Errorf("%s %s: after a full index: %v", name, damage, err)
			}
		}
	}
	// An index an older rubi wrote, names.idx alone, is outdated.
	r := indexed(t, "")
	data, err := os.ReadFile(filepath.Join(r.stateDir, partFiles[partRest]))
	if err != nil {
		t.Fatal(err)
	}
	data[len(magic)] = 1
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "names.idx"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := configured(t, dir, "").Verify(ctx); !errors.Is(err, core.ErrOutdated) {
		t.Errorf("an older rubi's index: %v", err)
	}
}

// A scoped update reads and writes the notes' part alone: the files' part
// keeps its file, and is not even decoded (damage past its header goes
// unnoticed by it, and is Verify's to find).
func TestScopedTouchesNotesAlone(t *testing.T) {
	ctx := context.Background()
	r := indexed(t, "")
	rest := filepath.Join(r.stateDir, partFiles[partRest])
	data, err := os.ReadFile(rest)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(rest, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1, 0)
	if err := os.Chtimes(rest, old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(rest)
	note := node("n1", "A note", "Thing")
	err = r.Index(ctx, &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}, Changed: []string{note.ID}, Removed: []string{"node:gotcha-coupon-applied-twice"}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(rest)
	if !os.SameFile(before, after) || !after.ModTime().Equal(old) {
		t.Error("a scoped update rewrote the files' part")
	}
	if err := configured(t, r.stateDir, "").Verify(ctx); err == nil {
		t.Error("Verify missed the damaged files' part")
	}
}

// Encoding with the keys of the index it updates gives the very file a
// sort of its keys gives, whatever those keys: the same, more, fewer, or
// out of order as a damaged file that passed its checksum could give them.
func TestEncodeWithOldKeys(t *testing.T) {
	var docs []doc
	for _, d := range corpus() {
		docs = append(docs, doc{id: d.ID, kind: d.Kind, names: namesOf(&d)})
	}
	slices.SortFunc(docs, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	want := encode(docs, nil)
	x, err := decode(want, true)
	if err != nil {
		t.Fatal(err)
	}
	keys := x.keys()
	if len(keys) < 4 || !slices.IsSorted(keys) {
		t.Fatalf("keys %q", keys)
	}
	reversed := slices.Clone(keys)
	slices.Reverse(reversed)
	for name, hint := range map[string][]string{
		"the same":   keys,
		"more":       slices.Sorted(slices.Values(append(slices.Clone(keys), "aaaa", "mmmm", "zzzz"))),
		"fewer":      keys[1 : len(keys)-2],
		"none":       {},
		"reversed":   reversed,
		"repeated":   append(slices.Clone(keys[:2]), keys...),
		"one out":    append(slices.Clone(keys[1:]), keys[0]),
		"only other": {"aaaa", "zzzz"},
	} {
		if got := encode(docs, hint); !slices.Equal(got, want) {
			t.Errorf("%s: another file", name)
		}
	}
}

// A prefix reaches maxExpand names besides the name it is, whichever part
// they are in: the name itself, given exactly, takes none of them.
func TestPrefixReachesMaxExpandNames(t *testing.T) {
	docs := []core.Document{file("main.go", "Zork"), node("zork-note", "About zork", "Zork")}
	for i := range maxExpand + 1 {
		docs = append(docs, file(fmt.Sprintf("f%02d.go", i), fmt.Sprintf("Zork%02d", i)))
	}
	for name, r := range map[string]*Ranker{"two parts": fullIndex(t, docs), "one index": single(t, docs)} {
		hits := rank(t, r, core.Query{Text: "the Zork", Limit: 1000})
		prefixed := 0
		for _, h := range hits {
			if strings.HasPrefix(h.Reason, "a name starts with") {
				prefixed++
			}
			if h.ID == "file:f64.go" {
				t.Errorf("%s: the name past maxExpand was reached", name)
			}
		}
		if prefixed != maxExpand || len(hits) != maxExpand+2 {
			t.Errorf("%s: %d hits, %d by prefix: want %d by prefix", name, len(hits), prefixed, maxExpand)
		}
	}
}

// A scoped edit that renames nothing reads only the edited notes' records
// and leaves the notes' part as it is: damage elsewhere in it is the
// query's and Verify's to find, not the edit's. An edit that renames, or
// finds its record damaged, reads and checks the part whole, as before.
func TestScopedKeptNamesReadTheirRecordsAlone(t *testing.T) {
	ctx := context.Background()
	r := indexed(t, "")
	notes := filepath.Join(r.stateDir, partFiles[partNotes])
	note := corpus()[7]
	data, err := os.ReadFile(notes)
	if err != nil {
		t.Fatal(err)
	}
	// Damage a key in the keys' text, which follows the documents' records.
	key := bytes.LastIndex(data, []byte("applycoupon"))
	if key < bytes.Index(data, []byte(note.ID)) {
		t.Fatal("no key text after the note's record")
	}
	data[key] ^= 1
	if err := os.WriteFile(notes, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1, 0)
	if err := os.Chtimes(notes, old, old); err != nil {
		t.Fatal(err)
	}
	edit := func(d core.Document) error {
		return r.Index(ctx, &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{d}, Changed: []string{d.ID}})
	}
	note.Body = "new words, the same names"
	if err := edit(note); err != nil {
		t.Fatalf("an edit that renamed nothing: %v", err)
	}
	if fi, _ := os.Stat(notes); !fi.ModTime().Equal(old) {
		t.Error("an edit that renamed nothing rewrote the notes' part")
	}
	if err := configured(t, r.stateDir, "").Verify(ctx); err == nil {
		t.Error("Verify missed the damaged notes' part")
	}
	renamed := note
	renamed.Names = append(slices.Clone(note.Names), "Refund")
	if err := edit(renamed); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("a rename over a damaged part: %v, want a full index", err)
	}
	// The note's own record damaged: its names cannot be told the same.
	if data, err = os.ReadFile(notes); err != nil {
		t.Fatal(err)
	}
	data[bytes.Index(data, []byte(note.ID))+len(note.ID)+1] ^= 1 // its kind's first byte
	if err := os.WriteFile(notes, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := edit(note); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("an edit over its own damaged record: %v, want a full index", err)
	}
}
