package xray

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/text"
)

// TextOptions shape the terminal report.
type TextOptions struct {
	// Days is the window the report covers, for its title (0: all).
	Days int
	// USD adds list-price dollars.
	USD bool
	// Lang is the language of the terminal report (WriteText,
	// WriteSimulation); the HTML page is English.
	Lang messages.Lang
}

// WriteText prints the report for a person at a terminal: the cost
// breakdown and the tool weights as bar charts, the findings, the most
// expensive sessions and the simulation.
func WriteText(w io.Writer, rep *Report, o TextOptions) {
	l := o.Lang
	writeHeader(w, rep, o)
	if rep.Sessions == 0 {
		return
	}
	r := rep.Ratios
	fmt.Fprintln(w, "\n"+l.Format(messages.XrayCost, FormatTokens(int64(rep.Cost.Total)), r.CacheRead, r.CacheWrite5m, r.CacheWrite1h, r.Output))
	parts := []struct {
		name   string
		share  float64
		tokens int64
	}{
		{l.Get(messages.XrayCacheReads), rep.Shares.CacheRead, rep.Tokens.CacheRead},
		{l.Get(messages.XrayCacheWrites), rep.Shares.CacheWrite, rep.Tokens.CacheWrite5m + rep.Tokens.CacheWrite1h},
		{l.Get(messages.XrayOutput), rep.Shares.Output, rep.Tokens.Output},
		{l.Get(messages.XrayInput), rep.Shares.Input, rep.Tokens.Input},
	}
	cols := 13
	for _, p := range parts {
		cols = max(cols, messages.Columns(p.name))
	}
	for _, p := range parts {
		fmt.Fprintf(w, "  %s %s %5s  %s\n", messages.Pad(p.name, cols), Bar(p.share, 30), Percent(p.share), l.Format(messages.CountTokens, FormatTokens(p.tokens)))
	}
	if o.USD {
		fmt.Fprint(w, l.Format(messages.XrayUSD, USD(rep.USD)))
		if len(rep.Unpriced) > 0 {
			fmt.Fprint(w, l.Format(messages.XrayUnpriced, strings.Join(rep.Unpriced, ", ")))
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintln(w, "\n"+l.Get(messages.XrayFindings))
	tw := messages.NewTable(w)
	fmt.Fprintln(tw, l.Format(messages.XrayFindingReads, Percent(rep.Shares.CacheRead)))
	fmt.Fprintln(tw, l.Format(messages.XrayFindingPast, FormatTokens(rep.Past.Tokens), Percent(rep.Past.Share), rep.Past.Sessions, rep.Sessions))
	fmt.Fprintln(tw, l.Format(messages.XrayFindingNear, FormatTokens(rep.Near.Tokens), rep.Near.Sessions, Percent(rep.Near.Share)))
	fmt.Fprintln(tw, l.Format(messages.XrayFindingStart, FormatTokens(rep.Start.Median)))
	fmt.Fprintln(tw, l.Format(messages.XrayFindingTool, topTools(l, rep.Tools)))
	fmt.Fprintln(tw, l.Format(messages.XrayFindingExpiries, rep.Expiries.Count, rep.Expiries.Sessions, Percent(rep.Expiries.Share)))
	tw.Flush()

	if len(rep.Tools) > 0 {
		fmt.Fprintln(w, "\n"+l.Get(messages.XrayTools))
		top := 0.0
		for _, t := range rep.Tools {
			top = math.Max(top, t.Share)
		}
		for i, t := range rep.Tools {
			if i == 8 {
				fmt.Fprintln(w, l.Format(messages.XrayMoreTools, len(rep.Tools)-8))
				break
			}
			fmt.Fprintf(w, "  %-16s %s %6s  %s, %s\n", clip(text.Escape(t.Tool), 16), Bar(t.Share/math.Max(top, 1e-12), 20), Percent(t.Share), l.Count(t.Outputs, messages.NounOutput), l.Format(messages.CountTokens, FormatTokens(t.Tokens)))
		}
	}

	fmt.Fprintln(w, "\n"+l.Get(messages.XrayTop))
	tw = messages.NewTable(w)
	usd := ""
	if o.USD {
		usd = "\tUSD"
	}
	fmt.Fprintln(tw, l.Format(messages.XrayTopColumns, usd))
	for _, s := range rep.Top {
		if o.USD {
			usd = "\t" + USD(s.USD)
			if s.Unpriced {
				usd += "+"
			}
		}
		fmt.Fprintf(tw, "  %s\t%s%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", FormatTokens(int64(s.Cost.Total)), Percent(s.Share), usd, day(s.Start),
			text.Escape(s.Project), FormatTokens(s.Peak), Sparkline(s.Curve, 24), s.Calls, s.Compactions, text.Escape(shortID(s.ID)))
	}
	tw.Flush()

	fmt.Fprintln(w)
	writeSimTable(w, l, rep)
	fmt.Fprintln(w, "\n"+l.Get(messages.XrayFooter))
}

func writeHeader(w io.Writer, rep *Report, o TextOptions) {
	l := o.Lang
	span := l.Get(messages.XrayAllLogs)
	if o.Days > 0 {
		span = l.Format(messages.XrayLastDays, o.Days)
	}
	if rep.Project != "" {
		span += l.Format(messages.XrayProject, text.Escape(rep.Project))
	}
	var agents []string
	for _, a := range []string{"claude-code", "codex"} {
		if n := rep.Agents[a]; n > 0 {
			agents = append(agents, fmt.Sprintf("%s %d", a, n))
		}
	}
	fmt.Fprint(w, l.Format(messages.XrayHeader, span, l.Count(rep.Sessions, messages.NounSession), l.Count(rep.Projects, messages.NounProject)))
	if len(agents) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(agents, ", "))
	}
	fmt.Fprintln(w, l.Format(messages.XrayCalls, FormatTokens(rep.Calls)))
	fmt.Fprint(w, l.Format(messages.XrayRead, l.Count(rep.Files, messages.NounLog), bytesText(rep.Bytes), rep.Duration))
	if rep.Duplicates > 0 {
		fmt.Fprint(w, l.Format(messages.XrayDuplicates, l.Count(int(rep.Duplicates), messages.NounResponse)))
	}
	fmt.Fprintln(w, l.Get(messages.XrayPeriod))
	if p := rep.Problems; p.Count > 0 {
		k := messages.XrayProblems
		if p.Count == 1 {
			k = messages.XrayProblem
		}
		fmt.Fprintln(w, l.Format(k, p.Count, p.First[0].Error()))
	}
	if rep.Sessions == 0 {
		fmt.Fprintln(w, l.Get(messages.XrayNoSession))
	}
}

// WriteSimulation prints the compaction simulator's replay for a terminal.
func WriteSimulation(w io.Writer, rep *Report, o TextOptions) {
	l := o.Lang
	writeHeader(w, rep, o)
	if rep.Sessions == 0 {
		return
	}
	fmt.Fprint(w, l.Format(messages.XraySimIntro, FormatTokens(rep.Handoff)))
	writeSimTable(w, l, rep)
	if len(rep.Top) == 0 {
		return
	}
	fmt.Fprintln(w, "\n"+l.Get(messages.XraySimTop))
	tw := messages.NewTable(w)
	fmt.Fprint(tw, l.Get(messages.XraySimTopColumns))
	for _, t := range rep.Sims {
		fmt.Fprintf(tw, "\t%s", FormatTokens(t.Threshold))
	}
	fmt.Fprintln(tw)
	for _, s := range rep.Top {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s", text.Escape(shortID(s.ID)), text.Escape(s.Project), FormatTokens(s.Peak), FormatTokens(int64(s.Cost.Total)))
		for _, sim := range s.Sims {
			fmt.Fprintf(tw, "\t%s (%s)", signedPercent(ratio(s.Cost.Total-sim.Cost, s.Cost.Total)), l.Count(sim.Switches, messages.NounSwitch))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func writeSimTable(w io.Writer, l messages.Lang, rep *Report) {
	fmt.Fprintln(w, l.Format(messages.XraySimTable, FormatTokens(rep.Handoff)))
	tw := messages.NewTable(w)
	fmt.Fprintln(tw, l.Get(messages.XraySimColumns))
	for _, t := range rep.Sims {
		mark := ""
		if t.Threshold == rep.Recommended {
			mark = l.Get(messages.XrayRecommended)
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%s%s\n", FormatTokens(t.Threshold), t.Switches, t.Sessions, FormatTokens(int64(t.Cost)),
			signedPercent(t.Saving), Bar(math.Max(t.Saving, 0), 20), mark)
	}
	tw.Flush()
	if rep.Recommended > 0 {
		for _, t := range rep.Sims {
			if t.Threshold == rep.Recommended {
				fmt.Fprintln(w, l.Format(messages.XrayCompactAt, FormatTokens(t.Threshold), Percent(t.Saving), t.Threshold))
			}
		}
	} else {
		fmt.Fprintln(w, l.Get(messages.XrayNoThreshold))
	}
}

func topTools(l messages.Lang, tools []ToolWeight) string {
	if len(tools) == 0 {
		return l.Get(messages.XrayNoToolOutput)
	}
	s := fmt.Sprintf("%s %s", tools[0].Tool, Percent(tools[0].Share))
	if len(tools) > 1 {
		s += l.Format(messages.XrayThen, tools[1].Tool, Percent(tools[1].Share))
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
