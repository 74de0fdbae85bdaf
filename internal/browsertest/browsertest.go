// Package browsertest drives the pages rubi serves and draws in a real
// browser, for tests: Debian's Chromium (/usr/bin/chromium), headless,
// through the DevTools protocol (chromedp).
//
// Start launches one browser for a test, with a profile, a HOME and a
// temporary folder of its own in a new temporary folder, and
// stops it when the test ends, leaving no process behind. A Page is one
// tab: Open loads a URL and waits until the page says its data is shown
// (body[data-ready="1"]); Texts, Attrs and Eval read it; Click and
// Submit act on it as a person does; Screenshot takes the whole page as a PNG,
// ScreenshotWindow what the window shows. Every
// console error, uncaught exception, error the browser logs (a resource
// that failed to load) and request to a host other than loopback is kept
// as a problem: a test asserts NoProblems.
//
// A machine without Chromium fails the tests that need it, with the way
// to install it, unless RUBI_TEST_NO_CHROMIUM=1 (then they skip and say
// why). make test installs it (scripts/test.sh).
//
// The package's own tests drive rubi's pages and drawings: rubi graph
// --mermaid drawn by Mermaid itself (the npm package pinned in
// testdata/mermaid, served with a page from the loopback), and every
// page of rubi view, the binary started as a user starts it, on a small
// project and on a copy of rubi's own repository. That test also takes
// the pictures of the pages in docs/view:
//
//	go test ./internal/browsertest -run TestViewOfRubisOwnRepository -screenshots docs/view
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// NoChromiumEnv opts out of the tests that need Chromium, on a machine
// without it (as RUBI_TEST_NO_NODE does for Node.js).
const NoChromiumEnv = "RUBI_TEST_NO_CHROMIUM"

// chromiumPath is where Debian's chromium package puts the browser.
const chromiumPath = "/usr/bin/chromium"

// wait bounds each step of a page (a load, a wait for its data, a read):
// a page that hangs fails its test within minutes instead of holding
// the package until go test's -timeout. It measures nothing: a drawing
// of 40 modules takes Mermaid some 20 s on two busy cores.
const wait = 2 * time.Minute

// Chromium returns the path of Chromium, or fails the test saying how to
// install it, or skips it when NoChromiumEnv is set to 1.
func Chromium(t testing.TB) string {
	t.Helper()
	if os.Getenv(NoChromiumEnv) == "1" {
		t.Skipf("SKIPPED: %s=1: this test drives pages in Chromium and does not run without it", NoChromiumEnv)
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		path, lerr := exec.LookPath("chromium")
		if lerr != nil {
			t.Fatalf("Chromium is not installed (%v): run make test, or `apt-get install chromium`, or set %s=1 to leave the browser tests out", err, NoChromiumEnv)
		}
		return path
	}
	return chromiumPath
}

// Browser is a headless Chromium that a test started.
type Browser struct {
	ctx context.Context
	dir string
}

// Start launches a headless Chromium for the test and stops it when the
// test ends. The browser keeps its profile, cache and temporary files
// in a temporary folder removed then (its HOME, XDG folders and TMPDIR
// point there), asks nothing of the network by itself (no background
// requests, updates, sync or QUIC) and reaches nothing but the loopback.
func Start(t testing.TB) *Browser {
	t.Helper()
	exe := Chromium(t)
	// The browser's folders, in a temporary folder of their own with a
	// short name rather than the test's (named after the test): Chromium
	// puts a socket in its TMPDIR, and a socket's path has at most 107
	// bytes, which a test's folder under make test's TMPDIR passes.
	dir, err := os.MkdirTemp("", "chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("removing the browser's folder: %v", err)
		}
	})
	for _, d := range []string{"profile", "home", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Every request off the loopback goes to this proxy, which hangs up:
	// a page that asks for anything from outside fails here, whatever
	// network the machine has (and its request is a problem, below).
	// Names and addresses other than localhost and 127.0.0.1 resolve to
	// nothing.
	deadEnd, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deadEnd.Close() })
	go func() {
		for {
			c, err := deadEnd.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(viewportWidth, viewportHeight),
		chromedp.ProxyServer("http://" + deadEnd.Addr().String()),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Env(
			"HOME="+filepath.Join(dir, "home"),
			"TMPDIR="+filepath.Join(dir, "tmp"),
			"XDG_CONFIG_HOME="+filepath.Join(dir, "home", ".config"),
			"XDG_CACHE_HOME="+filepath.Join(dir, "home", ".cache"),
			"XDG_DATA_HOME="+filepath.Join(dir, "home", ".local", "share"),
			"XDG_STATE_HOME="+filepath.Join(dir, "home", ".local", "state"),
		),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	stop := func() {
		cancel()
		cancelAlloc()
		reap(t, filepath.Join(dir, "profile"))
	}
	// The first run starts the browser: with no deadline, since a
	// deadline on it would end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		stop()
		t.Fatalf("starting %s: %v", exe, err)
	}
	t.Cleanup(stop)
	return &Browser{ctx: ctx, dir: dir}
}

// reap ends what is left of the browser started with profile: its
// helper processes (each has the profile on its command line) normally
// end with it; one that has not within a few seconds is killed, by its
// id, and named in the test's log.
func reap(t testing.TB, profile string) {
	want := "--user-data-dir=" + profile
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := processesWith(want)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Logf("killed %d Chromium processes left after the browser stopped: %v", len(left), left)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesWith lists the processes with arg on their command line.
func processesWith(arg string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for a := range strings.SplitSeq(string(cmdline), "\x00") {
			if a == arg {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// Page is one tab of the browser.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu       sync.Mutex
	problems []string
}

// A tab shows 1280x800 pixels of its page.
const viewportWidth, viewportHeight = 1280, 800

// Page opens a new tab, closed when the test ends.
func (b *Browser) Page(t testing.TB) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{t: t, ctx: ctx}
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		cancel()
		t.Fatalf("opening a tab: %v", err)
	}
	t.Cleanup(cancel)
	p.do("sizing the tab", chromedp.EmulateViewport(viewportWidth, viewportHeight))
	return p
}

// listen keeps the page's problems. It runs on the loop that reads the
// browser's messages, so it only records.
func (p *Page) listen(ev any) {
	var problem string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			problem = "console." + string(ev.Type) + ": " + remoteText(ev.Args)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		problem = fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			problem = fmt.Sprintf("browser log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		if !local(ev.Request.URL) {
			problem = "a request off this machine: " + ev.Request.Method + " " + ev.Request.URL
		}
	}
	if problem != "" {
		p.mu.Lock()
		p.problems = append(p.problems, problem)
		p.mu.Unlock()
	}
}

// local reports whether a page's request stays on this machine: to the
// loopback, or a data:, blob: or about: URL.
func local(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return true
	case "http", "https", "ws", "wss":
		if u.Hostname() == "localhost" {
			return true
		}
		ip := net.ParseIP(u.Hostname())
		return ip != nil && ip.IsLoopback()
	}
	return false
}

// remoteText is a console call's arguments as the console shows them.
func remoteText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
				continue
			}
			parts = append(parts, string(a.Value))
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// Problems are the page's console errors, uncaught exceptions, errors
// the browser logged and requests off the machine so far, in order.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// NoProblems fails the test with each of the page's problems.
func (p *Page) NoProblems(t testing.TB) {
	t.Helper()
	for _, pr := range p.Problems() {
		t.Errorf("the page had a problem: %s", pr)
	}
}

// do runs actions on the tab within wait, failing the test on an error.
func (p *Page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v; the page's problems: %q", what, err, p.Problems())
	}
}

// Load navigates to u and waits for its load event.
func (p *Page) Load(u string) {
	p.t.Helper()
	p.do("loading "+u, chromedp.Navigate(u))
}

// Open loads u and waits until the page has shown its data: until its
// body has data-ready="1".
func (p *Page) Open(u string) {
	p.t.Helper()
	p.Load(u)
	p.WaitReady()
}

// WaitReady waits until the page's body has data-ready="1".
func (p *Page) WaitReady() {
	p.t.Helper()
	p.WaitFor(`body[data-ready="1"]`)
}

// WaitFor waits until an element matches the CSS selector.
func (p *Page) WaitFor(sel string) {
	p.t.Helper()
	p.do("waiting for "+sel, chromedp.WaitReady(chromedp.CSS(sel)))
}

// WaitUntil waits until a JavaScript expression is true in the page.
func (p *Page) WaitUntil(expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		p.t.Fatalf("waiting until %s: %v; the page's problems: %q", expr, err, p.Problems())
	}
}

// Click clicks the first element the CSS selector matches, with the
// mouse, as a person does (it is scrolled into view first).
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.do("clicking "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value (JSON) into out; a promise is awaited.
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v; the page's problems: %q", expr, err, p.Problems())
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			p.t.Fatalf("evaluating %s: %v (%s)", expr, err, raw)
		}
	}
}

// Texts is the text of every element the CSS selector matches, in
// document order, as a reader sees it (innerText, trimmed).
func (p *Page) Texts(sel string) []string {
	p.t.Helper()
	var out []string
	p.Eval(fmt.Sprintf(`Array.from(document.querySelectorAll(%s), e => e.innerText.trim())`, jsString(sel)), &out)
	return out
}

// Text is the text of the first element the CSS selector matches, "" if
// none does.
func (p *Page) Text(sel string) string {
	p.t.Helper()
	var out string
	p.Eval(fmt.Sprintf(`(e => e ? e.innerText.trim() : "")(document.querySelector(%s))`, jsString(sel)), &out)
	return out
}

// Attrs is the attribute name of every element the CSS selector matches
// that has it, in document order.
func (p *Page) Attrs(sel, name string) []string {
	p.t.Helper()
	var out []string
	p.Eval(fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).filter(e => e.hasAttribute(%s)).map(e => e.getAttribute(%[2]s))`, jsString(sel), jsString(name)), &out)
	return out
}

// Count is how many elements the CSS selector matches.
func (p *Page) Count(sel string) int {
	p.t.Helper()
	var n int
	p.Eval(fmt.Sprintf(`document.querySelectorAll(%s).length`, jsString(sel)), &n)
	return n
}

// Submit fills the named fields of the form the CSS selector matches
// and submits it as a person would (requestSubmit: the form's own
// handlers run, and a form without one navigates).
func (p *Page) Submit(form string, fields map[string]string) {
	p.t.Helper()
	values, err := json.Marshal(fields)
	if err != nil {
		p.t.Fatal(err)
	}
	var missing []string
	p.Eval(fmt.Sprintf(`(() => {
  const form = document.querySelector(%s);
  if (!form) return ["the form itself"];
  const values = %s, missing = [];
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!field) { missing.push(name); continue; }
    field.value = value;
    field.dispatchEvent(new Event("input", {bubbles: true}));
    field.dispatchEvent(new Event("change", {bubbles: true}));
  }
  if (missing.length === 0) form.requestSubmit();
  return missing;
})()`, jsString(form), values), &missing)
	if len(missing) > 0 {
		p.t.Fatalf("submitting %s: no field %q", form, missing)
	}
}

// Screenshot is the whole page, beyond the window too, as a PNG.
func (p *Page) Screenshot() []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// ScreenshotWindow is what the tab shows (1280x800), as a PNG: the
// first screen a person sees.
func (p *Page) ScreenshotWindow() []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
