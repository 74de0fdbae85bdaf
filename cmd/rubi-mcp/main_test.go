package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/rubi-dev/rubi/agent/mcpserver"
	"github.com/rubi-dev/rubi/core/subprocess"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestMain(m *testing.M) { os.Exit(rubitest.Main(m)) }

// run is rubi-mcp's program, as its main runs it: with core/subprocess's
// Launcher.
var run = command(subprocess.Launcher{})

// runMCP runs rubi-mcp with args in-process and returns its exit status
// and output, as a user would see them.
func runMCP(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

var goProject = map[string]string{
	"go.mod":           "module example.com/app\n\ngo 1.22\n",
	"main.go":          "package main\n\nimport \"example.com/app/store\"\n\nfunc main() { store.Open(\"db\") }\n",
	"store/store.go":   "// Package store keeps orders in a database.\npackage store\n\n// Open connects to the order database.\nfunc Open(dsn string) error { return nil }\n",
	"store/migrate.go": "package store\n\n// Migrate upgrades the database schema.\nfunc Migrate() error { return nil }\n",
}

func TestMCPCost(t *testing.T) {
	code, out, errOut := runMCP(t, "--cost")
	if code != 0 || !regexp.MustCompile(`^fixed cost: ~\d+ tokens in every message \(limit 1000\), in English\n  instructions +\d+\n  context +\d+\n`).MatchString(out) {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"--cost", "--json"}, {"--cost", "--json", "--http", "8765"}} {
		code, out, _ = runMCP(t, args...)
		var c struct {
			Instructions int `json:"instructions"`
			Tools        []struct {
				Name   string `json:"name"`
				Tokens int    `json:"tokens"`
			} `json:"tools"`
			Total int `json:"total"`
			Limit int `json:"limit"`
		}
		if err := json.Unmarshal([]byte(out), &c); err != nil || code != 0 {
			t.Fatalf("%v exit %d: %v\n%s", args, code, err, out)
		}
		sum := c.Instructions
		for _, tool := range c.Tools {
			sum += tool.Tokens
		}
		if sum != c.Total || c.Total > c.Limit || c.Limit != 1000 || len(c.Tools) != 4 {
			t.Errorf("%v: %+v", args, c)
		}
	}
}

// costOf runs rubi with args and decodes its --cost --json answer.
func costOf(t *testing.T, args ...string) (code int, tools map[string]int, total int, errOut string) {
	t.Helper()
	code, out, errOut := runMCP(t, append(args, "--cost", "--json")...)
	var c struct {
		Tools []struct {
			Name   string `json:"name"`
			Tokens int    `json:"tokens"`
		} `json:"tools"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v: %v\n%s%s", args, err, out, errOut)
	}
	tools = map[string]int{}
	for _, tool := range c.Tools {
		tools[tool.Name] = tool.Tokens
	}
	return code, tools, c.Total, errOut
}

func TestMCPXrayIsOptIn(t *testing.T) {
	_, tools, total, _ := costOf(t)
	code, withTools, withTotal, errOut := costOf(t, "--xray")
	// The option adds memory's action xray: memory grows, nothing else.
	xray := withTools["memory"] - tools["memory"]
	if _, ok := withTools["xray"]; ok || code != 0 || xray <= 0 || withTotal != total+xray || withTotal > 1000 {
		t.Errorf("--xray over stdio: exit %d, %d tokens (%d without): %v\n%s", code, withTotal, total, withTools, errOut)
	}
	// --xray's help says what it costs.
	_, help, _ := runMCP(t, "--help")
	if want := fmt.Sprintf("also offer memory's action xray (adds ~%d tokens to every message)", xray); !strings.Contains(help, want) {
		t.Errorf("rubi-mcp --help lacks %q (update xrayTokens in serve.go):\n%s", want, help)
	}
	// Over HTTP too it stays within the limit.
	_, _, httpTotal, _ := costOf(t, "--http", "8765")
	code, _, withTotal, errOut = costOf(t, "--http", "8765", "--xray")
	if code != 0 || withTotal <= httpTotal || withTotal > 1000 {
		t.Errorf("--xray over HTTP: exit %d, %d tokens (%d without): %s", code, withTotal, httpTotal, errOut)
	}
}

func TestMCPRefusesAnExposedServerWithoutToken(t *testing.T) {
	t.Setenv("RUBI_MCP_TOKEN", "")
	code, _, errOut := runMCP(t, "--http", "0.0.0.0:0")
	if code != 1 || !strings.Contains(errOut, "set a bearer token with --token or RUBI_MCP_TOKEN") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	t.Setenv("RUBI_PROJECT_DIR", "/no/such/dir")
	code, _, errOut = runMCP(t)
	if code != 1 || !strings.Contains(errOut, "RUBI_PROJECT_DIR /no/such/dir: not a directory") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// On stdio, standard output carries protocol messages and nothing else.
func TestMCPStdio(t *testing.T) {
	root := rubitest.Project(t, goProject)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read","arguments":{"target":"map"}}}`,
	}, "\n") + "\n"
	out, errOut := session(t, in, 2, "--root", root, "--log-level", "debug")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout:\n%s", out)
	}
	for _, l := range lines {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
			ID      int    `json:"id"`
			Result  struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("not a protocol message on stdout: %s", l)
		}
		if msg.ID == 2 && (msg.Result.IsError || len(msg.Result.Content) == 0 || !strings.Contains(msg.Result.Content[0].Text, "store")) {
			t.Errorf("map: %s", l)
		}
	}
	if !strings.Contains(errOut, "project opened") {
		t.Errorf("logs are not on stderr:\n%s", errOut)
	}
}

// rubi-mcp --xray answers the xray tool from the agents' logs.
func TestMCPXrayOverStdio(t *testing.T) {
	rubitest.AgentHomes(t, time.Now())
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory","arguments":{"action":"xray","since":"all"}}}`,
	}, "\n") + "\n"
	out, _ := session(t, in, 2, "--xray", "--root", t.TempDir())
	type response struct {
		ID     int `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	// The server may answer requests in any order: find the tool call's.
	var msg *response
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r response
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON-RPC: %q: %v", line, err)
		}
		if r.ID == 2 {
			msg = &r
		}
	}
	if msg == nil || msg.Result.IsError || len(msg.Result.Content) == 0 ||
		!strings.HasPrefix(msg.Result.Content[0].Text, "rubi xray, every log: 2 sessions in 2 projects (claude-code 1, codex 1), 4 API calls.") {
		t.Errorf("xray:\n%s", out)
	}
}

// session serves one stdio session with args: it writes in, waits for
// answers lines on standard output, then ends the session and returns
// what the server wrote. Like a real client, it keeps standard input open
// until the answers are in: closing it ends the session and cancels the
// calls under way.
func session(t *testing.T, in string, answers int, args ...string) (stdout, stderr string) {
	t.Helper()
	stdin, w := io.Pipe()
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), args, stdin, &out, &errOut)
	}()
	io.WriteString(w, in)
	for deadline := time.Now().Add(30 * time.Second); strings.Count(out.String(), "\n") < answers && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	w.Close()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	return out.String(), errOut.String()
}

// lockedBuffer is a writer the test reads while rubi writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// rubi-mcp --http serves until its context ends (SIGINT or SIGTERM in
// main), then stops cleanly. Started without a token, it makes one for the
// run, prints it and keeps it in a file of the user's alone (outside the
// project), which it removes when it stops: any local user reaches a
// loopback port, and a request without the token is refused.
func TestMCPHTTPStopsOnSignal(t *testing.T) {
	root := rubitest.Project(t, goProject)
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("RUBI_MCP_TOKEN", "")
	t.Setenv("LC_ALL", "en_US.UTF-8")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--http", "127.0.0.1:0", "--root", root}, strings.NewReader(""), &out, &errOut)
	}()

	addr := regexp.MustCompile(`serving (http://\S+:(\d+)/mcp)`)
	var url, port string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(errOut.String()); m != nil {
			url, port = m[1], m[2]
		}
	}
	if url == "" {
		t.Fatalf("no address printed:\n%s", errOut.String())
	}
	tokenFile := filepath.Join(state, "rubi", "mcp-"+port+".token")
	data, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatalf("no token file: %v\n%s", err, errOut.String())
	}
	token := strings.TrimSpace(string(data))
	if fi, err := os.Stat(tokenFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the token file's mode: %v %v, want 0600", fi.Mode(), err)
	}
	if len(token) < mcpserver.MinTokenLength || !strings.Contains(errOut.String(), "Authorization: Bearer "+token) || !strings.Contains(errOut.String(), tokenFile) {
		t.Errorf("the token %q is not printed with its file %s:\n%s", token, tokenFile, errOut.String())
	}
	initialize := func(token string) int {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := initialize(""); got != http.StatusUnauthorized {
		t.Errorf("initialize over loopback without the token: status %d, want 401", got)
	}
	if got := initialize(token); got != http.StatusOK {
		t.Fatalf("initialize with the token: status %d", got)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 || out.String() != "" {
			t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out.String(), errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("rubi mcp --http did not stop")
	}
	if _, err := os.Stat(tokenFile); !os.IsNotExist(err) {
		t.Errorf("the token file outlived the server: %v", err)
	}
}

// The agent configurations in examples/agents start a command line rubi
// accepts: rubi mcp, and then arguments rubi-mcp accepts.
func TestAgentExamples(t *testing.T) {
	type server struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	dir := filepath.Join("..", "..", "examples", "agents")
	got := map[string]server{}
	for _, f := range []struct{ path, key string }{
		{"claude-code/.mcp.json", "mcpServers"},
		{"gemini-cli/.gemini/settings.json", "mcpServers"},
		{"vscode/.vscode/mcp.json", "servers"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, f.path))
		if err != nil {
			t.Fatal(err)
		}
		var file map[string]map[string]server
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		got[f.path] = file[f.key]["rubi"]
	}
	var codex struct {
		MCPServers map[string]server `toml:"mcp_servers"`
	}
	if _, err := toml.DecodeFile(filepath.Join(dir, "codex/.codex/config.toml"), &codex); err != nil {
		t.Fatal(err)
	}
	got["codex/.codex/config.toml"] = codex.MCPServers["rubi"]
	for path, s := range got {
		if s.Command != "rubi" || len(s.Args) == 0 || s.Args[0] != "mcp" || (s.Type != "" && s.Type != "stdio") {
			t.Errorf("%s: %+v", path, s)
			continue
		}
		// rubi mcp ARGS runs rubi-mcp ARGS.
		if code, _, errOut := runMCP(t, append(s.Args[1:], "--cost")...); code != 0 {
			t.Errorf("%s: rubi %v: exit %d: %s", path, s.Args, code, errOut)
		}
	}
	if got["vscode/.vscode/mcp.json"].Env["RUBI_PROJECT_DIR"] != "${workspaceFolder}" {
		t.Errorf("VS Code: %+v", got["vscode/.vscode/mcp.json"])
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil || !strings.Contains(string(readme), "claude mcp add rubi -- rubi mcp") {
		t.Errorf("examples/agents/README.md: %v", err)
	}
}

// rubi-mcp --vault DIR serves the vault alone: a note registered lands in
// DIR/personal/knowledge/ whatever the working directory and
// RUBI_PROJECT_DIR say; a manifest placeholder its host left unreplaced is
// the configured vault (RUBI_VAULT here); --vault with --http, --root or
// --allow is refused.
func TestMCPVault(t *testing.T) {
	project := rubitest.Project(t, goProject)
	t.Setenv("RUBI_PROJECT_DIR", project)
	t.Chdir(project)
	register := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"register","arguments":{"nodes":[{"type":"preference","title":"I like practical examples"}]}}}` + "\n"
	const file = "personal/knowledge/preference-i-like-practical-examples.md"

	vault := filepath.Join(t.TempDir(), "Rubi")
	out, errOut := session(t, register, 2, "--vault", vault)
	if !strings.Contains(out, "created: preference-i-like-practical-examples ("+file+")") {
		t.Errorf("register:\n%s\n%s", out, errOut)
	}
	if _, err := os.Stat(filepath.Join(vault, file)); err != nil {
		t.Error(err)
	}

	configured := os.Getenv("RUBI_VAULT")
	out, _ = session(t, register, 2, "--vault", "${user_config.vault}")
	if _, err := os.Stat(filepath.Join(configured, file)); err != nil {
		t.Errorf("the unreplaced placeholder is not the configured vault: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(project, ".rubi")); !os.IsNotExist(err) {
		t.Errorf("the project was written into: %v", err)
	}

	for _, args := range [][]string{
		{"--vault", vault, "--http", "127.0.0.1:0"},
		{"--vault", vault, "--root", project},
		{"--vault", vault, "--allow", project},
	} {
		code, _, errOut := runMCP(t, args...)
		if code != 1 || !strings.Contains(errOut, "--vault") || !strings.Contains(errOut, "leave out "+args[2]) {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}

// The server speaks the language of the project's rubi.hcl, else of the
// locale: --cost measures and says it.
func TestMCPLanguage(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("LANG", "ja_JP.UTF-8")
	code, out, errOut := runMCP(t, "--cost")
	if code != 0 || !strings.HasPrefix(out, "固定コスト(日本語): メッセージごとに約") {
		t.Errorf("LANG=ja_JP.UTF-8: exit %d: %s%s", code, out, errOut)
	}
	root := rubitest.Project(t, goProject)
	if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte("language = \"fr\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runMCP(t, "--root", root, "--cost", "--json")
	var c struct {
		Language string `json:"language"`
		Total    int    `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != 0 || c.Language != "fr" || c.Total > 1200 {
		t.Errorf("language = \"fr\" in rubi.hcl under a Japanese locale: exit %d, %+v %v\n%s%s", code, c, err, out, errOut)
	}
	// LC_ALL wins over LANG; C is English.
	t.Setenv("LC_ALL", "C")
	if _, out, _ := runMCP(t, "--cost"); !strings.HasPrefix(out, "fixed cost: ") {
		t.Errorf("LC_ALL=C: %s", out)
	}
}

// A flag not understood is said in rubi's words; over stdio at a
// terminal the server says what it reads instead of waiting.
func TestMCPFlagErrorAndTerminal(t *testing.T) {
	code, out, errOut := runMCP(t, "--htp", "8765")
	if want := "rubi mcp: unknown flag --htp; did you mean --http?\n"; code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, out, errOut, want)
	}
	t.Chdir(rubitest.Project(t, goProject))
	var outb, errb bytes.Buffer
	code = run(context.Background(), nil, rubitest.Terminal{}, &outb, &errb)
	want := "rubi mcp: the MCP server reads an agent's JSON-RPC messages on standard input, which is a terminal: an agent starts it and pipes them in (claude mcp add rubi -- rubi mcp; rubi connect sets up the others), or serve HTTP: rubi mcp --http 8765\n"
	if code != 2 || outb.String() != "" || errb.String() != want {
		t.Errorf("at a terminal: exit %d, stdout %q, stderr %q, want %q", code, outb.String(), errb.String(), want)
	}
}
