package connect

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The agents' own CLIs, pinned in package.json and package-lock.json files and installed by
// `npm ci` (make test does it), read what `rubi connect` writes.
const (
	codexCLIDir  = "testdata/codex"
	geminiCLIDir = "testdata/gemini"
)

// npmCLI returns the path of an npm-installed CLI, or skips the test
// without Node.js (RUBI_TEST_NO_NODE=1) and fails with the way to install
// it otherwise.
func npmCLI(t *testing.T, dir, name string) string {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the real %s CLI is not run", noNodeEnv, name)
	}
	path, err := filepath.Abs(filepath.Join(dir, "node_modules", ".bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		install := "npm ci"
		if dir == opencodeCLIDir {
			install = opencodeInstall
		}
		t.Fatalf("%s is not installed: run `(cd agent/connect/%s && %s)` (make test does), or set %s=1 to leave this test out", name, dir, install, noNodeEnv)
	}
	return path
}

// cliSandbox builds rubi into a directory on PATH and makes a home and a
// project (a git repository) to run the agents in.
type cliSandbox struct {
	bin, home, project string
}

func newCLISandbox(t *testing.T) cliSandbox {
	t.Helper()
	s := cliSandbox{bin: t.TempDir(), home: t.TempDir(), project: t.TempDir()}
	// rubi mcp runs the rubi-mcp beside it.
	if out, err := exec.Command("go", "build", "-o", s.bin, "github.com/rubi-dev/rubi/cmd/rubi", "github.com/rubi-dev/rubi/cmd/rubi-mcp").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/rubi ./cmd/rubi-mcp: %v\n%s", err, out)
	}
	os.MkdirAll(filepath.Join(s.project, ".git"), 0o755)
	os.WriteFile(filepath.Join(s.project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	return s
}

// run runs a program in the project with the sandbox's home and PATH; it
// returns the combined output and fails the test on an exit status other
// than 0 unless mayFail.
func (s cliSandbox) run(t *testing.T, mayFail bool, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = s.project
	var env []string
	for _, kv := range cleanEnv() {
		if n, _, _ := strings.Cut(kv, "="); n == "CODEX_HOME" || strings.HasPrefix(n, "GEMINI_") || n == "GOOGLE_API_KEY" {
			continue
		}
		env = append(env, kv)
	}
	// TMPDIR: the CLIs and Node keep caches in the temporary folder
	// (opencode, node-compile-cache); the test's own is removed after it.
	cmd.Env = append(env, "HOME="+s.home, "TMPDIR="+t.TempDir(), "PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil && !mayFail {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s cliSandbox) write(t *testing.T, path, data string) {
	t.Helper()
	writeFile(t, filepath.Join(s.home, path), []byte(data))
}

// Codex 0.169 reads the table rubi appends to a config.toml full of the
// user's settings and comments: `codex mcp list` lists it beside the
// user's server, `codex mcp get rubi --json` has its command, args and
// startup timeout, and after the undo Codex lists the user's server alone.
// (`codex mcp list` reads ~/.codex only, so the global scope is the one
// it can check.)
func TestCodexReadsTheConnect(t *testing.T) {
	codex := npmCLI(t, codexCLIDir, "codex")
	s := newCLISandbox(t)
	s.write(t, ".codex/config.toml", "# mine\nmodel = \"o3\" # the good one\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n\n[profiles.fast]\nmodel = \"o4-mini\"\n")
	rubi := filepath.Join(s.bin, "rubi")
	s.run(t, false, rubi, "connect", "codex", "--global")
	list := s.run(t, false, codex, "mcp", "list")
	for _, want := range []string{"docs", "rubi"} {
		if !strings.Contains(list, "\n"+want+" ") {
			t.Errorf("codex mcp list does not list %s:\n%s", want, list)
		}
	}
	got := s.run(t, false, codex, "mcp", "get", "rubi", "--json")
	var srv struct {
		Enabled   bool `json:"enabled"`
		Transport struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"transport"`
		StartupTimeout float64 `json:"startup_timeout_sec"`
	}
	if err := json.Unmarshal([]byte(got[strings.Index(got, "{"):strings.LastIndex(got, "}")+1]), &srv); err != nil {
		t.Fatalf("codex mcp get rubi --json: %v\n%s", err, got)
	}
	if !srv.Enabled || srv.Transport.Type != "stdio" || srv.Transport.Command != "rubi" || strings.Join(srv.Transport.Args, " ") != "mcp" || srv.StartupTimeout != 30 {
		t.Errorf("codex mcp get rubi: %+v\n%s", srv, got)
	}
	if out := s.run(t, false, rubi, "connect", "codex", "--global"); !strings.HasPrefix(out, "nothing to change") {
		t.Errorf("a second connect after Codex read the file:\n%s", out)
	}
	s.run(t, false, rubi, "connect", "codex", "--global", "--undo")
	list = s.run(t, false, codex, "mcp", "list")
	if !strings.Contains(list, "\ndocs ") || strings.Contains(list, "\nrubi ") {
		t.Errorf("after the undo, codex mcp list:\n%s", list)
	}
	if out := s.run(t, true, codex, "mcp", "get", "rubi"); !strings.Contains(out, "No MCP server named 'rubi'") && !strings.Contains(strings.ToLower(out), "not found") {
		t.Logf("codex mcp get rubi after the undo:\n%s", out)
	}
}

// Gemini CLI 0.61 starts the server rubi registers and reports it
// connected, in a trusted project (a project's settings.json with the
// user's comments and another server) and in the user's
// settings; after the undo it lists only the user's server.
func TestGeminiReadsTheConnect(t *testing.T) {
	gemini := npmCLI(t, geminiCLIDir, "gemini")
	for _, scope := range []string{"--project", "--global"} {
		t.Run(scope, func(t *testing.T) {
			s := newCLISandbox(t)
			settings := filepath.Join(s.project, ".gemini", "settings.json")
			if scope == "--global" {
				settings = filepath.Join(s.home, ".gemini", "settings.json")
			}
			// Gemini CLI reads comments but not trailing commas.
			writeFile(t, settings, []byte("{\n  // mine\n  \"mcpServers\": {\n    \"other\": {\"command\": \"definitely-not-installed-mcp\"} // off\n  },\n  \"ui\": {\"theme\": \"GitHub\"}\n}\n"))
			// Gemini CLI starts no project server in a folder not trusted.
			trust, _ := json.Marshal(map[string]string{s.project: "TRUST_FOLDER"})
			s.write(t, ".gemini/trustedFolders.json", string(trust))
			rubi := filepath.Join(s.bin, "rubi")
			s.run(t, false, rubi, "connect", "gemini", scope)
			list := s.run(t, false, gemini, "mcp", "list")
			if !strings.Contains(list, "rubi: rubi mcp (stdio) - Connected") {
				t.Errorf("gemini mcp list does not show rubi connected:\n%s", list)
			}
			if !strings.Contains(list, "other: definitely-not-installed-mcp") {
				t.Errorf("gemini mcp list lost the user's server:\n%s", list)
			}
			if out := s.run(t, false, rubi, "connect", "gemini", scope); !strings.HasPrefix(out, "nothing to change") {
				t.Errorf("a second connect after Gemini CLI ran:\n%s", out)
			}
			s.run(t, false, rubi, "connect", "gemini", scope, "--undo")
			if list := s.run(t, false, gemini, "mcp", "list"); strings.Contains(list, "rubi:") || !strings.Contains(list, "other:") {
				t.Errorf("after the undo, gemini mcp list:\n%s", list)
			}
		})
	}
}

// opencodeCLIDir holds the real OpenCode CLI. Its package pins its
// platform binaries exactly (opencode-linux-x64 1.18.33 …), but a lock file
// cannot be written where the registry serves only some of them, so it is
// installed without one: opencodeInstall.
const (
	opencodeCLIDir  = "testdata/opencode"
	opencodeInstall = "npm install --no-package-lock"
)

// ansi matches terminal colour codes, which opencode prints even to a
// pipe.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// OpenCode 1.18 starts the server rubi registers in either shape: v1's
// mcp.rubi in a new opencode.json, and v2's mcp.servers.rubi beside the
// user's server in an opencode.jsonc with comments and trailing commas.
func TestOpenCodeReadsTheConnect(t *testing.T) {
	opencode := npmCLI(t, opencodeCLIDir, "opencode")
	for _, tt := range []struct{ name, file, before string }{
		{"v1", "opencode.json", ""},
		{"v2", "opencode.jsonc", "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  // mine\n  \"mcp\": {\n    \"servers\": {\n      \"other\": {\"type\": \"local\", \"command\": [\"definitely-not-installed-mcp\"]},\n    },\n  },\n}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newCLISandbox(t)
			if tt.before != "" {
				writeFile(t, filepath.Join(s.project, tt.file), []byte(tt.before))
			}
			rubi := filepath.Join(s.bin, "rubi")
			s.run(t, false, rubi, "connect", "opencode")
			data, _ := os.ReadFile(filepath.Join(s.project, tt.file))
			if want := map[string]string{"v1": `"rubi": {`, "v2": `"servers": {`}[tt.name]; !strings.Contains(string(data), want) {
				t.Fatalf("%s:\n%s", tt.file, data)
			}
			list := ansi.ReplaceAllString(s.run(t, false, opencode, "mcp", "list"), "")
			if !regexp.MustCompile(`✓ rubi\s+connected`).MatchString(list) {
				t.Errorf("opencode mcp list does not show rubi connected:\n%s", list)
			}
			if tt.before != "" && !strings.Contains(list, "other") {
				t.Errorf("opencode mcp list lost the user's server:\n%s", list)
			}
			s.run(t, false, rubi, "connect", "opencode", "--undo")
			if list := ansi.ReplaceAllString(s.run(t, true, opencode, "mcp", "list"), ""); strings.Contains(list, "rubi") {
				t.Errorf("after the undo, opencode mcp list:\n%s", list)
			}
		})
	}
}

// continueCLIDir holds the real Continue CLI (cn), pinned like the others.
const continueCLIDir = "testdata/continue"

// mockChat is an OpenAI-compatible chat completions API that answers
// "Done." and keeps the request bodies.
func mockChat(t *testing.T) (url string, bodies func() []string) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost {
			w.Write([]byte(`{"data":[]}`))
			return
		}
		mu.Lock()
		got = append(got, string(body))
		mu.Unlock()
		var req struct {
			Stream bool `json:"stream"`
		}
		json.Unmarshal(body, &req)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"x","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":"Done."},"finish_reason":null}]}`+"\n\n")
		io.WriteString(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// The Continue CLI 1.5 (cn) runs with what rubi connect continue wrote,
// against a mock chat API: the project's rule reaches the model, and
// rubi's server, which rubi connect continue --global added to the user's
// config.yaml (comments and all), is started: the model is offered its
// tools. A second connect then changes nothing, and the undo gives the
// file back. (cn reads MCP servers from its configuration only; the
// editor extension also reads the project's .continue/mcpServers/, which
// no CLI checks here.)
func TestContinueReadsTheConnect(t *testing.T) {
	cn := npmCLI(t, continueCLIDir, "cn")
	s := newCLISandbox(t)
	url, bodies := mockChat(t)
	config := "# mine\nname: test\nversion: 0.0.1\nschema: v1\n\nmodels:\n  - name: mock   # the mock API\n    provider: openai\n    model: gpt-4o\n    apiBase: " + url + "/v1\n    apiKey: dummy\n    roles: [chat]\n\n# no servers yet\n"
	s.write(t, ".continue/config.yaml", config)
	rubi := filepath.Join(s.bin, "rubi")
	s.run(t, false, rubi, "connect", "continue")
	s.run(t, false, rubi, "connect", "continue", "--global")
	path := filepath.Join(s.home, ".continue", "config.yaml")
	after, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(after), config) || !strings.Contains(string(after), "mcpServers:") {
		t.Fatalf("rubi connect continue --global did not add its server after the user's lines:\n%s", after)
	}
	s.run(t, false, cn, "-p", "hello", "--auto", "--config", path)
	got := bodies()
	if len(got) == 0 {
		t.Fatal("cn sent the mock nothing")
	}
	var req struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	json.Unmarshal([]byte(got[0]), &req)
	var names []string
	for _, tool := range req.Tools {
		names = append(names, tool.Function.Name)
	}
	for _, want := range []string{"context", "read", "register"} {
		if !slices.Contains(names, want) {
			t.Errorf("the model is not offered rubi's %s tool: %v", want, names)
		}
	}
	if !strings.Contains(got[0], "rubi: this project's memory") {
		t.Error("the model did not get rubi's rule from .continue/rules/rubi.md")
	}
	if out := s.run(t, false, rubi, "connect", "continue", "--global"); out != "nothing to change\n" {
		t.Errorf("after cn ran, rubi connect continue --global:\n%s", out)
	}
	s.run(t, false, rubi, "connect", "continue", "--global", "--undo")
	if undone, _ := os.ReadFile(path); string(undone) != config {
		t.Errorf("after the undo, config.yaml:\n%s\nwant:\n%s", undone, config)
	}
}
