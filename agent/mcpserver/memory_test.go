package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/tokens"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// clock is a movable clock for the server's conversation memory.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// memoryServer serves a project whose rubi.hcl keeps chunks under 2,000
// bytes and makes "postmortem" a keep keyword; the defaults are otherwise
// rubi's (archive after 30 days, purge after 180, keep tags critical,
// decision and keep, keep after 5 reads).
func memoryServer(t *testing.T) (root string, c *client.Client, clk *clock) {
	t.Helper()
	isolate(t)
	files := map[string]string{"rubi.hcl": "memory {\n  max_chunk_size = 2000\n  keep_keywords = [\"postmortem\"]\n}\n"}
	for k, v := range rubitest.GoProject {
		files[k] = v
	}
	root = writeProject(t, files)
	clk = &clock{t: time.Now()}
	s, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: time.Hour, Now: clk.now})
	return root, connect(t, s), clk
}

// saveChunk saves through the memory tool and returns what it said.
func saveChunk(t *testing.T, c *client.Client, args map[string]any) memory.Saved {
	t.Helper()
	args["action"] = "save"
	_, res := ok(t, c, "memory", args)
	var got memory.Saved
	structured(t, res, &got)
	if got.ID == "" {
		t.Fatalf("save %v: no id in %+v", args, got)
	}
	return got
}

// listed is the memory tool's list, as structured content.
func listed(t *testing.T, c *client.Client, args map[string]any) (chunks []listItem, total int) {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	args["action"] = "list"
	_, res := ok(t, c, "memory", args)
	var got struct {
		Chunks []listItem `json:"chunks"`
		Total  int        `json:"total"`
	}
	structured(t, res, &got)
	return got.Chunks, got.Total
}

// grepIDs runs the memory tool's grep and returns the chunks matched.
func grepIDs(t *testing.T, c *client.Client, args map[string]any) []string {
	t.Helper()
	args["action"] = "grep"
	_, res := ok(t, c, "memory", args)
	var got memory.GrepResult
	structured(t, res, &got)
	var ids []string
	for _, m := range got.Matches {
		if len(ids) == 0 || ids[len(ids)-1] != m.ID {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

func TestMemorySaveThroughMCP(t *testing.T) {
	root, c, _ := memoryServer(t)

	// A typed chunk is persisted with everything it was given.
	typed := saveChunk(t, c, map[string]any{"type": "debug", "summary": "Coupon applied twice", "tags": []string{"Checkout"},
		"domain": "payments", "ticket": "SHOP-42", "text": "Traced the double discount to applyCoupon in web/api.js.\nFixed by checking the order state."})
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(typed.Path)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"type: debug", "summary: Coupon applied twice", "- checkout", "domain: payments", "ticket: SHOP-42", "web/api.js", "Fixed by checking the order state."} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the chunk file lacks %q:\n%s", want, data)
		}
	}
	// Without a type, a chunk is a session log, and it has a summary.
	plain := saveChunk(t, c, map[string]any{"text": "## Reviewed the export job\nIt runs nightly."})
	chunks, _ := listed(t, c, map[string]any{"type": "session"})
	if len(chunks) != 1 || chunks[0].ID != plain.ID || chunks[0].Summary != "Reviewed the export job" {
		t.Errorf("default type: %+v", chunks)
	}
	fails(t, c, "memory", map[string]any{"action": "save", "type": "diary", "text": "x"}, `unknown chunk type "diary"`, "snapshot, session, debug")
	fails(t, c, "memory", map[string]any{"action": "save"}, "the chunk is empty")

	// The same content, in another case and spacing, is a duplicate.
	out, res := ok(t, c, "memory", map[string]any{"action": "save", "text": "traced the DOUBLE discount   to applyCoupon in web/api.js.\n\nfixed by checking the order state."})
	var dup memory.Saved
	structured(t, res, &dup)
	if !dup.Duplicate || dup.ID != typed.ID || !strings.Contains(out, "duplicate of chunk "+typed.ID) {
		t.Errorf("duplicate: %q %+v", out, dup)
	}

	// Over rubi.hcl's max_chunk_size: refused, nothing written.
	fails(t, c, "memory", map[string]any{"action": "save", "text": strings.Repeat("a long log line\n", 200)}, "over the limit of 2 KiB")

	// A project name that is a path is refused, and nothing lands outside.
	for _, bad := range []string{"../../etc", "a/b", `..\x`} {
		fails(t, c, "memory", map[string]any{"action": "save", "project": bad, "text": "escape " + bad}, "not a path")
	}
	if _, total := listed(t, c, nil); total != 2 {
		t.Errorf("after the refusals, %d chunks; want the 2 saved", total)
	}
	entries, _ := os.ReadDir(filepath.Join(root, ".rubi"))
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), "escape") {
			t.Errorf("a refused chunk wrote %s", e.Name())
		}
	}
	// A plain project name is kept and filters the list.
	billing := saveChunk(t, c, map[string]any{"project": "billing", "text": "Invoices are numbered per year."})
	if chunks, _ := listed(t, c, map[string]any{"project": "billing"}); len(chunks) != 1 || chunks[0].ID != billing.ID {
		t.Errorf("project filter: %+v", chunks)
	}
}

func TestMemoryPeekRanges(t *testing.T) {
	_, c, _ := memoryServer(t)
	ch := saveChunk(t, c, map[string]any{"text": "one\ntwo\nthree\nfour\nfive"})
	for target, want := range map[string]string{
		"chunk:" + ch.ID:          "one\ntwo\nthree\nfour\nfive\n(lines 1-5 of 5)\n",
		"chunk:" + ch.ID + ":2-4": "two\nthree\nfour\n(lines 2-4 of 5)\n",
		"chunk:" + ch.ID + ":5":   "five\n(lines 5-5 of 5)\n",
		"chunk:" + ch.ID + ":4-9": "four\nfive\n(lines 4-5 of 5)\n",
	} {
		if out, _ := ok(t, c, "read", map[string]any{"target": target}); out != want {
			t.Errorf("read %s = %q, want %q", target, out, want)
		}
	}
	fails(t, c, "read", map[string]any{"target": "chunk:" + ch.ID + ":4-2"}, "START-END")
	fails(t, c, "read", map[string]any{"target": "chunk:" + ch.ID + ":0-2"}, "from line 1")
	fails(t, c, "read", map[string]any{"target": "chunk:../../etc/passwd"}, "chunk id")
}

func TestMemoryGrepThroughMCP(t *testing.T) {
	_, c, _ := memoryServer(t)
	val := saveChunk(t, c, map[string]any{"type": "debug", "domain": "auth", "tags": []string{"forms"}, "text": "The validation of the signup form rejected plus signs."})
	rec := saveChunk(t, c, map[string]any{"domain": "payments", "text": "The webhook did not receive the refund event."})
	biz := saveChunk(t, c, map[string]any{"domain": "payments", "tags": []string{"forms"}, "text": "Business rules for refunds live in one table.\nNo validation there."})

	// Regular expressions.
	if got := grepIDs(t, c, map[string]any{"text": `refund(s)? (event|rules)|rules for`}); len(got) != 2 {
		t.Errorf("regexp: %v", got)
	}
	fails(t, c, "memory", map[string]any{"action": "grep", "text": "valid(ation"}, "missing closing )")
	// Typos: one edit finds them; a word two edits away needs typos 2.
	for pattern, want := range map[string]string{"validaton": val.ID, "recieve": rec.ID, "buisness": biz.ID} {
		if got := grepIDs(t, c, map[string]any{"text": pattern, "typos": 1}); !slices.Contains(got, want) {
			t.Errorf("typos 1: %q found %v, want %s", pattern, got, want)
		}
	}
	if got := grepIDs(t, c, map[string]any{"text": "valdaton", "typos": 1}); len(got) != 0 {
		t.Errorf("typos 1: valdaton (two edits) found %v", got)
	}
	if got := grepIDs(t, c, map[string]any{"text": "valdaton", "typos": 2}); !slices.Contains(got, val.ID) || !slices.Contains(got, biz.ID) {
		t.Errorf("typos 2: valdaton found %v", got)
	}
	// As a regexp, a typo finds nothing.
	if got := grepIDs(t, c, map[string]any{"text": "validaton"}); len(got) != 0 {
		t.Errorf("regexp validaton found %v", got)
	}
	// Filters apply before the search: domain, type, tags.
	if got := grepIDs(t, c, map[string]any{"text": "validation", "domain": "payments"}); len(got) != 1 || got[0] != biz.ID {
		t.Errorf("domain payments: %v", got)
	}
	if got := grepIDs(t, c, map[string]any{"text": "validation", "type": "debug"}); len(got) != 1 || got[0] != val.ID {
		t.Errorf("type debug: %v", got)
	}
	if got := grepIDs(t, c, map[string]any{"text": "the", "tags": []string{"FORMS"}, "domain": "auth"}); len(got) != 1 || got[0] != val.ID {
		t.Errorf("tags forms and domain auth: %v", got)
	}
}

func TestMemoryDateBoundsAreInclusive(t *testing.T) {
	root, c, _ := memoryServer(t)
	s := memory.Open(root)
	day := func(d, h, m, sec int) time.Time { return time.Date(2026, 11, d, h, m, sec, 0, time.Local) }
	ids := map[string]string{}
	for name, at := range map[string]time.Time{
		"before": day(1, 23, 59, 59) /* the last second before the window */, "first": day(2, 0, 0, 0),
		"middle": day(3, 12, 0, 0), "last": day(4, 23, 59, 59), "after": day(5, 0, 0, 0),
	} {
		saved, err := s.Save(context.Background(), memory.Input{Content: "deploy note " + name, Created: at})
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = saved.ID
	}
	got := grepIDs(t, c, map[string]any{"text": "deploy", "since": "2026-11-02", "until": "2026-11-04"})
	want := []string{ids["last"], ids["middle"], ids["first"]} // newest first
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("since 2026-11-02 until 2026-11-04: %v, want %v", got, want)
	}
	chunks, total := listed(t, c, map[string]any{"since": "2026-11-02", "until": "2026-11-04"})
	if total != 3 || len(chunks) != 3 {
		t.Errorf("list in the window: %d", total)
	}
	fails(t, c, "memory", map[string]any{"action": "list", "since": "last week"}, "since:", "not a date")
}

func TestMemoryEntityFilter(t *testing.T) {
	_, c, _ := memoryServer(t)
	a := saveChunk(t, c, map[string]any{"text": "Bumped the driver to v2.3.1 and fixed Store.Open in store/store.go for SHOP-42."})
	saveChunk(t, c, map[string]any{"text": "Read web/api.js; nothing about the store."})
	for _, entity := range []string{"store/store.go", "STORE/STORE.GO", "shop-42", "V2.3.1"} {
		if chunks, _ := listed(t, c, map[string]any{"entity": entity}); len(chunks) != 1 || chunks[0].ID != a.ID {
			t.Errorf("entity %q: %+v", entity, chunks)
		}
	}
	if got := grepIDs(t, c, map[string]any{"text": "store", "entity": "Shop-42"}); len(got) != 1 || got[0] != a.ID {
		t.Errorf("grep with entity: %v", got)
	}
	// UTF-8 names an encoding, not a ticket.
	saveChunk(t, c, map[string]any{"text": "The CSV export writes UTF-8 with a BOM."})
	if chunks, _ := listed(t, c, map[string]any{"entity": "UTF-8"}); len(chunks) != 0 {
		t.Errorf("UTF-8 was taken for an entity: %+v", chunks)
	}
}

func TestMemoryRetentionThroughMCP(t *testing.T) {
	root, c, clk := memoryServer(t)
	plain := saveChunk(t, c, map[string]any{"summary": "Export job notes", "tags": []string{"export"}, "text": "The export job runs nightly and writes CSV."})
	tagged := saveChunk(t, c, map[string]any{"tags": []string{"decision"}, "text": "We chose nightly exports over streaming."})
	keyword := saveChunk(t, c, map[string]any{"text": "Postmortem of the March outage: the queue filled up."})
	read := saveChunk(t, c, map[string]any{"text": "The CSV columns follow the finance team's sheet."})
	for range 5 {
		ok(t, c, "read", map[string]any{"target": "chunk:" + read.ID + ":1"})
	}

	// 31 days later: only the plain chunk goes; each kept one says why.
	clk.advance(31 * 24 * time.Hour)
	out, _ := ok(t, c, "memory", map[string]any{"action": "retention"})
	for _, want := range []string{"would archive " + plain.ID, "kept " + tagged.ID, "tagged decision", "kept " + keyword.ID, `mentions "postmortem"`, "kept " + read.ID, "read 5 times"} {
		if !strings.Contains(out, want) {
			t.Errorf("preview lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "sessions", plain.ID+".md")); err != nil {
		t.Errorf("the preview moved the chunk: %v", err)
	}
	out, _ = ok(t, c, "memory", map[string]any{"action": "retain"})
	if !strings.Contains(out, "archived "+plain.ID) || strings.Contains(out, "archived "+tagged.ID) {
		t.Errorf("retain:\n%s", out)
	}
	archive := filepath.Join(root, ".rubi", "sessions", "archive", plain.ID+".md.gz")
	if _, err := os.Stat(archive); err != nil {
		t.Fatalf("no archive: %v", err)
	}
	// Archived, it is still listed, and found by its summary and tags.
	chunks, _ := listed(t, c, map[string]any{"tags": []string{"export"}})
	if len(chunks) != 1 || !chunks[0].Archived {
		t.Errorf("list of the archived chunk: %+v", chunks)
	}
	if got := grepIDs(t, c, map[string]any{"text": "Export job"}); !slices.Contains(got, plain.ID) {
		t.Errorf("grep by summary does not find the archived chunk: %v", got)
	}

	// restore brings it back whole.
	if out, _ := ok(t, c, "memory", map[string]any{"action": "restore", "id": plain.ID}); out != "restored: chunk "+plain.ID+"\n" {
		t.Errorf("restore: %q", out)
	}
	if out, _ := ok(t, c, "read", map[string]any{"target": "chunk:" + plain.ID}); !strings.Contains(out, "The export job runs nightly and writes CSV.") {
		t.Errorf("restored text: %q", out)
	}
	fails(t, c, "memory", map[string]any{"action": "restore", "id": plain.ID}, "not archived")

	// Archived again, a read restores it.
	clk.advance(31 * 24 * time.Hour)
	ok(t, c, "memory", map[string]any{"action": "retain"})
	if _, err := os.Stat(archive); err != nil {
		t.Fatalf("not archived again: %v", err)
	}
	if out, _ := ok(t, c, "read", map[string]any{"target": "chunk:" + plain.ID + ":1"}); !strings.Contains(out, "The export job runs nightly") {
		t.Errorf("read of an archived chunk: %q", out)
	}
	if chunks, _ := listed(t, c, map[string]any{"tags": []string{"export"}}); len(chunks) != 1 || chunks[0].Archived {
		t.Errorf("after the read: %+v", chunks)
	}

	// Archived once more and left for over 180 days: purged, with a log
	// line that keeps none of its text.
	clk.advance(31 * 24 * time.Hour)
	ok(t, c, "memory", map[string]any{"action": "retain"})
	clk.advance(181 * 24 * time.Hour)
	out, _ = ok(t, c, "memory", map[string]any{"action": "retain"})
	if !strings.Contains(out, "purged "+plain.ID) {
		t.Errorf("purge:\n%s", out)
	}
	if _, err := os.Stat(archive); !os.IsNotExist(err) {
		t.Errorf("the archive survived the purge: %v", err)
	}
	if got := grepIDs(t, c, map[string]any{"text": "export|nightly|CSV"}); slices.Contains(got, plain.ID) {
		t.Errorf("a purged chunk is still found")
	}
	fails(t, c, "read", map[string]any{"target": "chunk:" + plain.ID}, "no such chunk")
	var leaked []string
	filepath.WalkDir(filepath.Join(root, ".rubi"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "runs nightly") || strings.Contains(string(data), "Export job notes") {
				leaked = append(leaked, p)
			}
		}
		return nil
	})
	if len(leaked) > 0 {
		t.Errorf("the purged chunk's text is still in %v", leaked)
	}
	log, err := os.ReadFile(filepath.Join(root, ".rubi", "sessions", "retention.log"))
	if err != nil || !strings.Contains(string(log), "purged "+plain.ID) {
		t.Errorf("retention.log: %v\n%s", err, log)
	}
	// The immune ones are all still there.
	for _, id := range []string{tagged.ID, keyword.ID, read.ID} {
		if _, err := os.Stat(filepath.Join(root, ".rubi", "sessions", id+".md")); err != nil {
			t.Errorf("immune chunk %s: %v", id, err)
		}
	}
}

// The memory tool's status action is rubi status: its text, and its JSON
// as structured content, retention due counted with the server's clock.
func TestMemoryStatusThroughMCP(t *testing.T) {
	_, c, clk := memoryServer(t)
	plain := saveChunk(t, c, map[string]any{"summary": "Export job notes", "text": "The export job runs nightly and writes CSV."})
	ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "decision", "title": "Exports run nightly", "importance": "high"}}})
	clk.advance(31 * 24 * time.Hour)
	out, res := ok(t, c, "memory", map[string]any{"action": "status"})
	for _, want := range []string{
		"knowledge: 1 node, 1 active (1 decision; 1 high) in the project",
		"memory: 1 chunk active (1 session), 0 archived",
		"due now: 1 to archive, 0 to purge",
		"index: ok, indexed",
		"last access: chunk " + plain.ID + " saved 31 days ago",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if n := tokens.Estimate(out); n > 300 {
		t.Errorf("the status costs %d tokens; keep it under 300:\n%s", n, out)
	}
	var st pipeline.Status
	structured(t, res, &st)
	if st.Knowledge.Project.ByType["decision"] != 1 || st.Memory == nil || len(st.Memory.Due.Archive) != 1 || st.Memory.Due.Archive[0].ID != plain.ID || st.Index.State != pipeline.IndexOK {
		t.Errorf("structured status: %+v", st)
	}
}

// created keeps an imported conversation's dates; a bad one is refused
// naming the argument, and nothing is written.
func TestMemorySaveCreatedThroughMCP(t *testing.T) {
	_, c, _ := memoryServer(t)
	for _, tc := range []struct{ created, want string }{
		{"2023-05-08T13:56:00Z", time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC).Local().Format("2006-01-02 15:04")},
		{"2023-05-09", "2023-05-09 00:00"}, // midnight, local time
	} {
		saved := saveChunk(t, c, map[string]any{"text": "a turn said on " + tc.created, "created": tc.created})
		chunks, _ := listed(t, c, map[string]any{})
		i := slices.IndexFunc(chunks, func(l listItem) bool { return l.ID == saved.ID })
		if i < 0 || chunks[i].Created != tc.want {
			t.Errorf("created %s: listed %+v", tc.created, chunks)
		}
	}
	fails(t, c, "memory", map[string]any{"action": "save", "text": "another turn", "created": "last Tuesday"}, `created: "last Tuesday" is not a date (2026-11-01) or a time`)
	if _, total := listed(t, c, map[string]any{}); total != 2 {
		t.Errorf("%d chunks after a refused save, want 2", total)
	}
}
