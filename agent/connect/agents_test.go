package connect

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
	"github.com/rubi-dev/rubi/agent/hooks"
	"github.com/rubi-dev/rubi/core/store"
)

// testHome makes an empty home directory with the environment pointing
// at it, and returns the options install would use there.
func testHome(t *testing.T) (string, Options) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	claude, err := FindClaude()
	if err != nil {
		t.Fatal(err)
	}
	return home, Options{
		Claude:     claude,
		UserConfig: filepath.Join(home, ".config", "rubi", "config.hcl"),
		Vault:      "~/rubi-vault",
		Window:     DefaultWindow,
		Rubi:       "rubi",
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return v
}

// Installs running at once with another writer that takes Claude Code's
// lock (as Claude Code does) lose nobody's change: every writer's keys
// are in the file at the end, and the backup holds none of rubi's values.
func TestConcurrentWriters(t *testing.T) {
	_, o := testHome(t)
	settings := o.Claude.Settings()
	if err := store.WriteFile(settings, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			oi := o
			oi.Hooks = i%2 == 0 // some add hooks, some only the window
			if _, err := Install(ctx, oi); err != nil {
				errs <- err
			}
		}()
	}
	const others = 20
	for i := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := lockFile(ctx, settings)
			if err != nil {
				errs <- err
				return
			}
			defer l.unlock()
			data, _ := os.ReadFile(settings)
			d, err := jsonedit.Parse(settings, data, false)
			if err != nil {
				errs <- err
				return
			}
			d.Set(jsonedit.Path{fmt.Sprintf("other%d", i)}, i)
			errs <- store.WriteFile(settings, d.Bytes(), 0o644)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	got := readJSON(t, settings)
	for i := range others {
		if _, ok := got[fmt.Sprintf("other%d", i)]; !ok {
			t.Errorf("the write of other%d was lost", i)
		}
	}
	if env, _ := got["env"].(map[string]any); env[CompactWindowEnv] != "150000" {
		t.Errorf("env = %v", got["env"])
	}
	if hooks, _ := got["hooks"].(map[string]any); len(hooks) != len(claudeHooks) {
		t.Errorf("hooks = %v", got["hooks"])
	}
	// The backup is the file just before rubi's first change: the other
	// writers may have come before, rubi's values may not.
	backup := readJSON(t, settings+BackupSuffix)
	if backup["model"] != "opus" || backup["env"] != nil || backup["hooks"] != nil {
		t.Errorf("backup: %v", backup)
	}
	if _, err := os.Stat(settings + ".lock"); !os.IsNotExist(err) {
		t.Errorf("the lock was left behind: %v", err)
	}
}

// A lock Claude Code holds (a fresh settings.json.lock directory) makes
// install wait, and give up with a clear error; one left by a process
// that died (untouched for longer than proper-lockfile's 10 s) is taken
// over.
func TestClaudeCodesLock(t *testing.T) {
	_, o := testHome(t)
	settings := o.Claude.Settings()
	os.MkdirAll(settings+".lock", 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := Install(ctx, o)
	if err == nil || !strings.Contains(err.Error(), "settings.json is locked by another process") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Error("settings.json was written under Claude Code's lock")
	}

	old := time.Now().Add(-time.Minute)
	os.Chtimes(settings+".lock", old, old)
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if env, _ := readJSON(t, settings)["env"].(map[string]any); env[CompactWindowEnv] != "150000" {
		t.Error("not installed after taking the stale lock over")
	}
	if _, err := os.Stat(settings + ".lock"); !os.IsNotExist(err) {
		t.Error("the lock was left behind")
	}
}

// A settings.json that is a symbolic link into a dotfiles repository is
// changed through the link, which stays a link.
func TestSymlinkedSettings(t *testing.T) {
	home, o := testHome(t)
	real := filepath.Join(home, "dotfiles", "claude-settings.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("{}\n"), 0o644)
	os.MkdirAll(o.Claude.Dir, 0o755)
	if err := os.Symlink(real, o.Claude.Settings()); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(o.Claude.Settings()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings.json is no longer a link: %v", err)
	}
	if env, _ := readJSON(t, real)["env"].(map[string]any); env[CompactWindowEnv] != "150000" {
		t.Errorf("the link's target was not changed: %s", real)
	}
}

// The backup is the file before rubi's first change, kept over several
// installs; after an undo, when none of rubi's values are left, the next
// install takes a fresh copy, so edits made in between are not lost to
// an old backup.
func TestBackupLifetime(t *testing.T) {
	_, o := testHome(t)
	settings := o.Claude.Settings()
	os.MkdirAll(o.Claude.Dir, 0o755)
	os.WriteFile(settings, []byte(`{"theme": "light"}`), 0o644)
	install := func(window int) {
		t.Helper()
		oi := o
		oi.Window = window
		if _, err := Install(context.Background(), oi); err != nil {
			t.Fatal(err)
		}
	}
	backup := func() string {
		data, _ := os.ReadFile(settings + BackupSuffix)
		return string(data)
	}
	install(150000)
	install(200000)
	if b := backup(); b != `{"theme": "light"}` {
		t.Fatalf("backup after two installs: %s", b)
	}
	if _, err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(settings); string(got) != `{"theme": "light"}` {
		t.Fatalf("after the undo: %s", got)
	}
	os.WriteFile(settings, []byte(`{"theme": "dark"}`), 0o644)
	install(150000)
	if b := backup(); b != `{"theme": "dark"}` {
		t.Errorf("the backup was not renewed after the undo: %s", b)
	}
}

// With a dry run nothing is written: no file, no backup, no lock, no
// vault, and the report carries a diff per file.
func TestDryRunWritesNothing(t *testing.T) {
	home, o := testHome(t)
	o.DryRun, o.Hooks = true, true
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 3 || !strings.Contains(rep.Files[0].Diff, "+    \"CLAUDE_CODE_AUTO_COMPACT_WINDOW\": \"150000\"") {
		t.Errorf("report: %+v", rep)
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 0 {
		t.Errorf("the dry run wrote %v", entries)
	}
}

// A settings.json with one of rubi's keys of the wrong shape is left
// alone, with an error that says what is wrong.
func TestSettingsOfTheWrongShape(t *testing.T) {
	for _, tt := range []struct{ settings, want string }{
		{`{"env": ["A=1"]}`, "settings.json: jsonedit: env is an array, not an object"},
		{`{"hooks": [], "env": {}}`, "settings.json: hooks is not an object"},
		{`{"hooks": {"Stop": {"command": "x"}}}`, "settings.json: hooks.Stop is not an array"},
	} {
		_, o := testHome(t)
		o.Hooks = true
		os.MkdirAll(o.Claude.Dir, 0o755)
		os.WriteFile(o.Claude.Settings(), []byte(tt.settings), 0o644)
		_, err := Install(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%s: err = %v", tt.settings, err)
		}
		if data, _ := os.ReadFile(o.Claude.Settings()); string(data) != tt.settings {
			t.Errorf("changed: %s", data)
		}
	}
}

// --hooks beside an enabled rubi plugin warns that the hooks would run
// twice.
func TestPluginAndHooksWarning(t *testing.T) {
	_, o := testHome(t)
	os.MkdirAll(o.Claude.Dir, 0o755)
	os.WriteFile(o.Claude.Settings(), []byte(`{"enabledPlugins": {"rubi@rubi": true, "other@x": true}}`), 0o644)
	o.Hooks = true
	rep, err := Install(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "plugin rubi@rubi is enabled too") {
		t.Errorf("notes: %v", rep.Notes)
	}
}

func TestFindClaude(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	p, _ := FindClaude()
	if p.Dir != filepath.Join(home, ".claude") || p.State != filepath.Join(home, ".claude.json") || p.Settings() != filepath.Join(home, ".claude", "settings.json") {
		t.Errorf("default: %+v", p)
	}
	cfg := filepath.Join(home, "cfg")
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	if p, _ = FindClaude(); p.Dir != cfg || p.State != filepath.Join(cfg, ".claude.json") {
		t.Errorf("CLAUDE_CONFIG_DIR: %+v", p)
	}
	// The legacy state file, read while there is no .claude.json.
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, ".config.json"), []byte(`{"numStartups": 3}`), 0o600)
	if p, _ = FindClaude(); p.State != filepath.Join(cfg, ".config.json") {
		t.Errorf("legacy: %+v", p)
	}
	os.WriteFile(filepath.Join(cfg, ".claude.json"), []byte(`{}`), 0o600)
	if p, _ = FindClaude(); p.State != filepath.Join(cfg, ".claude.json") {
		t.Errorf("both: %+v", p)
	}
}

func TestIsRubiHook(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rubi hook Stop":                          true,
		"/usr/local/bin/rubi hook PreToolUse":     true,
		"'/opt/my tools/rubi' hook Stop":          true,
		`"/opt/my tools/rubi" hook SessionStart`:  true,
		`C:\Users\me\go\bin\rubi.exe hook Stop`:   false, // backslashes are escapes to a shell
		`'C:\Users\me\go\bin\rubi.exe' hook Stop`: true,
		"rubi mcp":                          false,
		"rubi-hooks hook Stop":              false,
		"notify-send rubi hook":             false,
		"rubi; hook Stop":                   false,
		"RUBI_X=1 rubi hook Stop":           false,
		"  rubi   hook   Stop  ":            true,
		"/home/me/rubi/bin/check hook Stop": false,
		"rubi hook":                         true,
		"":                                  false,
		"'unterminated rubi hook":           false,
		"/home/me/go/bin/rubi hook Stop > /tmp/lg": true,
		"rubi-hook Stop":                               true,
		"'/opt/my tools/rubi-hook' PreToolUse":         true,
		"rubi-hook Stop 2>/dev/null || rubi hook Stop": true,
		"rubi-hooks Stop":                              false,
		"rubi-hook":                                    false,
	} {
		if got := IsRubiHook(cmd); got != want {
			t.Errorf("IsRubiHook(%q) = %v", cmd, got)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"rubi":                      "rubi",
		"/home/me/go/bin/rubi":      "/home/me/go/bin/rubi",
		"/opt/my tools/rubi":        "'/opt/my tools/rubi'",
		"/opt/it's/rubi":            `'/opt/it'\''s/rubi'`,
		`C:\Program Files\rubi.exe`: `'C:\Program Files\rubi.exe'`,
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s", in, got)
		}
		if in != "" && !IsRubiHook(HookCommand(in, "", "Stop")) && strings.Contains(in, "rubi") {
			t.Errorf("the hook of %q is not recognised as rubi's", in)
		}
	}
}

// A hook runs rubi-hook where the options' FindHookProgram finds one for
// the rubi the agent starts, and rubi's own hook command where it finds
// none or there is no finder.
func TestHookCommand(t *testing.T) {
	find := func(rubi string) (string, bool) {
		if rubi == "/opt/rubi dir/rubi" {
			return "/opt/rubi dir/rubi-hook", true
		}
		return "", false
	}
	for rubi, want := range map[string]string{
		"/opt/rubi dir/rubi": "'/opt/rubi dir/rubi-hook' Stop",
		"/usr/bin/rubi":      "/usr/bin/rubi hook Stop",
		"rubi":               "rubi hook Stop",
	} {
		got := newHookRun(rubi, find).command("Stop")
		if got != want {
			t.Errorf("the hook of %q is %q, want %q", rubi, got, want)
		}
		if !IsRubiHook(got) {
			t.Errorf("the hook of %q is not recognised as rubi's", rubi)
		}
		if got := newHookRun(rubi, nil).command("Stop"); got != ShellQuote(rubi)+" hook Stop" {
			t.Errorf("without a finder the hook of %q is %q", rubi, got)
		}
	}
}

// rubi install --hooks and rubi connect write the hook program their
// options find into the agents' files.
func TestHooksRunTheProgramFound(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	find := func(rubi string) (string, bool) { return "/opt/rubi/rubi-hook", rubi == "rubi" }
	o := ConnectOptions{Project: filepath.Join(root, "project"), Home: home, Scope: ScopeGlobal, Rubi: "rubi", FindHookProgram: find,
		Getenv: func(string) string { return "" }}
	if _, err := Connect(context.Background(), "codex", o); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(home, ".codex", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"/opt/rubi/rubi-hook Stop"`) || strings.Contains(string(data), " hook Stop") {
		t.Errorf("codex's hooks.json does not run the hook program found:\n%s", data)
	}
}

// The plugin's hooks.json, as shipped (agent/claude/hooks/hooks.json), holds the
// same hooks install writes, in Claude Code's format.
func TestPluginHooksJSON(t *testing.T) {
	const shipped = "../claude/hooks/hooks.json"
	if *update {
		os.WriteFile(shipped, PluginHooksJSON(), 0o644)
	}
	want, err := os.ReadFile(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if got := PluginHooksJSON(); string(got) != string(want) {
		t.Errorf("got:\n%s\nwant (%s):\n%s", got, shipped, want)
	}
	var doc struct {
		Hooks map[string][]hookGroup `json:"hooks"`
	}
	if err := json.Unmarshal(want, &doc); err != nil {
		t.Fatal(err)
	}
	for _, h := range ClaudeHooks() {
		g := doc.Hooks[h.Event]
		if len(g) != 1 || g[0].Matcher != h.Matcher || g[0].Hooks[0].Command != "rubi-hook "+h.Event+" 2>/dev/null || rubi hook "+h.Event || g[0].Hooks[0].Timeout != h.Timeout {
			t.Errorf("%s: %+v", h.Event, g)
		}
	}
}

// rubi registers a hook for every event `rubi hook` handles, and for no
// other.
func TestClaudeHooksMatchTheHandler(t *testing.T) {
	var got []string
	for _, h := range ClaudeHooks() {
		got = append(got, h.Event)
	}
	want := slices.Clone(hooks.Events)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("registered %v, rubi hook handles %v", got, want)
	}
}

func TestAsk(t *testing.T) {
	check := func(s string) error {
		_, err := ParseWindow(s)
		return err
	}
	tests := []struct {
		in, want, prompts string
		err               bool
	}{
		{"\n", "150000", "Window [150000]: ", false},
		{"200k\n", "200k", "Window [150000]: ", false},
		{"", "150000", "Window [150000]: \n", false},                                          // end of input: the default
		{"lots\n90000\n", "90000", "Window [150000]: " + "  \"lots\" is not a number", false}, // asked again
		{"5\n", "150000", "Window [150000]:   a window of 5 tokens is too small", false},      // too small, then the end: the default
		{"5", "", "Window [150000]: ", true},                                                  // too small, and no more input
	}
	for _, tt := range tests {
		var out strings.Builder
		got, err := Ask(bufio.NewReader(strings.NewReader(tt.in)), &out, "Window", "150000", check)
		if got != tt.want || (err != nil) != tt.err || !strings.HasPrefix(out.String(), tt.prompts) {
			t.Errorf("Ask(%q) = %q, %v; printed %q", tt.in, got, err, out.String())
		}
	}
}

func TestParseWindow(t *testing.T) {
	for in, want := range map[string]int{"150000": 150000, "150,000": 150000, "150_000": 150000, "150k": 150000, " 200K ": 200000} {
		if got, err := ParseWindow(in); got != want || err != nil {
			t.Errorf("ParseWindow(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "abc", "-5", "9999", "1.5k"} {
		if _, err := ParseWindow(in); err == nil {
			t.Errorf("ParseWindow(%q): no error", in)
		}
	}
}

func TestNormalizeVault(t *testing.T) {
	wd, _ := os.Getwd()
	for in, want := range map[string]string{
		"~/rubi-vault":     "~/rubi-vault",
		" ~/notes/./a/ ":   "~/notes/a",
		"~":                "~/",
		"/srv/vault":       "/srv/vault",
		"notes":            filepath.Join(wd, "notes"),
		"~/a/../b":         "~/b",
		"/srv/vault/../v2": "/srv/v2",
	} {
		if got, err := NormalizeVault(in); got != want || err != nil {
			t.Errorf("NormalizeVault(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "~other/x", "~/../etc"} {
		if _, err := NormalizeVault(in); err == nil {
			t.Errorf("NormalizeVault(%q): no error", in)
		}
	}
	if DefaultVault() != "~/rubi-vault" {
		t.Errorf("DefaultVault = %q", DefaultVault())
	}
}

// A personal configuration that is not valid HCL is left alone, with the
// line in the error, and nothing else is written either.
func TestBrokenUserConfig(t *testing.T) {
	home, o := testHome(t)
	os.MkdirAll(filepath.Dir(o.UserConfig), 0o755)
	os.WriteFile(o.UserConfig, []byte("budgets {\n  context = \n}\n"), 0o644)
	_, err := Install(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "config.hcl:2:13: Invalid expression") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !os.IsNotExist(err) {
		t.Error("settings.json was written although the transaction failed")
	}
}
