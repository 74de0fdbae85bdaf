package main

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/tokens"
)

// answerText is a context answer as rubi renders it: a file, a note of
// the repository's (quoted, its files listed), a module, the footer.
const answerText = `1. [file] core/host/host.go (go, 12 symbols, imported by 3 files)
   why: matches "plugins", "loaded"
   L40-80 func (h *Host) Open() error — Open starts the stages.
2. [node] repository gotcha: Plugins start in their own process (high)
   why: matches "plugins"
   > 1. [file] core/fake.go (a line of the note's, not an item)
   > the host starts them
   files: core/host/host.go, core/subprocess/run.go
3. [node] decision: Rankers are fused
   why: matches "loaded"
   RRF over the lists.
   files: core/pipeline/fuse.go
4. [module] module core/host (2 files): host.go, stage.go
   why: contains core/host/host.go
5. [file] core/subprocess/run.go
   why: in module core/subprocess
5 items, ~180 tokens (budget 600). Open one with read; zoom into a module with map.
`

func TestParseText(t *testing.T) {
	items := parseText(answerText)
	var got []string
	sum := 0
	for _, it := range items {
		got = append(got, it.Kind+" "+it.Key+" "+strings.Join(it.Files, ","))
		sum += it.Tokens
		if it.Tokens <= 0 {
			t.Errorf("%s %s: %d tokens", it.Kind, it.Key, it.Tokens)
		}
	}
	want := []string{
		"file core/host/host.go ",
		"node Plugins start in their own process (high) core/host/host.go,core/subprocess/run.go",
		"node Rankers are fused core/pipeline/fuse.go",
		"module core/host ",
		"file core/subprocess/run.go ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("items:\n got %q\nwant %q", got, want)
	}
	// The items' lines are the answer less the footer.
	footer := "5 items, ~180 tokens (budget 600). Open one with read; zoom into a module with map.\n"
	if body := tokens.Estimate(strings.TrimSuffix(answerText, footer)); sum < body-len(items) || sum > body+len(items) {
		t.Errorf("items hold %d tokens, the answer less its footer %d", sum, body)
	}
	if b := textBudget(answerText); b != 600 {
		t.Errorf("budget %d, want 600", b)
	}
	if items := parseText("nothing in the project matches \"x\"\n0 items, ~0 tokens (budget 600)\n"); len(items) != 0 {
		t.Errorf("an empty answer has items %v", items)
	}
}

func TestScoreGold(t *testing.T) {
	d := textDelivery(answerText, gold{Files: []string{"core/subprocess/run.go"}})
	var golden []int
	for i, it := range d.Items {
		if it.Gold {
			golden = append(golden, i+1)
		}
	}
	// The note about run.go and run.go itself; not the module, not the
	// other note, not host.go.
	if !slices.Equal(golden, []int{2, 5}) || d.GoldRank != 2 {
		t.Errorf("gold items %v, rank %d; want [2 5], 2", golden, d.GoldRank)
	}
	if want := d.Items[1].Tokens + d.Items[4].Tokens; d.GoldTokens != want {
		t.Errorf("gold tokens %d, want %d", d.GoldTokens, want)
	}
	if d.Tokens != tokens.Estimate(answerText) || d.Budget != 600 {
		t.Errorf("tokens %d budget %d", d.Tokens, d.Budget)
	}
	none := textDelivery(answerText, gold{Files: []string{"elsewhere.go"}})
	if none.GoldRank != 0 || none.GoldTokens != 0 {
		t.Errorf("no gold: rank %d, %d tokens", none.GoldRank, none.GoldTokens)
	}
	// A note by its title, an importance after it or not.
	byTitle := textDelivery(answerText, gold{Titles: []string{"Plugins start in their own process"}})
	if byTitle.GoldRank != 2 || !byTitle.Items[1].Gold || byTitle.Items[2].Gold {
		t.Errorf("by title: rank %d", byTitle.GoldRank)
	}
	if textDelivery(answerText, gold{Titles: []string{"Plugins start"}}).GoldRank != 0 {
		t.Error("a title's prefix is taken for the title")
	}
}

func TestParseStructured(t *testing.T) {
	fileItem := `{"id":"file:a.go","kind":"file","path":"a.go","title":"a.go","score":0.5,"reasons":["matches \"x\""],"scores":{"rank.bm25":1},"text":"a.go (go)","tokens":4}`
	noteItem := `{"id":"node:n","kind":"node","path":".rubi/knowledge/n.md","title":"Note <one>","text":"gotcha: Note <one>\n  body\n  files: b.go","tokens":9}`
	raw := []byte(`{"query":"x","items":[` + fileItem + `,` + noteItem + `],"tokens":13,"budget":600,"omitted":0}`)
	d, err := structuredDelivery(raw, gold{Files: []string{"b.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Tokens != tokens.Estimate(string(raw)) || d.Budget != 600 || len(d.Items) != 2 {
		t.Fatalf("%+v", d)
	}
	if d.Items[0].Key != "a.go" || d.Items[0].Tokens != tokens.Estimate(fileItem) || d.Items[0].Gold {
		t.Errorf("file item %+v", d.Items[0])
	}
	if n := d.Items[1]; n.Key != "Note <one>" || !slices.Equal(n.Files, []string{"b.go"}) || !n.Gold || n.Tokens != tokens.Estimate(noteItem) {
		t.Errorf("note item %+v", n)
	}
	if d.GoldRank != 2 || d.GoldTokens != d.Items[1].Tokens {
		t.Errorf("rank %d, gold tokens %d", d.GoldRank, d.GoldTokens)
	}
	for _, bad := range []string{`{"items": 3}`, `{"text": "no items"}`, `[]`} {
		if _, err := structuredDelivery([]byte(bad), gold{}); err == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}

// The compact structured answer names no kind and no budget: a file by
// its path, a note by its id (its title in its text), a module by
// "module:…"; the budget is the footer's.
func TestParseStructuredCompact(t *testing.T) {
	fileItem := `{"path":"a.go","lines":["3-9"],"why":"matches \"x\"","text":"a.go (go)\n  L3-9 func A()"}`
	noteItem := `{"id":"gotcha-n","why":"matches \"x\"","text":"repository gotcha: Note one (high)\n  > body\n  files: b.go, c.go"}`
	modItem := `{"id":"module:pkg","text":"module pkg (2 files): a.go, b.go"}`
	raw := []byte(`{"items":[` + fileItem + `,` + noteItem + `,` + modItem + `],"footer":"3 items, ~40 tokens (budget 600). Open one with read."}`)
	d, err := structuredDelivery(raw, gold{Titles: []string{"Note one"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range d.Items {
		got = append(got, fmt.Sprintf("%s %s %v %v", it.Kind, it.Key, it.Files, it.Gold))
	}
	want := []string{"file a.go [] false", "node Note one (high) [b.go c.go] true", "module pkg [] false"}
	if !slices.Equal(got, want) {
		t.Errorf("items\n got %q\nwant %q", got, want)
	}
	if d.Budget != 600 || d.GoldRank != 2 || d.Items[1].Tokens != tokens.Estimate(noteItem) {
		t.Errorf("budget %d, rank %d, note tokens %d", d.Budget, d.GoldRank, d.Items[1].Tokens)
	}
}

func TestRawStructured(t *testing.T) {
	sent := `{"jsonrpc":"2.0","method":"notifications/message","params":{}}
{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"x"}],"structuredContent":{"b":1,  "a":"<&>"}}}
`
	raw, err := rawStructured([]byte(sent))
	if err != nil {
		t.Fatal(err)
	}
	// As sent: the server's order, spacing and escapes.
	if string(raw) != `{"b":1,  "a":"<&>"}` {
		t.Errorf("raw %s", raw)
	}
	if _, err := rawStructured([]byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[]}}` + "\n")); err == nil {
		t.Error("no structured content: want an error")
	}
}

func TestParsePrompts(t *testing.T) {
	src := "# a comment\n\ngotcha-a | why does a break?\n- | thanks\n  note-b |  spaced  \n"
	got, err := parsePrompts(strings.NewReader(src), "prompts.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []recallPrompt{{Note: "gotcha-a", Text: "why does a break?", Line: 3}, {Text: "thanks", Line: 4}, {Note: "note-b", Text: "spaced", Line: 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for src, msg := range map[string]string{
		"ok | fine\nno bar here\n": "prompts.txt:2: want",
		"a b | two words\n":        "prompts.txt:1: \"a b\" is not a note id",
		" | no id\n":               "prompts.txt:1: \"\" is not a note id",
		"id |   \n":                "prompts.txt:1: no prompt",
	} {
		if _, err := parsePrompts(strings.NewReader(src), "prompts.txt"); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

func TestRegistered(t *testing.T) {
	notes := []byte(`[{"type":"gotcha","title":"A"},{"type":"decision","title":"B","id":"b"}]`)
	titles, err := registered("notes.json", notes, []byte(`[{"action":"created","id":"gotcha-a"},{"action":"created","id":"b"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(titles, map[string]string{"gotcha-a": "A", "b": "B"}) {
		t.Errorf("titles %v", titles)
	}
	if _, err := registered("notes.json", []byte("[\n {\"type\": \"gotcha\",\n  \"title\": 3}\n]"), nil); err == nil || !strings.HasPrefix(err.Error(), "notes.json:3: ") {
		t.Errorf("a title that is no string: %v, want notes.json:3", err)
	}
	if _, err := registered("notes.json", []byte("[{}\n{}]"), nil); err == nil || !strings.HasPrefix(err.Error(), "notes.json:2: ") {
		t.Errorf("a missing comma: %v, want notes.json:2", err)
	}
	if _, err := registered("notes.json", notes, []byte(`[{"action":"created","id":"gotcha-a"}]`)); err == nil {
		t.Error("one result for two notes: want an error")
	}
	if _, err := registered("notes.json", notes, []byte(`[{"action":"created","id":"gotcha-a"},{"action":"error","error":"bad type"}]`)); err == nil || !strings.Contains(err.Error(), "bad type") {
		t.Errorf("a note refused: %v", err)
	}
}

func TestHookContext(t *testing.T) {
	got, err := hookContext([]byte(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"rubi recall: x\n"}}` + "\n"))
	if err != nil || got != "rubi recall: x\n" {
		t.Errorf("%q %v", got, err)
	}
	if got, err := hookContext(nil); err != nil || got != "" {
		t.Errorf("an empty answer: %q %v", got, err)
	}
	if _, err := hookContext([]byte("not json")); err == nil {
		t.Error("not JSON: want an error")
	}
}

const injection = `rubi recall: notes from the project's memory about this request (open one with the rubi read tool):
1. [node] gotcha: Coupon applied twice
   why: matches "coupon"
   The coupon is applied twice.
   files: src/cart.go
2. [node] decision: Receipts after settlement
   why: matches "cart"
   files: src/mail.go
2 items, ~60 tokens (budget 700). Open one with read; zoom into a module with map.
`

func TestRecallRows(t *testing.T) {
	titles := map[string]string{"gotcha-coupon": "Coupon applied twice", "decision-receipts": "Receipts after settlement", "other": "Other"}
	rows := []recallRow{
		recallRowOf(recallPrompt{Note: "gotcha-coupon", Line: 1}, injection, titles),
		recallRowOf(recallPrompt{Note: "other", Line: 2}, injection, titles),
		recallRowOf(recallPrompt{Note: "other", Line: 3}, "", titles),
		recallRowOf(recallPrompt{Line: 4}, injection, titles),
		recallRowOf(recallPrompt{Line: 5}, "", titles),
	}
	if r := rows[0]; !r.Hit || r.Others != 1 || r.Tokens != tokens.Estimate(injection) || len(r.Injected) != 2 {
		t.Errorf("named, recalled: %+v", r)
	}
	if r := rows[1]; r.Hit || r.Others != 2 {
		t.Errorf("named, not recalled: %+v", r)
	}
	s := summarizeRecall(rows)
	want := recallSummary{
		Prompts: 5, Named: 3, Unrelated: 2,
		NamedHit: 100.0 / 3, OthersAlongside: 1, OthersNamed: 1, UnrelatedInjected: 50,
		NamedTokensP50: float64(tokens.Estimate(injection)), NamedTokensP90: float64(tokens.Estimate(injection)),
		UnrelatedTokensP50: 0, UnrelatedTokensP90: float64(tokens.Estimate(injection)),
		InjectionTokensP50: float64(tokens.Estimate(injection)), InjectionTokensP90: float64(tokens.Estimate(injection)),
		Injections: 3,
	}
	if s != want {
		t.Errorf("summary\n got %+v\nwant %+v", s, want)
	}
}

func TestSummarize(t *testing.T) {
	mk := func(id, budget, transport string, tok, b, goldTok, rank int, items ...item) row {
		return row{Set: "s", ID: id, Budget: budget, Transport: transport, delivery: delivery{Tokens: tok, Budget: b, GoldTokens: goldTok, GoldRank: rank, Items: items}}
	}
	rows := []row{
		mk("q1", "600", transportCLI, 500, 600, 100, 1, item{Kind: "node", Tokens: 50}),
		mk("q2", "600", transportCLI, 300, 600, 0, 0),
		mk("q3", "600", transportCLI, 400, 600, 200, 3, item{Kind: "node", Tokens: 30, Gold: true}),
		mk("q1", "600", transportStruct, 1200, 600, 300, 1),
	}
	ss := summarize(rows)
	if len(ss) != 2 {
		t.Fatalf("%d summaries: %+v", len(ss), ss)
	}
	cli := ss[0]
	want := summary{Set: "s", Budget: "600", Transport: transportCLI, N: 3, Budgets: []int{600},
		TokensP50: 400, TokensP90: 500, RatioP50: 400.0 / 600, RatioP90: 500.0 / 600, RatioMax: 500.0 / 600,
		OutsideP50: 370, OutsideMax: 450, // 500-50, 300, 400-30
		GoldShare: 100 * 300.0 / 1200, GoldShareP50: 20, OffGoldNotes: 100 * 50.0 / 1200,
		GoldPresent: 200.0 / 3, GoldRankP50: 1}
	if !reflect.DeepEqual(cli, want) {
		t.Errorf("CLI\n got %+v\nwant %+v", cli, want)
	}
	if s := ss[1]; s.Transport != transportStruct || s.RatioMax != 2 || s.GoldShare != 25 {
		t.Errorf("structured %+v", s)
	}
	if pct(nil, 50) != 0 || pct([]float64{3, 1, 2}, 50) != 2 || pct([]float64{1, 2, 3, 4}, 50) != 2 || pct([]float64{1, 2, 3, 4}, 100) != 4 {
		t.Error("pct")
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-sets", "self,recall", "-budgets", "600,default,2000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.sets, []string{"self", "recall"}) || !slices.Equal(o.budgets, []int{600, 0, 2000}) || o.instances != defaultSWEN {
		t.Errorf("%+v", o)
	}
	for _, args := range [][]string{
		{"-sets", "nope"}, {"-sets", ","}, {"-budgets", "0"}, {"-budgets", "600,600"}, {"-budgets", "x"}, {"-instances", "-1"}, {"extra"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%q: want an error", args)
		}
	}
}
