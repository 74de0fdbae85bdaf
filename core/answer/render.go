package answer

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// Text renders the result in the compact form agents read: one numbered
// line per item with its reasons, the item's text indented below, and a
// footer with the count, the tokens and what to do next. With explain,
// each item also shows every ranker's score. Without explain the whole
// text stays within the result's budget.
func (r *Result) Text(explain bool) string {
	var b strings.Builder
	if len(r.Items) == 0 {
		fmt.Fprintf(&b, "nothing in the project matches %q\n", r.Query)
	}
	b.WriteString(renderOpenFirst(r.OpenFirst, explain))
	for i, it := range r.Items {
		b.WriteString(renderItem(i+1, &it, explain))
	}
	b.WriteString(footer(len(r.Items), r.Tokens, r.Budget, r.Omitted))
	return b.String()
}

// renderItem is one item of the compact form; pack estimates an item's
// tokens from exactly this text.
func renderItem(n int, it *Item, explain bool) string {
	var b strings.Builder
	lines := strings.SplitN(it.Text, "\n", 2)
	fmt.Fprintf(&b, "%d. [%s] %s\n", n, it.Kind, lines[0])
	if len(it.Reasons) > 0 {
		fmt.Fprintf(&b, "   why: %s\n", text.Escape(strings.Join(it.Reasons, "; ")))
	}
	if explain {
		fmt.Fprintf(&b, "   score %.5f = %s%s\n", it.Score, scoresLine(it.Scores), rerankedLine(it.Reranked))
	}
	if len(lines) == 2 {
		for _, l := range strings.Split(lines[1], "\n") {
			fmt.Fprintf(&b, "   %s\n", strings.TrimSpace(l))
		}
	}
	return b.String()
}

// renderOpenFirst is the listing of the units to open first, across
// files, as the compact form starts with it: each unit's place
// (path:line-end), its name and why it is there; with explain, its score
// and what each setting of rerank.units added to it. Pack estimates the
// listing's tokens from exactly this text without explain.
func renderOpenFirst(units []core.Unit, explain bool) string {
	if len(units) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("open first:\n")
	for _, u := range units {
		b.WriteString("   " + OpenFirstLine(u))
		if explain {
			fmt.Fprintf(&b, " (score %.4g = %s)", u.Score, partsLine(u.Parts))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// OpenFirstLine is a unit of the listing across files as the answer's
// text shows it: "path:line-end Name — why", each name escaped.
func OpenFirstLine(u core.Unit) string {
	at := fmt.Sprintf("%s:%d", text.Escape(u.Path), u.Line)
	if u.EndLine > u.Line {
		at += fmt.Sprintf("-%d", u.EndLine)
	}
	s := at + " " + text.Escape(u.Name)
	if u.Why != "" {
		s += " — " + text.Escape(u.Why)
	}
	return s
}

// partsLine says what each setting added to a unit's score, by name.
func partsLine(parts map[string]float64) string {
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if v := parts[n]; v != 0 {
			out = append(out, fmt.Sprintf("%s %.3g", n, v))
		}
	}
	if len(out) == 0 {
		return "0"
	}
	return strings.Join(out, " + ")
}

// footer closes the compact form: the count, the tokens, matches left
// out, and the next step.
func footer(items, used, budget, omitted int) string {
	s := fmt.Sprintf("%s, ~%d tokens (budget %d", plural(items, "item"), used, budget)
	if omitted > 0 {
		s += fmt.Sprintf(", %d more matches left out", omitted)
	}
	s += ")"
	if items > 0 {
		s += ". Open one with read" + MapHint + "."
	}
	return s + "\n"
}

// MapHint is the footer's pointer to the map tool, which a server without
// a project (rubi mcp --vault) leaves out of its answers.
const MapHint = "; zoom into a module with map"

// footerReserve is the budget kept for the footer: its estimate with the
// widest numbers it can show.
func footerReserve(q Query) int {
	return tokens.Estimate(footer(max(q.Limit, 2), q.Budget, q.Budget, 99999))
}

func scoresLine(scores map[string]float64) string {
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.4g", n, scores[n])
	}
	if len(parts) == 0 {
		return "(fuser only)"
	}
	return "fused from " + strings.Join(parts, ", ")
}

// rerankedLine says what the rerankers did to an item's score and
// place, after the fused scores: "; rescaled by rerank.roles × 0.5".
func rerankedLine(rs []Reranked) string {
	var parts []string
	for _, r := range rs {
		switch {
		case r.Factor != 0:
			parts = append(parts, fmt.Sprintf("rescaled by %s × %.4g", r.Stage, r.Factor))
		case r.From != 0:
			parts = append(parts, fmt.Sprintf("moved up by %s from place %d", r.Stage, r.From))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

// maxSymbolLines bounds the symbols shown for one file.
const maxSymbolLines = 4

// renderFile is a file as the agent reads it in a result: its path and
// shape, then the definitions most related to the query (or its main
// exported ones), with the line to open them at.
//
// The units, when the file has any, are those lines: each with its line
// range and why it is there.
//
// The repository names its files and symbols: each is escaped
// (text.Escape), so that a file named "a.go\n   why: …" cannot start a
// line of the result's own.
func renderFile(rec *manifest.Record, units []core.Unit, qtokens map[string]bool) string {
	var b strings.Builder
	b.WriteString(text.Escape(rec.Path))
	var info []string
	if rec.Language != "" {
		info = append(info, rec.Language)
	}
	if rec.Symbols > 0 {
		info = append(info, plural(rec.Symbols, "symbol"))
	}
	if rec.Importers > 0 {
		info = append(info, "imported by "+plural(rec.Importers, "file"))
	}
	if len(info) > 0 {
		b.WriteString(" (" + strings.Join(info, ", ") + ")")
	}
	if len(units) > 0 {
		// Each unit with its range, signature and doc; why it is there
		// when the question names it (the words it matches are in the
		// JSON, not worth the tokens here).
		for _, u := range units {
			line := u.Kind + " " + u.Name
			sym := unitSymbol(rec, u)
			if sym != nil && sym.Signature != "" {
				line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sym.Signature), "{"))
			}
			if u.EndLine > u.Line {
				fmt.Fprintf(&b, "\n  L%d-%d %s", u.Line, u.EndLine, text.Escape(line))
			} else {
				fmt.Fprintf(&b, "\n  L%d %s", u.Line, text.Escape(line))
			}
			if sym != nil && sym.Doc != "" {
				b.WriteString(" — " + text.Escape(sym.Doc))
			}
			if u.Why != "" && !strings.HasPrefix(u.Why, "matches ") {
				b.WriteString(" [" + text.Escape(u.Why) + "]")
			}
		}
		return b.String()
	}
	for _, s := range pickSymbols(rec.Syms, qtokens) {
		// An opening brace says nothing the agent needs.
		line := strings.TrimSpace(strings.TrimSuffix(s.Signature, "{"))
		if line == "" {
			line = s.Kind + " " + s.Name
		}
		fmt.Fprintf(&b, "\n  L%d %s", s.Line, text.Escape(line))
		if s.Doc != "" {
			b.WriteString(" — " + text.Escape(s.Doc))
		}
	}
	return b.String()
}

// unitSymbol is the symbol a unit stands for.
func unitSymbol(rec *manifest.Record, u core.Unit) *core.Symbol {
	for i := range rec.Syms {
		s := &rec.Syms[i]
		if s.Line == u.Line && (s.Name == u.Name || strings.HasSuffix(u.Name, "."+s.Name)) {
			return s
		}
	}
	return nil
}

// pickSymbols prefers symbols whose names share a token with the query,
// then exported top-level ones, in file order.
func pickSymbols(syms []core.Symbol, qtokens map[string]bool) []core.Symbol {
	score := func(s core.Symbol) int {
		n := 0
		for _, t := range text.Tokenize(s.Name) {
			if qtokens[t] {
				n += 4
				break
			}
		}
		if s.Exported {
			n += 2
		}
		if s.Parent == "" {
			n++
		}
		return n
	}
	idx := make([]int, len(syms))
	scores := make([]int, len(syms)) // computed once: scoring tokenizes the name
	for i := range idx {
		idx[i], scores[i] = i, score(syms[i])
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	if len(idx) > maxSymbolLines {
		idx = idx[:maxSymbolLines]
	}
	sort.Ints(idx)
	out := make([]core.Symbol, len(idx))
	for i, j := range idx {
		out[i] = syms[j]
	}
	return out
}

func renderModule(mod string, s manifest.ModuleSummary) string {
	names := s.Central
	if s.Files > len(names) {
		names = append(slices.Clip(names), "…")
	}
	return fmt.Sprintf("module %s (%s): %s", text.Escape(mod), plural(s.Files, "file"), text.Escape(strings.Join(names, ", ")))
}

// renderSourceItem is a source's item as a result shows it: its kind and
// title, where to open it, the files it is about, and the start of its
// text.
func renderSourceItem(kind string, it *core.SourceDocument) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", kind, it.Title)
	if it.Location != "" {
		b.WriteString("\n  at " + it.Location)
	}
	if len(it.Files) > 0 {
		fmt.Fprintf(&b, "\n  files: %s", strings.Join(it.Files[:min(len(it.Files), 8)], ", "))
	}
	text.WriteExcerpt(&b, it.Body, 400)
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
