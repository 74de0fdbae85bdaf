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

// The fixture: a small Go shop, its knowledge, and a generated file too
// long to read whole (5,005 short lines, under the guard's byte limit: it
// is the line count that trips it).
const (
	couponTitle = "Coupon discount applied twice at checkout"
	centsTitle  = "Prices are integer cents, never floats" // critical: shown at every session start
	bigFile     = "generated/table.go"
	bigRows     = 5000
)

// shopProject writes the fixture into a new git repository, registers its
// knowledge with rubi register, and returns its directory.
func shopProject(t *testing.T, env []string) string {
	t.Helper()
	dir := t.TempDir()
	var table strings.Builder
	table.WriteString("package generated\n\n// Table is generated: one row per tariff.\nvar Table = []string{\n")
	for i := 1; i <= bigRows; i++ {
		fmt.Fprintf(&table, "\t\"R%04d\",\n", i)
	}
	table.WriteString("}\n")
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n",
		"main.go": `package main

import (
	"fmt"

	"example.com/shop/cart"
	"example.com/shop/checkout"
)

func main() {
	c := &cart.Cart{Items: []cart.Item{{SKU: "tea", Cents: 450}}}
	fmt.Println(checkout.ApplyCoupon(c, "WELCOME10"))
}
`,
		"cart/cart.go": `// Package cart holds the items a customer is about to buy.
package cart

// Cart is a list of items with prices in cents.
type Cart struct{ Items []Item }

// Item is one product line.
type Item struct {
	SKU   string
	Cents int
}

// Total sums the items' prices.
func (c *Cart) Total() int {
	t := 0
	for _, it := range c.Items {
		t += it.Cents
	}
	return t
}
`,
		"checkout/checkout.go": `// Package checkout turns a cart into an order: totals, coupons, payment.
package checkout

import "example.com/shop/cart"

// ApplyCoupon takes a coupon's discount off the cart's total.
func ApplyCoupon(c *cart.Cart, code string) int {
	return c.Total() - discount(code)
}

func discount(code string) int {
	if code == "WELCOME10" {
		return 10
	}
	return 0
}
`,
		bigFile: table.String(),
	})
	git(t, dir, "init", "-q") // a project before rubi writes in it (rubi refuses a folder that is none)
	runRubi(t, dir, env, "register", "--type", "gotcha", "--title", couponTitle, "--file", "checkout/checkout.go",
		"--body", "ApplyCoupon subtracts the discount from a total that already includes it when the cart is recomputed; mind the order of Total and ApplyCoupon.")
	runRubi(t, dir, env, "register", "--type", "decision", "--importance", "critical", "--title", centsTitle, "--file", "cart/cart.go",
		"--body", "Every price is an int of cents; floats lose cents in sums.")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "initial")
	return dir
}

// shopScript is the model: asked to show the big file, it reads it whole,
// then (whatever the answer) reads it whole again, then says done;
// otherwise it answers in one line.
func shopScript(project string) func(apiRequest) reply {
	return func(r apiRequest) reply {
		if !strings.Contains(r.Prompt(), bigFile) {
			return reply{Text: "Noted."}
		}
		switch len(r.ToolResults()) {
		case 0, 1:
			return reply{ToolName: "Read", ToolInput: map[string]any{"file_path": filepath.Join(project, filepath.FromSlash(bigFile))}}
		default:
			return reply{Text: "Done reading."}
		}
	}
}

// claudeSession runs claude -p in a project against the mock API, each
// run in the same throwaway HOME.
type claudeSession struct {
	claude  string
	home    string
	api     *mockAPI
	project string
	env     []string
	args    []string
	marker  string
}

// runResult is what one claude -p run printed and sent.
type runResult struct {
	prompt   string
	out      string
	requests []apiRequest
}

func newClaudeSession(t *testing.T, claude string, api *mockAPI, project string, rubiEnv []string, args ...string) *claudeSession {
	home := t.TempDir()
	marker := "RUBI_E2E_RUN=" + home
	env := []string{
		"PATH=" + rubiBinDir(t) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"LANG=C.UTF-8",
		"SHELL=/bin/bash",
		"TMPDIR=" + t.TempDir(),
		"ANTHROPIC_BASE_URL=" + api.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// Anything else that tries to go out lands on the mock, which
		// records it.
		"HTTPS_PROXY=" + api.URL, "HTTP_PROXY=" + api.URL, "NO_PROXY=127.0.0.1",
		marker,
	}
	env = append(env, rubiEnv...)
	return &claudeSession{claude: claude, home: home, api: api, project: project, env: env, args: args, marker: marker}
}

// run runs one non-interactive session with prompt, checks that it
// succeeded and that nothing it started outlives it.
func (s *claudeSession) run(t *testing.T, prompt string) runResult {
	t.Helper()
	before := len(s.api.Requests())
	stdout, stderr := runAgent(t, s.project, s.env, s.marker, s.claude, append([]string{"-p", prompt}, s.args...)...)
	res := runResult{prompt: prompt, out: stdout, requests: s.api.Requests()[before:]}
	if len(res.requests) == 0 {
		t.Fatalf("claude -p %q sent the model nothing; it printed:\n%s%s", prompt, stdout, stderr)
	}
	return res
}

// first is the run's first request to the main model (the one offered
// the Read tool), the one that carries the session's starting context.
func (r runResult) first(t *testing.T) apiRequest {
	t.Helper()
	for _, req := range r.requests {
		if req.HasTool("Read") {
			return req
		}
	}
	t.Fatalf("no request of %q offered the Read tool", r.prompt)
	return apiRequest{}
}

// hookLabel is how Claude Code 2.1.328 introduces a hook's
// additionalContext in the system prompt it sends the model.
func hookLabel(event string) string { return event + " hook additional context: " }

// hookContext is the additionalContext of event's hook as the model
// received it, or "" when there is none.
func hookContext(text, event string) string {
	_, after, ok := strings.Cut(text, hookLabel(event))
	if !ok {
		return ""
	}
	// The context ends where the next part of the system prompt starts.
	for _, end := range []string{" hook additional context: ", "\n# Environment\n", "\nToday's date is "} {
		if i := strings.Index(after, end); i >= 0 {
			after = after[:i]
		}
	}
	return after
}

// TestClaudeCodePlugin runs the real Claude Code CLI with rubi's plugin
// (claude --plugin-dir at the repository root) in a fixture project and
// checks what rubi's hooks put in front of the model, on the requests the
// mock API receives.
func TestClaudeCodePlugin(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	api := newMockAPI(t, shopScript(project))
	s := newClaudeSession(t, claude, api, project, env, "--plugin-dir", repoRoot)
	testRubiHooks(t, s)

	t.Run("plugin components", func(t *testing.T) {
		// The plugin's MCP server, subagent, commands and skill reach the
		// model (MCP tools are deferred: listed by name).
		text := api.Requests()[0].Text()
		for _, want := range []string{
			"mcp__plugin_rubi_rubi__context", "mcp__plugin_rubi_rubi__register", "mcp__plugin_rubi_rubi__memory",
			"rubi holds this project's code map", // the MCP server's instructions
			"rubi:researcher", "rubi:chunk-analyst", "rubi:slim-claude-md", "rubi:recall", "rubi:handoff", "rubi:xray",
			"rubi:analyze", "rubi:parallel",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("the model is not told about %q", want)
			}
		}
		// A command expands with its arguments.
		r := s.run(t, "/rubi:handoff the flaky payment test is next")
		if got := r.first(t).Text(); !strings.Contains(got, "Save where the work stands as a rubi handoff") || !strings.Contains(got, "the flaky payment test is next") {
			t.Errorf("/rubi:handoff did not reach the model as its prompt with the arguments:\n%s", excerpt(got, "handoff", 600))
		}
	})

	if other := api.Other(); len(other) > 0 {
		t.Errorf("Claude Code tried to reach beyond the mock API: %v", other)
	}
}

// TestClaudeCodeInstalledHooks is the same without the plugin: rubi
// install --hooks writes the hooks into Claude Code's settings.json and
// rubi mcp into ~/.claude.json, in the session's throwaway HOME.
func TestClaudeCodeInstalledHooks(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	api := newMockAPI(t, shopScript(project))
	s := newClaudeSession(t, claude, api, project, env)
	out := runRubi(t, project, append(env, "HOME="+s.home, "CLAUDE_CONFIG_DIR=", "PATH="+rubiBinDir(t)+string(os.PathListSeparator)+os.Getenv("PATH")),
		"install", "--hooks", "--yes")
	t.Logf("rubi install --hooks --yes:\n%s", out)
	testRubiHooks(t, s)

	t.Run("rubi mcp", func(t *testing.T) {
		text := api.Requests()[0].Text()
		if !strings.Contains(text, "mcp__rubi__context") || !strings.Contains(text, "rubi holds this project's code map") {
			t.Errorf("the model is not offered the rubi MCP server rubi install added:\n%s", excerpt(text, "mcp__", 600))
		}
	})

	if other := api.Other(); len(other) > 0 {
		t.Errorf("Claude Code tried to reach beyond the mock API: %v", other)
	}
}

// testRubiHooks runs the sessions every installation of rubi's hooks must
// pass: the map at session start, recall on a matching prompt and silence
// on an unrelated one, and the huge-file read guard.
func testRubiHooks(t *testing.T, s *claudeSession) {
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(s.project, ".rubi", "hooks.log"))
			t.Logf(".rubi/hooks.log:\n%s", log)
		}
	})
	matching := s.run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")
	unrelated := s.run(t, "Write a haiku about autumn leaves falling on a quiet pond.")

	t.Run("session start map", func(t *testing.T) {
		for _, r := range []runResult{matching, unrelated} {
			text := r.first(t).Text()
			got := hookContext(text, "SessionStart")
			if got == "" {
				t.Fatalf("%q: the model got no SessionStart context from rubi:\n%s", r.prompt, excerpt(text, "hook", 800))
			}
			// The level-0 map: the fixture's modules and central files,
			// and the critical knowledge.
			for _, want := range []string{"checkout", "cart/cart.go", "checkout/checkout.go", centsTitle} {
				if !strings.Contains(got, want) {
					t.Errorf("%q: rubi's session start context lacks %q:\n%s", r.prompt, want, got)
				}
			}
		}
	})

	t.Run("recall on a matching prompt", func(t *testing.T) {
		text := matching.first(t).Text()
		got := hookContext(text, "UserPromptSubmit")
		if !strings.Contains(got, couponTitle) {
			t.Errorf("the prompt about coupons did not recall %q; the model got:\n%s", couponTitle, got)
		}
	})

	t.Run("nothing recalled on an unrelated prompt", func(t *testing.T) {
		text := unrelated.first(t).Text()
		if got := hookContext(text, "UserPromptSubmit"); got != "" {
			t.Errorf("a prompt about autumn leaves got rubi's recall:\n%s", got)
		}
		if strings.Contains(text, couponTitle) {
			t.Errorf("a prompt about autumn leaves reached the coupon gotcha:\n%s", excerpt(text, couponTitle, 400))
		}
	})

	t.Run("huge file read guard", func(t *testing.T) {
		r := s.run(t, "Show me "+bigFile+" in full.")
		last := r.requests[len(r.requests)-1]
		results := last.ToolResults()
		if len(results) != 2 {
			t.Fatalf("want the two Reads of %s answered, got %d tool results; claude printed %q", bigFile, len(results), r.out)
		}
		denied, allowed := results[0], results[1]
		reason := denied.ResultText()
		if !denied.IsError || !strings.Contains(reason, "PreToolUse:Read hook") || !strings.Contains(reason, bigFile) ||
			!strings.Contains(reason, "Grep") || !strings.Contains(reason, "offset") || !strings.Contains(reason, "limit") {
			t.Errorf("the first whole Read of a %d-line file was not denied by rubi with a pointer to Grep and offset/limit; the model got (is_error=%v):\n%.600s",
				bigRows, denied.IsError, reason)
		}
		if content := allowed.ResultText(); allowed.IsError || !strings.Contains(content, "\"R0001\",") {
			t.Errorf("the second Read of the same file was not allowed; the model got (is_error=%v):\n%.600s", allowed.IsError, content)
		}
		if !strings.Contains(r.out, "Done reading.") {
			t.Errorf("the session did not finish: claude printed %q", r.out)
		}
	})

	t.Run("no hook error", func(t *testing.T) {
		if log, err := os.ReadFile(filepath.Join(s.project, ".rubi", "hooks.log")); err == nil && len(bytes.TrimSpace(log)) > 0 {
			t.Errorf("the hooks logged errors (.rubi/hooks.log):\n%s", log)
		}
	})
}

// excerpt returns up to n bytes of text around the first occurrence of
// near (or its start), for failure messages.
func excerpt(text, near string, n int) string {
	i := max(strings.Index(text, near)-n/4, 0)
	return text[i:min(i+n, len(text))]
}

// TestClaudeCodeUntrustedPlugin opens the real Claude Code CLI, with
// rubi's plugin, in a project whose rubi.hcl names a plugin the project
// itself holds (bin/x), never trusted with rubi trust: the plugin runs
// from no hook, the session starts with the built-in stages (the map
// reaches the model), and what rubi says of the plugin it left out is for
// the user (hooks.log, the hook's systemMessage), never in what the model
// is sent.
func TestClaudeCodeUntrustedPlugin(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project, ran := untrustedPluginProject(t, env)
	api := newMockAPI(t, shopScript(project))
	s := newClaudeSession(t, claude, api, project, env, "--plugin-dir", repoRoot)
	r := s.run(t, "Why is the coupon discount applied twice when the cart total is recomputed?")

	sent := make([]string, len(r.requests))
	for i, req := range r.requests {
		sent[i] = req.Text()
	}
	checkUntrusted(t, project, ran, hookContext(r.first(t).Text(), "SessionStart"), sent)
	if other := api.Other(); len(other) > 0 {
		t.Errorf("Claude Code tried to reach beyond the mock API: %v", other)
	}
}
