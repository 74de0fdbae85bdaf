// Command unittune chooses rerank.units' settings of the listing across
// files ("open first") by cross-validation over SWE-bench dev, offline,
// from the per-instance dump bench/quality writes (-swebench-dump) with
// every unit of the files read listed and each part of its score raw:
//
//	go run -C bench ./quality -swebench -mirrors DIR -ablation=false -cli-sample 0 \
//	    -config unittune/features.hcl -swebench-dump /tmp/features.jsonl
//	go run -C bench ./unittune -dump /tmp/features.jsonl > /tmp/tune.md
//
// The dump's listing must come from features.hcl (ranked_files = 10,
// read_bytes past every file, open_first large, file_weight =
// file_decay = 1, the class parts 0 and the other weights 1), so that a
// unit's parts are its raw features: the file's place p (file_weight's
// part is 1/(1+p)), its text match across the files read, its match
// within its file, the question's names. -classes lends a class its best
// method's own score and a method its class's (class_methods_weight,
// method_class_weight) from those, and reads the files within each
// read_bytes it tries by their sizes in the dump; the text part keeps
// the weighting of words over all ten files read, so a smaller budget is
// approximated (bench/results/quality-2026-12-06-fnunits.md). Every
// setting of a grid is scored on every instance once (function Acc@5
// and Acc@10 over the first open_first units); the settings are then
// chosen on the training instances of each fold (5 folds over
// instances, seeded, and each project left out in turn) and scored on
// the held-out ones. The
// setting rubi ships is the one chosen on all the instances; the
// held-out figures are what to expect of it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// line is what the tuner reads of a dump line.
type line struct {
	ID        string   `json:"instance_id"`
	Repo      string   `json:"repo"`
	FnGold    []string `json:"gold_units"`
	Files     []string `json:"files"`
	FileSizes []int64  `json:"file_sizes"`
	OpenFirst []struct {
		Key   string             `json:"key"`
		Kind  string             `json:"kind"`
		Parts map[string]float64 `json:"parts"`
	} `json:"open_first"`
}

// cand is a unit of an instance's listing, by its raw features.
type cand struct {
	key                int // the unit's key, numbered per instance
	place              int
	text, within, name float64
	// cn and nn are the references' parts: the unit calls a unit the
	// question names, a named unit calls it.
	cn, nc float64
	// nu and qu are the verbatim parts: the question's code names the
	// unit uses, its quoted text in the question.
	nu, qu float64
	// test is 1 for a unit of a test file (test_weight's part is its
	// negative).
	test float64
	gold bool
	// parent is 1 + the index in cands of the class a method is of (0
	// none), class says the unit is a class.
	parent int
	class  bool
}

type instance struct {
	id, repo string
	gold     int // gold units
	cands    []cand
	// sizes are the bytes of the files by their place in the dump (-1
	// unknown): what read_bytes counts.
	sizes []int64
	// placeMemo holds places by budget; base and bestMethod are score's
	// scratch.
	placeMemo        map[int64][]int
	base, bestMethod []float64
	listed           []bool
}

// setting is one point of the grid.
type setting struct {
	files                  int // open_files
	decay                  float64
	file, text, within, nm float64
	cn, nc                 float64 // calls_named_weight, named_calls_weight
	nu, qu                 float64 // names_used_weight, quoted_weight
	test                   float64 // test_weight
	// cm is class_methods_weight (a class gains its best method's score),
	// mc method_class_weight (a method gains its class's).
	cm, mc float64
	// budget is read_bytes: the files read are the first ones within it
	// (the first always); 0 every file of the dump.
	budget int64
}

func (s setting) String() string {
	out := fmt.Sprintf("open_files=%d file_decay=%.3g file_weight=%.3g text_weight=%.3g within_weight=%.3g name_weight=%.3g", s.files, s.decay, s.file, s.text, s.within, s.nm)
	if s.cn != 0 || s.nc != 0 {
		out += fmt.Sprintf(" calls_named_weight=%.3g named_calls_weight=%.3g", s.cn, s.nc)
	}
	if s.nu != 0 || s.qu != 0 || s.test != 0 {
		out += fmt.Sprintf(" names_used_weight=%.3g quoted_weight=%.3g test_weight=%.3g", s.nu, s.qu, s.test)
	}
	if s.cm != 0 || s.mc != 0 {
		out += fmt.Sprintf(" class_methods_weight=%.3g method_class_weight=%.3g", s.cm, s.mc)
	}
	if s.budget != 0 {
		out += fmt.Sprintf(" read_bytes=%d", s.budget)
	}
	return out
}

const openFirst = 10

func main() {
	dump := flag.String("dump", "", "the dump of bench/quality -swebench-dump, made with unittune/features.hcl")
	seed := flag.Uint64("seed", 1, "seed of the folds")
	folds := flag.Int("folds", 5, "folds over instances")
	neighbours := flag.Bool("neighbours", false, "tune the references' parts (calls_named_weight, named_calls_weight) around the shipped listing, on a dump made with them at 1")
	without := flag.Bool("without-refs", false, "with -neighbours, the same grid with the references' parts at 0: what they are measured against")
	verbatim := flag.Bool("verbatim", false, "tune the verbatim parts (names_used_weight, quoted_weight) with the listing's weights near the shipped ones, on a dump made with them at 1")
	verbatimOff := flag.Bool("without-verbatim", false, "with -verbatim, the same grid with the verbatim and test parts at 0: what they are measured against")
	classes := flag.Bool("classes", false, "tune class_methods_weight and method_class_weight (a class gains its best method's score, a method its class's) and read_bytes with the listing's weights near the shipped ones, on a dump made with features.hcl and a read_bytes above every budget tried")
	classesOff := flag.Bool("without-classes", false, "with -classes, the same grid with the class parts at 0: what they are measured against")
	budgets := flag.String("budgets", "524288", "with -classes, the read_bytes tried, comma-separated (0: every file of the dump)")
	flag.BoolVar(&skipBig, "skip-big", false, "with -classes, the reading budget passes over a file it does not hold and reads the next ones")
	perProject := flag.Bool("per-project", false, "print the chosen setting's function Acc@5/10 per project (in-sample)")
	flag.Parse()
	insts, err := read(*dump)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unittune:", err)
		os.Exit(1)
	}
	grid := makeGrid()
	if *neighbours {
		grid = neighbourGrid()
		if *without {
			grid = slices.DeleteFunc(grid, func(s setting) bool { return s.cn != 0 || s.nc != 0 })
		}
	}
	if *verbatim {
		grid = verbatimGrid()
		if *verbatimOff {
			grid = slices.DeleteFunc(grid, func(s setting) bool { return s.nu != 0 || s.qu != 0 || s.test != 0 })
		}
	}
	if *classes {
		var bs []int64
		for _, f := range strings.Split(*budgets, ",") {
			b, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || b < 0 {
				fmt.Fprintln(os.Stderr, "unittune: -budgets: not a byte count:", f)
				os.Exit(2)
			}
			bs = append(bs, b)
		}
		grid = classGrid(bs)
		if *classesOff {
			grid = slices.DeleteFunc(grid, func(s setting) bool { return s.cm != 0 || s.mc != 0 })
		}
	}
	fmt.Fprintf(os.Stderr, "unittune: %d instances, %d settings\n", len(insts), len(grid))
	acc5 := make([][]bool, len(grid))
	acc10 := make([][]bool, len(grid))
	for g, s := range grid {
		acc5[g], acc10[g] = make([]bool, len(insts)), make([]bool, len(insts))
		for i := range insts {
			acc5[g][i], acc10[g][i] = score(&insts[i], s)
		}
	}
	choose := func(train []int) int {
		best, bk10, bk5 := 0, -1, -1
		for g := range grid {
			n10, n5 := 0, 0
			for _, i := range train {
				if acc10[g][i] {
					n10++
				}
				if acc5[g][i] {
					n5++
				}
			}
			if n10 > bk10 || n10 == bk10 && n5 > bk5 {
				best, bk10, bk5 = g, n10, n5
			}
		}
		return best
	}
	pct := func(a []bool, idx []int) float64 {
		n := 0
		for _, i := range idx {
			if a[i] {
				n++
			}
		}
		return 100 * float64(n) / float64(len(idx))
	}
	all := make([]int, len(insts))
	for i := range all {
		all[i] = i
	}
	fmt.Printf("Settings of rerank.units' listing across files, chosen by cross-validation over %d SWE-bench dev instances with function spans (grid of %d settings; objective: function Acc@10 over the first %d units, then Acc@5).\n\n", len(insts), len(grid), openFirst)

	// Folds over instances.
	order := slices.Clone(all)
	r := rand.New(rand.NewPCG(*seed, 0))
	r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	fmt.Printf("%d folds over instances (seed %d):\n\n| fold | held out | chosen on the rest | held-out fn Acc@5 | fn Acc@10 |\n|---|---:|---|---:|---:|\n", *folds, *seed)
	var f5, f10 []float64
	for f := range *folds {
		var train, test []int
		for j, i := range order {
			if j%*folds == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		g := choose(train)
		a5, a10 := pct(acc5[g], test), pct(acc10[g], test)
		f5, f10 = append(f5, a5), append(f10, a10)
		fmt.Printf("| %d | %d | %s | %.1f | %.1f |\n", f+1, len(test), grid[g], a5, a10)
	}
	m5, s5 := meanSD(f5)
	m10, s10 := meanSD(f10)
	fmt.Printf("\nHeld out, mean ± sd over the folds: fn Acc@5 **%.1f ± %.1f** (%.1f–%.1f), fn Acc@10 **%.1f ± %.1f** (%.1f–%.1f).\n\n", m5, s5, slices.Min(f5), slices.Max(f5), m10, s10, slices.Min(f10), slices.Max(f10))

	// Each project left out in turn.
	var repos []string
	for _, x := range insts {
		if !slices.Contains(repos, x.repo) {
			repos = append(repos, x.repo)
		}
	}
	sort.Strings(repos)
	fmt.Printf("Each project left out in turn:\n\n| project held out | instances | chosen on the others | fn Acc@5 | fn Acc@10 |\n|---|---:|---|---:|---:|\n")
	n5, n10 := 0, 0
	for _, repo := range repos {
		var train, test []int
		for i, x := range insts {
			if x.repo == repo {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		g := choose(train)
		for _, i := range test {
			if acc5[g][i] {
				n5++
			}
			if acc10[g][i] {
				n10++
			}
		}
		fmt.Printf("| %s | %d | %s | %.1f | %.1f |\n", repo, len(test), grid[g], pct(acc5[g], test), pct(acc10[g], test))
	}
	fmt.Printf("\nPooled over the held-out projects: fn Acc@5 **%.1f**, fn Acc@10 **%.1f**.\n\n", 100*float64(n5)/float64(len(insts)), 100*float64(n10)/float64(len(insts)))

	g := choose(all)
	fmt.Printf("Chosen on all %d instances (what rubi.hcl ships): `%s`; on those same instances (not a held-out figure) fn Acc@5 %.1f, Acc@10 %.1f.\n\n", len(insts), grid[g], pct(acc5[g], all), pct(acc10[g], all))
	// Neighbours of the choice: how flat the optimum is.
	fmt.Printf("Beside it, on all instances (in-sample), each part alone or left out:\n\n| setting | fn Acc@5 | fn Acc@10 |\n|---|---:|---:|\n")
	c := grid[g]
	with := func(f func(*setting)) setting {
		s := c
		f(&s)
		return s
	}
	for _, v := range []struct {
		name string
		s    setting
	}{
		{"chosen", c},
		{"file standing off", with(func(s *setting) { s.file = 0 })},
		{"text across files off", with(func(s *setting) { s.text = 0 })},
		{"within its file off", with(func(s *setting) { s.within = 0 })},
		{"names off", with(func(s *setting) { s.nm = 0 })},
		{"callers of named units off", with(func(s *setting) { s.cn = 0 })},
		{"callees of named units off", with(func(s *setting) { s.nc = 0 })},
		{"code names used off", with(func(s *setting) { s.nu = 0 })},
		{"quoted text off", with(func(s *setting) { s.qu = 0 })},
		{"verbatim parts off", with(func(s *setting) { s.nu, s.qu = 0, 0 })},
		{"test units kept", with(func(s *setting) { s.test = 0 })},
		{"class credit off", with(func(s *setting) { s.cm, s.mc = 0, 0 })},
		{"a class's methods off", with(func(s *setting) { s.cm = 0 })},
		{"a method's class off", with(func(s *setting) { s.mc = 0 })},
		{"read_bytes 512 KiB", with(func(s *setting) { s.budget = 512 << 10 })},
		{"units of 5 files", with(func(s *setting) { s.files = 5 })},
		{"units of all 10 files read", with(func(s *setting) { s.files = 10 })},
	} {
		var a5, a10 []bool
		for i := range insts {
			x, y := score(&insts[i], v.s)
			a5, a10 = append(a5, x), append(a10, y)
		}
		fmt.Printf("| %s: `%s` | %.1f | %.1f |\n", v.name, v.s, pct(a5, all), pct(a10, all))
	}
	if *perProject {
		fmt.Printf("\nThe chosen setting per project (in-sample):\n\n| project | instances | fn Acc@5 | fn Acc@10 |\n|---|---:|---:|---:|\n")
		for _, repo := range repos {
			var idx []int
			for i, x := range insts {
				if x.repo == repo {
					idx = append(idx, i)
				}
			}
			fmt.Printf("| %s | %d | %.1f | %.1f |\n", repo, len(idx), pct(acc5[g], idx), pct(acc10[g], idx))
		}
	}
}

// makeGrid is every setting tried.
func makeGrid() []setting {
	var out []setting
	for _, files := range []int{3, 4, 5, 6, 7, 8, 10} {
		for _, decay := range []float64{0.125, 0.25, 0.5, 1, 2, 4} {
			for _, fw := range []float64{0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3} {
				if fw == 0 && decay != 1 {
					continue // the standing does not count: one of them
				}
				for _, tw := range []float64{0, 1} {
					for _, ww := range []float64{0, 0.25, 0.5, 1, 2} {
						for _, nw := range []float64{0, 0.25, 0.5, 1, 2} {
							out = append(out, setting{files: files, decay: decay, file: fw, text: tw, within: ww, nm: nw})
						}
					}
				}
			}
		}
	}
	return out
}

// neighbourGrid is the references' parts over settings near the shipped
// listing (rubi.hcl: open_files 5, file_decay 0.25, file_weight 0.5,
// text_weight 1, within_weight 0.25, name_weight 1).
func neighbourGrid() []setting {
	var out []setting
	for _, files := range []int{5, 7} {
		for _, fw := range []float64{0.25, 0.5, 1} {
			for _, ww := range []float64{0.25, 0.5} {
				for _, nw := range []float64{0.5, 1, 2} {
					for _, cn := range []float64{0, 0.125, 0.25, 0.5, 1, 2} {
						for _, nc := range []float64{0, 0.125, 0.25, 0.5, 1, 2} {
							out = append(out, setting{files: files, decay: 0.25, file: fw, text: 1, within: ww, nm: nw, cn: cn, nc: nc})
						}
					}
				}
			}
		}
	}
	return out
}

// verbatimGrid is the verbatim parts over settings near the shipped
// listing, the listing's own weights free around it.
func verbatimGrid() []setting {
	var out []setting
	for _, files := range []int{4, 5, 7, 10} {
		for _, decay := range []float64{0.25, 0.5} {
			for _, fw := range []float64{0.25, 0.5, 1} {
				for _, ww := range []float64{0.25, 0.5} {
					for _, nw := range []float64{0.5, 1, 2} {
						for _, nu := range []float64{0, 0.125, 0.25, 0.5, 1, 2} {
							for _, qu := range []float64{0, 0.25, 0.5, 1, 2} {
								for _, tw := range []float64{0, 0.5, 2} {
									out = append(out, setting{files: files, decay: decay, file: fw, text: 1, within: ww, nm: nw, nu: nu, qu: qu, test: tw})
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// classGrid is the class parts and the reading budget over settings near
// the shipped listing, the listing's own weights free around it.
func classGrid(budgets []int64) []setting {
	var out []setting
	for _, b := range budgets {
		for _, files := range []int{5, 7, 10} {
			for _, decay := range []float64{0.25, 0.5} {
				for _, fw := range []float64{0.25, 0.5, 1} {
					for _, ww := range []float64{0.25, 0.5} {
						for _, nw := range []float64{0.5, 1, 2} {
							for _, cm := range []float64{0, 0.25, 0.5, 1} {
								for _, mc := range []float64{0, 0.125, 0.25, 0.5} {
									out = append(out, setting{files: files, decay: decay, file: fw, text: 1, within: ww, nm: nw, cm: cm, mc: mc, budget: b})
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// score lists an instance's first openFirst units under s and reports
// function Acc@5 and Acc@10 (every gold unit in the first k; when there
// are more than k, the first k all gold).
func score(x *instance, s setting) (bool, bool) {
	type top struct {
		key  int
		v    float64
		gold bool
	}
	place := x.places(s.budget)
	if len(x.base) < len(x.cands) {
		x.base, x.bestMethod = make([]float64, len(x.cands)), make([]float64, len(x.cands))
		x.listed = make([]bool, len(x.cands))
	}
	// A unit's own score, without its file's standing: nothing but the
	// standing lists no unit (rerank.units' openFirst); the references'
	// parts count only when weighed, as rubi looks them up only then.
	for i := range x.cands {
		c := &x.cands[i]
		x.base[i], x.bestMethod[i], x.listed[i] = math.NaN(), 0, false
		if p := place[c.place]; p < 0 || p >= s.files {
			continue
		}
		refs := s.cn*c.cn + s.nc*c.nc
		verb := s.nu*c.nu + s.qu*c.qu
		x.listed[i] = c.text > 0 || c.within > 0 || c.name > 0 || refs > 0 || verb > 0
		x.base[i] = s.text*c.text + s.within*c.within + s.nm*c.name + refs + verb - s.test*c.test
	}
	// A class gains its best method's own score, a method its class's.
	if s.cm > 0 {
		for i := range x.cands {
			if p := x.cands[i].parent - 1; p >= 0 && !math.IsNaN(x.base[i]) && !math.IsNaN(x.base[p]) {
				x.bestMethod[p] = max(x.bestMethod[p], x.base[i])
			}
		}
	}
	var best [openFirst]top
	n := 0
	for i := range x.cands {
		c := &x.cands[i]
		own := x.base[i]
		if math.IsNaN(own) {
			continue
		}
		credit := s.cm * x.bestMethod[i]
		if p := c.parent - 1; s.mc > 0 && p >= 0 && !math.IsNaN(x.base[p]) {
			credit += s.mc * max(x.base[p], 0)
		}
		if !x.listed[i] && credit <= 0 {
			continue
		}
		standing := 1 / (1 + s.decay*float64(place[c.place]))
		v := s.file*standing + own + credit
		// The same key twice (a property's getter and setter): its best.
		dup := -1
		for j := range n {
			if best[j].key == c.key {
				dup = j
			}
		}
		if dup >= 0 {
			if v <= best[dup].v {
				continue
			}
			copy(best[dup:n-1], best[dup+1:n])
			n--
		}
		if n == openFirst && v <= best[n-1].v {
			continue
		}
		j := min(n, openFirst-1)
		for j > 0 && best[j-1].v < v {
			if j < openFirst {
				best[j] = best[j-1]
			}
			j--
		}
		best[j] = top{c.key, v, c.gold}
		n = min(n+1, openFirst)
	}
	at := func(k int) bool {
		g := 0
		for _, t := range best[:min(n, k)] {
			if t.gold {
				g++
			}
		}
		if x.gold > k {
			return n >= k && g == k
		}
		return g == x.gold
	}
	return at(5), at(10)
}

// places maps the dump's places of the files to their places among the
// files read within budget (rerank.units' read_bytes: the first file
// always, then each while the bytes left hold it; with skipBig, a file
// they do not hold is passed over and the next ones tried), -1 for a
// file not read; budget 0 reads every file of the dump.
func (x *instance) places(budget int64) []int {
	memo := budget
	if skipBig {
		memo = -budget - 1
	}
	if p, ok := x.placeMemo[memo]; ok {
		return p
	}
	out := make([]int, maxPlaces)
	left, n, stopped := budget, 0, false
	for p := range out {
		if budget == 0 {
			out[p] = p
			continue
		}
		size := int64(0)
		if p < len(x.sizes) && x.sizes[p] > 0 {
			size = x.sizes[p]
		}
		if stopped || n > 0 && size > left {
			out[p] = -1
			stopped = !skipBig
			continue
		}
		left -= size
		out[p] = n
		n++
	}
	if x.placeMemo == nil {
		x.placeMemo = map[int64][]int{}
	}
	x.placeMemo[memo] = out
	return out
}

// skipBig is -skip-big: the reading budget passes over a file it does not
// hold instead of stopping there.
var skipBig bool

// maxPlaces bounds the places of the files a dump lists units of.
const maxPlaces = 64

func read(path string) ([]instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<28)
	var out []instance
	mismatched := 0
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, err
		}
		if len(l.FnGold) == 0 {
			continue
		}
		x := instance{id: l.ID, repo: l.Repo, gold: len(l.FnGold), sizes: l.FileSizes}
		keys := map[string]int{}
		var names []string        // the keys by number
		byKey := map[string]int{} // unit key → index in cands
		for _, u := range l.OpenFirst {
			fw := u.Parts["file_weight"]
			if fw <= 0 || fw > 1 {
				return nil, fmt.Errorf("%s: a unit's file_weight part is %v: the dump was not made with features.hcl", l.ID, fw)
			}
			place := int(math.Round(1/fw - 1))
			if place >= maxPlaces {
				return nil, fmt.Errorf("%s: a unit of the file at place %d: more than %d files read", l.ID, place, maxPlaces)
			}
			if path, _, _ := strings.Cut(u.Key, "\x00"); place >= len(l.Files) || l.Files[place] != path {
				mismatched++
			}
			k, ok := keys[u.Key]
			if !ok {
				k = len(keys)
				keys[u.Key] = k
				names = append(names, u.Key)
			}
			byKey[u.Key] = len(x.cands)
			x.cands = append(x.cands, cand{key: k, place: place, text: u.Parts["text_weight"], within: u.Parts["within_weight"], name: u.Parts["name_weight"],
				cn: u.Parts["calls_named_weight"], nc: u.Parts["named_calls_weight"],
				nu: u.Parts["names_used_weight"], qu: u.Parts["quoted_weight"], test: -u.Parts["test_weight"], gold: slices.Contains(l.FnGold, u.Key),
				class: u.Kind == "class"})
		}
		// A method's class: a class that scored nothing is not in the
		// dump, yet is a unit rubi scores (its parts all 0).
		for i := range len(x.cands) {
			c := x.cands[i]
			key := names[c.key]
			path, name, _ := strings.Cut(key, "\x00")
			dot := strings.LastIndexByte(name, '.')
			if dot < 0 {
				continue
			}
			pk := path + "\x00" + name[:dot]
			j, ok := byKey[pk]
			if !ok {
				keys[pk] = len(keys)
				names = append(names, pk)
				j = len(x.cands)
				byKey[pk] = j
				x.cands = append(x.cands, cand{key: keys[pk], place: c.place, gold: slices.Contains(l.FnGold, pk), class: true})
			}
			x.cands[i].parent = j + 1
		}
		out = append(out, x)
	}
	if mismatched > 0 {
		fmt.Fprintf(os.Stderr, "unittune: %d units whose place is not their file's place in the answer's files\n", mismatched)
	}
	return out, sc.Err()
}

func meanSD(v []float64) (float64, float64) {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(max(len(v)-1, 1)))
}
