//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/agent/connect"
)

// update rewrites the plugin's hooks file from connect.PluginHooksJSON.
var update = flag.Bool("update", false, "rewrite agent/claude/hooks/hooks.json from connect.PluginHooksJSON")

// pluginHooks are the hooks the plugin installs, by event: the matcher
// and the command, the ones rubi install --hooks writes.
func pluginHooks() map[string][2]string {
	m := map[string][2]string{}
	for _, h := range connect.ClaudeHooks() {
		m[h.Event] = [2]string{h.Matcher, connect.PluginHookCommand(h.Event)}
	}
	return m
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The manifest names rubi's version and files that exist; the marketplace
// lists the plugin at the root; the hooks are the six rubi handles, each
// with a timeout.
func TestPluginManifest(t *testing.T) {
	var plugin struct {
		Schema      string   `json:"$schema"`
		Name        string   `json:"name"`
		Version     string   `json:"version"`
		Description string   `json:"description"`
		Author      any      `json:"author"`
		Homepage    string   `json:"homepage"`
		Repository  string   `json:"repository"`
		Keywords    []string `json:"keywords"`
		Commands    string   `json:"commands"`
		Skills      string   `json:"skills"`
		Agents      []string `json:"agents"`
		Hooks       string   `json:"hooks"`
		MCPServers  string   `json:"mcpServers"`
		Network     any      `json:"network"`
	}
	readJSON(t, ".claude-plugin/plugin.json", &plugin)
	if plugin.Name != "rubi" || plugin.Version != rubi.Version {
		t.Errorf("plugin.json: name %q version %q, want rubi %s (rubi.Version)", plugin.Name, plugin.Version, rubi.Version)
	}
	for _, p := range append([]string{plugin.Commands, plugin.Skills, plugin.Hooks, plugin.MCPServers}, plugin.Agents...) {
		if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
			t.Errorf("plugin.json names %s: %v", p, err)
		}
	}

	var market struct {
		Schema      string `json:"$schema"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Owner       any    `json:"owner"`
		Plugins     []struct {
			Name        string `json:"name"`
			Source      string `json:"source"`
			Description string `json:"description"`
			Version     string `json:"version"`
			Homepage    string `json:"homepage"`
			Category    string `json:"category"`
		} `json:"plugins"`
	}
	readJSON(t, ".claude-plugin/marketplace.json", &market)
	if len(market.Plugins) != 1 || market.Plugins[0].Name != "rubi" || market.Plugins[0].Source != "./" || market.Plugins[0].Version != rubi.Version {
		t.Errorf("marketplace.json lists %+v, want rubi %s at ./", market.Plugins, rubi.Version)
	}

	// The hooks are rubi install's, rendered by the connect package.
	hooksFile := filepath.Join(repoRoot, filepath.FromSlash(plugin.Hooks))
	want := connect.PluginHooksJSON()
	if *update {
		if err := os.WriteFile(hooksFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(hooksFile); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not connect.PluginHooksJSON() (%v); rewrite it with go test ./e2e -run TestPluginManifest -update:\n%s", plugin.Hooks, err, got)
	}

	var mcp struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	readJSON(t, plugin.MCPServers, &mcp)
	if s := mcp.MCPServers["rubi"]; len(mcp.MCPServers) != 1 || s.Command != "rubi" || !reflect.DeepEqual(s.Args, []string{"mcp"}) {
		t.Errorf("%s starts %+v, want rubi mcp", plugin.MCPServers, mcp.MCPServers)
	}
}

// The real CLI's strict validation passes on the plugin as a marketplace
// install gets it: the repository's files, without what is git-ignored.
// (The checkout itself holds git-ignored node_modules folders, such as
// agent/connect/testdata/claude/node_modules; the validator scans an
// agents/ directory at the root even though plugin.json points agents
// elsewhere, and took their README files for subagents when the
// connectors lived there.)
func TestPluginValidates(t *testing.T) {
	claude := claudeCLI(t)
	tree := repositoryFiles(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "plugin", "validate", "--strict", "--json", tree)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	out, err := cmd.Output()
	var report struct {
		Success  bool `json:"success"`
		Provides struct {
			Hooks []struct {
				Event   string `json:"event"`
				Matcher string `json:"matcher"`
				Command string `json:"command"`
			} `json:"hooks"`
			MCPServers []struct {
				Name   string   `json:"name"`
				Type   string   `json:"type"`
				Target string   `json:"target"`
				Args   []string `json:"args"`
			} `json:"mcpServers"`
			Skills   []string `json:"skills"`
			Commands []string `json:"commands"`
			Agents   []string `json:"agents"`
		} `json:"provides"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("claude plugin validate: %v, %v\n%s", err, jerr, out)
	}
	if err != nil || !report.Success {
		human := exec.Command(claude, "plugin", "validate", "--strict", tree)
		human.Env = cmd.Env
		out, _ := human.CombinedOutput()
		t.Fatalf("claude plugin validate --strict: %v\n%s", err, out)
	}
	p := report.Provides
	hooks := map[string][2]string{}
	for _, h := range p.Hooks {
		hooks[h.Event] = [2]string{h.Matcher, h.Command}
	}
	if !reflect.DeepEqual(hooks, pluginHooks()) {
		t.Errorf("Claude Code reads the hooks as %v", hooks)
	}
	if len(p.MCPServers) != 1 || p.MCPServers[0].Name != "rubi" || p.MCPServers[0].Type != "stdio" || p.MCPServers[0].Target != "rubi" {
		t.Errorf("Claude Code reads the MCP servers as %+v", p.MCPServers)
	}
	want := map[string][]string{
		"commands": {"rubi:analyze", "rubi:handoff", "rubi:parallel", "rubi:recall", "rubi:xray"},
		"skills":   {"rubi:slim-claude-md"},
		"agents":   {"rubi:chunk-analyst", "rubi:researcher"},
	}
	if got := map[string][]string{"commands": p.Commands, "skills": p.Skills, "agents": p.Agents}; !reflect.DeepEqual(got, want) {
		t.Errorf("Claude Code finds %v, want %v", got, want)
	}
}

// repositoryFiles copies the repository's files, tracked or not but not
// git-ignored ones, into a new directory: what a clone holds.
func repositoryFiles(t *testing.T) string {
	t.Helper()
	tree := t.TempDir()
	files, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(repoRoot, name))
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, tree, map[string]string{name: string(b)})
	}
	return tree
}

// The repository is a marketplace: claude plugin marketplace add (what
// /plugin marketplace add runs) then plugin install rubi@rubi installs
// and enables rubi's plugin at rubi's version, with its MCP server.
func TestPluginMarketplaceInstall(t *testing.T) {
	claude := claudeCLI(t)
	tree := repositoryFiles(t)
	// Claude Code keeps its plugins and settings under its configuration
	// directory: a throwaway one, and a throwaway working directory, so
	// nothing lands in the checkout.
	home := t.TempDir()
	work := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + t.TempDir(), "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
	claudeCmd := func(args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, claude, args...)
		cmd.Env = env
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	claudeCmd("plugin", "marketplace", "add", tree)
	claudeCmd("plugin", "install", "rubi@rubi")
	out := claudeCmd("plugin", "list", "--json")
	var list []struct {
		ID         string         `json:"id"`
		Version    string         `json:"version"`
		Enabled    bool           `json:"enabled"`
		MCPServers map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("claude plugin list --json: %v\n%s", err, out)
	}
	if len(list) != 1 || list[0].ID != "rubi@rubi" || list[0].Version != rubi.Version || !list[0].Enabled || list[0].MCPServers["rubi"] == nil {
		t.Errorf("installed from the marketplace: %s", out)
	}
}
