package names

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// vocabulary makes the synthetic corpora's names: words that share
// prefixes (check, checkout, checker) and lie within an edit of each
// other (parse, parser, pause), so prefixes and typos reach many names.
var vocabulary = strings.Fields(`
	load plugin host open guard fallback check checkout checker coupon
	apply valid validate validation receive message handler handle parse
	parser pause config cache cached session user account order payment
	invoice render route router request response stream buffer token
	index search rank score query match name names file module note chunk
	graph edge node walk merge split write read store lock unlock retry
	timer clock event emit listen server client socket packet frame codec
	encode decode format print scan lexer syntax tree visit build test`)

// camel joins words as an identifier: LoadPluginHost, or loadPluginHost.
func camel(words []string, lower bool) string {
	var b strings.Builder
	for i, w := range words {
		if i == 0 && lower {
			b.WriteString(w)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func pick(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	return out
}

// synthFile is a source file with a few symbols.
func synthFile(rng *rand.Rand, i int) core.Document {
	base := strings.Join(pick(rng, 1+rng.IntN(2)), "_")
	p := fmt.Sprintf("pkg%03d/%s%d.go", i%400, base, i)
	var syms []string
	for range 2 + rng.IntN(8) {
		syms = append(syms, camel(pick(rng, 1+rng.IntN(3)), rng.IntN(2) == 0))
	}
	return file(p, syms...)
}

// synthNote is a knowledge node, or every third one a conversation chunk,
// with a title of words and a few names; version varies its title and
// names, as an edit would.
func synthNote(rng *rand.Rand, i, version int) core.Document {
	title := strings.Join(pick(rng, 2+rng.IntN(4)), " ")
	if version > 0 {
		title += fmt.Sprintf(" v%d", version)
	}
	names := []string{camel(pick(rng, 2), false)}
	if rng.IntN(2) == 0 {
		names = append(names, pick(rng, 1)[0])
	}
	if i%3 == 2 {
		id := fmt.Sprintf("session%02d/%04d", i%17, i)
		return core.Document{ID: core.DocID(core.DocChunk, id), Kind: core.DocChunk, Title: title, Names: names, Body: title}
	}
	id := fmt.Sprintf("note-%04d", i)
	d := node(id, title, names...)
	d.Body = title
	return d
}

// synthCorpus is files file documents, a module per package and notes
// notes and chunks, the same for the same seed.
func synthCorpus(seed uint64, files, notes int) []core.Document {
	rng := rand.New(rand.NewPCG(seed, 1))
	var docs []core.Document
	for i := range files {
		docs = append(docs, synthFile(rng, i))
	}
	for i := range min(files, 400) {
		m := fmt.Sprintf("pkg%03d", i)
		docs = append(docs, core.Document{ID: core.DocID(core.DocModule, m), Kind: core.DocModule, Path: m, Title: m})
	}
	for i := range notes {
		docs = append(docs, synthNote(rng, i, 0))
	}
	return docs
}

// benchQueries are questions of each kind a names query takes: a name
// given exactly, words joined, a plural, a prefix, a typo, a sentence.
var benchQueries = []struct{ name, text string }{
	{"exact", "LoadPluginHost"},
	{"words", "load plugin host"},
	{"plural", "checkers"},
	{"prefix", "Check"},
	{"typo", "valdiation"},
	{"sentence", "how does the checkout apply the coupon"},
	{"terms", "where are sessions cached"},
}

// BenchmarkRank ranks questions of each kind against 10,000 files and
// 2,000 notes.
func BenchmarkRank(b *testing.B) {
	r := configured(b, b.TempDir(), "")
	ctx := context.Background()
	if err := r.Index(ctx, &core.Corpus{Full: true, Documents: synthCorpus(1, 10000, 2000)}); err != nil {
		b.Fatal(err)
	}
	for _, q := range benchQueries {
		b.Run(q.name, func(b *testing.B) {
			query := core.Query{Text: q.text, Limit: 20}
			if q.name == "terms" {
				query.Terms = []string{"SessionCache", "cache"}
			}
			for b.Loop() {
				if _, err := r.Rank(ctx, query); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRankFresh ranks as a fresh process does (a hook, `rubi
// context`): it configures a ranker, which reads the index files, then
// ranks one question.
func BenchmarkRankFresh(b *testing.B) {
	dir := b.TempDir()
	ctx := context.Background()
	if err := configured(b, dir, "").Index(ctx, &core.Corpus{Full: true, Documents: synthCorpus(1, 10000, 2000)}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := configured(b, dir, "").Rank(ctx, core.Query{Text: "LoadPluginHost", Limit: 20}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexScopedOneNote indexes the edit of one note, among 2,000
// notes and chunks in a project of 10,000 files: as a scoped corpus (the
// notes' part alone is read and rewritten), and as the incremental corpus
// of every document an edit made before (the whole index is).
func BenchmarkIndexScopedOneNote(b *testing.B) {
	ctx := context.Background()
	docs := synthCorpus(1, 10000, 2000)
	at := slices.IndexFunc(docs, func(d core.Document) bool { return d.Kind == core.DocNode })
	// Two versions of the note with other names: every edit renames it.
	rng := rand.New(rand.NewPCG(9, 9))
	versions := [2]core.Document{synthNote(rng, 0, 1), synthNote(rng, 0, 2)}
	if versions[0].ID != docs[at].ID {
		b.Fatalf("edited %s, not %s", versions[0].ID, docs[at].ID)
	}
	indexed := func(b *testing.B) *Ranker {
		r := configured(b, b.TempDir(), "")
		if err := r.Index(ctx, &core.Corpus{Full: true, Documents: docs}); err != nil {
			b.Fatal(err)
		}
		return r
	}
	b.Run("scoped", func(b *testing.B) {
		r := indexed(b)
		n := 0
		for b.Loop() {
			d := versions[n%2]
			n++
			if err := r.Index(ctx, &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{d}, Changed: []string{d.ID}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scoped-words", func(b *testing.B) {
		// An edit of the note's words alone: its names stand.
		r := indexed(b)
		d := docs[at]
		n := 0
		for b.Loop() {
			n++
			d.Body = fmt.Sprintf("revision %d of the note's words", n)
			if err := r.Index(ctx, &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{d}, Changed: []string{d.ID}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		r := indexed(b)
		// The unchanged documents come without their bodies and names.
		incr := slices.Clone(docs)
		for i := range incr {
			incr[i].Names, incr[i].Body = nil, ""
		}
		n := 0
		for b.Loop() {
			incr[at] = versions[n%2]
			n++
			if err := r.Index(ctx, &core.Corpus{Documents: incr, Changed: []string{incr[at].ID}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
