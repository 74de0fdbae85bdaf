package core

import (
	"context"
	"strconv"
	"time"

	"github.com/rubi-dev/rubi/core/query"
)

// Reranker reorders the fused list of one query. Rerankers run after the
// fuser, in the order rubi.hcl declares them, each on the list the one
// before it returned: the priors of file roles, the notes lifted beside
// files, the units chosen under each file, the floor a match must reach.
// They are built-ins only: what they weigh (a file's role, a note's
// match, a file's symbols and lines) is the engine's own knowledge of the
// project, which the plugin protocol does not carry.
type Reranker interface {
	Stage
	// Rerank returns the list in its new order and what it did to the
	// hits it changed. It may drop hits (a floor) but adds none.
	Rerank(ctx context.Context, r Rerank) (Reranked, error)
}

// Rerank is what a reranker is given: one query's fused list and the
// lists it was fused from.
type Rerank struct {
	// Query is the question; its Seeds are the lists of the rankers of
	// the question's own words, as a seeded ranker gets them.
	Query Query `json:"query"`
	// Lists are every list the fuser merged, in the order it got them.
	Lists []RankedList `json:"lists"`
	// Hits is the list to rerank: the fuser's, as the rerankers before
	// this one left it.
	Hits []Hit `json:"hits"`
	// Keep says the caller decides itself which hits enter its answer: a
	// reranker that would leave a hit out marks it Weak instead.
	Keep bool `json:"keep,omitempty"`
	// Limit is how many items the answer shows at most (Query.Limit is
	// how deep the rankers ranked, which is more).
	Limit int `json:"limit,omitempty"`
}

// Reranked is a reranker's answer.
type Reranked struct {
	Hits []Hit `json:"hits"`
	// Effects says, by document id, what the reranker did to each hit it
	// changed; `rubi context --explain` shows it under the stage's name.
	Effects map[string]Effect `json:"effects,omitempty"`
	// Units, from a reranker that reorders what is under each file rather
	// than the list (rerank.units), chooses the functions and classes the
	// answer lists under each file it shows; nil leaves them as they are.
	Units Units `json:"-"`
}

// Units chooses, for one query, the units an answer lists under a file:
// those of the files the reranker read, ranked by their lines, are chosen
// already; any other file the answer shows has its units chosen from its
// symbols alone, when it is shown, so that a file left out costs nothing.
type Units interface {
	// Of returns the units to open in the indexed file at path, whose
	// symbols are syms, best first.
	Of(path string, syms []Symbol) []Unit
	// First returns the units to open first across the files the
	// reranker read, best first by a score comparable across files,
	// each with its Path; nil when it lists none.
	First() []Unit
}

// Unit is a function, method or class of a file that an answer points
// to, with its line range and why it is there.
type Unit struct {
	// Path is the unit's file, set in a listing across files (Units.First);
	// under a file's item it is that file.
	Path string `json:"path,omitempty"`
	// Name is qualified by its enclosing type: "Session.send".
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Why     string `json:"why,omitempty"`
	// Score orders a listing across files (Units.First): the same for a
	// unit wherever it is read, so units of different files compare.
	Score float64 `json:"score,omitempty"`
	// Parts are what each of the reranker's settings added to Score, by
	// the setting's name, as --explain shows them.
	Parts map[string]float64 `json:"parts,omitempty"`
}

// Effect is what a reranker did to one hit.
type Effect struct {
	// Factor is what the hit's score was multiplied by; 0 when the
	// reranker did not rescale it.
	Factor float64 `json:"factor,omitempty"`
	// From is the 1-based place the hit held before the reranker moved
	// it; 0 when it did not move it.
	From int `json:"from,omitempty"`
	// Reason says why, in the words an answer's "why" line uses.
	Reason string `json:"reason,omitempty"`
	// Weak marks a hit the reranker would have left out, for a caller
	// that keeps every hit (Rerank.Keep).
	Weak bool `json:"weak,omitempty"`
}

// Facts is what the engine knows of one query beyond the ranked lists:
// the question's analysis, the files the index holds (their symbols, and
// their lines as they are now), the notes the query admits, when notes
// and chunks were written. The built-in stages that order an answer by
// them (query.paths, notes.files, query.time, the rerankers) are given it
// through FactRanker and FactReranker; a subprocess plugin declared in
// their place is a plain ranker and ranks from what Query carries.
type Facts interface {
	// Question is the question as asked, before its analysis.
	Question() string
	// Analysis is the question's analysis (query.Analyze), its intent
	// set to tests when the agent's terms ask for them.
	Analysis() *query.Analysis
	// File reports what the index holds of an indexed file; false for a
	// file it does not hold, or with no code map to read.
	File(path string) (FileInfo, bool)
	// EachPath calls fn with every indexed file's path until it returns
	// false.
	EachPath(fn func(path string) bool)
	// Keeps reports whether the query's filters (a path prefix, a module,
	// a time window) keep the indexed file at path; false for a file the
	// index does not hold.
	Keeps(path string) bool
	// Symbols returns an indexed file's symbols as the index holds them,
	// to a reranker (a ranker runs before the answer reads the symbols
	// file, and is given none). Its error is the index's: another process re-indexed and removed
	// the generation the query reads (manifest.IsGenerationGone), or the
	// symbols file is damaged (manifest.ErrSymbolsDamaged); the engine
	// then makes the answer again.
	Symbols(path string) ([]Symbol, error)
	// Read returns the first limit bytes, at most, of an indexed file as
	// it is on disk now, read as rubi reads every file of a repository
	// (never through a link, a regular file only); nil when it cannot be
	// read. It may be called from several goroutines at once.
	Read(path string, limit int64) []byte
	// Note returns a knowledge note's title and the files it is about,
	// when the query admits the note.
	Note(key string) (title string, files []string, ok bool)
	// NoteType is a knowledge note's type (decision, gotcha, note, …),
	// read from the note whatever the query admits; "" when it cannot be
	// read.
	NoteType(key string) string
	// Time is when a note or a conversation chunk was written; zero when
	// unknown.
	Time(id string) time.Time
	// Now is the time the question is asked at ("last week" counts from
	// it).
	Now() time.Time
	// Uses returns the references the index holds to the definitions a
	// target names, the way `rubi refs` resolves one (Name, Type.method,
	// pkg.Func, PATH::Name), but an ambiguous name stands for all its
	// definitions. A target that names none, or an index that keeps no
	// references, has none; the error is the index's (a damaged table).
	Uses(target string) (SymbolUses, error)
	// Calls returns what the unit from (a qualified name) of the file at
	// path calls or uses, as the index's references have it.
	Calls(path, from string) ([]Callee, error)
}

// SymbolUses are the references to the definitions a target names: a
// question asking what calls or uses a symbol is answered with them.
type SymbolUses struct {
	// Defs are the definitions the target named, best first (as `rubi
	// read` orders candidates): one, or every one of an ambiguous name.
	Defs []UsedDef
	// Sites are the references to them, by file, then line.
	Sites []UseSite
}

// UsedDef is a definition a target named: its file and qualified name.
type UsedDef struct {
	Path string
	Name string
	Line int
}

// UseSite is one reference: the file and line it is at, the qualified
// name of the function, method or class it sits in (From; empty at a
// file's top level), whether it calls, and which definition it uses
// (Defs' index).
type UseSite struct {
	Path string
	Line int
	From string
	Call bool
	Def  int
}

// Callee is a definition a unit calls or uses: its file and qualified
// name, and the line of the use in the unit's file.
type Callee struct {
	Path string
	Name string
	Line int
	Call bool
}

// Why says what the use does, name being the definition's: "calls
// Cart.Total at line 5", "uses Engine at line 12".
func (s UseSite) Why(name string) string {
	verb := "uses "
	if s.Call {
		verb = "calls "
	}
	return verb + name + " at line " + strconv.Itoa(s.Line)
}

// FileInfo is what the index knows of a file before any query.
type FileInfo struct {
	// Role is the file's role (codemap.Roles: code, test, docs, ...).
	Role string
	// Language is the parser language of a source file, "" for others.
	Language string
	// Size is the file's size in bytes when it was indexed.
	Size int64
}

// FactRanker is a ranker that ranks from the engine's facts of a query
// (the paths it names, the notes it finds, the time it names). The
// engine calls RankFacts instead of Rank when it has the facts.
type FactRanker interface {
	RankFacts(ctx context.Context, q Query, facts Facts) ([]Hit, error)
}

// FactReranker is a reranker that reorders by the engine's facts of a
// query (a file's role, its symbols and lines). The engine calls
// RerankFacts instead of Rerank.
type FactReranker interface {
	RerankFacts(ctx context.Context, r Rerank, facts Facts) (Reranked, error)
}
