package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/tokens"
)

// The answer starts with the units to open first, across its files: in
// the text an agent reads ("open first:", then path:line-end, name and
// why), in the JSON (OpenFirst, with each unit's path), counted in the
// answer's tokens; a small budget shortens the listing to a quarter of
// the room so that the items still come, and the whole answer stays
// within the budget; the listing names files the answer shows only.
func TestOpenFirstFitsTheBudget(t *testing.T) {
	e := engine(t, pyProject(t))
	index(t, e)
	q := "Sending fails after a mount\n\nI expected `Session.send` to use the mounted adapter and `HTTPAdapter.send` to send it."
	wide, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 5, Budget: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if len(wide.OpenFirst) < 3 {
		t.Fatalf("open first: %+v, want the units of several files", wide.OpenFirst)
	}
	paths := map[string]bool{}
	for _, u := range wide.OpenFirst {
		paths[u.Path] = true
	}
	if len(paths) < 2 {
		t.Errorf("open first lists the units of %v only, want two files or more", paths)
	}
	text := wide.Text(false)
	first := wide.OpenFirst[0]
	if !strings.HasPrefix(text, "open first:\n   "+first.Path+":") || !strings.Contains(text, first.Name+" — "+first.Why) {
		t.Errorf("the text does not start with the listing:\n%s", text)
	}
	sum := wide.OpenFirstTokens
	for _, it := range wide.Items {
		sum += it.Tokens
	}
	if wide.OpenFirstTokens == 0 || sum != wide.Tokens {
		t.Errorf("tokens %d, listing %d, listing and items %d", wide.Tokens, wide.OpenFirstTokens, sum)
	}

	for _, budget := range []int{200, 320, 500} {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 5, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if n := tokens.Estimate(res.Text(false)); res.Tokens > budget || n > budget {
			t.Errorf("budget %d: tokens %d, text %d", budget, res.Tokens, n)
		}
		if res.OpenFirstTokens > budget/4 || len(res.OpenFirst) > len(wide.OpenFirst) {
			t.Errorf("budget %d: the listing takes %d tokens (%d units)", budget, res.OpenFirstTokens, len(res.OpenFirst))
		}
		if budget == 500 && (len(res.OpenFirst) == 0 || len(res.OpenFirst) == len(wide.OpenFirst)) {
			t.Errorf("budget %d: %d units listed of %d: the listing is shortened, not dropped", budget, len(res.OpenFirst), len(wide.OpenFirst))
		}
		if len(res.Items) == 0 {
			t.Errorf("budget %d: no item beside the listing", budget)
		}
		for _, u := range res.OpenFirst {
			if !slices.ContainsFunc(res.Items, func(it answer.Item) bool { return it.Path == u.Path }) {
				t.Errorf("budget %d: the listing names %s, which the answer does not show", budget, u.Path)
			}
		}
	}
}
