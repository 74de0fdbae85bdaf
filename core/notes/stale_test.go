package notes

import (
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/knowledge"
)

// A result shows three of a note's staleness warnings, then counts the
// rest in one line; three or four are shown whole.
func TestRenderNodeCapsStaleLines(t *testing.T) {
	n := &knowledge.Node{Type: "gotcha", Title: "T", Body: "b"}
	five := []string{"A changed (a.go L1-2)", "b.go: code changed", "c.go no longer exists", "D changed (d.go L3)", "E changed (e.go L4)"}
	out := renderNode(n, five, true)
	if strings.Count(out, "⚠") != 4 || !strings.Contains(out, "⚠ c.go no longer exists\n  ⚠ 2 more changes") {
		t.Errorf("five warnings:\n%s", out)
	}
	if out := renderNode(n, five[:4], true); strings.Count(out, "⚠") != 4 || strings.Contains(out, "more changes") {
		t.Errorf("four warnings:\n%s", out)
	}
}
