package golang

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"

	"github.com/rubi-dev/rubi/core/refs"
)

// run is one Check: the units' results as they come, shared by the
// workers under mu.
type run struct {
	p     refs.Project
	g     *graph
	opts  Options
	build build.Context
	// fset holds every file checked: an object imported from a package
	// checked earlier is found in it by its position.
	fset *token.FileSet

	// mu guards pkgs, the declarations of the units whose importers
	// and pairings are not all done (run.finished lets the others go),
	// and what the units found.
	mu   sync.Mutex
	pkgs map[*unit]*types.Package
	// ifaces are the interfaces of those units, by their first method's
	// name (index), under ifacesMu: what a unit's methods are paired with
	// as it is checked (pair).
	ifacesMu sync.RWMutex
	ifaces   map[string][]iface
	// fakes are the stand-ins of the packages outside the project, by
	// import path (outside).
	fakes map[string]*types.Package
	// budget bounds the bytes of source of the packages being checked
	// at once (checkBudget).
	budget *semaphore.Weighted
	// found are the references of the files checked so far, packed,
	// their strings numbered in strs: what the run answers (answer).
	// Where the project gives a spill (refs.Spiller), they are there,
	// and spilled says where. targets are the strings' numbers of the
	// files they name.
	found   map[string]packed
	strs    refs.Strings
	spill   *spill
	spilled map[string]spilled
	targets map[uint32]bool
	// names maps each name the units checked so far declare to those
	// units (prune.go), under namesMu.
	namesMu sync.RWMutex
	names   map[string][]*unit
	stats   Stats
	failed  atomic.Int64
}

// check runs the units on workers, each as soon as its dependencies are
// done.
func (r *run) check(ctx context.Context, workers int) error {
	r.fset = token.NewFileSet()
	r.pkgs = map[*unit]*types.Package{}
	r.ifaces = map[string][]iface{}
	r.fakes = map[string]*types.Package{}
	r.budget = semaphore.NewWeighted(checkBudget)
	ready := make(chan *unit, len(r.g.units))
	// left counts the signals to come: each unit's declarations, and a
	// package's whole check that its external tests wait for.
	left := len(r.g.units)
	for _, u := range r.g.units {
		if u.ext != nil {
			left++
		}
	}
	for _, u := range r.g.units {
		if u.pending == 0 {
			ready <- u
		}
	}
	if left == 0 {
		return ctx.Err()
	}
	type signal struct {
		u     *unit
		whole bool
	}
	done := make(chan signal)
	var wg sync.WaitGroup
	for range min(workers, len(r.g.units)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range ready {
				declared := func() { done <- signal{u, false} }
				whole := func() {
					if u.ext != nil {
						done <- signal{u, true}
					}
				}
				if ctx.Err() != nil {
					declared()
					whole()
				} else {
					r.unit(u, declared, whole)
				}
				r.finished(u)
			}
		}()
	}
	for left > 0 {
		s := <-done
		left--
		users := s.u.users
		if s.whole {
			users = []*unit{s.u.ext}
		}
		for _, w := range users {
			if w.pending--; w.pending == 0 {
				ready <- w
			}
		}
	}
	close(ready)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	r.stats.Failed = int(r.failed.Load())
	r.finish()
	return nil
}

// finished is called once u's check is over (or skipped): u no longer
// sees the units of its closure, and those no unit left sees, u too,
// are let go (release).
func (r *run) finished(u *unit) {
	sees := r.g.closure(u)
	r.mu.Lock()
	var gone []*unit
	u.finished = true
	r.g.each(sees, u, func(d *unit) {
		if d.seers--; d.seers == 0 && d.finished {
			gone = append(gone, d)
		}
	})
	if u.seers == 0 {
		gone = append(gone, u)
	}
	for _, d := range gone {
		delete(r.pkgs, d)
	}
	r.mu.Unlock()
	for _, d := range gone {
		r.unindex(d)
	}
}

// finish lets go of the type information: what stays of the run is the
// references it found, packed.
func (r *run) finish() {
	r.pkgs, r.ifaces, r.fakes, r.fset = nil, nil, nil, nil
	r.names = nil
	for _, u := range r.g.units {
		u.whole = nil
	}
}

// checkBudget is the most bytes of source the packages a run checks at
// once may hold between them: the workers check small packages side by
// side, and a package of more is checked alone. The syntax, the type
// information and the uses of a package being checked are the largest
// part of a run's memory after the declarations it keeps: on kubernetes
// (packages of up to 1.2 MB of source outside the generated ones), two
// large packages at once on two workers held a fifth of the index's
// peak; half a megabyte took 5 MiB more off it than one, at no cost in
// time measured.
const checkBudget = 512 << 10

// parsed is one file of a unit.
type parsed struct {
	path string
	file *ast.File
	// excluded: the build leaves it out, or it declares another package.
	excluded bool
	// gen: a generated file, its function bodies stripped when parsed.
	gen bool
}

// usesPerByte sizes a package's map of uses from the size of what its
// whole check reads (its files, the bodies stripped left out): one use
// in about 20 bytes of that on rubi's tree, 28 on kubernetes, so the map
// seldom grows while go/types fills it, nor is twice what it holds.
const usesPerByte = 24

// unit type-checks u, calling declared once its declarations are (what
// its importers need), and, when its bodies are asked for, checks them
// and collects its references.
func (r *run) unit(u *unit, declared, whole func()) {
	once := func(f func()) func() {
		done := false
		return func() {
			if !done {
				done = true
				f()
			}
		}
	}
	declared, whole = once(declared), once(whole)
	defer whole()
	defer declared()
	// impl are the Impl references of u's methods, paired once its
	// declarations are checked; kept says what u found has been kept.
	var impl map[string][]refs.Ref
	kept := false
	// A bug of go/types, or of this package, on some code costs that
	// package's references, not the run: its importers see it empty. Its
	// methods keep their pairings, if made.
	defer func() {
		if e := recover(); e != nil {
			r.failed.Add(1)
			if !kept && impl != nil {
				r.mu.Lock()
				defer r.mu.Unlock()
				r.keep(withImpl(nil, impl))
			}
		}
	}()
	pkgPath := u.dir
	if u.xtest {
		pkgPath += "_test"
	}
	type source struct {
		path     string
		src      []byte
		excluded bool
	}
	var sources []source
	srcBytes := 0
	for _, f := range u.files {
		src, err := r.p.Read(f)
		if err != nil {
			continue
		}
		excluded := !r.matches(f, src)
		if excluded && !u.bodies {
			continue
		}
		sources = append(sources, source{f, src, excluded})
		srcBytes += len(src)
	}
	// The syntax and type information of a package in hand are some
	// fifteen times its source: the packages checked at once hold no
	// more than checkBudget bytes of source between them, a larger one
	// is checked alone.
	weight := int64(max(min(srcBytes, checkBudget), 1))
	r.budget.Acquire(context.Background(), weight)
	defer r.budget.Release(weight)
	var files []parsed
	size := 0
	names := map[string]int{}
	for _, s := range sources {
		pf := parsed{path: s.path, excluded: s.excluded}
		// Bodies nobody checks are not parsed: a package only imported
		// is checked for its declarations, and a generated file's bodies
		// are left out.
		gen := u.bodies && !r.opts.GeneratedBodies && generated(s.src)
		af := r.parse(s.path, s.src, !u.bodies || gen)
		if af == nil || af.Name == nil {
			continue
		}
		pf.file, pf.gen = af, gen
		// What the whole check reads: the file as parsed, without the
		// bodies stripped.
		read := 0
		if tf := r.fset.File(af.FileStart); tf != nil {
			read = tf.Size()
		}
		if gen {
			read -= stripBodies(af)
		}
		if !pf.excluded {
			size += read
		}
		if !pf.excluded {
			names[af.Name.Name]++
		}
		files = append(files, pf)
	}
	sources = nil
	// The package is the name most of the included files declare.
	name, most := "", 0
	for n, c := range names {
		if c > most || c == most && n < name {
			name, most = n, c
		}
	}
	// The declarations importers see are those of the non-test files;
	// the whole check has the internal test files too.
	var syntax, api []*ast.File
	for i := range files {
		if !files[i].excluded && files[i].file.Name.Name != name {
			files[i].excluded = true
		}
		if !files[i].excluded {
			syntax = append(syntax, files[i].file)
			if !isTest(files[i].path) || u.xtest {
				api = append(api, files[i].file)
			}
		}
	}
	imp := &importer{run: r, byPath: r.importsOf(u, files)}
	r.declare(u, declaredNames(files))
	errs := 0
	conf := types.Config{
		Importer:         imp,
		FakeImportC:      true,
		IgnoreFuncBodies: true,
		Error:            func(error) { errs++ },
	}
	// The declarations first, for the importers, which wait for no more.
	// The names of parameters are blanked for it (blankParams): pkg is
	// kept for the whole run, and each named parameter would keep a
	// scope of its function's.
	// Nor does it hold the functions no importer can name (dropFuncs).
	restore := blankParams(api)
	dropped, put := dropFuncs(api)
	pkg, _ := conf.Check(pkgPath, r.fset, api, nil)
	put()
	restore()
	r.record(u, pkg)
	declared()
	var found map[string][]refs.Ref
	excluded, pruned := 0, 0
	if u.bodies {
		sees := r.g.closure(u)
		impl = r.pair(u, methodsOf(pkg, r.fset), sees)
		// Then the whole package again, bodies and all, in a package of
		// its own that nothing keeps: the local scopes of a checked body
		// hang from its package's scope, and would stay with pkg as long
		// as the run.
		errs = 0
		conf.IgnoreFuncBodies = false
		if !r.opts.AllBodies {
			p := newPruner(r.visibleTo(sees))
			for _, pf := range files {
				if !pf.excluded && !pf.gen {
					n, bytes := p.file(pf.file, imp.byPath)
					pruned, size = pruned+n, size-bytes
				}
			}
		}
		info := &types.Info{Uses: make(map[*ast.Ident]types.Object, max(size, 0)/usesPerByte)}
		all, _ := conf.Check(pkgPath, r.fset, syntax, info)
		if u.ext != nil {
			u.whole = all
			whole()
		}
		c := newCollector(r.fset)
		found = map[string][]refs.Ref{}
		for _, pf := range files {
			if pf.excluded {
				excluded++
				found[pf.path] = c.byName(pf.file, declarations{pkg, all, dropped}, imp.byPath)
			} else {
				found[pf.path] = c.file(pf.file, info)
			}
		}
	}
	// What stays is pkg; the positions of its objects need the files'
	// bases and names only.
	for _, pf := range files {
		if tf := r.fset.File(pf.file.FileStart); tf != nil {
			tf.SetLines(nil)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if lib := r.g.lib[u.dir]; u.xtest && lib != nil {
		lib.whole = nil // its one user is done
	}
	r.stats.Packages++
	r.stats.Errors += errs
	r.stats.Excluded += excluded
	r.stats.Pruned += pruned
	if u.bodies {
		r.stats.Bodies++
	}
	kept = true
	r.keep(withImpl(found, impl))
}

// keep keeps the references found in files, packed, under r.mu.
func (r *run) keep(found map[string][]refs.Ref) {
	for f, rs := range found {
		r.stats.Refs += len(rs)
		p := pack(&r.strs, rs)
		for _, pr := range p.refs {
			r.targets[pr.path] = true
		}
		if r.spill != nil && !r.spill.broken {
			at, err := r.spill.put(p)
			if err == nil {
				r.spilled[f] = at
				continue
			}
			// A spill that cannot be written (a full disk) takes no
			// more: the rest stays in memory.
			r.spill.broken = true
		}
		r.found[f] = p
	}
}

// declare registers the names u declares, before its importers start.
func (r *run) declare(u *unit, names []string) {
	r.namesMu.Lock()
	defer r.namesMu.Unlock()
	if r.names == nil {
		r.names = map[string][]*unit{}
	}
	for _, n := range names {
		if l := r.names[n]; len(l) == 0 || l[len(l)-1] != u {
			r.names[n] = append(l, u)
		}
	}
}

// visibleTo returns whether a package of the closure sees declares a
// name, each name asked once.
func (r *run) visibleTo(sees []uint64) func(string) bool {
	known := map[string]bool{}
	return func(name string) bool {
		v, ok := known[name]
		if ok {
			return v
		}
		r.namesMu.RLock()
		for _, w := range r.names[name] {
			if seen(sees, w) {
				v = true
				break
			}
		}
		r.namesMu.RUnlock()
		known[name] = v
		return v
	}
}

// parse parses file f, its skeleton (Skeleton) when its function bodies
// are not needed and the skeleton parses: every line and column is the
// source's either way.
func (r *run) parse(f string, src []byte, skeleton bool) *ast.File {
	if skeleton {
		if skel := Skeleton(src); skel != nil {
			af, err := parser.ParseFile(r.fset, f, skel, parser.SkipObjectResolution)
			if err == nil {
				return af
			}
			// A wrong guess: the file is read whole; what stays of the
			// skeleton's is its name and range in the run's file set.
			if af != nil {
				if tf := r.fset.File(af.FileStart); tf != nil {
					tf.SetLines(nil)
				}
			}
		}
	}
	af, _ := parser.ParseFile(r.fset, f, src, parser.SkipObjectResolution)
	return af
}

// record keeps pkg, u's declarations, for its importers and for pairing
// the methods of the units that see it, until none is left to
// (finished).
func (r *run) record(u *unit, pkg *types.Package) {
	r.mu.Lock()
	if !u.xtest {
		r.pkgs[u] = pkg
		r.stats.Held = max(r.stats.Held, len(r.pkgs))
	}
	r.mu.Unlock()
	r.index(u, pkg)
}

// matches says the build on this machine includes file f, by its name
// and its //go:build line, as go/build decides.
func (r *run) matches(f string, src []byte) bool {
	c := r.build
	c.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	ok, err := c.MatchFile(path.Dir(f), path.Base(f))
	return ok && err == nil
}

// importsOf maps the import paths u's files write to the packages the
// project holds for them. core/resolve resolved each file's imports to
// the files of a directory, not per import: a directory is matched to
// the import path that ends with the most of its path's elements
// (k8s.io/api/core/v1 for staging/src/k8s.io/api/core/v1, a module's
// path for its root's package by the package name), which is the one
// import that led there.
func (r *run) importsOf(u *unit, files []parsed) map[string]*types.Package {
	out := map[string]*types.Package{}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, pf := range files {
		var specs []string
		for _, im := range pf.file.Imports {
			if s := importPath(im); s != "" && s != "C" {
				specs = append(specs, s)
			}
		}
		dirs := map[string]bool{}
		for _, t := range r.p.Imports(pf.path) {
			dirs[path.Dir(t)] = true
		}
		for d := range dirs {
			dep := r.g.lib[d]
			pkg := r.pkgs[dep]
			// Only what u waited for: a package of a cycle sees the
			// others as empty, whichever was checked first.
			if dep != nil && dep.ext == u && dep.whole != nil {
				pkg = dep.whole
			}
			if dep == nil || pkg == nil || !slices.Contains(u.deps, dep) {
				continue
			}
			if s := specFor(d, pkg.Name(), specs); s != "" {
				out[s] = pkg
			}
		}
	}
	return out
}

// specFor picks, among specs, the import path of directory dir, whose
// package is named name: the one sharing the most trailing elements with
// dir, else the only one whose last element (before a /vN) is name.
func specFor(dir, name string, specs []string) string {
	best, most, tie := "", 0, false
	for _, s := range specs {
		n := commonTail(dir, s)
		switch {
		case n > most:
			best, most, tie = s, n, false
		case n == most && n > 0:
			tie = true
		}
	}
	if most > 0 && !tie {
		return best
	}
	if most > 0 {
		return ""
	}
	found := ""
	for _, s := range specs {
		if lastElem(s) == name {
			if found != "" {
				return ""
			}
			found = s
		}
	}
	return found
}

// commonTail counts the trailing path elements a and b share.
func commonTail(a, b string) int {
	n := 0
	for a != "" && a != "." && b != "" {
		ai, bi := strings.LastIndexByte(a, '/'), strings.LastIndexByte(b, '/')
		if a[ai+1:] != b[bi+1:] {
			break
		}
		n++
		if ai < 0 || bi < 0 {
			break
		}
		a, b = a[:ai], b[:bi]
	}
	return n
}

// lastElem is the package name an import path suggests: its last
// element, without a major version suffix (/v2) or a gopkg.in version
// (.v3), with a go- prefix dropped and dashes as underscores.
func lastElem(spec string) string {
	e := spec[strings.LastIndexByte(spec, '/')+1:]
	if len(e) > 1 && e[0] == 'v' && strings.Trim(e[1:], "0123456789") == "" {
		if rest := strings.TrimSuffix(spec, "/"+e); rest != spec {
			e = rest[strings.LastIndexByte(rest, '/')+1:]
		}
	}
	if i := strings.Index(e, ".v"); i > 0 {
		e = e[:i]
	}
	e = strings.TrimPrefix(e, "go-")
	return strings.ReplaceAll(e, "-", "_")
}

func importPath(im *ast.ImportSpec) string {
	if im.Path == nil || len(im.Path.Value) < 2 {
		return ""
	}
	return im.Path.Value[1 : len(im.Path.Value)-1]
}

// importer hands go/types the project's packages as they were checked,
// and for anything else the run's stand-in (run.outside).
type importer struct {
	run    *run
	byPath map[string]*types.Package
}

func (i *importer) Import(spec string) (*types.Package, error) {
	return i.ImportFrom(spec, "", 0)
}

func (i *importer) ImportFrom(spec, _ string, _ types.ImportMode) (*types.Package, error) {
	if pkg := i.byPath[spec]; pkg != nil {
		return pkg, nil
	}
	return i.run.outside(spec), nil
}

// dropFuncs takes out of files, for the declaration check whose package
// the run keeps for its importers, the top-level functions they cannot
// name: unexported, without a receiver (methods stay: they make the
// types' method sets), and named by no variable's initializer, the one
// declaration that may use a function (var x = f(), whose type comes
// from it). Their signatures were a third of the declarations kept
// (parameters and results are variables each). The returned put puts
// them back, for the package's whole check; dropped names them.
func dropFuncs(files []*ast.File) (dropped map[string]bool, put func()) {
	used := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							used[id.Name] = true
						}
						return true
					})
				}
			}
		}
	}
	type saved struct {
		f     *ast.File
		decls []ast.Decl
	}
	var undo []saved
	dropped = map[string]bool{}
	for _, f := range files {
		var kept []ast.Decl
		for i, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			drop := ok && fd.Recv == nil && fd.Name != nil && !fd.Name.IsExported() && !used[fd.Name.Name]
			switch {
			case drop && kept == nil:
				kept = append(make([]ast.Decl, 0, len(f.Decls)), f.Decls[:i]...)
				dropped[fd.Name.Name] = true
			case drop:
				dropped[fd.Name.Name] = true
			case kept != nil:
				kept = append(kept, d)
			}
		}
		if kept != nil {
			undo = append(undo, saved{f, f.Decls})
			f.Decls = kept
		}
	}
	return dropped, func() {
		for _, s := range undo {
			s.f.Decls = s.decls
		}
	}
}

// blankParams renames the parameters, results and receivers of every
// function signature in files, outside function bodies, to _ until the
// returned func puts the names back. A check that ignores function
// bodies uses no parameter's name, and go/types declares a named one in
// a scope of its function's, which the package keeps: the declarations
// of a run's packages, kept until its end, held a third less without
// them on kubernetes. The signatures' types, and so what importers and
// the pairing of implementations see, are the same.
func blankParams(files []*ast.File) (restore func()) {
	type saved struct {
		field *ast.Field
		names []*ast.Ident
	}
	var undo []saved
	blank := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			if len(f.Names) == 0 {
				continue
			}
			undo = append(undo, saved{f, f.Names})
			names := make([]*ast.Ident, len(f.Names))
			for i, n := range f.Names {
				names[i] = &ast.Ident{NamePos: n.NamePos, Name: "_"}
			}
			f.Names = names
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				return false // a body: not checked, and its own names
			case *ast.FuncDecl:
				blank(n.Recv)
			case *ast.FuncType:
				blank(n.Params)
				blank(n.Results)
			}
			return true
		})
	}
	return func() {
		for _, s := range undo {
			s.field.Names = s.names
		}
	}
}

// outside returns the run's stand-in for an import path the project
// does not hold: an empty package, which go/types takes as one whose
// names are all missing without an error each. A plain empty package
// made each use of one of its names an "undefined" error, formatted and
// dropped: a quarter of a million on kubernetes, a tenth of the check's
// time. go/types marks a package so (its fake mark, unexported) when an
// importer returns it with an error; the stand-in is marked once, by a
// check of an import of it alone, before any unit gets it, so that the
// checks running side by side only read it.
func (r *run) outside(spec string) *types.Package {
	r.mu.Lock()
	defer r.mu.Unlock()
	if pkg := r.fakes[spec]; pkg != nil {
		return pkg
	}
	pkg := types.NewPackage(spec, lastElem(spec))
	pkg.MarkComplete()
	imp := &ast.ImportSpec{Name: ast.NewIdent("_"), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(spec)}}
	f := &ast.File{Name: ast.NewIdent("p"), Decls: []ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{imp}}}}
	conf := types.Config{Importer: marker{pkg}, Error: func(error) {}}
	conf.Check("p", token.NewFileSet(), []*ast.File{f}, nil)
	r.fakes[spec] = pkg
	return pkg
}

// marker hands go/types its package with an error, for go/types to mark
// it (run.outside).
type marker struct{ pkg *types.Package }

// errOutside is what marker says of its package.
var errOutside = errors.New("not in the project")

func (m marker) Import(string) (*types.Package, error) { return m.pkg, errOutside }

// generated says src starts with Go's generated-code header before its
// package clause.
func generated(src []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimRight(line, "\r")
		if bytes.HasPrefix(line, []byte("package ")) {
			return false
		}
		if bytes.HasPrefix(line, []byte("// Code generated ")) && bytes.HasSuffix(line, []byte(" DO NOT EDIT.")) {
			return true
		}
	}
	return false
}

// stripBodies strips the body of each function of f (stripBody), and
// returns the bytes of source they spanned.
func stripBodies(f *ast.File) int {
	n := 0
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			n += int(fd.Body.Rbrace - fd.Body.Lbrace)
			stripBody(fd)
		}
	}
	return n
}
