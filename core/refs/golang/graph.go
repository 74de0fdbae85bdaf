package golang

import (
	"go/types"
	"math/bits"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// unit is one package to type-check: a directory's package, with its
// internal test files when those are asked for, or its external test
// package.
type unit struct {
	dir   string
	xtest bool     // package x_test
	files []string // sorted
	// bodies: its files are asked for, so its function bodies are checked
	// and its references collected; otherwise only its declarations are,
	// for its importers.
	bodies bool
	deps   []*unit // the directories' packages its files import
	// users are the units waiting for this one, pending the deps not
	// checked yet.
	users   []*unit
	pending int
	// id numbers the units, in the sets closure makes.
	id int
	// xtest is the directory's external test package, which imports this
	// one with its internal test files (export_test.go): it waits for
	// whole, this package checked with them, which it then releases.
	ext   *unit
	whole *types.Package
	// seers counts the other units whose closure holds this one, that
	// have not finished: the units that may still name its declarations
	// (as importers, directly or not) or pair their methods with its
	// interfaces. finished says its own check is over. Once both say
	// so, the run lets its declarations go (run.finished).
	seers    int
	finished bool
	// ifaces are the first method names under which its interfaces are
	// indexed for pairing (run.ifaces).
	ifaces []string
}

// seen says the unit whose closure sees is can name the declarations of
// w.
func seen(sees []uint64, w *unit) bool { return sees[w.id/64]&(1<<(w.id%64)) != 0 }

// graph is the units a run checks and the order between them.
type graph struct {
	units []*unit
	lib   map[string]*unit // directory → its package (not the x_test one)
}

// newGraph builds the units of the asked files and of every package they
// import, directly or not. Dependencies come from the imports core/resolve
// resolved (Project.Imports), between directories; a cycle, which Go
// forbids but a tree with build variants or broken code can show, is cut
// the same way on every run: the edges inside it are dropped, and each
// package of it sees the others as empty.
func newGraph(p refs.Project, want []string) *graph {
	byDir := map[string][]string{}
	for _, f := range p.Files(core.LangGo) {
		byDir[path.Dir(f)] = append(byDir[path.Dir(f)], f)
	}
	wanted := map[string]bool{}
	for _, f := range want {
		wanted[f] = true
	}
	g := &graph{lib: map[string]*unit{}}
	xtests := map[string]*unit{}
	// tests: the directories whose test files are asked for.
	tests := map[string]bool{}
	var queue []string
	seen := map[string]bool{}
	visit := func(dir string) {
		if !seen[dir] && len(byDir[dir]) > 0 {
			seen[dir] = true
			queue = append(queue, dir)
		}
	}
	for _, f := range want {
		if _, ok := byDir[path.Dir(f)]; !ok || !slices.Contains(byDir[path.Dir(f)], f) {
			continue
		}
		if isTest(f) {
			tests[path.Dir(f)] = true
		}
		visit(path.Dir(f))
	}
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		lib := &unit{dir: dir}
		for _, f := range byDir[dir] {
			switch {
			case !isTest(f):
				lib.files = append(lib.files, f)
			case !tests[dir]:
				continue
			case isXTest(p, f):
				x := xtests[dir]
				if x == nil {
					x = &unit{dir: dir, xtest: true, bodies: true}
					xtests[dir] = x
				}
				x.files = append(x.files, f)
			default:
				lib.files = append(lib.files, f)
			}
			if wanted[f] && !isXTest(p, f) {
				lib.bodies = true
			}
		}
		g.lib[dir] = lib
		g.units = append(g.units, lib)
		for _, f := range byDir[dir] {
			if !isTest(f) || tests[dir] {
				for _, t := range p.Imports(f) {
					visit(path.Dir(t))
				}
			}
		}
	}
	for _, x := range xtests {
		g.units = append(g.units, x)
		if lib := g.lib[x.dir]; lib != nil {
			lib.ext = x
			lib.bodies = true // for whole
		}
	}
	slices.SortFunc(g.units, func(a, b *unit) int {
		if c := strings.Compare(a.dir, b.dir); c != 0 {
			return c
		}
		if a.xtest == b.xtest {
			return 0
		}
		if a.xtest {
			return 1
		}
		return -1
	})
	for _, u := range g.units {
		deps := map[*unit]bool{}
		for _, f := range u.files {
			for _, t := range p.Imports(f) {
				if d := g.lib[path.Dir(t)]; d != nil && d != u {
					deps[d] = true
				}
			}
		}
		for d := range deps {
			u.deps = append(u.deps, d)
		}
		slices.SortFunc(u.deps, func(a, b *unit) int { return strings.Compare(a.dir, b.dir) })
	}
	g.cutCycles()
	for i, u := range g.units {
		u.id = i
	}
	var sees []uint64
	for _, u := range g.units {
		sees = g.closureInto(u, sees)
		g.each(sees, u, func(d *unit) { d.seers++ })
	}
	for _, u := range g.units {
		u.pending = len(u.deps)
		for _, d := range u.deps {
			if d.ext != u {
				d.users = append(d.users, u)
			}
		}
	}
	return g
}

// closure is the set of the units whose declarations u can name: u and
// the units it imports, directly or not (seen asks it). It is made when
// a unit is checked or paired, and let go after: the sets of every unit
// kept for the run grew with the square of the tree (12 MB on six
// copies of kubernetes, 200 MB on twenty-five).
func (g *graph) closure(u *unit) []uint64 { return g.closureInto(u, nil) }

// closureInto is closure made in sees, whose memory it reuses.
func (g *graph) closureInto(u *unit, sees []uint64) []uint64 {
	n := (len(g.units) + 63) / 64
	if cap(sees) < n {
		sees = make([]uint64, n)
	} else {
		sees = sees[:n]
		clear(sees)
	}
	sees[u.id/64] |= 1 << (u.id % 64)
	stack := []*unit{u}
	for len(stack) > 0 {
		w := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range w.deps {
			if sees[d.id/64]&(1<<(d.id%64)) == 0 {
				sees[d.id/64] |= 1 << (d.id % 64)
				stack = append(stack, d)
			}
		}
	}
	return sees
}

// each calls f with every unit of the closure sees but u, in order.
func (g *graph) each(sees []uint64, u *unit, f func(*unit)) {
	for i, w := range sees {
		for w != 0 {
			id := i*64 + bits.TrailingZeros64(w)
			w &= w - 1
			if id != u.id {
				f(g.units[id])
			}
		}
	}
}

// cutCycles drops the dependencies between units of one strongly
// connected component (Tarjan's algorithm, iterative over units in their
// sorted order, so the cut is the same on every run).
func (g *graph) cutCycles() {
	index := map[*unit]int{}
	low := map[*unit]int{}
	comp := map[*unit]int{}
	on := map[*unit]bool{}
	var stack []*unit
	next, ncomp := 0, 0
	type frame struct {
		u *unit
		i int
	}
	for _, root := range g.units {
		if _, done := index[root]; done {
			continue
		}
		frames := []frame{{u: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		on[root] = true
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if f.i < len(f.u.deps) {
				d := f.u.deps[f.i]
				f.i++
				if _, done := index[d]; !done {
					index[d], low[d] = next, next
					next++
					stack = append(stack, d)
					on[d] = true
					frames = append(frames, frame{u: d})
				} else if on[d] {
					low[f.u] = min(low[f.u], index[d])
				}
				continue
			}
			u := f.u
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				parent := frames[len(frames)-1].u
				low[parent] = min(low[parent], low[u])
			}
			if low[u] == index[u] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp[w] = ncomp
					if w == u {
						break
					}
				}
				ncomp++
			}
		}
	}
	for _, u := range g.units {
		u.deps = slices.DeleteFunc(u.deps, func(d *unit) bool { return comp[d] == comp[u] })
	}
}

func isTest(f string) bool { return strings.HasSuffix(f, "_test.go") }

// isXTest says a test file belongs to its directory's external test
// package, by the package clause its parser read.
func isXTest(p refs.Project, f string) bool {
	if !isTest(f) {
		return false
	}
	ff, ok := p.Facts(f)
	return ok && strings.HasSuffix(ff.Package, "_test")
}
