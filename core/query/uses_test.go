package query

import (
	"slices"
	"testing"
)

func TestAnalyzeUses(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"what calls Estimate", []string{"Estimate"}},
		{"who calls `Session.send`?", []string{"Session.send"}},
		{"callers of the function tokens.Estimate", []string{"tokens.Estimate"}},
		{"where is Cart.Total used?", []string{"Cart.Total"}},
		{"where is load_plugin called", []string{"load_plugin"}},
		{"Find all usages of ReadWithin()", []string{"ReadWithin"}},
		{"references to core/tokens/tokens.go::Estimate", []string{"core/tokens/tokens.go::Estimate"}},
		{"callers of a..b", nil},
		{"quem chama Estimate?", []string{"Estimate"}},
		{"qui appelle Session.send ?", []string{"Session.send"}},
		{"Estimateを呼び出している関数は?", []string{"Estimate"}},
		{"Session.sendの呼び出し元", []string{"Session.send"}},
		// Not questions about uses.
		{"how does Estimate work", nil},
		{"who calls it", nil},
		{"the abusers of trust", nil},
		{"Estimate used to be slow", nil},
		{"what calls", nil},
	}
	for _, c := range cases {
		if got := Analyze(c.q).Uses; !slices.Equal(got, c.want) {
			t.Errorf("Analyze(%q).Uses = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestAnalyzeUsesNotInReports(t *testing.T) {
	report := "Traceback (most recent call last):\n  File \"x/y.py\", line 3, in f\nValueError\n\nwhat calls Estimate"
	if got := Analyze(report).Uses; got != nil {
		t.Errorf("a bug report is read as asking for uses: %q", got)
	}
}
