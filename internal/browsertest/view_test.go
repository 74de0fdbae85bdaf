package browsertest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// screenshots is where TestViewOfRubisOwnRepository writes its pictures
// of the pages (map.png, knowledge.png, …), a folder relative to the
// repository's root: go test ./internal/browsertest -run
// TestViewOfRubisOwnRepository -screenshots docs/view
var screenshots = flag.String("screenshots", "", "write the view's pages of rubi's own repository as PNGs into this folder (relative to the repository's root)")

// viewRun is a rubi view the test started: the binary, as a user runs it.
type viewRun struct {
	base, token string
}

// startView runs rubi view --root root on a free loopback port, reads the
// address it prints first, and interrupts it (Ctrl-C) when the test
// ends, checking that it ended.
func startView(t *testing.T, root string) viewRun {
	t.Helper()
	cmd := rubiCommand(t, "view", "--root", root, "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("rubi view ended with %v on an interrupt: %s", err, stderr.String())
			}
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-exited
			t.Errorf("rubi view did not end within a minute of an interrupt")
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("rubi view printed no address: %v; stderr: %s", err, stderr.String())
	}
	m := regexp.MustCompile(`^rubi view: (http://127\.0\.0\.1:[0-9]+)/\?token=([A-Za-z0-9_-]{16,})\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("rubi view's first line: %q", line)
	}
	return viewRun{base: m[1], token: m[2]}
}

// viewWant is what the view of a project must show: rubi graph --json's
// modules, rubi nodes' notes, and rubi context's answer to a question.
type viewWant struct {
	modules, notes []string
	// timeline is the notes, the handoffs (handoff:FILE) and the
	// conversation chunks (rubi memory list), each as kind:id.
	timeline []string
	question string
	answer   string
}

func want(t *testing.T, root, question string) viewWant {
	t.Helper()
	var g struct{ Modules []struct{ Name string } }
	if err := json.Unmarshal([]byte(rubi(t, "graph", "--root", root, "--json")), &g); err != nil {
		t.Fatal(err)
	}
	var nodes []struct{ ID string }
	if err := json.Unmarshal([]byte(rubi(t, "nodes", "--root", root, "--all", "--json")), &nodes); err != nil {
		t.Fatal(err)
	}
	w := viewWant{question: question, answer: rubi(t, "context", "--no-refresh", "--root", root, question)}
	for _, m := range g.Modules {
		w.modules = append(w.modules, m.Name)
	}
	for _, n := range nodes {
		w.notes = append(w.notes, n.ID)
		w.timeline = append(w.timeline, "note:"+n.ID)
	}
	handoffs, err := filepath.Glob(filepath.Join(root, ".rubi", "handoffs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range handoffs {
		w.timeline = append(w.timeline, "handoff:handoff:"+filepath.Base(h))
	}
	var mem struct{ Chunks []struct{ ID string } }
	if err := json.Unmarshal([]byte(rubi(t, "memory", "list", "--root", root, "--json")), &mem); err != nil {
		t.Fatal(err)
	}
	for _, c := range mem.Chunks {
		w.timeline = append(w.timeline, "chunk:"+c.ID)
	}
	if len(w.modules) == 0 || len(w.notes) == 0 {
		t.Fatalf("the project shows %d modules and %d notes", len(w.modules), len(w.notes))
	}
	return w
}

// sameIDs fails the test unless the page's rows are got, in any order.
func sameIDs(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if slices.Equal(g, w) {
		return
	}
	var missing, extra []string
	for _, x := range w {
		if !slices.Contains(g, x) {
			missing = append(missing, x)
		}
	}
	for _, x := range g {
		if !slices.Contains(w, x) {
			extra = append(extra, x)
		}
	}
	t.Errorf("%s: %d shown, want %d; missing %q, not expected %q", what, len(g), len(w), missing, extra)
}

// checkPage fails the test unless the page is name's, shows no error and
// had no problem; it returns the page's screenshot.
func checkPage(t *testing.T, p *Page, name string) []byte {
	t.Helper()
	if got := p.Attrs("main#page", "data-page"); !slices.Equal(got, []string{name}) {
		t.Errorf("the page is %q, want %s", got, name)
	}
	if alert := p.Text(`[role="alert"]`); alert != "" {
		t.Errorf("%s shows an error: %s", name, alert)
	}
	p.NoProblems(t)
	p.Eval("window.scrollTo(0, 0)", nil)
	shot := p.ScreenshotWindow()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("%s: the screenshot is not a PNG: %v", name, err)
	}
	if s := img.Bounds().Size(); s.X != 1280 || s.Y != 800 {
		t.Errorf("%s: the screenshot is %v, want the window's 1280x800", name, s)
	}
	return shot
}

// clickThrough is what checkView clicks: a module on the map, then one
// of its files, which shows a note about it; a note on the knowledge
// page.
type clickThrough struct {
	module, file, fileNote string
	note, noteTitle        string
}

// checkView drives every page of a rubi view of root in the browser and
// returns their screenshots, by page name.
func checkView(t *testing.T, root, question string, click clickThrough) map[string][]byte {
	t.Helper()
	w := want(t, root, question)
	b := Start(t)
	v := startView(t, root)

	// Without the token: the page and the API refuse, and no data shows.
	for _, path := range []string{"/api/map", "/api/notes", "/api/search?q=x", "/map", "/assets/map.js"} {
		resp, err := http.Get(v.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s without the token: %s", path, resp.Status)
		}
	}
	p := b.Page(t)
	for _, path := range []string{"/map", "/knowledge", "/?token=" + strings.Repeat("x", len(v.token))} {
		p.Load(v.base + path)
		if n := p.Count("main#page, table, [data-id]"); n != 0 || !strings.Contains(p.Text("body"), "Unauthorized") {
			t.Errorf("%s without the token shows %d elements of the view: %q", path, n, p.Text("body"))
		}
	}
	for _, pr := range p.Problems() {
		if !strings.Contains(pr, "401") {
			t.Errorf("the refused page had a problem: %s", pr)
		}
	}

	shots := map[string][]byte{}
	p = b.Page(t)
	// The address rubi view printed: the token becomes a cookie, and the
	// map shows.
	p.Open(v.base + "/?token=" + v.token)
	var at string
	p.Eval("location.pathname + location.search", &at)
	if at != "/map" {
		t.Errorf("after the first load the page is at %s, want /map (the token out of the address)", at)
	}
	sameIDs(t, "the map's modules", p.Attrs(`table[data-testid="modules"] tr[data-id]`, "data-id"), w.modules)
	// A module clicked shows its files; one of them, its notes.
	p.Click(fmt.Sprintf(`table[data-testid="modules"] tr[data-id=%s] button`, jsString(click.module)))
	p.WaitUntil(fmt.Sprintf(`document.querySelector("aside h2")?.textContent === %s`, jsString(click.module)))
	p.Click(fmt.Sprintf(`aside button[data-path=%s]`, jsString(click.file)))
	p.WaitUntil(fmt.Sprintf(`document.querySelector("aside h2")?.textContent === %s`, jsString(click.file)))
	if notes := p.Texts("aside li a"); !slices.Contains(notes, click.fileNote) {
		t.Errorf("%s's notes show %q, want %q among them", click.file, notes, click.fileNote)
	}
	p.Click(fmt.Sprintf(`table[data-testid="modules"] tr[data-id=%s] button`, jsString(click.module)))
	p.WaitUntil(fmt.Sprintf(`document.querySelector("aside h2")?.textContent === %s`, jsString(click.module)))
	shots["map"] = checkPage(t, p, "map")

	p = b.Page(t)
	p.Open(v.base + "/knowledge")
	sameIDs(t, "the knowledge page's notes", p.Attrs(`table[data-testid="notes"] tr[data-id]`, "data-id"), w.notes)
	p.Click(fmt.Sprintf(`table[data-testid="notes"] tr[data-id=%s] button`, jsString(click.note)))
	p.WaitFor(`h2[data-testid="note-title"]`)
	if got := p.Text(`h2[data-testid="note-title"]`); got != click.noteTitle {
		t.Errorf("the note clicked shows %q, want %q", got, click.noteTitle)
	}
	shots["knowledge"] = checkPage(t, p, "knowledge")

	p = b.Page(t)
	p.Open(v.base + "/timeline")
	var items []string
	p.Eval(`Array.from(document.querySelectorAll('table[data-testid="timeline"] tr[data-id]'), r => r.dataset.kind + ":" + r.dataset.id)`, &items)
	sameIDs(t, "the timeline's items", items, w.timeline)
	shots["timeline"] = checkPage(t, p, "timeline")

	p = b.Page(t)
	p.Open(v.base + "/search")
	p.Submit(`form[data-testid="search"]`, map[string]string{"q": w.question})
	p.WaitReady()
	if n := p.Count(`ol[data-testid="results"] li[data-id]`); n == 0 {
		t.Errorf("the search for %q shows no result", w.question)
	}
	var answer string
	p.Eval(`document.querySelector('pre[data-testid="answer"]')?.textContent ?? ""`, &answer)
	if strings.TrimSpace(answer) != strings.TrimSpace(w.answer) {
		t.Errorf("the search page's answer:\n%s\nrubi context's:\n%s", answer, w.answer)
	}
	shots["search"] = checkPage(t, p, "search")
	t.Logf("shown: %d modules, %d notes, %d timeline items, %d search results", len(w.modules), len(w.notes), len(items), p.Count(`ol[data-testid="results"] li[data-id]`))

	p = b.Page(t)
	p.Open(v.base + "/tokens")
	shots["tokens"] = checkPage(t, p, "tokens")
	return shots
}

// viewProject is a small project with notes (one superseding another), a
// handoff and a conversation chunk.
var viewProject = map[string]string{
	"go.mod":                "module example.com/shop\n\ngo 1.22\n",
	"main.go":               "package main\n\nimport \"example.com/shop/store\"\n\nfunc main() { store.Open(\"db\") }\n",
	"store/store.go":        "// Package store keeps orders in a database.\npackage store\n\n// Open connects to the order database.\nfunc Open(dsn string) error { return nil }\n",
	"store/migrate.go":      "package store\n\n// Migrate upgrades the database schema.\nfunc Migrate() error { return nil }\n",
	"web/handlers/order.js": "import { fetchOrders } from '../api.js';\nexport function renderOrders() { return fetchOrders(); }\n",
	"web/api.js":            "export async function fetchOrders() { return fetch('/orders'); }\n",
	"rubi.hcl":              "",
}

// Every page of rubi view on a small project, in Chromium: each loads
// with no console error and shows the project's modules and notes, the
// search answers as rubi context does, and without the token nothing
// shows.
func TestViewPages(t *testing.T) {
	Chromium(t)
	root := rubitest.Project(t, viewProject)
	rubi(t, "register", "--root", root, "--type", "decision", "--title", "Orders live in one database", "--body", "Sharding is not worth it yet.", "--file", "store/store.go", "--importance", "high")
	rubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Open ignores a bad DSN", "--body", "It connects lazily: the first query fails.", "--file", "store/store.go", "--symbol", "Open")
	rubi(t, "register", "--root", root, "--type", "decision", "--title", "Orders are sharded by shop", "--body", "One database per shop.", "--file", "store/store.go", "--supersedes", "decision-orders-live-in-one-database")
	rubi(t, "handoff", "save", "--root", root, "--goal", "Migrate the order schema", "--done", "store.Migrate", "--next", "run it on staging")
	chunk := rubiCommand(t, "memory", "save", "--root", root, "--type", "debug", "--summary", "why migrate failed", "-")
	chunk.Stdin = strings.NewReader("Migrate failed on staging: the orders table was locked by a long query.\n")
	if out, err := chunk.CombinedOutput(); err != nil {
		t.Fatalf("rubi memory save: %v\n%s", err, out)
	}
	rubi(t, "index", "--root", root)
	checkView(t, root, "where are orders stored in the database", clickThrough{
		module: "store", file: "store/store.go", fileNote: "Open ignores a bad DSN",
		note: "decision-orders-are-sharded-by-shop", noteTitle: "Orders are sharded by shop",
	})
}

// Every page of rubi view on rubi's own repository: all its modules and
// notes show, and the search answers. With -screenshots DIR, the pages'
// pictures are written into DIR (docs/view in the repository).
func TestViewOfRubisOwnRepository(t *testing.T) {
	Chromium(t)
	shots := checkView(t, ownRepository(t), "how are plugins loaded", clickThrough{
		module: "core/host", file: "core/host/launcher.go", fileNote: "How plugins are loaded",
		note: "concept-how-plugins-are-loaded", noteTitle: "How plugins are loaded",
	})
	if *screenshots == "" {
		return
	}
	dir := *screenshots
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", "..", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, png := range shots {
		path := filepath.Join(dir, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d KB", path, len(png)>>10)
	}
}
