package view

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// hostileTitle is a note's title that would run as markup if a page
// wrote it as HTML.
const hostileTitle = `Orders <img src=x onerror=alert(1)> vanish`

// fixture indexes a small project with a note about store/store.go, a
// handoff and a conversation chunk, and returns its engine.
func fixture(t *testing.T) *pipeline.Engine {
	t.Helper()
	root := rubitest.Project(t, rubitest.GoProject)
	ctx := context.Background()
	eng := open(t, root)
	res, err := eng.Project().Knowledge().Register(ctx, []knowledge.Input{
		{Type: "gotcha", Title: hostileTitle, Body: "The retry drops the order id.", Files: []string{"store/store.go"}, Importance: "high"},
		{Type: "decision", Title: "Orders live in one database", Body: "One database for orders."},
	})
	if err != nil || res[0].Error != "" {
		t.Fatal(err, res)
	}
	if _, _, err := eng.Project().SaveHandoff(ctx, knowledge.Handoff{Goal: "ship the order retry fix", Next: []string{"write its test"}}); err != nil {
		t.Fatal(err)
	}
	mem, _ := eng.Project().Memory()
	if _, err := mem.Save(ctx, memory.Input{Type: "session", Summary: "quokka migration log", Content: "The quokka migration stalls on the third batch."}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	return eng
}

func open(t *testing.T, root string) *pipeline.Engine {
	t.Helper()
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments})
	t.Cleanup(eng.Close)
	return eng
}

// serve starts the view of eng on an httptest server.
func serve(t *testing.T, eng *pipeline.Engine) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(Options{Engine: eng})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func do(t *testing.T, c *http.Client, method, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// getJSON reads an API route with the bearer token into v.
func getJSON(t *testing.T, s *Server, ts *httptest.Server, path string, v any) {
	t.Helper()
	resp, body := do(t, noRedirect, "GET", ts.URL+path, map[string]string{"Authorization": "Bearer " + s.Token()})
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, body)
	}
}

// Every request needs the run's token: a page's first load may bring it
// in the address and gets a cookie (HttpOnly, SameSite=Strict) for the
// rest; the API takes the cookie or a bearer header, never the address.
func TestTheTokenGuardsEveryRequest(t *testing.T) {
	rubitest.Project(t, nil)
	s, ts := serve(t, open(t, t.TempDir()))
	for _, p := range []string{"/", "/map", "/search?q=x", "/api/map", "/api/notes", "/assets/common.js", "/assets/vendor/cytoscape.min.js", "/xray", "/nowhere"} {
		for _, h := range []map[string]string{nil, {"Authorization": "Bearer " + s.Token() + "x"}, {"Authorization": "Basic " + s.Token()}, {"Cookie": "rubi_view=" + s.Token()}} {
			if resp, _ := do(t, noRedirect, "GET", ts.URL+p, h); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET %s with %v: %d, want 401", p, h, resp.StatusCode)
			}
		}
		if resp, _ := do(t, noRedirect, "GET", ts.URL+p+sep(p)+"token="+s.Token()[1:], nil); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong ?token=: %d, want 401", p, resp.StatusCode)
		}
	}
	// The address's token, on the API: refused.
	if resp, _ := do(t, noRedirect, "GET", ts.URL+"/api/map?token="+s.Token(), nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/api/map?token=: %d, want 401", resp.StatusCode)
	}
	// The first load: a cookie, and the same page without the token.
	resp, _ := do(t, noRedirect, "GET", ts.URL+"/search?q=orders&token="+s.Token(), nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/search?q=orders" {
		t.Fatalf("first load: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || cookies[0].Value != s.Token() || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode || cookies[0].Path != "/" {
		t.Fatalf("first load's cookie: %+v", cookies)
	}
	// A browser goes on with the cookie alone.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if resp, body := do(t, browser, "GET", ts.URL+"/?token="+s.Token(), nil); resp.StatusCode != 200 || !strings.Contains(body, `data-page="map"`) || resp.Request.URL.RawQuery != "" {
		t.Errorf("/?token= followed: %d %s %s", resp.StatusCode, resp.Request.URL, body)
	}
	for _, p := range []string{"/api/notes", "/assets/common.js", "/knowledge"} {
		if resp, _ := do(t, browser, "GET", ts.URL+p, nil); resp.StatusCode != 200 {
			t.Errorf("GET %s with the cookie: %d", p, resp.StatusCode)
		}
		if resp, _ := do(t, noRedirect, "GET", ts.URL+p, map[string]string{"Authorization": "Bearer " + s.Token()}); resp.StatusCode != 200 {
			t.Errorf("GET %s with the bearer header: %d", p, resp.StatusCode)
		}
	}
}

func sep(p string) string {
	if strings.Contains(p, "?") {
		return "&"
	}
	return "?"
}

// A page elsewhere cannot reach the view through the user's browser: a
// name of its own resolved to 127.0.0.1 (the Host header), its origin, a
// write; and no request may be large.
func TestRequestsFromElsewhereAreRefused(t *testing.T) {
	rubitest.Project(t, nil)
	s, ts := serve(t, open(t, t.TempDir()))
	auth := "Bearer " + s.Token()
	u, _ := http.NewRequest("GET", ts.URL, nil)
	port := u.URL.Port()
	for _, c := range []struct {
		method, path string
		header       map[string]string
		want         int
	}{
		{"GET", "/api/map", map[string]string{"Authorization": auth, "Host": "attacker.example:" + port}, http.StatusForbidden},
		{"GET", "/map", map[string]string{"Authorization": auth, "Host": "attacker.example"}, http.StatusForbidden},
		{"GET", "/api/notes", map[string]string{"Authorization": auth, "Origin": "https://attacker.example"}, http.StatusForbidden},
		{"GET", "/api/notes", map[string]string{"Authorization": auth, "Origin": "null"}, http.StatusForbidden},
		{"POST", "/api/notes", map[string]string{"Authorization": auth}, http.StatusMethodNotAllowed},
		{"DELETE", "/api/note?id=x", map[string]string{"Authorization": auth}, http.StatusMethodNotAllowed},
		{"GET", "/api/search?q=" + strings.Repeat("a", MaxQuery), map[string]string{"Authorization": auth}, http.StatusRequestEntityTooLarge},
		{"GET", "/api/search?q=" + strings.Repeat("a", MaxQuestion+1), map[string]string{"Authorization": auth}, http.StatusBadRequest},
		{"GET", "/assets/vendor/", map[string]string{"Authorization": auth}, http.StatusNotFound},
		// The same requests from this machine pass.
		{"GET", "/api/notes", map[string]string{"Authorization": auth, "Host": "localhost:" + port}, http.StatusOK},
		{"GET", "/api/notes", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:" + port}, http.StatusOK},
	} {
		if resp, body := do(t, noRedirect, c.method, ts.URL+c.path, c.header); resp.StatusCode != c.want {
			t.Errorf("%s %.60s %v: %d, want %d (%s)", c.method, c.path, c.header["Host"]+c.header["Origin"], resp.StatusCode, c.want, strings.TrimSpace(body))
		}
	}
}

func TestListenAddrIsLoopbackOnly(t *testing.T) {
	for in, want := range map[string]string{"8080": "127.0.0.1:8080", ":0": "127.0.0.1:0", "127.0.0.1:0": "127.0.0.1:0", "localhost:9": "localhost:9", "[::1]:0": "[::1]:0"} {
		if got, err := ListenAddr(in); err != nil || got != want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"0.0.0.0:8080", "[::]:0", "192.168.1.4:80", "example.com:80"} {
		if _, err := ListenAddr(in); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("ListenAddr(%q): %v, want a refusal", in, err)
		}
	}
	if _, err := ListenAddr("a:b:c"); err == nil {
		t.Error("ListenAddr(a:b:c): no error")
	}
}

// Every page is a frame its own script fills: <main id="page"
// data-page=NAME>, scripts from files only, under a policy that allows
// no inline script.
func TestPages(t *testing.T) {
	rubitest.Project(t, nil)
	s, ts := serve(t, open(t, t.TempDir()))
	auth := map[string]string{"Authorization": "Bearer " + s.Token()}
	resp, _ := do(t, noRedirect, "GET", ts.URL+"/", auth)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/map" {
		t.Errorf("/: %d to %q, want /map", resp.StatusCode, resp.Header.Get("Location"))
	}
	script := regexp.MustCompile(`<script[^>]*>`)
	for _, name := range []string{"map", "knowledge", "timeline", "search", "tokens"} {
		resp, body := do(t, noRedirect, "GET", ts.URL+"/"+name, auth)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("/%s: %d %s", name, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(body, `<main id="page" data-page="`+name+`">`) {
			t.Errorf("/%s has no <main id=page data-page=%s>:\n%s", name, name, body)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") {
			t.Errorf("/%s: policy %q", name, csp)
		}
		tags := script.FindAllString(body, -1)
		if len(tags) < 2 {
			t.Errorf("/%s loads %d scripts", name, len(tags))
		}
		for _, tag := range tags {
			if !strings.Contains(tag, `src="/assets/`) {
				t.Errorf("/%s: inline script %s", name, tag)
			}
			src := strings.TrimSuffix(strings.SplitN(tag, `src="`, 2)[1], `" defer>`)
			if r, _ := do(t, noRedirect, "GET", ts.URL+src, auth); r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
				t.Errorf("/%s's script %s: %d %s", name, src, r.StatusCode, r.Header.Get("Content-Type"))
			}
		}
	}
}

// The pages' scripts write repository text as text: none of them parses
// a string as HTML.
func TestScriptsWriteNoHTML(t *testing.T) {
	files, err := filepath.Glob("assets/*.js")
	if err != nil || len(files) < 6 {
		t.Fatalf("scripts: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "srcdoc", "DOMParser"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}
}

// The API answers from the project's index: its modules, files with
// their symbols and the notes about them, notes, the timeline, and the
// answer rubi context gives.
func TestAPI(t *testing.T) {
	eng := fixture(t)
	s, ts := serve(t, eng)
	before := tree(t, eng.Config().Root)
	defer func() {
		// The view only reads: nothing under .rubi/ changed.
		if after := tree(t, eng.Config().Root); after != before {
			t.Errorf(".rubi/ changed:\n%s\nthen:\n%s", before, after)
		}
	}()
	var search Search
	getJSON(t, s, ts, "/api/search?q=quokka+migration+orders+retry", &search)
	many := make([]string, MaxNoteFiles+50)
	for i := range many {
		many[i] = fmt.Sprintf("gen/file%d.go", i)
	}
	if _, err := eng.Project().Knowledge().Register(context.Background(), []knowledge.Input{{Type: "concept", Title: "Generated files", Body: "They are generated.", Files: many}}); err != nil {
		t.Fatal(err)
	}
	before = tree(t, eng.Config().Root)

	var m Map
	getJSON(t, s, ts, "/api/map", &m)
	mods := map[string]Module{}
	for _, mod := range m.Modules {
		mods[mod.Name] = mod
	}
	if m.Files != 6 || len(mods) != 4 || mods["store"].Files != 2 || mods["store"].Language != "go" || mods["web/handlers"].Language != "javascript" {
		t.Errorf("/api/map: %d files, modules %+v", m.Files, m.Modules)
	}
	if !hasEdge(m.Edges, ".", "store") {
		t.Errorf("/api/map: no import edge from the root module to store: %+v", m.Edges)
	}

	var mod ModulePage
	getJSON(t, s, ts, "/api/module?name=store", &mod)
	if len(mod.FileList) != 2 || !strings.Contains(mod.Page, "exports: Open") || !contains(mod.UsedBy, ".") {
		t.Errorf("/api/module?name=store: %+v", mod)
	}

	var f File
	getJSON(t, s, ts, "/api/file?path=store/store.go", &f)
	if f.Module != "store" || len(f.Symbols) == 0 || f.Symbols[0].Name != "Open" || len(f.Notes) != 1 || f.Notes[0].Title != hostileTitle {
		t.Errorf("/api/file: %+v", f)
	}

	var notes Notes
	getJSON(t, s, ts, "/api/notes", &notes)
	if len(notes.Notes) != 3 || notes.Notes[0].Title != hostileTitle || notes.Notes[0].Importance != "high" || notes.Notes[0].Files[0] != "store/store.go" {
		t.Errorf("/api/notes: %+v", notes)
	}
	// A note naming many files lists the first MaxNoteFiles.
	for _, n := range notes.Notes {
		if n.Title == "Generated files" && (len(n.Files) != MaxNoteFiles || n.FilesTotal != MaxNoteFiles+50) {
			t.Errorf("a note of %d files lists %d of %d", len(many), len(n.Files), n.FilesTotal)
		}
	}
	var n Note
	getJSON(t, s, ts, "/api/note?id="+notes.Notes[0].ID, &n)
	if n.Body != "The retry drops the order id." || n.Repository {
		t.Errorf("/api/note: %+v", n)
	}
	// The repository's text is data: the JSON escapes its markup.
	_, raw := do(t, noRedirect, "GET", ts.URL+"/api/notes", map[string]string{"Authorization": "Bearer " + s.Token()})
	if strings.Contains(raw, "<img") {
		t.Errorf("/api/notes carries raw markup: %s", raw)
	}

	var tl Timeline
	getJSON(t, s, ts, "/api/timeline", &tl)
	kinds := map[string]int{}
	for _, it := range tl.Items {
		kinds[it.Kind]++
		if it.Kind == "chunk" && it.Zone != "active" {
			t.Errorf("a new chunk's zone: %+v", it)
		}
	}
	// The handoff is a file and a chunk of the memory.
	if kinds["note"] != 3 || kinds["handoff"] != 1 || kinds["chunk"] != 2 || tl.ArchiveAfterDays <= 0 {
		t.Errorf("/api/timeline: %v, archive after %v days: %+v", kinds, tl.ArchiveAfterDays, tl.Items)
	}

	for path, want := range map[string]int{"/api/module?name=nowhere": 404, "/api/file?path=nowhere.go": 404, "/api/note?id=nowhere": 404, "/api/search?q=": 400, "/api/file": 400} {
		if resp, body := do(t, noRedirect, "GET", ts.URL+path, map[string]string{"Authorization": "Bearer " + s.Token()}); resp.StatusCode != want || !strings.Contains(body, `"error"`) {
			t.Errorf("%s: %d %s, want %d", path, resp.StatusCode, body, want)
		}
	}
}

// The search answers as rubi context --no-refresh does: the same text,
// within the same budget, from another engine on the same index.
func TestSearchAnswersAsContextDoes(t *testing.T) {
	eng := fixture(t)
	s, ts := serve(t, eng)
	const q = "where are orders stored in the database"
	var got Search
	getJSON(t, s, ts, "/api/search?q="+strings.ReplaceAll(q, " ", "+"), &got)
	other := open(t, eng.Config().Root)
	res, err := other.Retrieve(context.Background(), answer.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	if got.Answer != res.Text(false) || got.Explained != res.Text(true) || got.Budget != res.Budget || got.Tokens != res.Tokens {
		t.Errorf("the view's answer:\n%s\nrubi context's:\n%s", got.Answer, res.Text(false))
	}
	if len(got.Items) == 0 || got.Items[0].Path != "store/store.go" || len(got.Rankers) < 2 {
		t.Fatalf("items %+v, rankers %+v", got.Items, got.Rankers)
	}
	for _, l := range got.Rankers {
		for i := 1; i < len(l.Items); i++ {
			if l.Items[i].Score > l.Items[i-1].Score {
				t.Errorf("%s's list is not best first: %+v", l.Ranker, l.Items)
			}
		}
	}
}

// Serve ends when its context does: the port closes and nothing it
// started keeps running.
func TestServeEndsOnCancel(t *testing.T) {
	rubitest.Project(t, nil)
	eng := open(t, t.TempDir())
	s, err := New(Options{Engine: eng})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	addr, stop := serveLoopback(t, s)
	c := &http.Client{Transport: &http.Transport{}}
	resp, body := do(t, c, "GET", "http://"+addr+"/api/notes", map[string]string{"Authorization": "Bearer " + s.Token()})
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	c.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if conn, err := net.Dial("tcp", addr); err == nil {
		conn.Close()
		t.Error("the port still accepts connections")
	}
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 500 {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Not on loopback: refused.
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Serve(context.Background(), ln); err == nil || !strings.Contains(err.Error(), "this machine only") {
		t.Errorf("Serve on %s: %v", ln.Addr(), err)
	}
}

// tree lists .rubi/'s files with their sizes and modification times.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(filepath.Join(root, ".rubi"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %s\n", p[len(root):], fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func hasEdge(edges []ModuleEdge, from, to string) bool {
	for _, e := range edges {
		if e.From == from && e.To == to && e.Imports > 0 {
			return true
		}
	}
	return false
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Stopped while a request runs past the grace period (an X-ray over
// large logs that does not end with its context), Serve closes its
// connection and returns without an error: the user asked it to stop.
func TestServeEndsWithARequestStillRunning(t *testing.T) {
	rubitest.Project(t, nil)
	eng := open(t, t.TempDir())
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	s, err := New(Options{Engine: eng, Xray: func(context.Context, io.Writer) error {
		close(started)
		<-release
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	s.grace = 50 * time.Millisecond
	addr, stop := serveLoopback(t, s)
	go func() {
		req, _ := http.NewRequest("GET", "http://"+addr+"/xray", nil)
		req.Header.Set("Authorization", "Bearer "+s.Token())
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	if err := stop(); err != nil {
		t.Fatalf("Serve with a request still running: %v", err)
	}
}

// serveLoopback serves s on a free loopback port; stop ends it and
// returns what Serve returned.
func serveLoopback(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	return ln.Addr().String(), func() error {
		cancel()
		return <-done
	}
}
