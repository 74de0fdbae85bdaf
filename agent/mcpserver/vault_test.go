package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// With VaultOnly (rubi mcp --vault, the Claude Desktop extension) the
// vault folder is all there is: a note registered without personal lands
// in <vault>/personal/knowledge/, context finds it and the vault's own
// notes, handoffs stay in the vault, and nothing is written into the
// working directory, its project, or the vault RUBI_VAULT names.
func TestVaultOnly(t *testing.T) {
	isolate(t)
	elsewhere := os.Getenv("RUBI_VAULT")
	work := writeProject(t, rubitest.GoProject)
	vault := filepath.Join(t.TempDir(), "Documents", "Rubi") // missing: created
	s, _ := newServer(t, Options{VaultOnly: true, Vault: vault, WorkDir: work})
	c := connect(t, s)

	out, res := ok(t, c, "register", map[string]any{"nodes": []map[string]any{{
		"type": "preference", "title": "I like practical examples", "body": "Show a worked example before the theory.",
	}}})
	const file = "personal/knowledge/preference-i-like-practical-examples.md"
	if !strings.Contains(out, "created: preference-i-like-practical-examples ("+file+")") {
		t.Errorf("register: %s", out)
	}
	var reg registerOutput
	structured(t, res, &reg)
	if len(reg.Results) != 1 || reg.Results[0].Path != file {
		t.Errorf("register's structured content: %+v", reg)
	}
	data, err := os.ReadFile(filepath.Join(vault, filepath.FromSlash(file)))
	if err != nil || !strings.Contains(string(data), "Show a worked example before the theory.") {
		t.Fatalf("the note is not in the vault: %v\n%s", err, data)
	}

	// A note of the user's own in the vault (an Obsidian vault) is found too.
	writeFile(t, filepath.Join(vault, "Cooking", "bread.md"), "# Sourdough\n\nFeed the starter twice a day before baking.\n")
	out, _ = ok(t, c, "context", map[string]any{"query": "look up my preferences", "terms": []string{"preference", "examples"}})
	if !strings.Contains(out, "I like practical examples") || strings.Contains(out, "map") {
		t.Errorf("context does not find the preference, or points to a map tool the vault lacks:\n%s", out)
	}
	if strings.Contains(out, "[file] "+file) {
		t.Errorf("the note is listed as a file of the vault too:\n%s", out)
	}
	if out, _ = ok(t, c, "context", map[string]any{"query": "how often to feed the sourdough starter"}); !strings.Contains(out, "Cooking/bread.md") {
		t.Errorf("context does not find the vault's own note:\n%s", out)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "I like practical examples"}); !strings.Contains(out, "Show a worked example") {
		t.Errorf("read by title: %s", out)
	}
	out, _ = ok(t, c, "memory", map[string]any{"action": "handoff", "text": "## Goal\nPlan the trip\n\n## Next\n- Book the train"})
	if !strings.HasPrefix(out, "saved: .rubi/handoffs/") {
		t.Errorf("handoff: %s", out)
	}
	if hs, _ := filepath.Glob(filepath.Join(vault, ".rubi", "handoffs", "*.md")); len(hs) != 1 {
		t.Errorf("handoffs in the vault: %v", hs)
	}

	for _, dir := range []string{work, elsewhere} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == ".rubi" || e.Name() == "personal" {
				t.Errorf("%s was written into %s", e.Name(), dir)
			}
		}
	}
}

// An empty Vault is RUBI_VAULT, else the vault of the configuration
// (~ expanded), never the working directory.
func TestVaultOnlyConfiguredVault(t *testing.T) {
	isolate(t)
	work := writeProject(t, rubitest.GoProject)
	register := func(t *testing.T) {
		t.Helper()
		s, _ := newServer(t, Options{VaultOnly: true, WorkDir: work})
		ok(t, connect(t, s), "register", map[string]any{"nodes": []map[string]any{{"type": "preference", "title": "Answers in English"}}})
	}
	const file = "personal/knowledge/preference-answers-in-english.md"

	env := t.TempDir()
	t.Setenv("RUBI_VAULT", env)
	register(t)
	if _, err := os.Stat(filepath.Join(env, file)); err != nil {
		t.Errorf("RUBI_VAULT's vault: %v", err)
	}

	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("RUBI_VAULT", "")
	writeFile(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rubi", "config.hcl"), "vault = \"~/Notes/rubi\"\n")
	register(t)
	if _, err := os.Stat(filepath.Join(home, "Notes", "rubi", file)); err != nil {
		t.Errorf("config.hcl's vault: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, ".rubi")); !os.IsNotExist(err) {
		t.Errorf("the working directory's project was used: %v", err)
	}
}

// A vault rubi must not or cannot use makes every call an error that
// names it; tools/list still answers, so the app shows the extension.
func TestVaultOnlyBadVault(t *testing.T) {
	isolate(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	aFile := filepath.Join(dir, "notes.txt")
	writeFile(t, aFile, "not a folder")
	cases := []struct {
		vault string
		want  []string
	}{
		{aFile, []string{aFile, "is a file, not a folder"}},
		{filepath.Join(aFile, "vault"), []string{filepath.Join(aFile, "vault"), "cannot be used (not a directory)"}},
		{"Rubi", []string{`"Rubi"`, "not an absolute path"}},
		{string(filepath.Separator), []string{"root of the file system"}},
		{home, []string{home, "is your home folder", filepath.Join(home, "rubi-vault")}},
	}
	for _, tc := range cases {
		s, _ := newServer(t, Options{VaultOnly: true, Vault: tc.vault})
		c := connect(t, s)
		list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
		if err != nil || len(list.Tools) != 4 {
			t.Errorf("%s: tools/list: %v %v", tc.vault, err, list)
		}
		fails(t, c, "register", map[string]any{"nodes": []map[string]any{{"type": "note", "title": "x"}}}, tc.want...)
		fails(t, c, "context", map[string]any{"query": "x"}, tc.want...)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the home folder was written into: %v", entries)
	}

	t.Run("not writable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("running as root, which may write into any folder")
		}
		ro := t.TempDir()
		if err := os.Chmod(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		s, _ := newServer(t, Options{VaultOnly: true, Vault: ro})
		fails(t, connect(t, s), "context", map[string]any{"query": "x"}, ro, "is not writable")
	})

	// Fixed while the server runs: the next call works.
	vault := filepath.Join(dir, "later")
	writeFile(t, vault, "a file for now")
	s, _ := newServer(t, Options{VaultOnly: true, Vault: vault})
	c := connect(t, s)
	fails(t, c, "context", map[string]any{"query": "x"}, "is a file")
	if err := os.Remove(vault); err != nil {
		t.Fatal(err)
	}
	ok(t, c, "context", map[string]any{"query": "x"})
}

func TestVaultInstructions(t *testing.T) {
	s, _ := newServer(t, Options{VaultOnly: true})
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(t.Context(), mcp.InitializeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Instructions != VaultInstructions {
		t.Errorf("instructions: %q", res.Instructions)
	}
	for _, w := range []string{"context", "terms", "register", "handoff", "remember"} {
		if !strings.Contains(res.Instructions, w) {
			t.Errorf("instructions do not mention %s:\n%s", w, res.Instructions)
		}
	}
}
