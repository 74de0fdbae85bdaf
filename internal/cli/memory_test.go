package cli

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestMemoryCommands(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubiIn(t, "Validation failed in store/store.go\nWe recieve the order twice (SHOP-12)\n", "memory", "save", "--root", root, "--type", "debug", "--tag", "orders")
	if code != 0 || !strings.HasPrefix(out, "saved: ") {
		t.Fatalf("save: exit %d, %q %q", code, out, errOut)
	}
	id := strings.TrimSpace(strings.TrimPrefix(out, "saved: "))
	if _, out, _ := runRubiIn(t, "validation FAILED in store/store.go   we recieve the order twice (SHOP-12)", "memory", "save", "--root", root); out != "duplicate of "+id+": nothing saved\n" {
		t.Errorf("duplicate: %q", out)
	}

	_, out, _ = runRubi(t, "memory", "list", "--root", root, "--json", "--entity", "shop-12", "--until", time.Now().Format(time.DateOnly))
	var list struct {
		Chunks []struct {
			ID, Type, Summary string
			Tags              []string
		} `json:"chunks"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Total != 1 || list.Chunks[0].ID != id || list.Chunks[0].Type != "debug" || list.Chunks[0].Summary != "Validation failed in store/store.go" {
		t.Errorf("list: %s (%v)", out, err)
	}
	if _, out, _ := runRubi(t, "memory", "list", "--root", root, "--type", "snapshot"); out != "" {
		t.Errorf("list of another type: %q", out)
	}

	_, out, _ = runRubi(t, "memory", "grep", "--root", root, "--fuzzy", "validaton")
	if out != id+":1: Validation failed in store/store.go\n1 matches in 1 chunks searched\n" {
		t.Errorf("fuzzy grep: %q", out)
	}
	_, out, _ = runRubi(t, "memory", "peek", id, "--root", root, "--lines", "2:")
	if out != "We recieve the order twice (SHOP-12)\n" {
		t.Errorf("peek: %q", out)
	}

	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"x", []string{"memory", "save", "--root", root, "--project", "../escape"}, `project "../escape": use a plain name`},
		{"x", []string{"memory", "save", "--root", root, "--type", "diary"}, `unknown chunk type "diary"`},
		{"", []string{"memory", "peek", id, "--root", root, "--lines", "0:3"}, `--lines "0:3"`},
		{"", []string{"memory", "grep", "(", "--root", root}, "error parsing regexp"},
	} {
		code, _, errOut := runRubiIn(t, tc.stdin, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

// Chunks are documents: context finds them, and filters apply to them.
func TestContextFindsChunks(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubiIn(t, "The payment webhook arrives twice when the gateway retries; see store/store.go\n", "memory", "save", "--root", root, "--type", "debug"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runRubi(t, "context", "webhook arrives twice", "--root", root, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var res struct {
		Items []struct{ Kind, Title, Text string } `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Items) == 0 || res.Items[0].Kind != "chunk" ||
		!strings.HasPrefix(res.Items[0].Text, "debug: The payment webhook arrives twice") || !strings.Contains(res.Items[0].Text, "files: store/store.go") {
		t.Fatalf("context: %s (%v)", out, err)
	}
	// A chunk names store/store.go: a path filter keeps it, another drops it.
	for _, tc := range []struct {
		path string
		want bool
	}{{"store", true}, {"web", false}} {
		_, out, _ := runRubi(t, "context", "webhook arrives twice", "--root", root, "--json", "--kinds", "chunk", "--path", tc.path)
		if got := strings.Contains(out, `"kind": "chunk"`); got != tc.want {
			t.Errorf("--path %s: chunk kept %v, want %v: %s", tc.path, got, tc.want, out)
		}
	}
}

func TestMemoryRetentionCommand(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	s := memory.Open(root)
	s.Now = func() time.Time { return time.Now().Add(-40 * 24 * time.Hour) }
	old, err := s.Save(context.Background(), memory.Input{Summary: "an old session", Content: "we tried three retry strategies"})
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := s.Save(context.Background(), memory.Input{Summary: "a kept one", Tags: []string{"keep"}, Content: "never forget"})
	_, out, _ := runRubi(t, "memory", "retention", "preview", "--root", root)
	if !strings.Contains(out, "would archive "+old.ID+": an old session (unused for 40 days)") || !strings.Contains(out, "kept "+kept.ID+": a kept one (tagged keep)") {
		t.Errorf("preview:\n%s", out)
	}
	if _, out, _ := runRubi(t, "memory", "retention", "run", "--root", root); !strings.Contains(out, "archived "+old.ID) {
		t.Errorf("run:\n%s", out)
	}
	if _, out, _ := runRubi(t, "memory", "list", "--root", root); !strings.Contains(out, "an old session (1 lines, archived)") {
		t.Errorf("list after the run:\n%s", out)
	}
	if code, out, errOut := runRubi(t, "memory", "retention", "restore", old.ID, "--root", root); code != 0 || out != "restored: "+old.ID+"\n" {
		t.Errorf("restore: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runRubi(t, "memory", "retention", "restore", old.ID, "--root", root); code != 1 || !strings.Contains(errOut, "is not archived") {
		t.Errorf("restore twice: %d %q", code, errOut)
	}
	if code, _, errOut := runRubi(t, "memory", "retention", "sweep", "--root", root); code != 1 || !strings.Contains(errOut, "use: rubi memory retention preview | run | restore ID") {
		t.Errorf("bad mode: %d %q", code, errOut)
	}
}

// Without a query, notes list most important first, then newest; a cut
// list says how many there are.
func TestNodesByImportance(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	for _, n := range []struct{ title, importance string }{{"Low thing", "low"}, {"Money in cents", "critical"}, {"Plain fact", ""}, {"Another plain fact", ""}} {
		args := []string{"register", "--root", root, "--type", "note", "--title", n.title, "--body", "x"}
		if n.importance != "" {
			args = append(args, "--importance", n.importance)
		}
		if n.title == "Another plain fact" {
			time.Sleep(1100 * time.Millisecond) // updated a second after the other plain fact
		}
		if code, _, errOut := runRubi(t, args...); code != 0 {
			t.Fatal(errOut)
		}
	}
	_, out, _ := runRubi(t, "nodes", "--root", root, "--limit", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "Money in cents (critical)") || !strings.Contains(lines[1], "Another plain fact") ||
		!strings.Contains(lines[2], "Plain fact") || lines[3] != "… 1 more of 4 (--limit)" {
		t.Errorf("nodes:\n%s", out)
	}
}

// A conversation saved a turn a process, with its date (--created, the
// same second for every turn), is the batch's: the same chunks in the
// same order, and the same answer to a question.
func TestMemorySaveOneTurnAtATimeIsTheBatch(t *testing.T) {
	turns := []string{
		"Caroline: I went to the LGBTQ support group yesterday.",
		"Melanie: That's great! How did it go?",
		"Caroline: It was powerful, the stories were inspiring.",
		"Melanie: I'm painting a sunrise over the lake this week.",
		"Caroline: Send me a photo of the painting!",
		"Melanie: Sure, and the kids loved the pottery class.",
	}
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	batch, cli := rubitest.Project(t, rubitest.GoProject), rubitest.Project(t, rubitest.GoProject)
	var in []memory.Input
	for _, text := range turns {
		in = append(in, memory.Input{Session: "conv-26-1", Content: text, Created: at})
	}
	if _, _, err := memory.Open(batch).SaveAll(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, text := range turns {
		code, out, errOut := runRubiIn(t, text, "memory", "save", "--root", cli, "--session", "conv-26-1", "--created", "2023-05-08T13:56:00Z", "--json", "-")
		var saved memory.Saved
		if code != 0 || json.Unmarshal([]byte(out), &saved) != nil {
			t.Fatalf("save: exit %d, %q %q", code, out, errOut)
		}
		ids = append(ids, saved.ID)
	}
	listed := func(root string) []string {
		_, out, _ := runRubi(t, "memory", "list", "--root", root)
		return strings.Split(strings.TrimSpace(out), "\n")
	}
	got := listed(cli)
	if want := listed(batch); !slices.Equal(got, want) {
		t.Errorf("rubi memory list after one save a turn:\n%s\nafter one batch:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	slices.Reverse(ids)
	for i, line := range got {
		if i >= len(ids) || !strings.HasPrefix(line, ids[i]) || !strings.Contains(line, "2023-05-08") {
			t.Errorf("line %d of the listing is %q, want chunk %s of 2023-05-08: newest first, in the order saved", i+1, line, ids[min(i, len(ids)-1)])
		}
	}
	answer := func(root string) string {
		code, out, errOut := runRubi(t, "context", "how did the support group go?", "--root", root, "--kinds", "chunk", "--explain")
		if code != 0 {
			t.Fatal(errOut)
		}
		return out
	}
	if a, b := answer(cli), answer(batch); a != b {
		t.Errorf("the answer after one save a turn:\n%s\nafter one batch:\n%s", a, b)
	}
}

func TestMemorySaveRejectsABadCreated(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	for _, bad := range []string{"yesterday", "2023-13-08", "8 May 2023"} {
		code, out, errOut := runRubiIn(t, "a turn", "memory", "save", "--root", root, "--created", bad)
		if code != 1 || out != "" || !strings.Contains(errOut, "--created: \""+bad+"\" is not a date (2026-11-01) or a time") || !strings.Contains(errOut, "e.g. --created 2023-05-08") {
			t.Errorf("--created %s: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
		}
	}
	if _, out, _ := runRubi(t, "memory", "list", "--root", root); out != "" {
		t.Errorf("a save with a bad --created wrote a chunk: %q", out)
	}
	// A plain date is its midnight, local time.
	code, _, errOut := runRubiIn(t, "a turn of the import", "memory", "save", "--root", root, "--created", "2023-05-08")
	if code != 0 {
		t.Fatal(errOut)
	}
	if _, out, _ := runRubi(t, "memory", "list", "--root", root); !strings.Contains(out, "2023-05-08 00:00") {
		t.Errorf("list: %q", out)
	}
}
