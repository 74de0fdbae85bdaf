// Package answer is what rubi hands an agent for one question: a Result,
// the items the question's matches make, fitted to a token budget, and its
// text forms.
//
// An answer is made from what the engine (core/pipeline) ranked: the
// fused list as the rerankers left it, every ranker's own list (each item
// says which rankers found it, and why, strongest first), what each
// reranker did to each item, and the units rerank.units chose under each
// file. Pack walks the list best first and turns each match into an item,
// one kind of document at a time, through Documents, which the engine
// gives over its index: a file with its symbols and units, a module with
// its summary, a knowledge note as its file is now (with what changed in
// the code it is about), a conversation chunk, a source's item. A
// document gone since the index, or one the query's filters leave out,
// is passed over; the same text under another id is shown once.
//
// The budget is a ceiling, not a cut-off point: an item's tokens are
// estimated from exactly the text the compact form prints, the footer
// keeps its share, and an item that does not fit is skipped while a
// smaller one after it may still go in; after a few misses in a row, and
// past the item limit, matches are only counted (Result.Omitted), without
// reading or rendering them, so a query's cost stays bounded by what it
// can show. The floor (rerank.floor) has left weak matches out already;
// a caller that decides itself (Query.Admit, the recall hook) is given
// each item with the floor's mark, before the item takes any budget.
//
// Result.Text is the compact form agents read: one numbered line per item
// with its reasons, the item's text indented below, a footer with the
// count, the tokens and the next step. A repository names its files,
// symbols and notes, so every name it supplies is escaped (text.Escape):
// none can start a line of the answer's own.
package answer

import (
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
)

// Query is a retrieval request.
type Query struct {
	Text string
	// Terms are the agent's extra words: synonyms, related concepts,
	// likely identifiers.
	Terms []string
	// Budget is the token budget of the result; 0 means budgets.context.
	Budget int
	// Limit caps the number of items; 0 means DefaultLimit.
	Limit int
	// Kinds restricts results to these document kinds.
	Kinds []string
	// PathPrefix keeps files and modules under this path, and nodes about
	// a file under it.
	PathPrefix string
	// Module keeps the module, its files and the nodes about them.
	Module string
	// NodeTypes keeps knowledge nodes of these types (decision, bug,
	// gotcha, concept, …); files and modules are not affected.
	NodeTypes []string
	// Statuses are the node statuses to show; empty means active only, so
	// superseded and retracted nodes stay out unless asked for.
	Statuses []string
	// Since and Until keep files modified and nodes updated in the window
	// (either may be zero); modules, which have no time, are left out
	// when a window is given.
	Since, Until time.Time
	// Admit, when set, decides in place of the floor (rerank.floor)
	// which items enter the answer, given the item as it would be shown
	// and whether it reaches the floor (true when no floor is enabled);
	// it runs before the item is fitted to the budget, so an item it
	// leaves out takes none of it.
	Admit func(it *Item, strong bool) bool `json:"-"`
}

// DefaultLimit is how many items a result holds at most unless asked.
const DefaultLimit = 10

// MemoryKinds are the kinds of the project's memory: knowledge notes and
// conversation chunks. The recall hook recalls them, ranked as any query
// for them is.
var MemoryKinds = []string{core.DocNode, core.DocChunk}

// MemoryOnly reports a query that can be answered from the project's
// memory alone (notes, chunks, or both, with no path or module to keep
// them to), without the code map's manifest.
func (q Query) MemoryOnly() bool {
	if len(q.Kinds) == 0 || q.PathPrefix != "" || q.Module != "" {
		return false
	}
	for _, k := range q.Kinds {
		if !slices.Contains(MemoryKinds, k) {
			return false
		}
	}
	return true
}

// Filtered reports whether the query filters beyond kinds, so rankers are
// asked for more hits to filter from.
func (q Query) Filtered() bool {
	return q.PathPrefix != "" || q.Module != "" || len(q.NodeTypes) > 0 || len(q.Statuses) > 0 || !q.Since.IsZero() || !q.Until.IsZero()
}

// Accepts reports whether the query asks for documents of kind.
func (q Query) Accepts(kind string) bool {
	return len(q.Kinds) == 0 || slices.Contains(q.Kinds, kind)
}

// KeepsFile reports whether the query's filters (its path prefix, its
// module, its time window) keep an indexed file.
func (q Query) KeepsFile(rec *manifest.Record) bool {
	return q.underPath(rec.Path) && (q.Module == "" || rec.Module == q.Module) && q.inWindow(time.Unix(0, rec.ModTime))
}

// NoteFilter is the query's filter of notes; m answers a module filter.
func (q Query) NoteFilter(m *manifest.Manifest) notes.Filter {
	f := notes.Filter{Statuses: q.Statuses, Types: q.NodeTypes, Since: q.Since, Until: q.Until, Module: q.Module != ""}
	if q.PathPrefix != "" || q.Module != "" {
		f.InScope = func(file string) bool {
			if !q.underPath(file) {
				return false
			}
			if q.Module == "" {
				return true
			}
			rec, ok := m.File(file)
			return ok && rec.Module == q.Module
		}
	}
	return f
}

// windowed reports whether the query keeps a time window.
func (q Query) windowed() bool { return !q.Since.IsZero() || !q.Until.IsZero() }

// inWindow reports whether t falls in the query's time window.
func (q Query) inWindow(t time.Time) bool {
	return (q.Since.IsZero() || !t.Before(q.Since)) && (q.Until.IsZero() || !t.After(q.Until))
}

// underPath reports whether p is the query's path prefix or below it.
func (q Query) underPath(p string) bool {
	pre := strings.TrimSuffix(q.PathPrefix, "/")
	return pre == "" || p == pre || strings.HasPrefix(p, pre+"/")
}

// Item is one result.
type Item struct {
	ID    string  `json:"id"`
	Kind  string  `json:"kind"`
	Path  string  `json:"path,omitempty"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	// Reasons say why the item is here, strongest first.
	Reasons []string `json:"reasons"`
	// Scores holds each ranker's own score for the item.
	Scores map[string]float64 `json:"scores"`
	// Text is what an agent reads for this item; Tokens estimates it.
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
	// Stale lists, for a knowledge node, what changed in the code it is
	// about since it was written.
	Stale []string `json:"stale,omitempty"`
	// Role is a file's role in the project (code, test, docs, config,
	// build, data, vendored, generated).
	Role string `json:"role,omitempty"`
	// Units are, for a file, the functions, methods and classes to open,
	// best first, each with its line range and why it is there
	// (rerank.units chose them).
	Units []core.Unit `json:"units,omitempty"`
	// Reranked says what each reranker that changed the item did to it,
	// in pipeline order.
	Reranked []Reranked `json:"reranked,omitempty"`
}

// Reranked is what a reranker did to an item.
type Reranked struct {
	Stage string `json:"stage"`
	// Factor multiplied the item's score (0: not rescaled).
	Factor float64 `json:"factor,omitempty"`
	// From is the 1-based place the item held before the reranker moved
	// it (0: not moved).
	From int `json:"from,omitempty"`
	// Reason is the reranker's word on it, for the item's reasons; it is
	// not part of the item's JSON, whose reasons hold it.
	Reason string `json:"-"`
}

// Result is a packed answer.
type Result struct {
	Query string   `json:"query"`
	Terms []string `json:"terms,omitempty"`
	// OpenFirst are the units to open first across the files shown, best
	// first by a score comparable across files (rerank.units), each with
	// its path; the items list each file's own under it too.
	OpenFirst []core.Unit `json:"open_first,omitempty"`
	// OpenFirstTokens estimates the listing's text; Tokens is it and the
	// items' together.
	OpenFirstTokens int    `json:"open_first_tokens,omitempty"`
	Items           []Item `json:"items"`
	Tokens          int    `json:"tokens"`
	Budget          int    `json:"budget"`
	// Omitted counts matches left out by the budget or the limit.
	Omitted  int      `json:"omitted"`
	Problems []string `json:"problems,omitempty"`
}
