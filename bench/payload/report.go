package main

import (
	"fmt"
	"io"
	"strings"
)

func (r *report) markdown(w io.Writer) {
	fmt.Fprintf(w, "# Payload: what the agent receives (%s)\n\n", r.Date)
	fmt.Fprintf(w, "Binaries: %s. Checkout %s. Budgets: %s. One run, %.0f s.\n\n", r.Binaries, r.Commit, strings.Join(r.Budgets, ", "), r.Seconds)
	fmt.Fprintln(w, "Each question goes through the built programs one call at a time: `rubi context QUESTION [--budget B]`"+
		" (its text), and the `context` tool of `rubi-mcp` over stdio (budget B, none for the default), whose"+
		" text content and structured content are counted apart, the structured content as the JSON the server sent."+
		" Tokens are rubi's own estimate (`core/tokens.Estimate`). An item is on gold when it is a gold file, or a"+
		" note about one (the recall set: the named note); its tokens are those of its lines (of its JSON object, structured)."+
		" Ratio is tokens delivered over the budget the answer names. Outside items: the tokens of no item (header, footer; in the"+
		" structured content the query and the result's other fields). On gold: the gold items' share of all tokens"+
		" delivered (pooled), and the median answer's own share; notes off gold: the share of notes about no gold file. Rank: the first gold item's place among the answer's"+
		" items, median over the answers that hold one.")
	fmt.Fprintln(w)
	for _, m := range r.Missing {
		fmt.Fprintf(w, "- Not measured: %s\n", m)
	}
	if len(r.Missing) > 0 {
		fmt.Fprintln(w)
	}
	for _, s := range r.Sets {
		fmt.Fprintf(w, "## %s\n\n%s; %d measured (%.0f s).\n\n", s.Name, capital(s.Selection), s.Questions, s.Seconds)
		if s.Name == setRecall {
			r.recallMarkdown(w)
		} else {
			summaryTable(w, r.Summaries, s.Name)
		}
		if len(s.Skipped) > 0 {
			fmt.Fprintf(w, "Skipped: %s.\n\n", strings.Join(s.Skipped, "; "))
		}
	}
}

func summaryTable(w io.Writer, ss []summary, set string) {
	fmt.Fprintln(w, "| Budget | Transport | N | Tokens p50 / p90 | Ratio p50 / p90 / max | Outside items p50 / max | On gold pooled / p50 | Notes off gold | Gold present | Gold rank p50 |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range ss {
		if s.Set != set {
			continue
		}
		budget := s.Budget
		if s.Budget == "default" && len(s.Budgets) == 1 {
			budget = fmt.Sprintf("default (%d)", s.Budgets[0])
		}
		fmt.Fprintf(w, "| %s | %s | %d | %.0f / %.0f | %.2f / %.2f / %.2f | %.0f / %.0f | %.1f %% / %.1f %% | %.1f %% | %.1f %% | %s |\n",
			budget, s.Transport, s.N, s.TokensP50, s.TokensP90, s.RatioP50, s.RatioP90, s.RatioMax, s.OutsideP50, s.OutsideMax,
			s.GoldShare, s.GoldShareP50, s.OffGoldNotes, s.GoldPresent, rankCell(s.GoldRankP50))
	}
	fmt.Fprintln(w)
}

func rankCell(r float64) string {
	if r == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", r)
}

func (r *report) recallMarkdown(w io.Writer) {
	s := r.Recall
	if s == nil {
		return
	}
	fmt.Fprintln(w, "| Figure | Value |")
	fmt.Fprintln(w, "|---|---:|")
	fmt.Fprintf(w, "| Prompts naming a note / concerning none | %d / %d |\n", s.Named, s.Unrelated)
	fmt.Fprintf(w, "| Named note injected | %.1f %% |\n", s.NamedHit)
	fmt.Fprintf(w, "| Other notes alongside it (mean, over the prompts that recalled it) | %.2f |\n", s.OthersAlongside)
	fmt.Fprintf(w, "| Notes other than the named one (mean, over the prompts naming a note) | %.2f |\n", s.OthersNamed)
	fmt.Fprintf(w, "| Anything injected for a prompt concerning no note | %.1f %% |\n", s.UnrelatedInjected)
	fmt.Fprintf(w, "| Tokens injected, prompts naming a note, p50 / p90 | %.0f / %.0f |\n", s.NamedTokensP50, s.NamedTokensP90)
	fmt.Fprintf(w, "| Tokens injected, prompts concerning none, p50 / p90 | %.0f / %.0f |\n", s.UnrelatedTokensP50, s.UnrelatedTokensP90)
	fmt.Fprintf(w, "| Tokens per injection made (%d), p50 / p90 | %.0f / %.0f |\n", s.Injections, s.InjectionTokensP50, s.InjectionTokensP90)
	fmt.Fprintln(w)
	var miss []string
	for _, row := range r.RecallRows {
		switch {
		case row.Note != "" && !row.Hit:
			miss = append(miss, fmt.Sprintf("line %d (%s): not recalled", row.Line, row.Note))
		case row.Note != "" && row.Others > 0:
			miss = append(miss, fmt.Sprintf("line %d (%s): %s alongside", row.Line, row.Note, plural(row.Others, "other note")))
		case row.Note == "" && row.Tokens > 0:
			miss = append(miss, fmt.Sprintf("line %d (none): %s injected", row.Line, plural(len(row.Injected), "note")))
		}
	}
	if len(miss) > 0 {
		fmt.Fprintf(w, "Prompts off the mark: %s.\n\n", strings.Join(miss, "; "))
	}
}

// capital makes the first letter of s a capital.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
