package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// agent is one agent CLI the harness drives: how to set its home up for
// an arm, how to run one session, and where the endpoint goes.
type agent struct {
	Name  string // claude, codex
	Title string // Claude Code, Codex CLI
	Bin   string
	Model string
	// Version is what the CLI says of itself.
	Version string
}

// The agents, in the order they run.
var agentNames = []string{"claude", "codex"}

func agentTitle(name string) string {
	if name == "claude" {
		return "Claude Code"
	}
	return "Codex CLI"
}

// claudeTools are the tools a Claude Code session may use without asking
// (claude -p cannot ask): reading, searching the tree and its history
// through the shell, and rubi's MCP tools (present only where rubi is
// installed). Edits inside the project are accepted (--permission-mode
// acceptEdits). The same for every arm.
const claudeTools = "Read,Glob,Grep,LS,Bash(grep:*),Bash(rg:*),Bash(find:*),Bash(ls:*),Bash(cat:*),Bash(head:*),Bash(tail:*),Bash(wc:*)," +
	"Bash(git log:*),Bash(git show:*),Bash(git grep:*),Bash(git diff:*),Bash(git status:*),mcp__rubi"

// args is the command line of one session.
func (a *agent) args(prompt, sandbox string) []string {
	if a.Name == "claude" {
		return []string{"-p", prompt, "--model", a.Model, "--permission-mode", "acceptEdits", "--allowedTools", claudeTools}
	}
	// Hooks need --dangerously-bypass-hook-trust in exec mode; the
	// sandbox is -codex-sandbox's.
	return []string{"exec", "--strict-config", "--dangerously-bypass-hook-trust", "--sandbox", sandbox, "--color", "never", prompt}
}

// codexConfig is $CODEX_HOME/config.toml before rubi connect adds its
// table: the model, the mock as its provider in a mock run, and what keeps
// Codex 0.169.0 off the network beyond the model (the curated plugins'
// sync, metrics, update checks, the background daemon) in every arm.
func codexConfig(model, mockURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "model = %q\n", model)
	if mockURL != "" {
		b.WriteString("model_provider = \"mock\"\n")
	}
	b.WriteString("\n[features]\nplugins = false\nremote_plugin = false\napps = false\nin_app_updates = false\ndaemon_auto_start = false\n\n[analytics]\nenabled = false\n")
	if mockURL != "" {
		fmt.Fprintf(&b, "\n[model_providers.mock]\nname = \"mock\"\nbase_url = \"%s/v1\"\nwire_api = \"responses\"\n", mockURL)
	}
	return b.String()
}

// setupHome prepares the throwaway home of a chain's sessions: the agent's
// own configuration, and in the arms with rubi, rubi installed the way a
// user installs it (rubi install --hooks for Claude Code, rubi connect
// codex --global for Codex), by the rubi built for the run.
func (h *harness) setupHome(ctx context.Context, a *agent, home, project string, withRubi bool) error {
	if a.Name == "codex" {
		if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(home, ".codex", "config.toml"), []byte(codexConfig(a.Model, h.codexURL()))); err != nil {
			return err
		}
	}
	if !withRubi {
		return nil
	}
	env := h.env(a, home, true, "")
	var args []string
	if a.Name == "claude" {
		args = []string{"install", "--hooks", "--yes"}
	} else {
		args = []string{"connect", "codex", "--global"}
	}
	if _, err := h.rubi(ctx, project, env, args...); err != nil {
		return err
	}
	if a.Name == "codex" {
		if err := approveRubiTools(filepath.Join(home, ".codex", "config.toml")); err != nil {
			return err
		}
	}
	// The map needs an index; a user with rubi has one before the
	// session starts, so it is built here, untimed.
	_, err := h.rubi(ctx, project, env, "index", "--root", project)
	return err
}

// approveRubiTools lets codex exec call every tool of rubi's MCP server:
// exec cannot ask, and refuses a tool that writes (register) unless the
// server's tools are approved, as a user approves them once in a session
// that can ask. The line goes into the table rubi connect wrote.
func approveRubiTools(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	const table = "[mcp_servers.rubi]\n"
	i := strings.Index(string(data), table)
	if i < 0 {
		return fmt.Errorf("%s: rubi connect codex --global wrote no %s table", path, strings.TrimSpace(table))
	}
	i += len(table)
	out := string(data[:i]) + "default_tools_approval_mode = \"approve\"\n" + string(data[i:])
	return writeFile(path, []byte(out))
}

// rubi runs one of the built rubi's commands.
func (h *harness) rubi(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(h.rubiDir, "rubi"), args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("rubi %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// codexURL is the Responses mock's address; "" in a real run.
func (h *harness) codexURL() string {
	if h.responses == nil {
		return ""
	}
	return h.responses.URL
}

// env is the environment of an agent's session and of the rubi commands
// that set its home up: nothing of the user's own configuration (a
// throwaway HOME and XDG folders), rubi's programs on PATH only with
// rubi, the endpoint, and marker to find what the session started.
func (h *harness) env(a *agent, home string, withRubi bool, marker string) []string {
	path := h.basePath
	if withRubi {
		path = h.rubiDir + string(os.PathListSeparator) + path
	}
	env := []string{
		"PATH=" + path,
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"LANG=C.UTF-8",
		"SHELL=/bin/bash",
		"TMPDIR=" + filepath.Join(home, "tmp"),
		"GIT_CONFIG_GLOBAL=/dev/null",
	}
	if marker != "" {
		env = append(env, marker)
	}
	if a.Name == "claude" {
		env = append(env, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	} else {
		env = append(env, "CODEX_HOME="+filepath.Join(home, ".codex"))
	}
	if !h.o.real {
		// The mock is the endpoint, and anything that tries to go
		// further lands on it too, which records it.
		url := h.codexURL()
		if a.Name == "claude" {
			url = h.messages.URL
			env = append(env, "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-mock")
		}
		return append(env, "HTTPS_PROXY="+url, "HTTP_PROXY="+url, "NO_PROXY=127.0.0.1")
	}
	// A real run: the user's key and, where set, their endpoint and
	// proxy settings.
	for _, k := range realEnv(a.Name) {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// realEnv lists the variables a real run passes on from the user's
// environment.
func realEnv(agent string) []string {
	common := []string{"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"}
	if agent == "claude" {
		return append([]string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"}, common...)
	}
	return append([]string{"OPENAI_API_KEY", "CODEX_API_KEY", "OPENAI_BASE_URL"}, common...)
}

// keyFor names the variable a real run of the agent needs.
func keyFor(agent string) string {
	if agent == "claude" {
		return "ANTHROPIC_API_KEY"
	}
	return "OPENAI_API_KEY"
}

var versionRE = regexp.MustCompile(`\b\d+\.\d+\.\d+[-+.\w]*`)

// version asks the CLI for its version.
func (h *harness) version(ctx context.Context, a *agent) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.Bin, "--version")
	home, err := os.MkdirTemp(h.work, "version-")
	if err != nil {
		return "", err
	}
	if err := newHome(home); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		return "", err
	}
	cmd.Env = h.env(a, home, false, "")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v\n%s", a.Bin, err, out)
	}
	// "2.1.328 (Claude Code)", "codex-cli 0.169.0", warnings before it.
	if v := versionRE.FindString(string(out)); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%s --version printed no version: %q", a.Bin, out)
}
