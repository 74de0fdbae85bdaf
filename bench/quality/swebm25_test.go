package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The scanning BM25 of the SWE-bench baselines ranks exactly as the
// textbook baseline does.
func TestTermDictMatchesBaseline(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vocab := []string{"request", "session", "send", "header", "content_length", "get", "post", "url", "cookie", "adapter", "retry", "timeout", "proxy", "auth", "json"}
	for round := range 20 {
		bl := newBaseline()
		dict := newTermDict()
		var bags []*termBag
		var ids []string
		for d := range 40 + round {
			var b strings.Builder
			for range 1 + rng.IntN(60) {
				b.WriteString(vocab[rng.IntN(len(vocab))])
				b.WriteString(" ")
			}
			id := fmt.Sprintf("doc%d.py", d)
			text := id + "\n" + b.String()
			bl.add(id, text)
			bags = append(bags, dict.bag(text))
			ids = append(ids, id)
		}
		var q strings.Builder
		for range 1 + rng.IntN(12) {
			q.WriteString(vocab[rng.IntN(len(vocab))] + " ")
		}
		q.WriteString("unknownword")
		want := bl.search(q.String(), 10)
		var got []string
		for _, i := range dict.search(bags, q.String(), 10) {
			got = append(got, ids[i])
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, query %q:\n got %v\nwant %v", round, q.String(), got, want)
		}
	}
	if got := newTermDict().search(nil, "x", 5); got != nil {
		t.Errorf("empty corpus answered %v", got)
	}
}
