//go:build unix

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codexDir holds the pinned Codex CLI (package.json, npm ci).
const codexDir = "agent/connect/testdata/codex"

// codexCLI returns the real Codex CLI installed by npm ci, or fails the
// test saying how to install it.
func codexCLI(t *testing.T) string {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the Codex CLI is not run", noNodeEnv)
	}
	bin := filepath.Join(repoRoot, codexDir, "node_modules", ".bin", "codex")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the Codex CLI is not installed: run `(cd %s && npm ci)` (make test does), or set %s=1 to leave this test out", codexDir, noNodeEnv)
	}
	return bin
}

// codexConfig is $CODEX_HOME/config.toml: the mock as the model provider,
// then rubi's example configuration (rubi mcp), then what keeps Codex
// 0.169.0 off the network: the curated plugins' sync (GitHub,
// chatgpt.com), the metrics export (ab.chatgpt.com), update checks and
// the background daemon.
func codexConfig(t *testing.T, apiURL string) string {
	t.Helper()
	example, err := os.ReadFile(filepath.Join(repoRoot, "examples/agents/codex/.codex/config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`model = "gpt-5"
model_provider = "mock"

%s
[model_providers.mock]
name = "mock"
base_url = "%s/v1"
wire_api = "responses"

[features]
plugins = false
remote_plugin = false
apps = false
in_app_updates = false
daemon_auto_start = false

[analytics]
enabled = false
`, example, apiURL)
}

// codexSession runs codex exec in a project against the mock Responses
// API, with rubi's example hooks.json in a throwaway CODEX_HOME.
type codexSession struct {
	codex   string
	api     *mockResponses
	project string
	env     []string
	marker  string
}

func newCodexSession(t *testing.T, codex string, api *mockResponses, project string, rubiEnv []string) *codexSession {
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	hooks, err := os.ReadFile(filepath.Join(repoRoot, "examples/agents/codex/.codex/hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, codexHome, map[string]string{
		"config.toml": codexConfig(t, api.URL),
		"hooks.json":  string(hooks),
	})
	marker := "RUBI_E2E_RUN=" + home
	env := []string{
		"PATH=" + rubiBinDir(t) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"CODEX_HOME=" + codexHome,
		"LANG=C.UTF-8",
		"SHELL=/bin/bash",
		"TMPDIR=" + t.TempDir(),
		"HTTPS_PROXY=" + api.URL, "HTTP_PROXY=" + api.URL, "NO_PROXY=127.0.0.1",
		marker,
	}
	return &codexSession{codex: codex, api: api, project: project, env: append(env, rubiEnv...), marker: marker}
}

// codexRun is what one codex exec run printed and sent.
type codexRun struct {
	prompt   string
	out      string
	requests []responsesRequest
}

// run runs codex exec with prompt, checks that it succeeded and that
// nothing it started outlives it. Hooks need --dangerously-bypass-hook-trust
// in exec mode; the sandbox is off (the mock only asks for cat), so that
// the test does not depend on the machine allowing bubblewrap.
func (s *codexSession) run(t *testing.T, prompt string) codexRun {
	t.Helper()
	before := len(s.api.Requests())
	stdout, stderr := runAgent(t, s.project, s.env, s.marker, s.codex, "exec", "--strict-config", "--dangerously-bypass-hook-trust",
		"--sandbox", "danger-full-access", "--color", "never", prompt)
	res := codexRun{prompt: prompt, out: stdout, requests: s.api.Requests()[before:]}
	if len(res.requests) == 0 {
		t.Fatalf("codex exec %q sent the model nothing; it printed:\n%s%s", prompt, stdout, stderr)
	}
	return res
}

// developer is the text of every developer message of the run's first
// request: Codex hands hooks' additionalContext to the model that way.
func (r codexRun) developer() string {
	return strings.Join(r.requests[0].Messages("developer"), "\n\n")
}

// The model is a script: asked for the tariff table, it cats the file,
// twice whatever the answer, then says done; otherwise one line.
func codexScript(r responsesRequest) reply {
	if !strings.Contains(r.Prompt(), "tariff table") {
		return reply{Text: "Noted."}
	}
	if len(r.Outputs()) < 2 {
		return reply{ToolName: "exec_command", ToolInput: map[string]any{"cmd": "cat " + bigFile}}
	}
	return reply{Text: "Done reading."}
}

// TestCodexHooks runs the real Codex CLI with rubi's example hooks.json
// (and rubi mcp from the example config.toml) in the fixture project and
// checks what rubi's hooks put in front of the model.
func TestCodexHooks(t *testing.T) {
	codex := codexCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	api := newMockResponses(t, codexScript)
	s := newCodexSession(t, codex, api, project, env)
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(project, ".rubi", "hooks.log"))
			t.Logf(".rubi/hooks.log:\n%s", log)
		}
	})

	matching := s.run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")
	unrelated := s.run(t, "Write a haiku about autumn leaves falling on a quiet pond.")

	t.Run("session start map", func(t *testing.T) {
		for _, r := range []codexRun{matching, unrelated} {
			got := r.developer()
			for _, want := range []string{"rubi: the project map", "cart/cart.go", "checkout/checkout.go", centsTitle} {
				if !strings.Contains(got, want) {
					t.Errorf("%q: the model's developer messages lack %q:\n%s", r.prompt, want, excerpt(got, "rubi", 1500))
				}
			}
		}
	})

	t.Run("recall on a matching prompt", func(t *testing.T) {
		got := matching.developer()
		if !strings.Contains(got, "rubi recall") || !strings.Contains(got, couponTitle) {
			t.Errorf("the prompt about coupons did not recall %q; the model got:\n%s", couponTitle, excerpt(got, "rubi recall", 1500))
		}
	})

	t.Run("nothing recalled on an unrelated prompt", func(t *testing.T) {
		got := unrelated.developer()
		if strings.Contains(got, "rubi recall") || strings.Contains(string(unrelated.requests[0].Raw), couponTitle) {
			t.Errorf("a prompt about autumn leaves got rubi's recall:\n%s", excerpt(got, "rubi recall", 1500))
		}
	})

	t.Run("rubi mcp", func(t *testing.T) {
		// Codex started the example's rubi mcp and offers its tools (a
		// namespace of them).
		for _, tool := range matching.requests[0].Tools {
			if tool.Name == "mcp__rubi" {
				return
			}
		}
		t.Errorf("the model is not offered rubi's MCP tools: %+v", matching.requests[0].Tools)
	})

	t.Run("huge file read guard", func(t *testing.T) {
		r := s.run(t, "Show me the tariff table in full.")
		outputs := r.requests[len(r.requests)-1].Outputs()
		if len(outputs) != 2 {
			t.Fatalf("want the two cats of %s answered, got %d outputs; codex printed %.600q", bigFile, len(outputs), r.out)
		}
		denied, allowed := outputs[0].OutputText(), outputs[1].OutputText()
		if !strings.Contains(denied, "blocked by PreToolUse hook") || !strings.Contains(denied, "rubi read guard: "+bigFile) {
			t.Errorf("the first cat of a %d-line file was not blocked by rubi; the model got:\n%.600s", bigRows, denied)
		}
		if strings.Contains(allowed, "blocked") || !strings.Contains(allowed, `"R0001",`) {
			t.Errorf("the second cat of the same file was not allowed; the model got:\n%.600s", allowed)
		}
	})

	t.Run("no hook error", func(t *testing.T) {
		if log, err := os.ReadFile(filepath.Join(project, ".rubi", "hooks.log")); err == nil && len(bytes.TrimSpace(log)) > 0 {
			t.Errorf("the hooks logged errors (.rubi/hooks.log):\n%s", log)
		}
	})

	if other := api.Other(); len(other) > 0 {
		t.Errorf("Codex tried to reach beyond the mock API: %v", other)
	}
}

// TestCodexConnectedProject runs the real Codex CLI in a trusted project
// after `rubi connect codex` (the project's .codex/config.toml and
// AGENTS.md, nothing in CODEX_HOME about rubi): Codex starts rubi's
// server from the project's table and offers its tools, and the model
// gets rubi's instructions from AGENTS.md.
func TestCodexConnectedProject(t *testing.T) {
	codex := codexCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	runRubi(t, project, env, "connect", "codex")
	api := newMockResponses(t, codexScript)
	s := newCodexSession(t, codex, api, project, env)
	// CODEX_HOME without the example's server and hooks: the mock as the
	// provider, and the project trusted.
	home := strings.TrimPrefix(s.marker, "RUBI_E2E_RUN=")
	example, _ := os.ReadFile(filepath.Join(repoRoot, "examples/agents/codex/.codex/config.toml"))
	text := strings.Replace(codexConfig(t, api.URL), string(example), "", 1) +
		fmt.Sprintf("\n[projects.%q]\ntrust_level = \"trusted\"\n", project)
	if strings.Contains(text, "mcp_servers.rubi") {
		t.Fatalf("CODEX_HOME's config.toml still names rubi:\n%s", text)
	}
	writeFiles(t, filepath.Join(home, ".codex"), map[string]string{"config.toml": text, "hooks.json": "{}\n"})
	r := s.run(t, "Why is the coupon discount applied twice?")
	found := false
	for _, tool := range r.requests[0].Tools {
		found = found || tool.Name == "mcp__rubi"
	}
	if !found {
		t.Errorf("Codex did not start rubi's server from the project's .codex/config.toml: tools %+v", r.requests[0].Tools)
	}
	if raw := string(r.requests[0].Raw); !strings.Contains(raw, "rubi: this project's memory") {
		t.Errorf("the model did not get AGENTS.md's rubi block")
	}
}

// TestCodexUntrustedPlugin opens the real Codex CLI in a project whose
// rubi.hcl names a plugin the project itself holds (bin/x), never trusted
// with rubi trust: the plugin runs from no hook, the session goes on with
// the built-in stages (the map reaches the model), and what rubi says of
// the plugin it left out is for the user (hooks.log, the hook's
// systemMessage), never in what the model is sent.
func TestCodexUntrustedPlugin(t *testing.T) {
	codex := codexCLI(t)
	env := rubiEnv(t)
	project, ran := untrustedPluginProject(t, env)
	api := newMockResponses(t, codexScript)
	s := newCodexSession(t, codex, api, project, env)
	r := s.run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")

	sent := make([]string, len(r.requests))
	for i, req := range r.requests {
		sent[i] = string(req.Raw)
	}
	checkUntrusted(t, project, ran, r.developer(), sent)
	if other := api.Other(); len(other) > 0 {
		t.Errorf("Codex tried to reach beyond the mock API: %v", other)
	}
}
