package main

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// The unit bounds (-unit-bounds): how much function-level localization
// could gain from how rerank.units lists units, with the files as rubi
// ranks them. rerank.units lists at most max_units units under a file,
// ranks by their lines those of the first ranked_files files only, and
// the answer lists them file by file, so its first 10 units span two or
// three files where the gold file is in the top 10 files far more often.
// The bounds take each file's units from a second engine on the same
// index whose rerank.units lists every unit it scores above zero in the
// first sweLimit files (wideUnitsLayer), and each gold unit rubi's
// parser knows in its file (Engine.ReadSymbol) even when it scores zero.
//
//   - oracle-within: each file's units in the perfect order (the gold
//     units it knows first, then its own in rubi's order), at most
//     todayMaxUnits a file, file by file; over the first
//     todayRankedFiles files (the others keep today's units) and over
//     every file.
//   - oracle-merged: the units of the first N files in one list, the
//     gold it knows first: the bound of listing across files.
//   - merged: the same units in one list, each file's first unit in file
//     order, then each file's second, and so on (core.Unit carries no
//     score to merge on): a setting that could be built.
//   - today, at most k a file; today, leaders first: today's units
//     listed otherwise (a smaller max_units; each of the first 10 files'
//     first unit before the rest), settings that could be built.
//   - wide: the second engine's answer as it is, every unit file by file.

// todayMaxUnits and todayRankedFiles are rerank.units' defaults
// (max_units, ranked_files) when the bounds were first measured, before
// the listing across files (open first).
const (
	todayMaxUnits    = 4
	todayRankedFiles = 5
)

// wideUnitsLayer makes rerank.units list every unit it scores in every
// file of a SWE-bench answer (within its byte budget for reading them).
const wideUnitsLayer = "reranker \"rerank.units\" {\n  max_units = 100000\n  ranked_files = 50\n}\n"

// mergedDepths are the numbers of first files whose units are merged.
var mergedDepths = []int{5, 10}

// unitBound is a row of the unit bounds and how it reads an instance.
type unitBound struct {
	name, role string
	rank       func(b boundInput) []string
}

// boundInput is one instance as the bounds read it: the full pipeline's
// files in order and its units per file (unit keys), the wide engine's
// units per file, and the gold units rubi knows per file.
type boundInput struct {
	files       []string
	today, wide map[string][]string
	gold        map[string][]string
}

// unitBounds are the rows -unit-bounds adds, in report order.
func unitBounds() []unitBound {
	bs := []unitBound{
		{"bound: oracle-within, first 5 files", "oracle: gold units first within each of the first 5 files, at most 4 a file, file by file; later files keep today's units",
			func(b boundInput) []string { return withinOracle(b, todayMaxUnits, todayRankedFiles) }},
		{"bound: oracle-within, every file", "oracle: gold units first within every file, at most 4 a file, file by file",
			func(b boundInput) []string { return withinOracle(b, todayMaxUnits, len(b.files)) }},
	}
	for _, n := range mergedDepths {
		bs = append(bs, unitBound{"bound: oracle-merged, top " + strconv.Itoa(n) + " files", "oracle: the units of the first " + strconv.Itoa(n) + " files in one list, gold first",
			func(b boundInput) []string { return mergedOracle(b, n) }})
	}
	for _, n := range mergedDepths {
		bs = append(bs, unitBound{"merged, top " + strconv.Itoa(n) + " files", "candidate: the units of the first " + strconv.Itoa(n) + " files, interleaved by unit rank then file rank",
			func(b boundInput) []string { return interleaved(b, n) }})
	}
	for _, k := range []int{1, 2, 3} {
		bs = append(bs, unitBound{"today, at most " + strconv.Itoa(k) + " a file", "candidate: today's units file by file, the first " + strconv.Itoa(k) + " of each (max_units = " + strconv.Itoa(k) + ")",
			func(b boundInput) []string { return capped(b.files, b.today, k) }})
	}
	bs = append(bs, unitBound{"today, leaders first", "candidate: the first unit of each of the first 10 files in file order, then today's other units file by file",
		func(b boundInput) []string { return leadersFirst(b.files, b.today, 10) }})
	bs = append(bs, unitBound{"wide units", "diagnostic: every unit rerank.units scores, file by file",
		func(b boundInput) []string { return fileByFile(b.files, b.wide) }})
	return bs
}

// withinOracle lists, file by file, the first ranked files' units gold
// first then the rest in rubi's order, at most maxUnits a file; the
// files after them keep today's units.
func withinOracle(b boundInput, maxUnits, ranked int) []string {
	var out []string
	for i, f := range b.files {
		if i >= ranked {
			out = append(out, b.today[f]...)
			continue
		}
		us := goldFirst(b.gold[f], b.wide[f])
		out = append(out, us[:min(len(us), maxUnits)]...)
	}
	return dedupe(out)
}

// mergedOracle lists the units of the first n files in one list, the
// gold ones first.
func mergedOracle(b boundInput, n int) []string {
	var gold, rest []string
	for _, f := range b.files[:min(n, len(b.files))] {
		gold = append(gold, b.gold[f]...)
		rest = append(rest, b.wide[f]...)
	}
	return goldFirst(gold, rest)
}

// interleaved lists the units of the first n files by their rank within
// their file, then by their file's rank: each file's first unit, then
// each file's second.
func interleaved(b boundInput, n int) []string {
	files := b.files[:min(n, len(b.files))]
	var out []string
	for r := 0; ; r++ {
		more := false
		for _, f := range files {
			if us := b.wide[f]; r < len(us) {
				out = append(out, us[r])
				more = true
			}
		}
		if !more {
			return dedupe(out)
		}
	}
}

// fileByFile lists each file's units in file order.
func fileByFile(files []string, units map[string][]string) []string {
	var out []string
	for _, f := range files {
		out = append(out, units[f]...)
	}
	return dedupe(out)
}

// capped lists each file's first k units in file order.
func capped(files []string, units map[string][]string, k int) []string {
	var out []string
	for _, f := range files {
		us := units[f]
		out = append(out, us[:min(k, len(us))]...)
	}
	return dedupe(out)
}

// leadersFirst lists the first unit of each of the first n files, in file
// order, then every file's units file by file.
func leadersFirst(files []string, units map[string][]string, n int) []string {
	var out []string
	for _, f := range files[:min(n, len(files))] {
		if us := units[f]; len(us) > 0 {
			out = append(out, us[0])
		}
	}
	return dedupe(append(out, fileByFile(files, units)...))
}

// goldFirst is gold then the rest not in it, each once.
func goldFirst(gold, rest []string) []string {
	return dedupe(append(slices.Clone(gold), rest...))
}

// itemUnits reads an answer's files in order and each file's units
// (unit keys) in order.
func itemUnits(items []answer.Item) (files []string, units map[string][]string) {
	units = map[string][]string{}
	for _, it := range items {
		if it.Kind != core.DocFile || it.Path == "" {
			continue
		}
		if _, ok := units[it.Path]; ok {
			continue
		}
		files = append(files, it.Path)
		var us []string
		for _, u := range it.Units {
			if u.Name != "" {
				us = append(us, unitKey(it.Path, u.Name))
			}
		}
		units[it.Path] = dedupe(us)
	}
	return files, units
}

// boundUnitKinds are the symbol kinds rerank.units makes units of.
var boundUnitKinds = map[string]bool{
	core.SymbolFunction: true, core.SymbolMethod: true, core.SymbolClass: true,
	core.SymbolType: true, core.SymbolInterface: true, core.SymbolEnum: true,
}

// knownGold returns, per file, the gold units rubi could list: those the
// wide answer lists, and those the index defines as a unit in that file
// (a gold unit its parser does not see, or names otherwise, no listing
// can give).
func knownGold(eng *pipeline.Engine, fnGold []string, wide map[string][]string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, g := range fnGold {
		path, name, _ := strings.Cut(g, "\x00")
		known := slices.Contains(wide[path], g)
		if !known {
			r, err := eng.ReadSymbol(path + "::" + name)
			if err != nil {
				return nil, err
			}
			defs := r.Candidates
			if r.Definition != nil {
				defs = append(defs, *r.Definition)
			}
			for _, d := range defs {
				q := d.Name
				if d.Parent != "" {
					q = d.Parent + "." + d.Name
				}
				if d.Path == path && q == name && boundUnitKinds[d.Kind] {
					known = true
				}
			}
		}
		if known {
			out[path] = append(out[path], g)
		}
	}
	return out, nil
}
