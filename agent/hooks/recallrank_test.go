package hooks

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// recalledItem is the first line of an injected item: "[node] …" or
// "[chunk] …".
var recalledItem = regexp.MustCompile(`(?m)^\d+\. (\[(?:node|chunk)\] .*)$`)

// The recall hook ranks the project's memory, notes and conversation
// chunks, as `rubi context --kinds node,chunk` ranks it: for the same
// question it injects the items of that answer, in its order, less those
// its threshold leaves out (a note or chunk that holds too few of the
// prompt's words), within its budget and limit.
func TestRecallRanksTheMemoryAsContextDoes(t *testing.T) {
	p := newProject(t, couponNote, knowledge.Input{
		Type: knowledge.TypeDecision, Title: "Coupons apply after the total",
		Body: "The checkout applies each coupon once, after the total is recomputed; a second coupon replaces the first.",
	}, knowledge.Input{
		Type: knowledge.TypeNote, Title: "Coupon codes are case-insensitive",
		Body: "Users type coupon codes in any case at checkout; codes are stored uppercased.",
	})
	day := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	var in []memory.Input
	for i, line := range []string{
		"We agreed that the checkout applies the coupon after the total, once.",
		"The coupon test at checkout failed twice on Friday; the total was off by the discount.",
		"Lunch was late today.",
	} {
		in = append(in, memory.Input{Type: memory.TypeSession, Summary: line, Content: line, Session: "s1", Created: day.Add(time.Duration(i) * time.Minute)})
	}
	if _, _, err := memory.Open(p.root).SaveAll(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if err := p.index(); err != nil {
		t.Fatal(err)
	}
	eng := p.engine()
	defer eng.Close()
	cfg, err := p.env.Config(p.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{
		"why is the coupon applied twice at checkout?",
		"what did we agree about the coupon and the total at checkout?",
	} {
		a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": prompt}))
		var hooked []string
		for _, m := range recalledItem.FindAllStringSubmatch(a.Specific.Context, -1) {
			hooked = append(hooked, m[1])
		}
		// What `rubi context --kinds node,chunk --limit 6 --budget B`
		// asks, B the recall budget.
		res, err := eng.Retrieve(context.Background(), answer.Query{Text: prompt, Kinds: []string{core.DocNode, core.DocChunk}, Limit: recallLimit, Budget: cfg.Budgets.Recall})
		if err != nil {
			t.Fatal(err)
		}
		words := contentWords(prompt)
		var want []string
		chunks := 0
		for _, it := range res.Items {
			prose, _ := splitNote(it.Title + "\n" + it.Text)
			if matched(words, prose) < need(words) {
				continue
			}
			want = append(want, "["+it.Kind+"] "+strings.SplitN(it.Text, "\n", 2)[0])
			if it.Kind == core.DocChunk {
				chunks++
			}
		}
		if len(want) < 2 || chunks == 0 {
			t.Fatalf("prompt %q: context's answer holds %v: the test needs notes and chunks that match", prompt, want)
		}
		if !slices.Equal(hooked, want) {
			t.Errorf("prompt %q: the hook injected\n  %s\nbut context ranks\n  %s", prompt, strings.Join(hooked, "\n  "), strings.Join(want, "\n  "))
		}
	}
}
