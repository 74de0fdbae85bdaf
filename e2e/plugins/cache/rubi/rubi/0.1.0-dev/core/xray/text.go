package xray

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// TextOptions shape the terminal report.
type TextOptions struct {
	// Days is the window the report covers, for its title (0: all).
	Days int
	// USD adds list-price dollars.
	USD bool
}

// WriteText prints the report for a person at a terminal: the cost
// breakdown and the tool weights as bar charts, the findings, the most
// expensive sessions and the simulation.
func WriteText(w io.Writer, rep *Report, o TextOptions) {
	writeHeader(w, rep, o)
	if rep.Sessions == 0 {
		return
	}
	r := rep.Ratios
	fmt.Fprintf(w, "\nWhere the cost went: %s input-token equivalents (cache read %g×, write %g× 5m / %g× 1h, output %g×)\n",
		FormatTokens(int64(rep.Cost.Total)), r.CacheRead, r.CacheWrite5m, r.CacheWrite1h, r.Output)
	parts := []struct {
		name   string
		share  float64
		tokens int64
	}{
		{"cache reads", rep.Shares.CacheRead, rep.Tokens.CacheRead},
		{"cache writes", rep.Shares.CacheWrite, rep.Tokens.CacheWrite5m + rep.Tokens.CacheWrite1h},
		{"output", rep.Shares.Output, rep.Tokens.Output},
		{"input", rep.Shares.Input, rep.Tokens.Input},
	}
	for _, p := range parts {
		fmt.Fprintf(w, "  %-13s %s %5s  %s tokens\n", p.name, Bar(p.share, 30), Percent(p.share), FormatTokens(p.tokens))
	}
	if o.USD {
		fmt.Fprintf(w, "  %s at list prices", USD(rep.USD))
		if len(rep.Unpriced) > 0 {
			fmt.Fprintf(w, " (no price known for %s)", strings.Join(rep.Unpriced, ", "))
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "\nFindings\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  Share of cost that was re-reading context (cache reads)\t%s\n", Percent(rep.Shares.CacheRead))
	fmt.Fprintf(tw, "  Share of cost from sessions that grew past %s\t%s\t(%d of %d sessions)\n", FormatTokens(rep.Past.Tokens), Percent(rep.Past.Share), rep.Past.Sessions, rep.Sessions)
	fmt.Fprintf(tw, "  Sessions that reached ~1M tokens (≥ %s)\t%d\t(%s of the cost)\n", FormatTokens(rep.Near.Tokens), rep.Near.Sessions, Percent(rep.Near.Share))
	fmt.Fprintf(tw, "  Context loaded before the first message (median)\t%s\n", FormatTokens(rep.Start.Median))
	fmt.Fprintf(tw, "  Tool whose outputs weighed most in the context\t%s\n", topTools(rep.Tools))
	fmt.Fprintf(tw, "  Times the cache expired mid-session and was rewritten\t%d\t(in %d sessions, %s of the cost)\n", rep.Expiries.Count, rep.Expiries.Sessions, Percent(rep.Expiries.Share))
	tw.Flush()

	if len(rep.Tools) > 0 {
		fmt.Fprintf(w, "\nTool outputs, as a share of all the context sent\n")
		top := 0.0
		for _, t := range rep.Tools {
			top = math.Max(top, t.Share)
		}
		for i, t := range rep.Tools {
			if i == 8 {
				fmt.Fprintf(w, "  … %d more tools (--json lists them all)\n", len(rep.Tools)-8)
				break
			}
			fmt.Fprintf(w, "  %-16s %s %6s  %s, %s tokens\n", clip(t.Tool, 16), Bar(t.Share/math.Max(top, 1e-12), 20), Percent(t.Share), plural(t.Outputs, "output"), FormatTokens(t.Tokens))
		}
	}

	fmt.Fprintf(w, "\nMost expensive sessions\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	usd := ""
	if o.USD {
		usd = "\tUSD"
	}
	fmt.Fprintf(tw, "  cost\tshare%s\tdate\tproject\tpeak\tcontext, call by call\tcalls\tcompactions\tsession\n", usd)
	for _, s := range rep.Top {
		if o.USD {
			usd = "\t" + USD(s.USD)
			if s.Unpriced {
				usd += "+"
			}
		}
		fmt.Fprintf(tw, "  %s\t%s%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", FormatTokens(int64(s.Cost.Total)), Percent(s.Share), usd, day(s.Start),
			s.Project, FormatTokens(s.Peak), Sparkline(s.Curve, 24), s.Calls, s.Compactions, shortID(s.ID))
	}
	tw.Flush()

	fmt.Fprintln(w)
	writeSimTable(w, rep)
	fmt.Fprintf(w, "\nrubi xray simulate explains the replay; rubi xray --html FILE draws the context curves.\n")
}

func writeHeader(w io.Writer, rep *Report, o TextOptions) {
	span := "all logs"
	if o.Days > 0 {
		span = fmt.Sprintf("last %d days", o.Days)
	}
	if rep.Project != "" {
		span += ", project " + rep.Project
	}
	var agents []string
	for _, a := range []string{"claude-code", "codex"} {
		if n := rep.Agents[a]; n > 0 {
			agents = append(agents, fmt.Sprintf("%s %d", a, n))
		}
	}
	fmt.Fprintf(w, "rubi xray: %s. %s in %s", span, plural(rep.Sessions, "session"), plural(rep.Projects, "project"))
	if len(agents) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(agents, ", "))
	}
	fmt.Fprintf(w, ", %s API calls.\n", FormatTokens(rep.Calls))
	fmt.Fprintf(w, "Read %s (%s) in %.1f s", plural(rep.Files, "log"), bytesText(rep.Bytes), rep.Duration)
	if rep.Duplicates > 0 {
		fmt.Fprintf(w, "; %s written more than once counted once", plural(int(rep.Duplicates), "response"))
	}
	fmt.Fprintln(w, ".")
	if p := rep.Problems; p.Count > 0 {
		fmt.Fprintf(w, "%s could not be read and %s skipped; first: %s\n", plural(p.Count, "line"), map[bool]string{true: "was", false: "were"}[p.Count == 1], p.First[0].Error())
	}
	if rep.Sessions == 0 {
		fmt.Fprintln(w, "No session with token usage found. rubi reads Claude Code's logs ($CLAUDE_CONFIG_DIR or ~/.claude/projects) and Codex's ($CODEX_HOME or ~/.codex/sessions); --transcripts PATH reads others.")
	}
}

// WriteSimulation prints the compaction simulator's replay for a terminal.
func WriteSimulation(w io.Writer, rep *Report, o TextOptions) {
	writeHeader(w, rep, o)
	if rep.Sessions == 0 {
		return
	}
	fmt.Fprintf(w, `
Each session's own context is replayed call by call. When it passes the
threshold, the session switches windows: a summary call reads the context
and writes a handoff of %s tokens, and the context restarts from the fixed
context (the session's first call) plus the handoff plus what the turn
added.
Cache reads, writes and output keep their real shares; subagents are
unchanged.

`, FormatTokens(rep.Handoff))
	writeSimTable(w, rep)
	if len(rep.Top) == 0 {
		return
	}
	fmt.Fprintf(w, "\nThe most expensive sessions, saving by threshold\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  session\tproject\tpeak\tcost")
	for _, t := range rep.Sims {
		fmt.Fprintf(tw, "\t%s", FormatTokens(t.Threshold))
	}
	fmt.Fprintln(tw)
	for _, s := range rep.Top {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s", shortID(s.ID), s.Project, FormatTokens(s.Peak), FormatTokens(int64(s.Cost.Total)))
		for _, sim := range s.Sims {
			fmt.Fprintf(tw, "\t%s (%s)", signedPercent(ratio(s.Cost.Total-sim.Cost, s.Cost.Total)), plural(sim.Switches, "switch"))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func writeSimTable(w io.Writer, rep *Report) {
	fmt.Fprintf(w, "Compaction simulator: compact at the threshold, resume from the fixed context + %s handoff\n", FormatTokens(rep.Handoff))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  threshold\twindow switches\tsessions\tcost\tsaving\t\n")
	for _, t := range rep.Sims {
		mark := ""
		if t.Threshold == rep.Recommended {
			mark = "  ← recommended"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%s%s\n", FormatTokens(t.Threshold), t.Switches, t.Sessions, FormatTokens(int64(t.Cost)),
			signedPercent(t.Saving), Bar(math.Max(t.Saving, 0), 20), mark)
	}
	tw.Flush()
	if rep.Recommended > 0 {
		for _, t := range rep.Sims {
			if t.Threshold == rep.Recommended {
				fmt.Fprintf(w, "Compacting at %s would have cost %s less. Claude Code: set CLAUDE_CODE_AUTO_COMPACT_WINDOW=%d.\n",
					FormatTokens(t.Threshold), Percent(t.Saving), t.Threshold)
			}
		}
	} else {
		fmt.Fprintln(w, "No threshold would have saved: the sessions are short enough, or the summaries would cost more than they spare.")
	}
}

func topTools(tools []ToolWeight) string {
	if len(tools) == 0 {
		return "no tool output"
	}
	s := fmt.Sprintf("%s %s", tools[0].Tool, Percent(tools[0].Share))
	if len(tools) > 1 {
		s += fmt.Sprintf(", then %s %s", tools[1].Tool, Percent(tools[1].Share))
	}
	return s
}

// Bar draws frac (0–1) as a bar of width cells, in eighths of a cell.
func Bar(frac float64, width int) string {
	frac = math.Min(math.Max(frac, 0), 1)
	eighths := int(math.Round(frac * float64(width*8)))
	full, rest := eighths/8, eighths%8
	var b strings.Builder
	b.WriteString(strings.Repeat("█", full))
	cells := full
	if rest > 0 {
		b.WriteRune([]rune("▏▎▍▌▋▊▉")[rest-1])
		cells++
	}
	b.WriteString(strings.Repeat(" ", width-cells))
	return b.String()
}

// Sparkline draws a context curve in width cells of ▁▂▃▄▅▆▇█, each cell
// the largest context of the calls it covers, scaled to the curve's peak.
func Sparkline(curve [][2]int64, width int) string {
	if len(curve) == 0 {
		return ""
	}
	width = min(width, len(curve))
	var peak int64
	for _, p := range curve {
		peak = max(peak, p[1])
	}
	levels := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for c := range width {
		lo, hi := c*len(curve)/width, (c+1)*len(curve)/width
		var m int64
		for _, p := range curve[lo:hi] {
			m = max(m, p[1])
		}
		i := 0
		if peak > 0 {
			i = int(float64(m) / float64(peak) * float64(len(levels)-1))
		}
		b.WriteRune(levels[i])
	}
	return b.String()
}

// Percent writes a fraction as a percentage, with a decimal below 10%.
func Percent(f float64) string {
	p := f * 100
	switch {
	case p == 0:
		return "0%"
	case math.Abs(p) < 0.1:
		if p < 0 {
			return ">-0.1%"
		}
		return "<0.1%"
	case math.Abs(p) < 10:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.0f%%", p)
}

func signedPercent(f float64) string {
	if f > 0 {
		return "+" + Percent(f)
	}
	return Percent(f)
}

// USD writes dollars.
func USD(v float64) string {
	if v < 10 {
		return fmt.Sprintf("$%.2f", v)
	}
	return fmt.Sprintf("$%.0f", v)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func day(t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	return t.Local().Format("2006-01-02")
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
