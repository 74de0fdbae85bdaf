package rerank

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/query"
)

// The listing across files ("open first"): the best units of all the
// files rerank.units read, in one list. Within a file, a unit's match is
// normalized to the file's best, which says nothing of how it compares
// with another file's units; the listing's score is one that does: the
// file's standing in the list, the unit's lines matched under one
// inverse document frequency shared by every unit read (a word common
// to the files read tells none of them apart), its match within its file,
// the question naming it or pointing into it, the code names and quoted
// text of the question its lines hold as written (verbatim.go), and a
// test file's units losing some, each weighed by a setting of the stage
// (rubi.hcl). Its weights were chosen by cross-validation over SWE-bench
// dev (bench/unittune).

// partNames are the settings that weigh the listing's parts, which name
// them in a unit's Parts. The first four are always in Parts, the others
// only when they count: caller_weight, a unit calling or using a symbol
// the question asks the callers of ("what calls Cart.Total"), is there
// for such questions alone; test_weight's part is negative; the last two
// are what a class gains from its methods and a method from its class.
var partNames = [12]string{"file_weight", "text_weight", "within_weight", "name_weight", "caller_weight",
	"calls_named_weight", "named_calls_weight", "names_used_weight", "quoted_weight", "test_weight",
	"class_methods_weight", "method_class_weight"}

// The parts a class and its methods lend each other, by their places in
// partNames.
const (
	classMethodsPart = 10
	methodClassPart  = 11
)

// defaultUnits are rerank.units' settings unless rubi.hcl says otherwise;
// the built-in rubi.hcl states each.
var defaultUnits = UnitsSettings{
	MaxUnits: maxUnits, RankedFiles: maxUnitFiles, ReadBytes: unitBytes, OpenFirst: 10, OpenFiles: 10,
	FileWeight: 0.5, FileDecay: 0.5, TextWeight: 1, WithinWeight: 0.25, NameWeight: 0.5,
	CallerWeight: 4, ClassMethodsWeight: 0.25, MethodClassWeight: 0.25,
}

// openFirst scores every unit of the files read on the listing's score
// and returns the best of the first OpenFiles files, at most OpenFirst;
// a unit neither its lines, the question's names nor its class or
// methods match is not listed.
func (u *Units) openFirst(files []readFile, p *profile) []core.Unit {
	if u.s.OpenFirst == 0 || len(files) == 0 {
		return nil
	}
	text := sharedText(files, p)
	used := sharedNames(files)
	// A test file's units lose test_weight, unless tests are asked for.
	testCost := u.s.TestWeight
	if query.AsksForTests(p.question) {
		testCost = 0
	}
	type cand struct {
		span   *unitSpan
		path   string
		place  int
		parts  [len(partNames)]float64
		score  float64
		listed bool // a part of its own counts: its lines, its name
	}
	var cands []cand
	for _, f := range files {
		if u.s.OpenFiles > 0 && f.place >= u.s.OpenFiles {
			break
		}
		standing := 1 / (1 + u.s.FileDecay*float64(f.place))
		test := 0.0
		if f.test {
			test = -testCost
		}
		// The units of a file are scored on their own parts first, then
		// a class and its methods lend each other theirs (lend).
		first := len(cands)
		for _, s := range f.spans {
			t, nu, qu := text[s], used[s], 0.0
			if s.quoted {
				qu = 1
			}
			c := cand{span: s, path: f.path, place: f.place, parts: [len(partNames)]float64{
				u.s.FileWeight * standing, u.s.TextWeight * t, u.s.WithinWeight * s.within, u.s.NameWeight * s.bonus,
				u.s.CallerWeight * s.caller, u.s.CallsNamedWeight * s.callsNamed, u.s.NamedCallsWeight * s.namedCalls,
				u.s.NamesUsedWeight * nu, u.s.QuotedWeight * qu, test}}
			c.listed = t > 0 || s.within > 0 || s.bonus > 0 || s.caller > 0 || s.callsNamed > 0 || s.namedCalls > 0 || nu > 0 || qu > 0
			cands = append(cands, c)
		}
		if cm, mc := u.s.ClassMethodsWeight, u.s.MethodClassWeight; cm > 0 || mc > 0 {
			// A class gains class_methods_weight of its best method's own
			// score (a question about what its methods do is about it
			// too, as when the fix adds one), a method method_class_weight
			// of its class's.
			fc := cands[first:]
			own := make([]float64, len(fc))
			byName := make(map[string]int, len(fc))
			for i := range fc {
				for _, v := range fc[i].parts[1:classMethodsPart] {
					own[i] += v
				}
				byName[fc[i].span.name] = i
			}
			for i := range fc {
				j, ok := byName[fc[i].span.sym.Parent]
				if fc[i].span.sym.Parent == "" || !ok || j == i {
					continue
				}
				fc[j].parts[classMethodsPart] = max(fc[j].parts[classMethodsPart], cm*own[i])
				fc[i].parts[methodClassPart] = mc * max(own[j], 0)
			}
		}
		kept := cands[:first]
		for _, c := range cands[first:] {
			if !c.listed && c.parts[classMethodsPart] <= 0 && c.parts[methodClassPart] <= 0 {
				continue
			}
			for _, v := range c.parts {
				c.score += v
			}
			s := c.span
			if s.why == "" || strings.HasPrefix(s.why, "matches ") {
				switch {
				case c.parts[8] > 0:
					s.why = "quotes text of the question"
				case c.parts[7] > 0:
					s.why = "uses " + strings.Join(s.names[:min(len(s.names), 3)], ", ") + ", written in the question"
				case !c.listed && c.parts[classMethodsPart] > 0:
					s.why = "its methods match the question"
				case !c.listed:
					s.why = "a method of " + s.sym.Parent + ", which matches the question"
				}
			}
			kept = append(kept, c)
		}
		cands = kept
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.place, b.place), cmp.Compare(a.span.start, b.span.start))
	})
	out := make([]core.Unit, 0, min(len(cands), u.s.OpenFirst))
	for _, c := range cands[:min(len(cands), u.s.OpenFirst)] {
		un := c.span.unit()
		un.Path, un.Score = c.path, c.score
		un.Parts = make(map[string]float64, len(partNames))
		for i, n := range partNames {
			if c.parts[i] != 0 || i < 4 {
				un.Parts[n] = c.parts[i]
			}
		}
		out = append(out, un)
	}
	return out
}

// sharedText is each unit's match of the question's terms over all the
// units read, as one collection (BM25, k1 = 1.2, b = 0.75, as within a
// file; a class's scaled by classTextWeight), the best unit scoring 1.
func sharedText(files []readFile, p *profile) map[*unitSpan]float64 {
	df := map[string]int{}
	n, total := 0, 0
	for _, f := range files {
		for _, s := range f.spans {
			n++
			total += s.length
			for t := range s.tf {
				df[t]++
			}
		}
	}
	out := make(map[*unitSpan]float64, n)
	if n == 0 {
		return out
	}
	avg := max(float64(total)/float64(n), 1)
	const k1, b = 1.2, 0.75
	best := 0.0
	for _, f := range files {
		for _, s := range f.spans {
			v := 0.0
			for _, t := range p.order { // in a fixed order: the same float every run
				qw, tf := p.terms[t], s.tf[t]
				if tf == 0 {
					continue
				}
				idf := math.Log(1 + (float64(n-df[t])+0.5)/(float64(df[t])+0.5))
				norm := k1 * (1 - b + b*float64(s.length)/avg)
				v += qw * idf * float64(tf) * (k1 + 1) / (float64(tf) + norm)
			}
			if isClassKind(s.sym.Kind) {
				v *= classTextWeight
			}
			out[s] = v
			best = max(best, v)
		}
	}
	if best > 0 {
		for s := range out {
			out[s] /= best
		}
	}
	return out
}

// isClassKind reports a unit that stands for a type: its own lines are
// its header, docstring and attributes.
func isClassKind(kind string) bool {
	return kind == core.SymbolClass || kind == core.SymbolType || kind == core.SymbolInterface
}
