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
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi view prints its address with the run's token first, serves the
// project's answers as rubi context gives them, and ends on an
// interrupt (its context cancelled, as Ctrl-C does), its port closed.
func TestViewPrintsItsAddressFirstAndStopsOnInterrupt(t *testing.T) {
	root := rubitest.Project(t, goProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	const q = "where are orders stored in the database"
	code, want, errOut := runRubi(t, "context", "--no-refresh", "--root", root, q)
	if code != 0 {
		t.Fatalf("context: exit %d: %s", code, errOut)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, []string{"view", "--root", root}, strings.NewReader(""), w, &stderr)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no first line: %v; stderr: %s", err, stderr.String())
	}
	m := regexp.MustCompile(`^rubi view: (http://127\.0\.0\.1:[0-9]+)/\?token=([A-Z2-7]{26})\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("first line %q", line)
	}
	go io.Copy(io.Discard, out)
	base, token := m[1], m[2]

	get := func(path, auth string) (int, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/api/notes", ""); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	code, body := get("/api/search?q="+url.QueryEscape(q), token)
	var got struct {
		Answer string `json:"answer"`
	}
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil {
		t.Fatalf("/api/search: %d %v %s", code, err, body)
	}
	if got.Answer != want {
		t.Errorf("the view's answer:\n%s\nrubi context's:\n%s", got.Answer, want)
	}

	cancel()
	if code := <-exit; code != 0 {
		t.Errorf("exit %d after the interrupt: %s", code, stderr.String())
	}
	http.DefaultClient.CloseIdleConnections()
	if conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://")); err == nil {
		conn.Close()
		t.Error("the port still accepts connections")
	}
}

// The view is never served to the network.
func TestViewRefusesAnAddressOffLoopback(t *testing.T) {
	root := rubitest.Project(t, goProject)
	for _, addr := range []string{"0.0.0.0:0", "192.168.1.4:8080", "[::]:0"} {
		code, out, errOut := runRubi(t, "view", "--root", root, "--addr", addr)
		if code != 1 || out != "" || !strings.Contains(errOut, "the view serves this machine only; give a loopback address") {
			t.Errorf("--addr %s: exit %d, stdout %q, stderr %q", addr, code, out, errOut)
		}
	}
}
