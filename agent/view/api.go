package view

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// api adds the JSON routes: what the pages draw, as data.
func (s *Server) api(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/map", s.json(s.mapData))
	mux.HandleFunc("GET /api/module", s.json(s.moduleData))
	mux.HandleFunc("GET /api/file", s.json(s.fileData))
	mux.HandleFunc("GET /api/notes", s.json(s.notesData))
	mux.HandleFunc("GET /api/note", s.json(s.noteData))
	mux.HandleFunc("GET /api/timeline", s.json(s.timelineData))
	mux.HandleFunc("GET /api/search", s.json(s.searchData))
	mux.HandleFunc("GET /api/tokens", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(struct {
			Xray bool `json:"xray"`
			Days int  `json:"days"`
		}{s.xray != nil, s.days})
	})
}

// httpError is an error with the status to answer it with.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func notFound(msg string) error   { return &httpError{http.StatusNotFound, msg} }
func badRequest(msg string) error { return &httpError{http.StatusBadRequest, msg} }

// json answers a route with what get returns, encoded, or its error as
// {"error": "..."}; the engine is read by one request at a time.
func (s *Server) json(get func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		v, err := get(r)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		status := http.StatusOK
		if err != nil {
			status = http.StatusInternalServerError
			var he *httpError
			if errors.As(err, &he) {
				status = he.status
			}
			v = map[string]string{"error": err.Error()}
		}
		w.WriteHeader(status)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(true)
		if err := enc.Encode(v); err != nil {
			s.logger.Debug("api", "path", r.URL.Path, "error", err)
		}
	}
}

// Module is a module of the map: its size, main language and role, and
// its neighbours.
type Module struct {
	Name     string  `json:"name"`
	Files    int     `json:"files"`
	PageRank float64 `json:"pagerank"`
	Language string  `json:"language"`
	// Test marks a module of tests.
	Test      bool     `json:"test"`
	Central   []string `json:"central"`
	DependsOn []string `json:"depends_on"`
	UsedBy    []string `json:"used_by"`
}

// ModuleEdge says how many imports and references go from one module to
// another.
type ModuleEdge struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Imports int    `json:"imports"`
	Refs    int    `json:"refs"`
}

// Map is /api/map: every module, most central first, and the edges
// between them (references where the index keeps them).
type Map struct {
	Modules   []Module     `json:"modules"`
	Edges     []ModuleEdge `json:"edges"`
	Languages []string     `json:"languages"`
	Files     int          `json:"files"`
}

func (s *Server) mapData(*http.Request) (any, error) {
	g, err := s.eng.Graph()
	if err != nil {
		return nil, err
	}
	d, err := s.eng.Draw(codemap.DrawOptions{Limit: 0})
	if err != nil {
		return nil, err
	}
	out := &Map{Modules: []Module{}, Edges: []ModuleEdge{}, Languages: []string{}, Files: len(g.Files)}
	groups := map[string]codemap.DrawGroup{}
	names := map[string]string{}
	for _, gr := range d.Groups {
		name := core.EscapePath(gr.Name)
		groups[name] = gr
		names[gr.ID] = name
	}
	for _, m := range g.Modules {
		gr := groups[m.Name]
		out.Modules = append(out.Modules, Module{Name: m.Name, Files: m.Files, PageRank: m.PageRank, Language: gr.Language, Test: gr.Test, Central: m.Central, DependsOn: m.DependsOn, UsedBy: m.UsedBy})
	}
	for _, e := range d.Edges {
		out.Edges = append(out.Edges, ModuleEdge{From: names[e.From], To: names[e.To], Imports: e.Imports, Refs: e.Refs})
	}
	for _, l := range d.Languages {
		if l != "" {
			out.Languages = append(out.Languages, l)
		}
	}
	return out, nil
}

// File is a file as the map shows it: /api/file, and the files of
// /api/module (without symbols and notes there).
type File struct {
	Path     string                 `json:"path"`
	Language string                 `json:"language"`
	Module   string                 `json:"module"`
	PageRank float64                `json:"pagerank"`
	Symbols  []pipeline.GraphSymbol `json:"symbols,omitempty"`
	Notes    []Note                 `json:"notes,omitempty"`
}

// ModulePage is /api/module?name=: the module's files, most central
// first, its neighbours and its level-1 page (exports among it).
type ModulePage struct {
	Module
	FileList []File `json:"file_list"`
	// Page is the module's page (.rubi/modules/), as rubi map MODULE
	// prints it: the repository's text, to show as text.
	Page string `json:"page"`
}

func (s *Server) moduleData(r *http.Request) (any, error) {
	name := r.URL.Query().Get("name")
	if name == "" {
		return nil, badRequest("name the module: /api/module?name=MODULE")
	}
	g, err := s.eng.Graph()
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(g.Modules, func(m pipeline.GraphModule) bool { return m.Name == name })
	if i < 0 {
		return nil, notFound("no module " + quote(name))
	}
	m := g.Modules[i]
	out := &ModulePage{Module: Module{Name: m.Name, Files: m.Files, PageRank: m.PageRank, Central: m.Central, DependsOn: m.DependsOn, UsedBy: m.UsedBy}, FileList: []File{}}
	for _, f := range g.Files {
		if f.Module == name {
			out.FileList = append(out.FileList, File{Path: f.Path, Language: f.Lang, Module: f.Module, PageRank: f.PageRank})
		}
	}
	slices.SortStableFunc(out.FileList, func(a, b File) int { return cmp.Compare(b.PageRank, a.PageRank) })
	if out.Page, err = s.eng.MapText(name); err != nil {
		out.Page = ""
	}
	return out, nil
}

func (s *Server) fileData(r *http.Request) (any, error) {
	path := r.URL.Query().Get("path")
	if path == "" {
		return nil, badRequest("name the file: /api/file?path=PATH")
	}
	g, err := s.eng.Graph()
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(g.Files, func(f pipeline.GraphFile) bool { return f.Path == path })
	if i < 0 {
		return nil, notFound("no file " + quote(path) + " in the index")
	}
	f := g.Files[i]
	out := &File{Path: f.Path, Language: f.Lang, Module: f.Module, PageRank: f.PageRank, Symbols: f.Symbols, Notes: []Note{}}
	nodes, _ := s.eng.Project().Knowledge().Nodes()
	for _, n := range nodes {
		if about(n, path) {
			out.Notes = append(out.Notes, s.note(n, false))
		}
	}
	return out, nil
}

// about reports whether a note names the file (its files, or a link to
// it); path is escaped as the graph's are.
func about(n *knowledge.Node, path string) bool {
	for _, f := range n.Files {
		if core.EscapePath(f) == path {
			return true
		}
	}
	for _, l := range n.Links {
		if t, ok := strings.CutPrefix(l.Target, "file:"); ok && core.EscapePath(t) == path {
			return true
		}
	}
	return false
}

// Note is a knowledge node as the view lists it. Its text is the
// repository's: the pages show it as text.
type Note struct {
	// ID is the node's id, "personal:"-prefixed for the personal vault's.
	ID         string `json:"id"`
	Type       string `json:"type"`
	Status     string `json:"status"`
	Importance string `json:"importance"`
	Title      string `json:"title"`
	// Files are the files the note names, the first MaxNoteFiles of
	// FilesTotal.
	Files      []string         `json:"files"`
	FilesTotal int              `json:"files_total"`
	Symbols    []string         `json:"symbols"`
	Links      []knowledge.Link `json:"links"`
	Tags       []string         `json:"tags"`
	Created    time.Time        `json:"created"`
	Updated    time.Time        `json:"updated"`
	Personal   bool             `json:"personal,omitempty"`
	// Stale says what changed in the code the note is about since it
	// was written (empty: nothing, or not asked).
	Stale []string `json:"stale"`
	// SupersededBy is the note that replaced this one.
	SupersededBy string `json:"superseded_by,omitempty"`
	// Body is the note's text (/api/note only).
	Body string `json:"body,omitempty"`
	// Repository marks a note the repository supplied rather than one
	// rubi wrote for this user: quoted, never rubi's word.
	Repository bool `json:"repository"`
}

// MaxNoteFiles caps the files a note lists in the API: a note may name
// thousands, and a page drawing them all would stall.
const MaxNoteFiles = 100

func (s *Server) note(n *knowledge.Node, stale bool) Note {
	kn := s.eng.Project().Knowledge()
	id := n.ID
	if n.Personal {
		id = "personal:" + id
	}
	out := Note{ID: id, Type: n.Type, Status: n.Status, Importance: n.Importance, Title: n.Title,
		Files: escapedPaths(n.Files[:min(len(n.Files), MaxNoteFiles)]), FilesTotal: len(n.Files), Symbols: orEmpty(n.Symbols), Links: n.Links, Tags: orEmpty(n.Tags),
		Created: n.Created, Updated: n.Updated, Personal: n.Personal, SupersededBy: n.SupersededBy, Stale: []string{},
		Repository: !n.Personal && !kn.Owned(n.Path)}
	if out.Links == nil {
		out.Links = []knowledge.Link{}
	}
	if stale && n.Status == knowledge.StatusActive {
		out.Stale = orEmpty(kn.Stale(n))
	}
	return out
}

// Notes is /api/notes: every note, most important first.
type Notes struct {
	Notes    []Note   `json:"notes"`
	Problems []string `json:"problems"`
}

func (s *Server) notesData(*http.Request) (any, error) {
	nodes, probs := s.eng.Project().Knowledge().Nodes()
	nodes = slices.Clone(nodes)
	slices.SortFunc(nodes, knowledge.ByImportance)
	out := &Notes{Notes: make([]Note, 0, len(nodes)), Problems: []string{}}
	for _, n := range nodes {
		out.Notes = append(out.Notes, s.note(n, true))
	}
	for _, p := range probs {
		out.Problems = append(out.Problems, p.String())
	}
	return out, nil
}

func (s *Server) noteData(r *http.Request) (any, error) {
	id := r.URL.Query().Get("id")
	if id == "" {
		return nil, badRequest("name the note: /api/note?id=ID")
	}
	n, err := s.eng.Project().Knowledge().Get(id)
	if errors.Is(err, knowledge.ErrNotFound) {
		return nil, notFound("no note " + quote(id))
	}
	if err != nil {
		return nil, err
	}
	out := s.note(n, true)
	out.Body = n.Body
	return out, nil
}

// Search is /api/search?q=: the answer rubi context gives for the
// question (its text, within the same budget), the same with each
// ranker's score (--explain), and each ranker's own list.
type Search struct {
	Query string `json:"query"`
	// Answer is the text an agent gets (rubi context QUESTION).
	Answer string `json:"answer"`
	// Explained is it with every ranker's score (rubi context --explain).
	Explained string       `json:"explained"`
	Items     []SearchItem `json:"items"`
	Rankers   []RankerList `json:"rankers"`
	Tokens    int          `json:"tokens"`
	Budget    int          `json:"budget"`
	Omitted   int          `json:"omitted"`
	Problems  []string     `json:"problems"`
}

// SearchItem is an item of the answer, with the fused score, each
// ranker's and the reasons.
type SearchItem struct {
	ID      string             `json:"id"`
	Kind    string             `json:"kind"`
	Path    string             `json:"path,omitempty"`
	Title   string             `json:"title"`
	Score   float64            `json:"score"`
	Scores  map[string]float64 `json:"scores"`
	Reasons []string           `json:"reasons"`
	Tokens  int                `json:"tokens"`
}

// RankerList is one ranker's scores of the answer's items, best first.
type RankerList struct {
	Ranker string       `json:"ranker"`
	Items  []RankerItem `json:"items"`
}

// RankerItem is an item's score by one ranker.
type RankerItem struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

func (s *Server) searchData(r *http.Request) (any, error) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	switch {
	case q == "":
		return nil, badRequest("ask a question: /api/search?q=QUESTION")
	case utf8.RuneCountInString(q) > MaxQuestion:
		return nil, badRequest("the question is too long: at most 1000 characters")
	}
	res, err := s.eng.Retrieve(r.Context(), answer.Query{Text: q})
	if err != nil {
		return nil, err
	}
	out := &Search{Query: q, Answer: res.Text(false), Explained: res.Text(true), Items: []SearchItem{}, Rankers: []RankerList{},
		Tokens: res.Tokens, Budget: res.Budget, Omitted: res.Omitted, Problems: orEmpty(res.Problems)}
	lists := map[string][]RankerItem{}
	for _, it := range res.Items {
		out.Items = append(out.Items, SearchItem{ID: it.ID, Kind: it.Kind, Path: it.Path, Title: it.Title, Score: it.Score, Scores: it.Scores, Reasons: orEmpty(it.Reasons), Tokens: it.Tokens})
		for name, sc := range it.Scores {
			lists[name] = append(lists[name], RankerItem{it.ID, sc})
		}
	}
	for name, l := range lists {
		slices.SortStableFunc(l, func(a, b RankerItem) int { return cmp.Compare(b.Score, a.Score) })
		out.Rankers = append(out.Rankers, RankerList{name, l})
	}
	slices.SortFunc(out.Rankers, func(a, b RankerList) int { return strings.Compare(a.Ranker, b.Ranker) })
	return out, nil
}

func quote(s string) string { return "\"" + core.EscapePath(s) + "\"" }

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func escapedPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = core.EscapePath(p)
	}
	return out
}
