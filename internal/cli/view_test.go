package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi view prints its address with the run's token first, serves the
// project's answers as rubi context gives them, and ends on an
// interrupt (its context cancelled, as Ctrl-C does), its port closed.
func TestViewPrintsItsAddressFirstAndStopsOnInterrupt(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	const q = "where are orders stored in the database"
	code, want, errOut := runRubi(t, "context", "--no-refresh", "--root", root, q)
	if code != 0 {
		t.Fatalf("context: exit %d: %s", code, errOut)
	}

	v := startView(t, "view", "--root", root)
	get := v.get
	if code, _ := get("/api/notes", ""); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	code, body := get("/api/search?q="+url.QueryEscape(q), v.token)
	var got struct {
		Answer string `json:"answer"`
	}
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil {
		t.Fatalf("/api/search: %d %v %s", code, err, body)
	}
	if got.Answer != want {
		t.Errorf("the view's answer:\n%s\nrubi context's:\n%s", got.Answer, want)
	}

	v.stop()
}

// viewRun is a rubi view running in-process.
type viewRun struct {
	t           *testing.T
	base, token string
	cancel      func()
	exit        chan int
	stderr      *lockedBuffer
}

// lockedBuffer is a bytes.Buffer a command writes while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startView runs rubi with args (a view command line) until the test
// stops it, and reads the address and token its first line gives.
func startView(t *testing.T, args ...string) *viewRun {
	t.Helper()
	v, code := tryView(t, args...)
	if v == nil {
		t.Fatalf("rubi %s: exit %d without its address", strings.Join(args, " "), code)
	}
	return v
}

// tryView is startView for a view that may not start: nil and the exit
// status when rubi ended without printing a line (its error on stderr).
func tryView(t *testing.T, args ...string) (*viewRun, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	v := &viewRun{t: t, cancel: cancel, exit: make(chan int, 1), stderr: &lockedBuffer{}}
	go func() {
		v.exit <- run(ctx, args, strings.NewReader(""), w, v.stderr)
		w.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-v.exit
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil && line == "" {
		code := <-v.exit
		v.exit <- code
		if strings.TrimSpace(v.stderr.String()) == "" {
			t.Errorf("rubi %s: exit %d without a message", strings.Join(args, " "), code)
		}
		return nil, code
	}
	m := regexp.MustCompile(`^rubi view: (http://127\.0\.0\.1:[0-9]+)/\?token=([A-Z2-7]{26})\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q", line)
	}
	go io.Copy(io.Discard, out)
	v.base, v.token = m[1], m[2]
	return v, 0
}

// get requests path with the token auth ("": none), and returns the
// status and body.
func (v *viewRun) get(path, auth string) (int, string) {
	v.t.Helper()
	req, err := http.NewRequest("GET", v.base+path, nil)
	if err != nil {
		v.t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// stop interrupts the view (Ctrl-C cancels the command's context): it
// ends with status 0, its port closed.
func (v *viewRun) stop() {
	v.t.Helper()
	v.cancel()
	if code := <-v.exit; code != 0 {
		v.t.Errorf("exit %d after the interrupt: %s", code, v.stderr)
	}
	v.exit <- 0
	http.DefaultClient.CloseIdleConnections()
	if conn, err := net.Dial("tcp", strings.TrimPrefix(v.base, "http://")); err == nil {
		conn.Close()
		v.t.Error("the port still accepts connections")
	}
}

// The view is never served to the network.
func TestViewRefusesAnAddressOffLoopback(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	for _, addr := range []string{"0.0.0.0:0", "192.168.1.4:8080", "[::]:0"} {
		code, out, errOut := runRubi(t, "view", "--root", root, "--addr", addr)
		if code != 1 || out != "" || !strings.Contains(errOut, "the view serves this machine only; give a loopback address") {
			t.Errorf("--addr %s: exit %d, stdout %q, stderr %q", addr, code, out, errOut)
		}
	}
}
