package browsertest

import (
	"bytes"
	"image/png"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// site serves pages (path to HTML) on the loopback and returns its URL.
func site(t *testing.T, pages map[string]string) string {
	t.Helper()
	mux := http.NewServeMux()
	for path, html := range pages {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(html))
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

const head = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>`

// A page that shows its data, fills a form and answers it: the helper
// reads what a reader sees, submits as a person does, takes the whole
// page, and finds no problem.
func TestPageReadsSubmitsAndScreenshots(t *testing.T) {
	url := site(t, map[string]string{"/{$}": head + `<body style="margin:0">
<table data-testid="modules"><tr data-id="a"><td>a</td></tr><tr data-id="b/c"><td>b/c <i>2 files</i></td></tr><tr><td>no id</td></tr></table>
<form data-testid="search"><input name="q"></form><ol data-testid="results"></ol>
<div style="height:2000px"></div>
<script>
document.querySelector("form").addEventListener("submit", e => {
  e.preventDefault();
  const li = document.createElement("li");
  li.dataset.id = "answer";
  li.textContent = "you asked: " + e.target.q.value;
  document.querySelector("ol").append(li);
});
setTimeout(() => { document.body.dataset.ready = "1"; }, 50);
</script></body></html>`})
	b := Start(t)
	p := b.Page(t)
	p.Open(url + "/")
	if got := p.Texts(`[data-testid="modules"] tr`); !slices.Equal(got, []string{"a", "b/c 2 files", "no id"}) {
		t.Errorf("rows: %q", got)
	}
	if got := p.Attrs(`[data-testid="modules"] tr`, "data-id"); !slices.Equal(got, []string{"a", "b/c"}) {
		t.Errorf("ids: %q", got)
	}
	p.Submit(`[data-testid="search"]`, map[string]string{"q": "how are plugins loaded"})
	p.WaitFor(`[data-testid="results"] li[data-id]`)
	if got := p.Text(`[data-testid="results"]`); got != "you asked: how are plugins loaded" {
		t.Errorf("after the search: %q", got)
	}
	shot := p.Screenshot()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if s := img.Bounds().Size(); s.X != 1280 || s.Y < 2000 {
		t.Errorf("the screenshot is %v, want the whole page: 1280 wide, over 2000 high", s)
	}
	p.NoProblems(t)
}

// Each kind of problem a page can have is reported: a console error, an
// uncaught exception, a rejected promise, a resource that failed to load
// and a request off the machine (which goes nowhere: the browser has no
// route off the loopback).
func TestPageReportsProblems(t *testing.T) {
	url := site(t, map[string]string{"/{$}": head + `<body>
<img src="/missing.png">
<script src="http://rubi-test.invalid/lib.js"></script>
<script>
console.error("boom", 42);
Promise.reject(new Error("rejected"));
setTimeout(() => { document.body.dataset.ready = "1"; throw new TypeError("thrown"); }, 10);
</script></body></html>`})
	b := Start(t)
	p := b.Page(t)
	p.Open(url + "/")
	p.Eval(`new Promise(r => setTimeout(r, 100))`, nil) // the throw after ready
	got := strings.Join(p.Problems(), "\n")
	for _, want := range []string{
		"console.error: boom 42",
		"uncaught exception", "Error: rejected",
		"TypeError: thrown",
		"404", "missing.png",
		"a request off this machine: GET http://rubi-test.invalid/lib.js",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in the problems:\n%s", want, got)
		}
	}
}

// The browser stops with the test: no process of it is left.
func TestBrowserLeavesNoProcess(t *testing.T) {
	Chromium(t)
	var profile string
	t.Run("browse", func(t *testing.T) {
		b := Start(t)
		profile = filepath.Join(b.dir, "profile")
		p := b.Page(t)
		p.Load("about:blank")
		if len(processesWith("--user-data-dir="+profile)) == 0 {
			t.Fatal("no Chromium process found while the browser runs")
		}
	})
	if left := processesWith("--user-data-dir=" + profile); len(left) > 0 {
		t.Errorf("Chromium processes left after the test: %v", left)
	}
}
