package pipeline

import (
	"fmt"
	"sort"
	"strings"
)

// Text renders the result in the compact form agents read: one numbered
// line per item with its reasons, the item's text indented below, and a
// footer with the count and the tokens. With explain, each item also shows
// every ranker's score.
func (r *Result) Text(explain bool) string {
	var b strings.Builder
	if len(r.Items) == 0 {
		fmt.Fprintf(&b, "nothing in the project matches %q\n", r.Query)
	}
	for i, it := range r.Items {
		lines := strings.SplitN(it.Text, "\n", 2)
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, it.Kind, lines[0])
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
	}
	fmt.Fprintf(&b, "%d items, ~%d tokens (budget %d", len(r.Items), r.Tokens, r.Budget)
	if r.Omitted > 0 {
		fmt.Fprintf(&b, ", %d more matches left out", r.Omitted)
	}
	b.WriteString(")\n")
	return b.String()
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
