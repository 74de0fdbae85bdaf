package xray

import (
	_ "embed"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core/messages"
)

//go:embed page.html.tmpl
var pageTemplate string

// page is parsed on first use, not at init: every rubi process would pay
// for it, and only xray --html needs it.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("xray").Funcs(template.FuncMap{
		"tokens":  FormatTokens,
		"tok":     func(f float64) string { return FormatTokens(int64(f)) },
		"percent": Percent,
		"signed":  signedPercent,
		"usd":     USD,
		"day":     day,
		"short":   shortID,
		"plural":  plural,
		"bytes":   bytesText,
	}).Parse(pageTemplate))
})

// WriteHTML writes the report as one self-contained page: inline CSS and
// SVG, no script, nothing fetched. It holds the cost breakdown, the
// findings, the tool weights, the context curves of the most expensive
// sessions with the threshold lines and their replay, and the simulation.
func WriteHTML(w io.Writer, rep *Report, o TextOptions) error {
	data := struct {
		R          *Report
		O          TextOptions
		Span       string
		CostBar    template.HTML
		Parts      []costPart
		ToolChart  template.HTML
		Curves     []curveView
		SimChart   template.HTML
		TopTool    string
		MaxSession int
	}{R: rep, O: o, TopTool: topTools(messages.English, rep.Tools)}
	data.Span = "all logs"
	if o.Days > 0 {
		data.Span = fmt.Sprintf("the last %d days", o.Days)
	}
	if rep.Project != "" {
		data.Span += ", project " + rep.Project
	}
	data.Parts = costParts(rep)
	data.CostBar = costBar(data.Parts)
	data.ToolChart = toolChart(rep.Tools)
	data.SimChart = simChart(rep)
	for i, s := range rep.Top {
		if i == 6 {
			break
		}
		data.Curves = append(data.Curves, curveView{S: s, SVG: curveChart(s, rep)})
	}
	return page().Execute(w, data)
}

type costPart struct {
	Name   string
	Class  string
	Share  float64
	Cost   float64
	Tokens int64
	Ratio  string
}

type curveView struct {
	S   SessionSummary
	SVG template.HTML
}

func costParts(rep *Report) []costPart {
	r := rep.Ratios
	t := rep.Tokens
	return []costPart{
		{"Cache reads (re-reading context)", "read", rep.Shares.CacheRead, rep.Cost.CacheRead, t.CacheRead, fmt.Sprintf("%g×", r.CacheRead)},
		{"Cache writes", "write", rep.Shares.CacheWrite, rep.Cost.CacheWrite, t.CacheWrite5m + t.CacheWrite1h, fmt.Sprintf("%g× 5m, %g× 1h", r.CacheWrite5m, r.CacheWrite1h)},
		{"Output", "output", rep.Shares.Output, rep.Cost.Output, t.Output, fmt.Sprintf("%g×", r.Output)},
		{"Input (uncached)", "input", rep.Shares.Input, rep.Cost.Input, t.Input, fmt.Sprintf("%g×", r.Input)},
	}
}

// esc escapes text for SVG and HTML.
func esc(s string) string { return html.EscapeString(s) }

// costBar is one bar of 100% split by kind of token.
func costBar(parts []costPart) template.HTML {
	var b strings.Builder
	b.WriteString(`<svg class="costbar" viewBox="0 0 1000 56" role="img" aria-label="cost breakdown">`)
	x := 0.0
	for _, p := range parts {
		w := p.Share * 1000
		if w <= 0 {
			continue
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%.2f" y="0" width="%.2f" height="56"><title>%s: %s</title></rect>`, p.Class, x, w, esc(p.Name), Percent(p.Share))
		if w > 60 {
			fmt.Fprintf(&b, `<text class="inbar" x="%.2f" y="35">%s</text>`, x+10, Percent(p.Share))
		}
		x += w
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// toolChart draws the tool weights as horizontal bars.
func toolChart(tools []ToolWeight) template.HTML {
	if len(tools) == 0 {
		return ""
	}
	n := min(len(tools), 12)
	top := 0.0
	for _, t := range tools[:n] {
		top = math.Max(top, t.Share)
	}
	const rowH, labelW, barW = 26, 200, 640
	h := n*rowH + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="bars" viewBox="0 0 1000 %d" role="img" aria-label="tool output weights">`, h)
	for i, t := range tools[:n] {
		y := i*rowH + 4
		w := 0.0
		if top > 0 {
			w = t.Share / top * barW
		}
		fmt.Fprintf(&b, `<text class="label" x="%d" y="%d" text-anchor="end">%s</text>`, labelW-10, y+17, esc(clip(t.Tool, 28)))
		fmt.Fprintf(&b, `<rect class="tool" x="%d" y="%d" width="%.2f" height="%d" rx="3"><title>%s: %s outputs, %s tokens</title></rect>`,
			labelW, y+3, math.Max(w, 1), rowH-8, esc(t.Tool), fmt.Sprint(t.Outputs), FormatTokens(t.Tokens))
		fmt.Fprintf(&b, `<text class="value" x="%.2f" y="%d">%s · %s</text>`, float64(labelW)+math.Max(w, 1)+8, y+17, Percent(t.Share), plural(t.Outputs, "output"))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// simChart draws the saving per threshold as bars around a zero line.
func simChart(rep *Report) template.HTML {
	if len(rep.Sims) == 0 {
		return ""
	}
	lo, hi := 0.0, 0.0
	for _, s := range rep.Sims {
		lo, hi = math.Min(lo, s.Saving), math.Max(hi, s.Saving)
	}
	if hi-lo < 1e-9 {
		hi = 0.01
	}
	const w, h, top, bottom = 1000, 260, 30, 64
	plotH := float64(h - top - bottom)
	y := func(v float64) float64 { return top + (hi-v)/(hi-lo)*plotH }
	slot := float64(w-80) / float64(len(rep.Sims))
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="sim" viewBox="0 0 %d %d" role="img" aria-label="saving per threshold">`, w, h)
	fmt.Fprintf(&b, `<line class="zero" x1="60" x2="%d" y1="%.2f" y2="%.2f"/>`, w-20, y(0), y(0))
	for i, s := range rep.Sims {
		x := 60 + slot*float64(i) + slot*0.25
		y0, y1 := y(math.Max(s.Saving, 0)), y(math.Min(s.Saving, 0))
		class := "saving"
		if s.Saving < 0 {
			class = "loss"
		}
		if s.Threshold == rep.Recommended {
			class += " best"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%.2f" y="%.2f" width="%.2f" height="%.2f" rx="3"><title>%s: %s, %s</title></rect>`,
			class, x, y0, slot*0.5, math.Max(y1-y0, 1), FormatTokens(s.Threshold), signedPercent(s.Saving), plural(s.Switches, "switch"))
		ly := y0 - 8
		if s.Saving < 0 {
			ly = y1 + 18
		}
		fmt.Fprintf(&b, `<text class="value" x="%.2f" y="%.2f" text-anchor="middle">%s</text>`, x+slot*0.25, ly, signedPercent(s.Saving))
		label := "compact at " + FormatTokens(s.Threshold)
		if s.Threshold == rep.Recommended {
			label += " ★"
		}
		fmt.Fprintf(&b, `<text class="label" x="%.2f" y="%d" text-anchor="middle">%s</text>`, x+slot*0.25, h-8, esc(label))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// curveChart draws a session's real context call by call, its replay at
// the recommended threshold, and every simulated threshold as a line.
func curveChart(s SessionSummary, rep *Report) template.HTML {
	const w, h, left, right, top, bottom = 1000, 300, 70, 20, 16, 36
	if len(s.Curve) == 0 {
		return ""
	}
	maxY := float64(s.Peak)
	for _, t := range rep.Sims {
		maxY = math.Max(maxY, float64(t.Threshold))
	}
	maxY = niceCeil(maxY * 1.05)
	lastX := float64(s.Curve[len(s.Curve)-1][0])
	if lastX == 0 {
		lastX = 1
	}
	px := func(x int64) float64 { return left + float64(x)/lastX*float64(w-left-right) }
	py := func(v float64) float64 { return top + (1-v/maxY)*float64(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="curve" viewBox="0 0 %d %d" role="img" aria-label="context curve of session %s">`, w, h, esc(shortID(s.ID)))
	// Grid and axis labels.
	step := niceStep(maxY / 4)
	for v := 0.0; v <= maxY+1; v += step {
		fmt.Fprintf(&b, `<line class="grid" x1="%d" x2="%d" y1="%.2f" y2="%.2f"/>`, left, w-right, py(v), py(v))
		fmt.Fprintf(&b, `<text class="axis" x="%d" y="%.2f" text-anchor="end">%s</text>`, left-8, py(v)+4, FormatTokens(int64(v)))
	}
	fmt.Fprintf(&b, `<text class="axis" x="%d" y="%d" text-anchor="middle">API call (1 to %d)</text>`, (left+w-right)/2, h-8, int64(lastX)+1)
	for _, t := range rep.Sims {
		class := "threshold"
		if t.Threshold == rep.Recommended {
			class += " best"
		}
		y := py(float64(t.Threshold))
		fmt.Fprintf(&b, `<line class="%s" x1="%d" x2="%d" y1="%.2f" y2="%.2f"/>`, class, left, w-right, y, y)
		fmt.Fprintf(&b, `<text class="tlabel" x="%d" y="%.2f" text-anchor="end">compact at %s</text>`, w-right-4, y-5, FormatTokens(t.Threshold))
	}
	fmt.Fprintf(&b, `<path class="real" d="%s"><title>real context, peak %s</title></path>`, pathOf(s.Curve, px, py), FormatTokens(s.Peak))
	if len(s.SimCurve) > 0 {
		fmt.Fprintf(&b, `<path class="replay" d="%s"><title>replayed with compaction at %s</title></path>`, pathOf(s.SimCurve, px, py), FormatTokens(rep.Recommended))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func pathOf(pts [][2]int64, px func(int64) float64, py func(float64) float64) string {
	var b strings.Builder
	for i, p := range pts {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&b, "%s%.1f %.1f ", cmd, px(p[0]), py(float64(p[1])))
	}
	if len(pts) == 1 {
		fmt.Fprintf(&b, "L%.1f %.1f", px(pts[0][0])+4, py(float64(pts[0][1])))
	}
	return strings.TrimSpace(b.String())
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func niceCeil(v float64) float64 {
	s := niceStep(v / 4)
	return math.Ceil(v/s) * s
}
