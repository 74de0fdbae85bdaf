package pipeline

import (
	"fmt"

	"sort"
	"strings"

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
		fmt.Fprintf(&b, "   why: %s\n", strings.Join(it.Reasons, "; "))
	}
	if explain {
		fmt.Fprintf(&b, "   score %.5f = %s\n", it.Score, scoresLine(it.Scores))
	}
	if len(lines) == 2 {
		for _, l := range strings.Split(lines[1], "\n") {
			fmt.Fprintf(&b, "   %s\n", strings.TrimSpace(l))
		}
	}
	return b.String()
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
