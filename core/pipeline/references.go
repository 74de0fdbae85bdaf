package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/resolve"
	"github.com/rubi-dev/rubi/core/store"
)

// The index step of references: after the imports are resolved, each
// resolver (Options.Resolvers) is given the files of its languages and
// finds their references; the table of references (core/refs) is saved
// with the manifest, which names its generation.
//
// A full run resolves every file. Otherwise only the files a change can
// have touched are resolved again: each resolver widens the changed and
// removed files (Affected) and resolves those, and the other files keep
// the references the last table holds. A run that changed no code
// checks the table and keeps it; a damaged or missing one, or one that
// other resolvers wrote, is rebuilt in full. A table that comes out
// byte for byte as it was is not written again. A full table is encoded
// one file at a time (refs.Encoder) from the resolvers' answers, which
// keep their references packed until then (refs.Answer): they are never
// all held as refs.Ref at once.

// ReferenceStats is how the step of references went in an index run.
type ReferenceStats struct {
	// State is "full", "incremental", "up to date" or "off" (references
	// turned off in rubi.hcl, or no resolver for the project).
	State string `json:"state"`
	// Found counts the references the table holds; Resolved the files
	// resolved in this run.
	Found    int     `json:"found"`
	Resolved int     `json:"resolved"`
	MS       float64 `json:"ms"`
}

// maxTable bounds the table of references an index run reads: a
// gigabyte would be a project of fifty million references.
const maxTable = 1 << 30

// resolversSignature names a set of resolvers by their languages and
// versions: a table another set, or another version of one, wrote is
// rebuilt.
func resolversSignature(rs []refs.Resolver) string {
	var names []string
	for _, r := range rs {
		names = append(names, strings.Join(r.Languages(), "+")+"@"+r.Version())
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// referencesOn reports whether the index keeps references: the setting
// says so and the program handed resolvers.
func (e *Engine) referencesOn() bool {
	return e.cfg.Index.References && len(e.resolvers) > 0
}

// references is the index step: it leaves next.References naming the
// table of references this run's manifest goes with.
func (r *indexRun) references(ctx context.Context) error {
	e, prev, next, st := r.e, r.prev, r.next, &r.stats.References
	start := time.Now()
	defer func() { st.MS = ms(time.Since(start)) }()
	if !e.referencesOn() {
		st.State = "off"
		return nil
	}
	sig := resolversSignature(e.resolvers)
	if r.opts.notesOnly {
		// The code is as the last run left it.
		next.References, st.State = prev.References, "up to date"
		return nil
	}
	var changed []string
	for rec := range next.RecordsInOrder() {
		if rec.Fresh {
			changed = append(changed, rec.Path)
		}
	}
	changed = append(changed, missing(prev.SortedPaths(), r.paths)...)
	// The last table, when this run may build on it: checked, and
	// written by these resolvers.
	var oldData []byte
	if !r.opts.Full && prev.References != "" {
		file := refs.File(e.folder.dir, prev.References)
		var mapped *store.Mapped
		fi, err := os.Lstat(file)
		if err == nil && fi.Size() > maxTable {
			err = fmt.Errorf("%w: %d bytes, more than any project's", refs.ErrDamaged, fi.Size())
		}
		if err == nil {
			mapped, err = store.Map(file, e.oneShot)
		}
		var was string
		var n int
		if err == nil {
			// Released with the run: an update copies what it keeps.
			defer mapped.Close()
			// The checksum and header tell whether the table is whole
			// and whose it is, without decoding it.
			was, n, err = refs.VerifyFile(file, mapped.Data)
		}
		switch {
		case err != nil:
			r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("%s: %v; every file's references are found again", file, err))
		case was != sig:
			// Other resolvers wrote it: all are found again.
		case len(changed) == 0:
			next.References, st.State, st.Found = prev.References, "up to date", n
			return nil
		default:
			oldData = mapped.Data
		}
	}
	from, to, err := r.importPairs()
	if err != nil {
		return err
	}
	full := oldData == nil
	removeSpills(e.folder.dir)
	p := newRefProject(e.cfg.Root, e.folder.dir, prev, next, from, to)
	defer p.close()
	// What changes: every file in a full run; else the files parsed
	// again (their definitions), those resolved again (their
	// references) and those gone. Every file's definitions go in a full
	// table: the symbols not in hand are read from the symbols file, one
	// file at a time (eachSymbols), once the resolvers are done.
	//
	// Each file resolved is answered by one resolver (owner; -1: it has
	// no references), whose answer holds its references until they are
	// encoded (refFiles).
	answers, owner := []refs.Answer{}, map[string]int{}
	defer func() {
		for _, a := range answers {
			a.Close()
		}
	}()
	for _, res := range e.resolvers {
		want, got, err := r.resolve(ctx, res, p, changed, full)
		if err != nil {
			return err
		}
		for _, f := range want {
			owner[f] = -1
		}
		if got == nil {
			continue
		}
		answers = append(answers, got)
		for _, f := range got.Paths() {
			if next.Has(f) && p.handles(res, f) {
				owner[f] = len(answers) - 1
			}
		}
	}
	st.Resolved = len(owner)
	// The resolvers are done with the project's imports: what is left
	// of the step, the table, holds them no more; a full run keeps them
	// on disk from here (spillImports).
	p.release()
	next.CompactImports()
	if err := r.spillImports(); err != nil {
		return err
	}
	refsOf := func(f string) ([]refs.Ref, error) {
		i, ok := owner[f]
		if !ok || i < 0 {
			return nil, nil
		}
		rs, err := answers[i].Refs(f)
		return keepIndexed(next, rs), err
	}
	// The definitions after the references: a resolver's peak is the
	// run's, and they need not be beside it.
	var defined []*manifest.Record
	for _, path := range r.paths {
		if rec := next.Records()[path]; full || rec.Fresh {
			defined = append(defined, rec)
		}
	}
	if full {
		// The table goes to its file as it is laid out: at 200,000
		// files it is 147 MB, which the run would hold beside the
		// draft it is laid out from.
		st.State = "full"
		enc, err := r.encodeTable(sig, defined, answers, owner, refsOf)
		if err != nil {
			return err
		}
		gen, found, err := refs.WriteEncoded(e.folder.dir, enc)
		if err != nil {
			return err
		}
		next.References, st.Found = gen, found
		return nil
	}
	st.State = "incremental"
	patch := refs.Patch{Resolvers: sig, Defs: map[string][]refs.Def{}, Refs: map[string][]refs.Ref{}}
	for _, path := range changed {
		if !next.Has(path) {
			patch.Removed = append(patch.Removed, path)
		}
	}
	for f := range owner {
		if patch.Refs[f], err = refsOf(f); err != nil {
			return err
		}
	}
	if err := eachSymbols(e.folder.dir, prev, next, defined, func(rec *manifest.Record, syms []core.Symbol) {
		patch.Defs[rec.Path] = definitions(syms)
	}); err != nil {
		return err
	}
	data, err := refs.Update(oldData, patch)
	if err != nil {
		return err
	}
	if rd, err := refs.NewReader(data); err == nil {
		_, _, st.Found = rd.Counts()
	}
	if bytes.Equal(data, oldData) {
		next.References = prev.References
		return nil
	}
	gen, err := refs.Write(e.folder.dir, data)
	if err != nil {
		return err
	}
	next.References = gen
	return nil
}

// encodeTable gives a full run's table to an encoder one file at a time,
// in path order (refs.Encoder): each file's definitions (its symbols, read from
// the symbols file as eachSymbols goes) and its references (refsOf,
// from its resolver's answer), so that the references are never all
// held as refs.Ref at once. Its files are those Table.Encode takes:
// every file with symbols, every file resolved, and every file referred
// to.
func (r *indexRun) encodeTable(sig string, defined []*manifest.Record, answers []refs.Answer, owner map[string]int, refsOf func(string) ([]refs.Ref, error)) (*refs.Encoder, error) {
	next := r.next
	files := map[string]bool{}
	for _, rec := range defined {
		if hasSymbols(rec) {
			files[rec.Path] = true
		}
	}
	for f := range owner {
		files[f] = true
	}
	for _, a := range answers {
		for _, t := range a.Targets() {
			if next.Has(t) {
				files[t] = true
			}
		}
	}
	paths := slices.Sorted(maps.Keys(files))
	enc := refs.NewEncoder(sig, paths)
	i := 0
	var failed error
	// upTo adds the files before path that define nothing.
	upTo := func(path string) {
		for ; i < len(paths) && paths[i] < path && failed == nil; i++ {
			rs, err := refsOf(paths[i])
			if err == nil {
				err = enc.Add(paths[i], nil, rs)
			}
			failed = err
		}
	}
	if err := eachSymbols(r.e.folder.dir, r.prev, next, defined, func(rec *manifest.Record, syms []core.Symbol) {
		upTo(rec.Path)
		if failed != nil {
			return
		}
		rs, err := refsOf(rec.Path)
		if err == nil {
			err = enc.Add(rec.Path, definitions(syms), rs)
		}
		failed = err
		i++
	}); err != nil {
		return nil, err
	}
	for ; i < len(paths) && failed == nil; i++ {
		rs, err := refsOf(paths[i])
		if err == nil {
			err = enc.Add(paths[i], nil, rs)
		}
		failed = err
	}
	if failed != nil {
		return nil, failed
	}
	return enc, nil
}

// importEdges are the run's resolved imports: those buildGraph resolved
// (kept by the manifest, numbered, once it compacted them), or, on a
// run that changed nothing (keep), those the last manifest keeps.
func (r *indexRun) importEdges() ([]core.Edge, error) {
	if r.edgesCompacted {
		return r.next.ImportEdges()
	}
	if r.edges != nil || r.paths == nil {
		return r.edges, nil
	}
	if r.prev.HasEdges() {
		if edges, err := r.prev.ImportEdges(); err == nil {
			return edges, nil
		}
	}
	project, err := resolve.NewProject(r.e.cfg.Root, r.paths)
	if err != nil {
		return nil, err
	}
	return resolve.Edges(project, r.next.AllFacts()), nil
}

// importSeq is importEdges one edge at a time: decoded as they are read
// when the manifest keeps them numbered.
func (r *indexRun) importSeq() (iter.Seq[*core.Edge], error) {
	if r.edgesCompacted {
		seq, _, err := r.next.ImportEdgeSeq()
		return seq, err
	}
	edges, err := r.importEdges()
	return codemap.All(edges), err
}

// chainEdges yields the edges of each sequence in turn.
func chainEdges(seqs ...iter.Seq[*core.Edge]) iter.Seq[*core.Edge] {
	return func(yield func(*core.Edge) bool) {
		for _, seq := range seqs {
			for e := range seq {
				if !yield(e) {
					return
				}
			}
		}
	}
}

// importPairs are the run's resolved imports (importEdges) by the places
// of their ends in the manifest's sorted paths, as the references' step
// reads them: decoded from the manifest without ids when it keeps them
// so; otherwise numbered here, an edge between files the run does not
// hold left out.
func (r *indexRun) importPairs() (from, to []int32, err error) {
	if r.edgesCompacted {
		return r.next.ImportPairs()
	}
	edges, err := r.importEdges()
	if err != nil {
		return nil, nil, err
	}
	from, to = numberImports(r.next.SortedPaths(), edges)
	return from, to, nil
}

// numberImports returns the import edges among edges by the places of
// their ends in paths (sorted), in their order; an edge of another kind,
// or between files paths does not hold, is left out.
func numberImports(paths []string, edges []core.Edge) (from, to []int32) {
	place := func(id string) (int32, bool) {
		kind, key, err := core.SplitDocID(id)
		if err != nil || kind != core.DocFile {
			return 0, false
		}
		k, ok := slices.BinarySearch(paths, key)
		return int32(k), ok
	}
	for k := range edges {
		e := &edges[k]
		f, ok1 := place(e.From)
		t, ok2 := place(e.To)
		if ok1 && ok2 && e.Kind == core.EdgeImports {
			from, to = append(from, f), append(to, t)
		}
	}
	return from, to
}

// resolve asks res which files to resolve (every file of its languages
// in a full run, else those changed touched) and their references. A
// resolver that panics costs its files' references (the changed ones at
// least), not the index, and is a problem of the run.
func (r *indexRun) resolve(ctx context.Context, res refs.Resolver, p *refProject, changed []string, full bool) (want []string, got refs.Answer, err error) {
	defer func() {
		if v := recover(); v != nil {
			msg := fmt.Sprintf("the resolver of references for %s failed, its files keep no references: %v", strings.Join(res.Languages(), ", "), v)
			r.e.logger.Error(msg)
			r.e.logger.Debug("resolver panic", "stack", string(debug.Stack()))
			r.problems = append(r.problems, msg)
			if want == nil {
				want = p.of(res, changed)
			}
			got, err = nil, nil
		}
	}()
	if full {
		for _, lang := range res.Languages() {
			want = append(want, p.Files(lang)...)
		}
	} else {
		want = p.of(res, append(res.Affected(p, changed), changed...))
	}
	if len(want) == 0 {
		return nil, nil, nil
	}
	if a, ok := res.(refs.Answerer); ok {
		got, err = a.Answer(ctx, p, want)
	} else {
		var m map[string][]refs.Ref
		if m, err = res.Refs(ctx, p, want); err == nil {
			got = refs.MapAnswer(m)
		}
	}
	if err != nil && ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		r.problems = append(r.problems, fmt.Sprintf("the resolver of references for %s failed, its files keep no references: %v", strings.Join(res.Languages(), ", "), err))
		return want, nil, nil
	}
	return want, got, nil
}

// keepIndexed drops the references to files the index does not hold,
// from a copy: the resolver's slice is left as it gave it. Nearly every
// file's references are all to indexed files, and keep their slice: a
// copy of each would double the references' memory at the end of the
// step, its peak.
func keepIndexed(m *manifest.Manifest, rs []refs.Ref) []refs.Ref {
	unindexed := func(ref refs.Ref) bool { return !m.Has(ref.Path) }
	if !slices.ContainsFunc(rs, unindexed) {
		return rs
	}
	return slices.DeleteFunc(slices.Clone(rs), unindexed)
}

// definitions are a file's symbols as the table keeps them.
func definitions(syms []core.Symbol) []refs.Def {
	if len(syms) == 0 {
		return nil
	}
	out := make([]refs.Def, len(syms))
	for i, s := range syms {
		name := s.Name
		if s.Parent != "" {
			name = s.Parent + "." + s.Name
		}
		out[i] = refs.Def{Name: name, Kind: s.Kind, Line: s.Line, Exported: s.Exported}
	}
	return out
}

// refProject is the project as a resolver sees it (refs.Project): the
// run's files and facts, the resolved imports, and the files' contents
// read the way rubi reads what a repository supplies.
type refProject struct {
	root   string
	dir    string // the index's
	prev   *manifest.Manifest
	next   *manifest.Manifest
	byLang map[string][]string
	// paths are next's sorted paths; from and to, the import edges by
	// the places of their ends in them (8 bytes an edge: a large tree
	// has more than a million, which as core.Edges took 84 MB of the
	// step's peak at 200,000 files).
	paths    []string
	from, to []int32
	// imports and users are the edges by importing and imported file,
	// made once (graph).
	graphOnce sync.Once
	imports   map[string][]string
	users     map[string][]string
	// sorted says the edges come sorted by the importing file (Imports).
	sortedOnce sync.Once
	sorted     bool

	// spills are the files given to the resolvers (Spill), removed when
	// made or, where an open file cannot be, by close.
	spills []string

	mu   sync.Mutex
	syms *manifest.SymbolReader
	// dirs memoizes inside, by folder, under dirsMu.
	dirsMu sync.Mutex
	dirs   map[string]bool
	// symsErr is why the symbols file could not be opened.
	symsErr error
}

func newRefProject(root, dir string, prev, next *manifest.Manifest, from, to []int32) *refProject {
	p := &refProject{root: root, dir: dir, prev: prev, next: next, byLang: map[string][]string{}, paths: next.SortedPaths(), from: from, to: to}
	for _, path := range p.paths {
		rec := next.Records()[path]
		p.byLang[rec.Language] = append(p.byLang[rec.Language], path)
	}
	return p
}

// graph indexes the import edges both ways, when a resolver first asks:
// hundreds of thousands on a large project, which a resolver that keeps
// its own graph never needs.
func (p *refProject) graph() {
	p.graphOnce.Do(func() {
		p.imports, p.users = map[string][]string{}, map[string][]string{}
		for k := range p.from {
			from, to := p.paths[p.from[k]], p.paths[p.to[k]]
			p.imports[from] = append(p.imports[from], to)
			p.users[to] = append(p.users[to], from)
		}
		for _, m := range []map[string][]string{p.imports, p.users} {
			for k, v := range m {
				sort.Strings(v)
				m[k] = slices.Compact(v)
			}
		}
	})
}

func (p *refProject) Files(language string) []string { return slices.Clone(p.byLang[language]) }

// Imports answers from the edges themselves where they come sorted by
// the importing file (resolve.Analyze's order, and the manifest's), a
// binary search: the maps of both ways (graph) held every edge again,
// for the whole step, and only Importers needs them (an incremental
// run's widening).
func (p *refProject) Imports(path string) []string {
	p.sortedOnce.Do(func() { p.sorted = slices.IsSorted(p.from) })
	if !p.sorted {
		p.graph()
		return slices.Clone(p.imports[path])
	}
	at, ok := slices.BinarySearch(p.paths, path)
	if !ok {
		return nil
	}
	i, _ := slices.BinarySearch(p.from, int32(at))
	var tos []int32
	for ; i < len(p.from) && p.from[i] == int32(at); i++ {
		tos = append(tos, p.to[i])
	}
	// The paths are sorted: so are their places.
	slices.Sort(tos)
	tos = slices.Compact(tos)
	var out []string
	for _, t := range tos {
		out = append(out, p.paths[t])
	}
	return out
}

func (p *refProject) Importers(path string) []string {
	p.graph()
	return slices.Clone(p.users[path])
}

// Facts returns a file's facts with its symbols, read from the symbols
// file when this run did not parse it.
func (p *refProject) Facts(path string) (core.FileFacts, bool) {
	rec, ok := p.next.Records()[path]
	if !ok {
		return core.FileFacts{}, false
	}
	f := rec.Facts()
	if rec.Loaded || rec.SymLen == 0 {
		f.Symbols = rec.Syms
		return f, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.symsErr == nil {
		if p.syms == nil {
			fh, err := symbolsSource(p.prev, p.next).OpenSymbols(p.dir)
			if err != nil {
				p.symsErr = err
				return f, true
			}
			p.syms = manifest.NewSymbolReader(fh)
		}
		// Read into a copy: the record stays without them, as the run
		// keeps no file's symbols it does not need.
		read := *rec
		if err := p.syms.Read(&read); err != nil {
			return f, true
		}
		f.Symbols = read.Syms
	}
	return f, true
}

// Read returns a file of the project, confined to it (no link out of
// it, regular files only) and capped as the walk caps a source. Whether
// a folder leads out of the project is asked once a run (resolving each
// of its path's elements): a resolver reads a package's files one after
// another, and asking again for each file was most of what reading them
// cost.
func (p *refProject) Read(path string) ([]byte, error) {
	if !fs.ValidPath(path) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrInvalid}
	}
	full := filepath.Join(p.root, filepath.FromSlash(path))
	if !p.inside(filepath.Dir(full)) {
		return nil, fmt.Errorf("refusing to read %s: it leads out of %s through a symbolic link: %w", full, p.root, store.ErrNotOwned)
	}
	return store.ReadLeaf(full, maxSourceRead)
}

// inside says the folder dir lies inside the project, no link on the way
// leading out of it, as store.Inside says, asked once per folder.
func (p *refProject) inside(dir string) bool {
	p.dirsMu.Lock()
	ok, known := p.dirs[dir]
	p.dirsMu.Unlock()
	if known {
		return ok
	}
	ok = store.Inside(p.root, dir)
	p.dirsMu.Lock()
	if p.dirs == nil {
		p.dirs = map[string]bool{}
	}
	p.dirs[dir] = ok
	p.dirsMu.Unlock()
	return ok
}

// release lets go of the imports the resolvers read, once they are
// done.
func (p *refProject) release() {
	p.from, p.to, p.imports, p.users = nil, nil, nil, nil
}

// close releases the symbols file, if it was opened, and removes what
// is left of the spills.
func (p *refProject) close() {
	if p.syms != nil {
		p.syms.Close()
	}
	for _, f := range p.spills {
		os.Remove(f)
	}
}

// Spill gives a resolver a file to put what it found in (refs.Spiller,
// spillFile); the resolver closes it.
func (p *refProject) Spill() (*os.File, error) {
	f, left, err := spillFile(p.dir)
	if left != "" {
		p.mu.Lock()
		p.spills = append(p.spills, left)
		p.mu.Unlock()
	}
	return f, err
}

// handles reports whether res resolves the file path's language.
func (p *refProject) handles(res refs.Resolver, path string) bool {
	rec, ok := p.next.Records()[path]
	return ok && slices.Contains(res.Languages(), rec.Language)
}

// of keeps the files of paths res resolves (indexed, of its languages),
// sorted, once each.
func (p *refProject) of(res refs.Resolver, paths []string) []string {
	set := map[string]bool{}
	for _, f := range paths {
		if p.handles(res, f) {
			set[f] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
