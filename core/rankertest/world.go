package rankertest

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
)

// vocabulary are the words documents are written in: a project's code
// and the notes about it share most of them, so that a change anywhere
// moves the statistics (document counts, frequencies, lengths) a ranker
// keeps for the rest.
var vocabulary = strings.Fields(`load plugin store write file lock index rank query term token
	parse config setting error payment user account server client request response cache graph
	node edge module path name body title score weight stage seed walk reader writer buffer
	stream encode decode json hash checksum version format session decision retry timeout
	rollback migration deadline review incident latency coupon cart checkout refund invoice`)

// stopless are words of prose that carry little: a note is written with
// them between the vocabulary's.
var stopless = strings.Fields(`because we chose the a of to and when then after before it is was`)

// UniqueWord returns a word that no other n gives and that the analyzers
// of rubi keep whole: letters only, and ending in x, which no stemmer
// shortens. A ranker's own tests plant it to find one document.
func UniqueWord(n int) string {
	const syl = "badekofimulopasetivanorezu"
	var b strings.Builder
	b.WriteString("zq")
	for {
		b.WriteString(syl[2*(n%13) : 2*(n%13)+2])
		n /= 13
		if n == 0 {
			break
		}
	}
	b.WriteString("x")
	return b.String()
}

// world is a project as the pipeline sees it: files, the modules that
// hold them, notes and conversation chunks, and the edges between them;
// it changes at random, step by step, and says each change as the
// corpus the pipeline would send.
type world struct {
	rng    *rand.Rand
	now    int64
	serial int
	docs   map[string]core.Document
	// words maps a document to the word that it alone holds.
	words map[string]string
	// from holds the edges from a file or a note (modules' edges are
	// derived from the files they hold).
	from map[string][]core.Edge
	// gone are documents removed, which may come back under their id,
	// and whose words must then find nothing.
	gone []core.Document
	// indexed are the documents as the last corpus left them: what an
	// incremental corpus is told apart from.
	indexed map[string]core.Document
	// tokenCache keeps the words of each document for direct.
	tokenCache map[string]docTokens
}

func newWorld(seed uint64, files, notes, chunks int) *world {
	w := &world{
		rng:   rand.New(rand.NewPCG(seed, 0x7a11)),
		now:   time.Now().Unix(),
		docs:  map[string]core.Document{},
		words: map[string]string{},
		from:  map[string][]core.Edge{},
	}
	for range files {
		w.addFile()
	}
	for range notes {
		w.addNote(core.DocNode, "")
	}
	for range chunks {
		w.addNote(core.DocChunk, "")
	}
	w.refreshModules()
	return w
}

func (w *world) pick(from []string) string { return from[w.rng.IntN(len(from))] }

// ident makes an identifier of one to three words of the vocabulary.
func (w *world) ident() string {
	var b strings.Builder
	for i := range 1 + w.rng.IntN(3) {
		p := w.pick(vocabulary)
		if i > 0 || w.rng.IntN(2) == 0 {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		b.WriteString(p)
	}
	return b.String()
}

// next returns the next serial number and the word that goes with it.
func (w *world) next() (int, string) {
	w.serial++
	return w.serial, UniqueWord(w.serial)
}

// ids returns the ids of the live documents of the kinds given, sorted.
func (w *world) ids(kinds ...string) []string {
	var out []string
	for id, d := range w.docs {
		if slices.Contains(kinds, d.Kind) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// fileDoc writes a file's document: identifiers for names, and a body of
// functions and comments in the vocabulary, holding word once.
func (w *world) fileDoc(p, word string) core.Document {
	var names []string
	for range 2 + w.rng.IntN(6) {
		names = append(names, w.ident())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n", path.Base(path.Dir(p)))
	lines := 5 + w.rng.IntN(25)
	at := w.rng.IntN(lines)
	for i := range lines {
		fmt.Fprintf(&b, "// %s the %s of a %s.\nfunc (r *%s) %s(ctx context.Context, %s string) error { return nil }\n",
			w.pick(vocabulary), w.pick(vocabulary), w.pick(vocabulary), w.ident(), w.pick(names), w.pick(vocabulary))
		if i == at {
			fmt.Fprintf(&b, "// %s %s\n", word, w.pick(vocabulary))
		}
	}
	return core.Document{
		ID: core.DocID(core.DocFile, p), Kind: core.DocFile, Path: p, Title: path.Base(p),
		Language: core.LangGo, Names: names, Body: b.String(),
		ModTime: w.now - int64(w.rng.IntN(90*86400)), Size: int64(b.Len()),
	}
}

// addFile adds a new file, with the imports it makes, or brings back one
// removed earlier under its path.
func (w *world) addFile() string {
	n, word := w.next()
	p := fmt.Sprintf("pkg%d/%s_%d.go", w.rng.IntN(12), w.pick(vocabulary), n)
	if old, ok := w.revive(core.DocFile); ok {
		p = old.Path
	}
	d := w.fileDoc(p, word)
	w.docs[d.ID], w.words[d.ID] = d, word
	w.reimport(d.ID)
	return d.ID
}

// revive takes back, now and then, a removed document of kind.
func (w *world) revive(kind string) (core.Document, bool) {
	if w.rng.IntN(4) != 0 {
		return core.Document{}, false
	}
	for i, d := range w.gone {
		if d.Kind == kind {
			if _, live := w.docs[d.ID]; !live {
				w.gone = slices.Delete(w.gone, i, i+1)
				return d, true
			}
		}
	}
	return core.Document{}, false
}

// reimport draws a file's imports again.
func (w *world) reimport(id string) {
	files := w.ids(core.DocFile)
	var es []core.Edge
	for range w.rng.IntN(4) {
		if to := w.pick(files); to != id {
			es = append(es, core.Edge{From: id, To: to, Kind: core.EdgeImports, Weight: 1})
		}
	}
	w.from[id] = es
}

// changeFile rewrites a file under its path: new names, body and time.
func (w *world) changeFile(id string) {
	_, word := w.next()
	d := w.fileDoc(w.docs[id].Path, word)
	w.docs[id], w.words[id] = d, word
	if w.rng.IntN(2) == 0 {
		w.reimport(id)
	}
}

// noteDoc writes a note or a chunk: a title and sentences of the
// vocabulary around word, and a name or two that the code has too.
func (w *world) noteDoc(kind, key, word string) core.Document {
	var b strings.Builder
	for range 2 + w.rng.IntN(8) {
		for range 4 + w.rng.IntN(8) {
			if w.rng.IntN(3) == 0 {
				b.WriteString(w.pick(stopless))
			} else {
				b.WriteString(w.pick(vocabulary))
			}
			b.WriteByte(' ')
		}
		b.WriteString(". ")
	}
	b.WriteString(word)
	d := core.Document{
		ID: core.DocID(kind, key), Kind: kind,
		Title: w.pick(vocabulary) + " " + w.pick(vocabulary) + " " + w.pick(vocabulary),
		Names: []string{w.ident()}, Body: b.String(), ModTime: w.now - int64(w.rng.IntN(30*86400)),
	}
	if kind == core.DocNode {
		d.Path = ".rubi/notes/" + key + ".md"
		d.Names = append(d.Names, key)
	} else {
		d.Path = ".rubi/memory/" + key[:strings.IndexByte(key, '/')] + ".jsonl"
	}
	return d
}

// addNote adds a note or a chunk (of a random session), or brings back
// one removed earlier (when id is "").
func (w *world) addNote(kind, id string) string {
	n, word := w.next()
	key := fmt.Sprintf("n%04d", n)
	if kind == core.DocChunk {
		key = fmt.Sprintf("s%d/%04d", w.rng.IntN(6), n)
	}
	if id != "" {
		_, key, _ = strings.Cut(id, ":")
	} else if old, ok := w.revive(kind); ok {
		_, key, _ = strings.Cut(old.ID, ":")
	}
	d := w.noteDoc(kind, key, word)
	w.docs[d.ID], w.words[d.ID] = d, word
	w.relink(d.ID)
	return d.ID
}

// relink draws a note's edges again: about files, links to other notes
// (gone ones too), session and mentions edges with their words.
func (w *world) relink(id string) {
	files := w.ids(core.DocFile)
	notes := w.ids(core.DocNode, core.DocChunk)
	var es []core.Edge
	for range w.rng.IntN(3) {
		es = append(es, core.Edge{From: id, To: w.pick(files), Kind: "about", Weight: 1})
	}
	for range w.rng.IntN(3) {
		to := w.pick(notes)
		if to == id {
			continue
		}
		switch w.rng.IntN(3) {
		case 0:
			es = append(es, core.Edge{From: id, To: to, Kind: "links", Weight: 1})
		case 1:
			es = append(es, core.Edge{From: id, To: to, Kind: core.EdgeSession, Weight: 0.5, Label: "same session as"})
		case 2:
			es = append(es, core.Edge{From: id, To: to, Kind: core.EdgeMentions, Weight: 1 / float64(1+w.rng.IntN(5)),
				Label: fmt.Sprintf("both mention %q with", w.pick(vocabulary))})
		}
	}
	if len(w.gone) > 0 && w.rng.IntN(5) == 0 {
		es = append(es, core.Edge{From: id, To: w.gone[w.rng.IntN(len(w.gone))].ID, Kind: "links", Weight: 1})
	}
	w.from[id] = es
}

// changeNote rewrites a note: new text, title and names, and now and
// then new edges.
func (w *world) changeNote(id string) {
	_, word := w.next()
	old := w.docs[id]
	_, key, _ := strings.Cut(id, ":")
	d := w.noteDoc(old.Kind, key, word)
	w.docs[id], w.words[id] = d, word
	if w.rng.IntN(2) == 0 {
		w.relink(id)
	}
}

// rewriteText changes a note's body alone, as the common edit of a note
// does: the words of its text change, nothing else.
func (w *world) rewriteText(id string) {
	_, word := w.next()
	d := w.docs[id]
	fresh := w.noteDoc(d.Kind, "x/x", word)
	d.Body = fresh.Body
	w.docs[id], w.words[id] = d, word
}

func (w *world) remove(id string) {
	w.gone = append(w.gone, w.docs[id])
	delete(w.docs, id)
	delete(w.words, id)
	delete(w.from, id)
}

// refreshModules derives the modules' documents from the files: one per
// directory, named by the files it holds, with a contains edge to each.
func (w *world) refreshModules() {
	byDir := map[string][]core.Document{}
	for _, id := range w.ids(core.DocFile) {
		d := w.docs[id]
		byDir[path.Dir(d.Path)] = append(byDir[path.Dir(d.Path)], d)
	}
	for _, id := range w.ids(core.DocModule) {
		if _, ok := byDir[w.docs[id].Path]; !ok {
			w.remove(id)
		}
	}
	for dir, files := range byDir {
		id := core.DocID(core.DocModule, dir)
		var b strings.Builder
		b.WriteString(dir + "\n")
		d := core.Document{ID: id, Kind: core.DocModule, Path: dir, Title: dir}
		var es []core.Edge
		for _, f := range files {
			d.Names = append(d.Names, f.Title)
			b.WriteString(strings.Join(f.Names, " ") + " ")
			es = append(es, core.Edge{From: id, To: f.ID, Kind: core.EdgeContains, Weight: 1})
		}
		d.Body = b.String()
		w.docs[id], w.from[id] = d, es
	}
}

// documents lists the live documents as the pipeline orders them: the
// code's (files, then modules, each by path) in the same order in every
// corpus, the notes and chunks among them at random places, which
// change from corpus to corpus.
func (w *world) documents() []core.Document {
	var code, notes []core.Document
	for _, kind := range []string{core.DocFile, core.DocModule} {
		for _, id := range w.ids(kind) {
			code = append(code, w.docs[id])
		}
	}
	for _, id := range w.ids(core.DocNode, core.DocChunk) {
		notes = append(notes, w.docs[id])
	}
	w.rng.Shuffle(len(notes), func(i, j int) { notes[i], notes[j] = notes[j], notes[i] })
	out := make([]core.Document, 0, len(code)+len(notes))
	for len(code) > 0 || len(notes) > 0 {
		if len(notes) == 0 || len(code) > 0 && w.rng.IntN(len(code)+len(notes)) < len(code) {
			out, code = append(out, code[0]), code[1:]
		} else {
			out, notes = append(out, notes[0]), notes[1:]
		}
	}
	return out
}

// edges lists the live documents' edges, sorted by their source: the
// notes' ones among them when notes is set, the others otherwise.
func (w *world) edges(notes bool) []core.Edge {
	var out []core.Edge
	for _, id := range slices.Sorted(maps.Keys(w.from)) {
		if core.InScope(core.NotesScope, id) == notes {
			out = append(out, w.from[id]...)
		}
	}
	return out
}

// whole is the full corpus of the world as it stands.
func (w *world) whole() *core.Corpus {
	return &core.Corpus{Full: true, Documents: w.documents(), Edges: append(w.edges(false), w.edges(true)...)}
}

// indexedNow records the world as the corpus just sent leaves a ranker.
func (w *world) indexedNow() { w.indexed = maps.Clone(w.docs) }

// changed lists the documents added or changed since the last corpus,
// and those removed.
func (w *world) changed(scope []string) (changed, removed []string) {
	for id, d := range w.docs {
		old, ok := w.indexed[id]
		if (scope == nil || core.InScope(scope, id)) && (!ok || !same(old, d)) {
			changed = append(changed, id)
		}
	}
	for id := range w.indexed {
		if _, ok := w.docs[id]; !ok && (scope == nil || core.InScope(scope, id)) {
			removed = append(removed, id)
		}
	}
	slices.Sort(changed)
	slices.Sort(removed)
	return changed, removed
}

func same(a, b core.Document) bool {
	return a.ID == b.ID && a.Kind == b.Kind && a.Path == b.Path && a.Title == b.Title && a.Body == b.Body &&
		a.ModTime == b.ModTime && a.Size == b.Size && a.Language == b.Language && slices.Equal(a.Names, b.Names)
}

// incremental is the corpus of the changes since the last one, as an
// ordinary index run sends it: every document and edge, the unchanged
// documents without their body (and some without their names, which
// the pipeline reads again only for the modules that changed).
func (w *world) incremental() *core.Corpus {
	c := &core.Corpus{Edges: append(w.edges(false), w.edges(true)...)}
	c.Changed, c.Removed = w.changed(nil)
	for _, d := range w.documents() {
		if !slices.Contains(c.Changed, d.ID) {
			d.Body = ""
			if w.rng.IntN(2) == 0 {
				d.Names = nil
			}
		}
		c.Documents = append(c.Documents, d)
	}
	return c
}

// scoped is the corpus of the notes' changes since the last one, as a
// hook's index run sends it (core.Corpus.Scope); texts makes it one of
// texts only, which the world's last step must have been.
func (w *world) scoped(texts bool) *core.Corpus {
	c := &core.Corpus{Scope: slices.Clone(core.NotesScope), TextsOnly: texts}
	c.Changed, c.Removed = w.changed(core.NotesScope)
	for _, id := range c.Changed {
		c.Documents = append(c.Documents, w.docs[id])
	}
	if !texts {
		c.Edges = w.edges(true)
	}
	return c
}

// A step is one change to the world and the corpus that says it.
type step struct {
	what   string
	corpus *core.Corpus
}

// step changes the world at random and returns the corpus of the change:
// an ordinary incremental one (files and notes added, changed, removed),
// or, for a ranker that takes them, a delta of the notes alone or of
// their texts alone.
func (w *world) step(scoped bool) step {
	kind := w.rng.IntN(10)
	switch {
	case !scoped || kind < 4:
		ops := 1 + w.rng.IntN(6)
		if w.rng.IntN(8) == 0 {
			ops = 30 // a burst: a branch checked out
		}
		for range ops {
			files, notes := w.ids(core.DocFile), w.ids(core.DocNode, core.DocChunk)
			switch op := w.rng.IntN(9); {
			case op < 2 || len(files) < 10:
				w.addFile()
			case op < 4:
				w.changeFile(w.pick(files))
			case op < 5:
				w.remove(w.pick(files))
			case op < 6 || len(notes) < 10:
				w.addNote([]string{core.DocNode, core.DocChunk}[w.rng.IntN(2)], "")
			case op < 7:
				w.changeNote(w.pick(notes))
			default:
				w.remove(w.pick(notes))
			}
		}
		w.refreshModules()
		return step{"an incremental corpus", w.incremental()}
	case kind < 8:
		ops := 1 + w.rng.IntN(5)
		if w.rng.IntN(6) == 0 {
			ops = 40 // a session's chunks landing at once
		}
		for range ops {
			notes := w.ids(core.DocNode, core.DocChunk)
			switch op := w.rng.IntN(8); {
			case op < 3 || len(notes) < 10:
				w.addNote([]string{core.DocNode, core.DocChunk}[w.rng.IntN(2)], "")
			case op < 5:
				w.changeNote(w.pick(notes))
			case op < 6:
				w.relink(w.pick(notes)) // its edges alone change
			default:
				w.remove(w.pick(notes))
			}
		}
		return step{"a delta of the notes", w.scoped(false)}
	default:
		notes := w.ids(core.DocNode, core.DocChunk)
		for range 1 + w.rng.IntN(3) {
			w.rewriteText(w.pick(notes))
		}
		return step{"a delta of the notes' texts", w.scoped(true)}
	}
}

// tokensOf returns the words of d's title and text, and those of its
// names, which it keeps from one question to the next.
func (w *world) tokensOf(d core.Document) (text, names map[string]bool) {
	if c, ok := w.tokenCache[d.ID]; ok && same(c.doc, d) {
		return c.text, c.names
	}
	if w.tokenCache == nil {
		w.tokenCache = map[string]docTokens{}
	}
	c := docTokens{doc: d, text: set(tokens(d.Title + " " + d.Body)), names: set(tokens(strings.Join(d.Names, " ")))}
	w.tokenCache[d.ID] = c
	return c.text, c.names
}

type docTokens struct {
	doc         core.Document
	text, names map[string]bool
}

func set(words []string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[w] = true
	}
	return out
}

// tokens are the lower-case words of s, split at every character that is
// not a letter or a digit and at the humps of camel case.
func tokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = false
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			cur = append(cur, r)
			prevLower = true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}

// direct ranks the world's documents for q as a plain word matcher does:
// by the question's words each holds, in its title and text for one
// list, in its names for the other, a rarer word counting more. Its
// lists seed a seeded ranker, as the unseeded rankers' lists do in rubi.
func (w *world) direct(q core.Query) []core.RankedList {
	want := map[string]bool{}
	for _, t := range tokens(q.Text + " " + strings.Join(q.Terms, " ")) {
		want[t] = true
	}
	// Each word a document holds counts the more, the fewer hold it.
	texts, names := map[string]map[string]bool{}, map[string]map[string]bool{}
	df := map[string]int{}
	for id, d := range w.docs {
		texts[id], names[id] = w.tokensOf(d)
		for t := range want {
			if texts[id][t] || names[id][t] {
				df[t]++
			}
		}
	}
	words := slices.Sorted(maps.Keys(want)) // one order of the sum
	score := func(has map[string]bool) float64 {
		s := 0.0
		for _, t := range words {
			if has[t] {
				s += math.Log(1 + float64(len(w.docs))/float64(df[t]))
			}
		}
		return s
	}
	var byText, byName []core.Hit
	for _, id := range slices.Sorted(maps.Keys(w.docs)) {
		if s := score(texts[id]); s > 0 {
			byText = append(byText, core.Hit{ID: id, Score: s})
		}
		if s := score(names[id]); s > 0 {
			byName = append(byName, core.Hit{ID: id, Score: s})
		}
	}
	var lists []core.RankedList
	for _, l := range []core.RankedList{{Stage: "rank.text", Weight: 1, Hits: byText}, {Stage: "rank.name", Weight: 0.5, Hits: byName}} {
		slices.SortStableFunc(l.Hits, func(a, b core.Hit) int { return cmp.Compare(b.Score, a.Score) })
		l.Hits = l.Hits[:min(len(l.Hits), 10)]
		if len(l.Hits) > 0 {
			lists = append(lists, l)
		}
	}
	return lists
}

// queries draws questions about the world as it stands: the word of a
// document, of a removed one, words of the vocabulary, a name, with the
// agent's terms now and then, a filter of kinds, and limits small and
// large.
func (w *world) queries(n int) []core.Query {
	ids := slices.Sorted(maps.Keys(w.docs))
	var qs []core.Query
	for i := range n {
		var q core.Query
		switch i % 5 {
		case 0, 1:
			q.Text = "where is " + w.words[w.pick(slices.Sorted(maps.Keys(w.words)))]
		case 2:
			q.Text = w.pick(vocabulary) + " " + w.pick(vocabulary) + " " + w.pick(stopless) + " " + w.pick(vocabulary)
		case 3:
			d := w.docs[w.pick(ids)]
			if len(d.Names) > 0 {
				q.Text = d.Names[w.rng.IntN(len(d.Names))]
			} else {
				q.Text = d.Title
			}
		case 4:
			if len(w.gone) > 0 {
				q.Text = "what about " + w.gone[w.rng.IntN(len(w.gone))].Title
			} else {
				q.Text = w.pick(vocabulary)
			}
		}
		if w.rng.IntN(4) == 0 {
			q.Terms = []string{w.pick(vocabulary), w.ident()}
		}
		if w.rng.IntN(3) == 0 {
			all := []string{core.DocFile, core.DocModule, core.DocNode, core.DocChunk}
			w.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
			q.Kinds = all[:1+w.rng.IntN(2)]
		}
		q.Limit = []int{3, 10, 40}[w.rng.IntN(3)]
		qs = append(qs, q)
	}
	return qs
}

// plant adds a document of kind that a question of its word must find:
// the word is its title, its name and most of its text. A module is
// planted as a directory of that name with a file in it.
func (w *world) plant(kind string) string {
	_, word := w.next()
	var d core.Document
	switch kind {
	case core.DocModule:
		f := w.fileDoc(word+"/main.go", "")
		w.docs[f.ID] = f
		w.reimport(f.ID)
		w.refreshModules()
		id := core.DocID(core.DocModule, word)
		w.words[id] = word
		return id
	case core.DocFile:
		p := fmt.Sprintf("pkg%d/%s.go", w.rng.IntN(12), word)
		d = core.Document{ID: core.DocID(kind, p), Kind: kind, Path: p, Title: path.Base(p), Language: core.LangGo,
			Names: []string{word}, ModTime: w.now - 3600,
			Body: fmt.Sprintf("package x\n\n// %s: the %s %s.\nfunc %s() {}\n", word, word, w.pick(vocabulary), word)}
	default:
		key := fmt.Sprintf("s0/p%d", w.serial)
		if kind == core.DocNode {
			key = fmt.Sprintf("p%d", w.serial)
		}
		d = w.noteDoc(kind, key, word)
		d.Title, d.Names = word, []string{word}
		d.Body = fmt.Sprintf("%s: %s %s, %s.", word, word, w.pick(vocabulary), word)
	}
	w.docs[d.ID], w.words[d.ID] = d, word
	if kind == core.DocFile {
		w.reimport(d.ID)
	} else {
		w.relink(d.ID)
	}
	w.refreshModules()
	return d.ID
}

// neighbours are the documents an edge joins to id, either way.
func (w *world) neighbours(id string) map[string]bool {
	out := map[string]bool{}
	for _, es := range w.from {
		for _, e := range es {
			if e.From == id {
				out[e.To] = true
			}
			if e.To == id {
				out[e.From] = true
			}
		}
	}
	return out
}

// snapshot is the world's documents as they stand, for checking the
// answers of a ranker left at this point while the world moves on.
func (w *world) snapshot() *world {
	c := *w
	c.docs, c.words, c.from = maps.Clone(w.docs), maps.Clone(w.words), maps.Clone(w.from)
	c.gone = slices.Clone(w.gone)
	c.rng = rand.New(rand.NewPCG(uint64(w.serial), 1))
	return &c
}

// everyWord asks for each word the world is written in, one at a time:
// every token of every document's path, title, names and text, and each
// identifier whole. A ranker whose state was damaged answers one of them
// otherwise, unless the damage is harmless.
func (w *world) everyWord() []core.Query {
	set := map[string]bool{}
	for _, d := range w.docs {
		text := d.Path + " " + d.Title + " " + d.Body + " " + strings.Join(d.Names, " ")
		for _, t := range tokens(text) {
			set[t] = true
		}
		// Identifiers whole, as compound terms are indexed.
		for _, f := range strings.FieldsFunc(text, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			set[f] = true
		}
	}
	words := slices.Sorted(maps.Keys(set))
	qs := make([]core.Query, len(words))
	for i, word := range words {
		qs[i] = core.Query{Text: word, Limit: 1000}
	}
	return qs
}
