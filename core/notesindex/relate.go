package notesindex

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/text"
)

// Notes and conversation chunks that belong together are linked without
// anyone saying so, for the graph ranker to follow from a match to what
// surrounds it (LoCoMo: a question's words match one turn, the answer is
// the next one; a multi-hop question needs the other turns about the same
// person or place):
//
//   - the same session: chunks of one session, in the order they were
//     written (by time, then by their place in the session: chunks saved
//     in the same second are never ordered by chance), each linked to
//     the next two; notes, which carry no session,
//     when one was written within sittingGap of the one before;
//   - the same rare entity (HippoRAG's passages linked through the
//     entities they share): the names a note or chunk holds — people,
//     places and products written with a capital inside a sentence,
//     tickets, paths, identifiers, and the files, symbols and tags it
//     declares — each linking the documents that name it when at most
//     index.link_entities do, a name's links sharing one unit of weight so
//     that a document's share is the same however many others name it.
//
// One pass over the texts, a map of names and the edges: linear in the
// text, and in the documents times link_entities.

// item is a note or a chunk as relate sees it.
type item struct {
	id      string    // document id
	session string    // the session it was written in; "" for a note
	at      time.Time // when it was written
	text    string    // title and body
	// note, when set, stands for text and names: they are read from it
	// only if its names must be read again.
	note  *notes.Note
	names []string // the files, symbols, tags, tickets it declares
	// stamp is the version of the document (its stamp in the notes'
	// state); mentions, when set, are the names it holds as mentionsOf
	// finds them, kept from the run that last scanned that version.
	stamp    string
	mentions []mention
}

// mention is a name an item holds: its key (lowercase), its form as
// first written there, and whether it is surely a name (declared, or
// written as a name inside a sentence somewhere in the item).
type mention struct {
	key, display string
	strong       bool
}

// mentionsOf lists the names an item holds, each once, in the order they
// first appear: the names it declares, then those scanNames finds in its
// text. Reading them is most of what relating costs, so the notes' state
// keeps them per version of a document (State).
func mentionsOf(it item) []mention {
	var out []mention
	at := map[string]int{}
	add := func(key, display string, strong bool) {
		if k, ok := at[key]; ok {
			out[k].strong = out[k].strong || strong
			return
		}
		at[key] = len(out)
		out = append(out, mention{key, display, strong})
	}
	names, text := it.names, it.text
	if it.note != nil {
		names, text = it.note.Mentions()
	}
	for _, n := range names {
		if k := strings.ToLower(strings.TrimSpace(n)); utf8.RuneCountInString(k) >= minEntityRune {
			add(k, n, true)
		}
	}
	scanNames(text, add)
	if out == nil {
		out = []mention{} // scanned, and nothing found
	}
	return out
}

// sittingGap is the most time between two notes written one after the
// other in one sitting: an agent registers what it learned minutes apart.
// Notes written in the same second are a bulk import, not a sitting.
const sittingGap = 30 * time.Minute

// Weights of the edges relate adds, against 1 for a link a note writes.
const (
	nextWeight    = 1.0 // a turn and the one after it
	secondWeight  = 0.5 // a turn and the one two places after
	entityWeight  = 1.0 // shared by the links of one name
	minEntityRune = 2   // a name is at least two letters
	rareShare     = 32  // a rare name is named by at most 1 in rareShare items
	namesPerDoc   = 4   // the rarest names of an item that link it
)

// nodeItems are the active notes as relate sees them.
func nodeItems(nodes []*notes.Note) []item {
	items := make([]item, 0, len(nodes))
	for _, n := range nodes {
		if !n.Active {
			continue
		}
		items = append(items, item{id: n.ID, at: n.Created, note: n})
	}
	return items
}

// relatedEdges links the items that belong together: the same session
// when sessions is set, the same rare entity when maxDocs > 1.
func relatedEdges(items []item, sessions bool, maxDocs int) []core.Edge {
	var edges []core.Edge
	if sessions {
		edges = sessionEdges(items)
	}
	if maxDocs > 1 {
		edges = append(edges, entityEdges(items, maxDocs)...)
	}
	return edges
}

// sessionEdges links each item to the next two of its session, in the
// order they were written; items without a session form sittings.
func sessionEdges(items []item) []core.Edge {
	groups := map[string][]int{}
	var loose []int
	for i, it := range items {
		if it.session != "" {
			groups[it.session] = append(groups[it.session], i)
		} else if !it.at.IsZero() {
			loose = append(loose, i)
		}
	}
	byTime := func(a, b int) int {
		return cmp.Or(items[a].at.Compare(items[b].at), strings.Compare(items[a].id, items[b].id))
	}
	var edges []core.Edge
	link := func(a, b int, w float64, label string) {
		edges = append(edges, core.Edge{From: items[b].id, To: items[a].id, Kind: core.EdgeSession, Weight: w, Label: label})
	}
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		slices.SortFunc(g, byTime)
		for k := range g {
			if k+1 < len(g) {
				link(g[k], g[k+1], nextWeight, "same session as")
			}
			if k+2 < len(g) {
				link(g[k], g[k+2], secondWeight, "same session as")
			}
		}
	}
	slices.SortFunc(loose, byTime)
	for k := 0; k+1 < len(loose); k++ {
		a, b := items[loose[k]], items[loose[k+1]]
		if gap := b.at.Sub(a.at); gap >= time.Second && gap <= sittingGap {
			link(loose[k], loose[k+1], nextWeight, "written minutes after")
		}
	}
	return edges
}

// entityEdges links the items that name the same entity, when 2 to
// maxDocs of them do, and at most one in rareShare of all (at least 2):
// rare is relative to the collection, and a name that 8 of 25 session
// logs share is a common one (linking them cost a fifth of the first
// places on LoCoMo's sessions). Two items sharing several names get one
// edge, the sum of their weights, labelled with the rarest name.
func entityEdges(items []item, maxDocs int) []core.Edge {
	maxDocs = min(maxDocs, max(2, len(items)/rareShare))
	type named struct {
		display string
		docs    []int32
		strong  bool // written as a name somewhere other than a sentence's start
	}
	byKey := map[string]*named{}
	for i, it := range items {
		ms := it.mentions
		if ms == nil {
			ms = mentionsOf(it)
		}
		for _, mn := range ms {
			m := byKey[mn.key]
			if m == nil {
				m = &named{display: mn.display}
				byKey[mn.key] = m
			}
			m.strong = m.strong || mn.strong
			m.docs = append(m.docs, int32(i)) // each item names a key once
		}
	}
	type pair struct{ a, b int32 }
	type link struct {
		w     float64
		label string
		df    int
	}
	// Each item keeps its namesPerDoc rarest names: a long log names
	// dozens, and linking it through all of them would tie it to every
	// other log.
	keys := slices.Sorted(maps.Keys(byKey))
	kept := make([][]string, len(items))
	for _, key := range keys {
		m := byKey[key]
		if df := len(m.docs); !m.strong || df < 2 || df > maxDocs {
			continue
		}
		for _, d := range m.docs {
			kept[d] = append(kept[d], key)
		}
	}
	keep := map[string][]int32{}
	for d, ks := range kept {
		slices.SortStableFunc(ks, func(a, b string) int { return len(byKey[a].docs) - len(byKey[b].docs) })
		for _, key := range ks[:min(len(ks), namesPerDoc)] {
			keep[key] = append(keep[key], int32(d))
		}
	}
	links := map[pair]*link{}
	for _, key := range keys {
		m := byKey[key]
		docs := keep[key]
		df := len(docs)
		if df < 2 {
			continue
		}
		w := entityWeight / float64(df-1)
		for x := 0; x < df; x++ {
			for y := x + 1; y < df; y++ {
				p := pair{docs[x], docs[y]}
				l := links[p]
				if l == nil {
					l = &link{df: df + 1}
					links[p] = l
				}
				l.w += w
				if df < l.df {
					l.df, l.label = df, fmt.Sprintf("both mention %q with", m.display)
				}
			}
		}
	}
	edges := make([]core.Edge, 0, len(links))
	for p, l := range links {
		edges = append(edges, core.Edge{From: items[p.b].id, To: items[p.a].id, Kind: core.EdgeMentions, Weight: l.w, Label: l.label})
	}
	slices.SortFunc(edges, func(a, b core.Edge) int { return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To)) })
	return edges
}

// scanNames finds the names s holds and calls add with each one's key
// (lowercase), its form as written, and whether it is surely a name:
//
//   - identifiers, paths and tickets (a '_', '/' or '.' between letters,
//     a capital after a lowercase letter, letters and digits joined by
//     '-': `parseConfig`, `core/when`, `PROJ-42`) wherever they are;
//   - words written with a capital (`Sweden`, `LGBTQ`), runs of them as
//     one name too (`Pride Parade`): sure inside a sentence, and at a
//     sentence's start only as a guess that another place confirms
//     ("Thanks" starts many sentences and is no name).
//
// Stopwords, "I" and its contractions, numbers and one-letter words are
// no names. It reads s once.
func scanNames(s string, add func(key, display string, strong bool)) {
	start := true // at a sentence's start
	var run []string
	runStart := false
	flush := func() {
		if len(run) > 1 {
			display := strings.Join(run, " ")
			add(strings.ToLower(display), display, !runStart)
		}
		run = run[:0]
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			switch {
			case r == '.' || r == '!' || r == '?' || r == '\n' || r == ':' || r == ';' || r == '"' || r == '(' || r == '[' || r == '“':
				flush()
				start = true
			case r == ',' || r == ')' || r == ']' || r == '”':
				flush()
			case r == ' ' || r == '\t':
			default:
				flush()
			}
			i += size
			continue
		}
		j := i + size
		for j < len(s) {
			r2, n := utf8.DecodeRuneInString(s[j:])
			if isWordRune(r2) {
				j += n
				continue
			}
			// Joiners stay inside a word when a letter or digit follows.
			if strings.ContainsRune("_/.-'’", r2) && j+n < len(s) {
				if r3, _ := utf8.DecodeRuneInString(s[j+n:]); isWordRune(r3) {
					j += n
					continue
				}
			}
			break
		}
		word := s[i:j]
		i = j
		atStart := start
		start = false
		if plainLower(word) {
			// Most words: neither a name nor code.
			flush()
			continue
		}
		word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
		if codeLike(word) {
			flush()
			add(strings.ToLower(word), word, true)
			continue
		}
		first, _ := utf8.DecodeRuneInString(word)
		if !unicode.IsUpper(first) || utf8.RuneCountInString(word) < minEntityRune {
			flush()
			continue
		}
		lower := strings.ToLower(word)
		if text.IsStopword(lower) || isFirstPerson(lower) || !hasLetter(word) {
			flush()
			continue
		}
		if len(run) == 0 {
			runStart = atStart
		}
		run = append(run, word)
		add(lower, word, !atStart)
	}
	flush()
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// plainLower says w is ASCII lowercase letters, and an apostrophe's
// contraction: a word of prose.
func plainLower(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || c == '\'' && i > 0) {
			return false
		}
	}
	return true
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// isFirstPerson says a capitalized word is "I" or one of its contractions.
func isFirstPerson(w string) bool {
	switch strings.ReplaceAll(w, "’", "'") {
	case "i'm", "i've", "i'll", "i'd":
		return true
	}
	return false
}

// codeLike says a word is an identifier, a path or a ticket rather than
// prose: a '_', '/' or '.' inside it (not a version or a number), a
// capital after a lowercase letter, or letters and digits joined by '-'.
func codeLike(w string) bool {
	if !hasLetter(w) {
		return false
	}
	if strings.ContainsAny(w, "_/") {
		return true
	}
	if k := strings.IndexByte(w, '.'); k > 0 {
		// file.go, pkg.Func; not "e.g" (a letter each side only)
		return len(w)-k > 2 || k > 1
	}
	prevLower := false
	for _, r := range w {
		if unicode.IsUpper(r) && prevLower {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	if a, b, ok := strings.Cut(w, "-"); ok && a != "" && b != "" {
		return strings.IndexFunc(a, unicode.IsLetter) >= 0 && strings.IndexFunc(b, unicode.IsDigit) >= 0
	}
	return false
}
