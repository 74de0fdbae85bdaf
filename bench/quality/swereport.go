package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// isFull reports whether a row is the whole configured pipeline.
func isFull(s sweSystem) bool { return slices.Contains(strings.Split(s.Role, "; "), "full") }

// bySystem finds a row by name.
func bySystem(ss []sweSystem, name string) (sweSystem, bool) {
	for _, s := range ss {
		if s.Name == name {
			return s, true
		}
	}
	return sweSystem{}, false
}

func fullSystem(ss []sweSystem) (sweSystem, bool) {
	for _, s := range ss {
		if isFull(s) {
			return s, true
		}
	}
	return sweSystem{}, false
}

func (s *sweReport) markdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("## Code localization: SWE-bench dev\n\n")
	p("Real issues of Python projects (`%s`, %d in the file; SWE-bench Verified less Lite): the issue's text is the query, its project's tree at the issue's base commit the corpus, the files and functions its fix changed the gold. ", s.Data, s.InFile)
	p("Measured: %s, %d of the %d selected, in %.0f s. ", s.Selection, s.Measured, s.Selected, s.Seconds)
	p("Published anchor (the data's README, `../shared/data/README.md`): a plain file-level BM25 scores about **22 / 39 / 47 / 61** Acc@1/3/5/10 on all of SWE-bench Verified.\n\n")
	if len(s.Skipped) > 0 {
		reasons := map[string][]string{}
		var order []string
		for _, k := range s.Skipped {
			if _, ok := reasons[k.Reason]; !ok {
				order = append(order, k.Reason)
			}
			reasons[k.Reason] = append(reasons[k.Reason], k.ID)
		}
		p("Skipped %d:", len(s.Skipped))
		for _, r := range order {
			ids := reasons[r]
			if len(ids) <= 5 {
				p(" %s (%s);", r, strings.Join(ids, ", "))
			} else {
				p(" %s (%d instances);", r, len(ids))
			}
		}
		p("\n\n")
	}
	p("All projects together; Acc@k and R@5 in %%, function Acc@k over the %d instances with function spans:\n\n", fnN(s.Pooled))
	sweTable(w, s.Pooled)
	p("\n%d instances changed no function or class (only imports, a docstring or module-level code) and are left out of the function scores. ", s.FnLeftOut)
	if s.GoldAbsent > 0 {
		p("%d have a gold file the base tree lacks (the fix created it), which no system can rank. ", s.GoldAbsent)
	}
	if s.BoundGold > 0 {
		p("Unit bounds (`-unit-bounds`): the `bound:` rows are oracles and `merged`/`wide units` real listings, each from one more engine on the same index whose rerank.units lists every unit it scores above zero in every file (`max_units = 100000, ranked_files = 50`; its 512 KiB reading budget kept), asked once after the re-index (their latency is that first answer's); its first 10 files differ from the full pipeline's for %d instances. Of the %d gold units, %d (%.1f %%) are units rubi's index defines in their files, the most any listing of its units can find. ", s.BoundFilesDiffer, s.BoundGold, s.BoundGoldKnown, 100*float64(s.BoundGoldKnown)/float64(s.BoundGold))
	}
	if s.OpenFirst > 0 {
		p("The full pipeline's answers listed %d units first, across files (%.1f an instance). ", s.OpenFirst, float64(s.OpenFirst)/float64(max(s.Measured, 1)))
	}
	if s.Units == 0 {
		p("rubi's answers carried no units (`answer.Item.Units` is empty in this build), so its function-level scores are 0 by construction.")
	}
	p("\n\n")

	if full, ok := fullSystem(s.Pooled); ok {
		p("Per project, the full pipeline (`%s`) beside the baselines:\n\n", full.Name)
		p("| project | instances | rubi Acc@1 | Acc@5 | Acc@10 | MRR | fn Acc@10 | file BM25 Acc@1 | Acc@5 | Acc@10 | MRR | function BM25 fn Acc@10 |\n")
		p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		rows := append(slices.Clone(s.Projects), sweProject{Repo: "**all**", Instances: s.Measured, Systems: s.Pooled})
		for _, pr := range rows {
			r, _ := fullSystem(pr.Systems)
			b, _ := bySystem(pr.Systems, fileBaselineName)
			f, _ := bySystem(pr.Systems, fnBaselineName)
			p("| %s | %d | %.1f | %.1f | %.1f | %.3f | %s | %.1f | %.1f | %.1f | %.3f | %s |\n", pr.Repo, pr.Instances,
				r.Scores.Acc1, r.Scores.Acc5, r.Scores.Acc10, r.Scores.MRR, fnCell(r.Scores, r.Scores.FnAcc10),
				b.Scores.Acc1, b.Scores.Acc5, b.Scores.Acc10, b.Scores.MRR, fnCell(f.Scores, f.Scores.FnAcc10))
		}
		p("\n")
	}

	p("Trees and index times (each project one directory, its instances in commit order: the first tree is indexed cold, each next one after rewriting only the files whose blob changed):\n\n")
	p("| project | mirror | instances | files | .py files | left out: ≥ 4 MiB / missing / links | cold index s | incremental index s, median (max) | files rewritten, median | sync s, median | baseline tokenizing s |\n")
	p("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for _, pr := range s.Projects {
		incr, rewritten, sync := "–", "–", "–"
		if pr.Incremental > 0 {
			incr = fmt.Sprintf("%.2f (%.1f)", pr.IncrementalMedian, pr.IncrementalMax)
			rewritten, sync = fmt.Sprint(pr.RewrittenMedian), fmt.Sprintf("%.2f", pr.SyncMedianSeconds)
		}
		p("| %s | %s | %d | %d | %d | %d / %d / %d | %.1f | %s | %s | %s | %.1f |\n", pr.Repo, pr.Mirror, pr.Instances, pr.Files, pr.PyFiles,
			pr.Left.Large, pr.Left.Missing, pr.Left.Links, pr.ColdIndexSeconds, incr, rewritten, sync, pr.BaselineBagSeconds)
	}
	p("\n")
	if c := s.CLI; c != nil {
		p("`rubi context --json --kinds file --limit 50 --budget 1000000000 --no-refresh` as a process, on %d instances spread over the set: its top 10 files are the engine's, in order, for %d (%.0f %%); on average %.0f %% of the engine's top 10 are in its top 10. Wall time p50 %.0f ms, p95 %.0f ms.", c.Sample, c.Agree, c.AgreeShare, c.Overlap, c.Latency.P50, c.Latency.P95)
		if len(c.Differ) > 0 {
			p(" Differ: %s.", strings.Join(c.Differ, ", "))
		}
		p("\n\n")
	}
	p("Method: each instance's tree is read from a bare mirror (`git ls-tree -r -l -z` and one `git cat-file --batch` per project; blobs of 4 MiB and more, which the snapshots lack, symbolic links and submodules left out) into one directory per project, re-indexed incrementally with the full configuration; every rewritten file gets a later modification time than the last sync's. The problem statement goes through `Engine.Retrieve` with kinds = file, limit 50 and an unlimited budget, for each ablation set on the same index; it is asked twice, and the second, warm answer is scored and timed (*after re-index* is the first, when the rankers reload their state; *first* is a fresh engine's first query, the largest over the projects). ")
	p("File Acc@k = 1 when every gold file is in the top k, or, for an instance with more than k gold files, when the top k are all gold; R@5 is the share of gold files in the top 5; MRR is the reciprocal rank of the first gold file in the top 50. ")
	p("Function Acc@k is the same over the gold (file, span) pairs of `expected_spans` without its pseudo-spans (`imports`, `docstring`, `impl:N`), against the units the answer gives, keyed by path and qualified name (`Class.method`, `Class`): its listing across files first (`Result.OpenFirst`, rerank.units' `open_first`), then each item's units (`Item.Units`) in order; the `units file by file` row reads the items' units alone, as answers gave them before the listing. ")
	p("The baselines are the textbook BM25 above (k1 = 1.2, b = 0.75, lowercase runs of letters and digits) over the tree's `.py` files: the file BM25's document is the path and the content; the function BM25's units are every `def` and `class` at any indentation, the body running to the next line at the same or a smaller indentation that is not blank or a comment (lines continuing a bracket or a triple-quoted string count as the body), methods named by their enclosing classes, each a document of path, qualified name and text; its file ranking is the files of its units in order. ")
	p("The `.py files only` row is the full pipeline's answer with other files dropped, a diagnostic of how much the documentation and data files it ranks cost it.\n\n")
}

func fnN(ss []sweSystem) int {
	if len(ss) == 0 {
		return 0
	}
	return ss[0].Scores.FnN
}

func fnCell(s sweScores, v float64) string {
	if s.FnN == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", v)
}

func sweTable(w io.Writer, systems []sweSystem) {
	fmt.Fprintf(w, "| system | role | Acc@1 | Acc@3 | Acc@5 | Acc@10 | R@5 | MRR | fn Acc@5 | fn Acc@10 | p50 ms | p95 ms | after re-index p50 ms | first ms |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range systems {
		fn5, fn10 := "", ""
		if s.Name != fileBaselineName {
			fn5, fn10 = fnCell(s.Scores, s.Scores.FnAcc5), fnCell(s.Scores, s.Scores.FnAcc10)
		}
		after := ""
		if s.AfterIndex != nil {
			after = fmt.Sprintf("%.1f", s.AfterIndex.P50)
		}
		fmt.Fprintf(w, "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.3f | %s | %s | %.2f | %.2f | %s | %s |\n", s.Name, s.Role,
			s.Scores.Acc1, s.Scores.Acc3, s.Scores.Acc5, s.Scores.Acc10, s.Scores.Recall5, s.Scores.MRR, fn5, fn10,
			s.Latency.P50, s.Latency.P95, after, firstCell(s.Latency.First))
	}
}
