package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi"
)

// packerDir holds the official MCP Bundle tool, @anthropic-ai/mcpb, and
// the official MCP TypeScript SDK client, at the versions its lock file
// pins (make test installs them).
const packerDir = "testdata/packer"

// noNodeEnv opts out of TestBundle on a machine without Node.js.
const noNodeEnv = "RUBI_TEST_NO_NODE"

// The bundle make mcpb builds validates and packs with the official tool;
// the official tool reads make mcpb's own zip; and the server of the
// packed bundle, unpacked the way Claude Desktop on macOS does it (every
// file 0600) and started as its manifest says (getMcpConfigForManifest,
// in a working directory that is some project, with RUBI_PROJECT_DIR
// naming it), lists its tools to the official SDK client, registers a
// preference into the vault the user chose and finds it again in a new
// conversation: never in the working directory or the home folder. With
// the vault left blank, ~/rubi-vault is the vault; a vault that is a file
// is a tool error naming it.
func TestBundle(t *testing.T) {
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the official MCP Bundle tool and SDK client are not run", noNodeEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: this test runs the official MCP Bundle tool and MCP TypeScript SDK client with Node.js 20 or later (set %s=1 to leave it out)", noNodeEnv)
	}
	mcpb, err := filepath.Abs(filepath.Join(packerDir, "node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{mcpb, filepath.Join(packerDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is missing: run `npm ci` in internal/mcpb/%s (make test does), or set %s=1 to leave this test out", p, packerDir, noNodeEnv)
		}
	}
	host := Target{runtime.GOOS, runtime.GOARCH}
	if !slices.Contains(Targets, host) {
		t.Fatalf("the bundle has no server for this machine, %s: run this test on one of %v", host, Targets)
	}
	// The host's binary only: the one the test starts. The other
	// platforms' are the same program cross-built (CI's cross-build
	// step compiles them), and their part of the bundle, the manifest,
	// is validated below as make mcpb writes it.
	targets := []Target{host}
	tmp := t.TempDir()
	stage := filepath.Join(tmp, "rubi")
	start := time.Now()
	if err := Build(stage, rubi.Version, targets); err != nil {
		t.Fatal(err)
	}
	ours := filepath.Join(tmp, "rubi.mcpb")
	if err := Zip(stage, ours); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(ours); err == nil {
		t.Logf("built %v in %s: rubi.mcpb is %.1f MB", targets, time.Since(start).Round(time.Second), float64(fi.Size())/(1<<20))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tool := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, node, append([]string{mcpb}, args...)...)
		cmd.Dir = tmp
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcpb %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := tool("validate", filepath.Join(stage, "manifest.json")); !strings.Contains(out, "Manifest schema validation passes") {
		t.Errorf("mcpb validate:\n%s", out)
	}
	// make mcpb's manifest, for every platform: Windows's override too.
	every := filepath.Join(tmp, "every platform")
	if err := os.MkdirAll(every, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteManifest(every, NewManifest(rubi.Version, Targets)); err != nil {
		t.Fatal(err)
	}
	if out := tool("validate", filepath.Join(every, "manifest.json")); !strings.Contains(out, "Manifest schema validation passes") {
		t.Errorf("mcpb validate, make mcpb's manifest for %v:\n%s", Targets, out)
	}
	packed := filepath.Join(tmp, "packed.mcpb")
	tool("pack", stage, packed)
	if out := tool("info", ours); !strings.Contains(out, "File: rubi.mcpb") {
		t.Errorf("mcpb info on make mcpb's bundle:\n%s", out)
	}
	want := []string{"manifest.json", "server/rubi-mcp.sh"}
	for _, tg := range targets {
		want = append(want, "server/"+tg.Binary())
	}
	slices.Sort(want)
	for _, bundle := range []string{ours, packed} {
		if got := zipNames(t, bundle, true); !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", filepath.Base(bundle), got, want)
		}
	}

	// Installed as Claude Desktop on macOS installs it: modes dropped.
	installed := filepath.Join(tmp, "Claude Extensions", "rubi")
	unzip(t, packed, installed)
	var m Manifest
	data, err := os.ReadFile(filepath.Join(installed, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if want := NewManifest(rubi.Version, targets); !reflect.DeepEqual(m, want) {
		t.Errorf("the packed bundle's manifest:\n%+v\nwant\n%+v", m, want)
	}
	var manifestTools []string
	for _, tl := range m.Tools {
		manifestTools = append(manifestTools, tl.Name)
	}
	slices.Sort(manifestTools)

	home := filepath.Join(tmp, "home")
	cwd := filepath.Join(tmp, "some project")
	for _, d := range []string{home, cwd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(cwd, "go.mod"), []byte("module example.com/app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "USERPROFILE="+home, "XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "RUBI_VAULT=", "RUBI_PROJECT_DIR="+cwd,
		"LC_ALL=C") // rubi speaks English to the test, whatever the machine's locale
	desktop := func(vault ...string) desktopSeen {
		t.Helper()
		cmd := exec.CommandContext(ctx, node, append([]string{"desktop.mjs", installed, cwd}, vault...)...)
		cmd.Dir = packerDir
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the Desktop client failed: %v\n%s\nstderr:\n%s", err, out, stderr.String())
		}
		var seen desktopSeen
		if err := json.Unmarshal(out, &seen); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return seen
	}
	const note = "personal/knowledge/preference-i-like-practical-examples.md"
	untouched := func(what string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(cwd, ".rubi")); !os.IsNotExist(err) {
			t.Errorf("%s: the server wrote into its working directory's project: %v", what, err)
		}
	}

	vault := filepath.Join(tmp, "My Documents", "Rubi")
	if err := os.MkdirAll(vault, 0o755); err != nil {
		t.Fatal(err)
	}
	seen := desktop(vault)
	if runtime.GOOS != "windows" && (seen.Command != "/bin/sh" || len(seen.Args) != 3 || seen.Args[0] != installed+"/server/rubi-mcp.sh" || seen.Args[2] != vault) {
		t.Errorf("started as %s %q", seen.Command, seen.Args)
	}
	if seen.Server.Name != "rubi" || seen.Server.Version != rubi.Version || !strings.HasPrefix(seen.Instructions, "rubi is the user's personal memory") {
		t.Errorf("server %+v, instructions %q", seen.Server, seen.Instructions)
	}
	if !slices.Equal(seen.Tools, []string{"context", "memory", "read", "register"}) || !slices.Equal(manifestTools, seen.Tools) {
		t.Errorf("tools/list: %v; the manifest lists %v", seen.Tools, manifestTools)
	}
	if seen.Register.IsError || !strings.Contains(seen.Register.Text, "created: preference-i-like-practical-examples ("+note+")") {
		t.Errorf("register: %+v", seen.Register)
	}
	if data, err := os.ReadFile(filepath.Join(vault, filepath.FromSlash(note))); err != nil || !strings.Contains(string(data), "Show a worked example before the theory.") {
		t.Errorf("the preference is not in the chosen vault: %v\n%s", err, data)
	}
	if seen.Context.IsError || !strings.Contains(seen.Context.Text, "I like practical examples") {
		t.Errorf("a new conversation does not find the preference: %+v", seen.Context)
	}
	untouched("a chosen vault")
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the home folder was written into: %v", entries)
	}

	// Left blank: ~/rubi-vault, created.
	seen = desktop()
	if seen.Register.IsError || seen.Context.IsError || !strings.Contains(seen.Context.Text, "I like practical examples") {
		t.Errorf("blank vault: %+v", seen)
	}
	if _, err := os.Stat(filepath.Join(home, "rubi-vault", filepath.FromSlash(note))); err != nil {
		t.Errorf("blank vault: %v", err)
	}
	untouched("a blank vault")

	// A file: every call says so, naming it.
	aFile := filepath.Join(tmp, "notes.txt")
	if err := os.WriteFile(aFile, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen = desktop(aFile)
	for _, r := range []desktopResult{seen.Register, seen.Context} {
		if !r.IsError || !strings.Contains(r.Text, "the vault "+aFile+" is a file, not a folder") {
			t.Errorf("a vault that is a file: %+v", r)
		}
	}
	if len(seen.Tools) != 4 {
		t.Errorf("a vault that is a file: tools/list %v", seen.Tools)
	}
}

// make mcpb's manifest names every platform the bundle carries a binary
// for, in Node's words, and starts the Windows binary directly, the
// others through the launcher; a bundle of the host's binary alone (the
// one TestBundle packs) names the host's platform only.
func TestManifest(t *testing.T) {
	m := NewManifest("1.2.3", Targets)
	if !slices.Equal(m.Compatibility.Platforms, []string{"darwin", "win32", "linux"}) {
		t.Errorf("platforms %v", m.Compatibility.Platforms)
	}
	if c := m.Server.MCPConfig; c.Command != "/bin/sh" || !slices.Equal(c.Args, []string{"${__dirname}/server/rubi-mcp.sh", "--vault", "${user_config.vault}"}) {
		t.Errorf("server %s %q", c.Command, c.Args)
	}
	win, ok := m.Server.MCPConfig.PlatformOverrides["win32"]
	if len(m.Server.MCPConfig.PlatformOverrides) != 1 || !ok || win.Command != "${__dirname}${/}server${/}rubi-mcp-windows-amd64.exe" || !slices.Equal(win.Args, []string{"--vault", "${user_config.vault}"}) {
		t.Errorf("platform overrides %+v", m.Server.MCPConfig.PlatformOverrides)
	}
	if m.Version != "1.2.3" || m.ManifestVersion != "0.3" || m.Server.EntryPoint != "server/rubi-mcp.sh" {
		t.Errorf("manifest %+v", m)
	}
	linux := NewManifest("1.2.3", []Target{{"linux", "amd64"}})
	if !slices.Equal(linux.Compatibility.Platforms, []string{"linux"}) || linux.Server.MCPConfig.PlatformOverrides != nil {
		t.Errorf("linux/amd64 alone: platforms %v, overrides %v", linux.Compatibility.Platforms, linux.Server.MCPConfig.PlatformOverrides)
	}
}

type desktopResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

type desktopSeen struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Server  struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Instructions string        `json:"instructions"`
	Tools        []string      `json:"tools"`
	Register     desktopResult `json:"register"`
	Context      desktopResult `json:"context"`
}

// zipNames lists a zip's files; with execs, it checks that the binaries
// and the launcher are stored executable.
func zipNames(t *testing.T, path string, execs bool) []string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		if f.FileInfo().IsDir() {
			continue
		}
		names = append(names, f.Name)
		if execs && strings.HasPrefix(f.Name, "server/") && runtime.GOOS != "windows" && f.Mode()&0o111 == 0 {
			t.Errorf("%s: %s is stored with mode %v", filepath.Base(path), f.Name, f.Mode())
		}
	}
	slices.Sort(names)
	return names
}

// unzip extracts a bundle into dir with every file 0600, as Claude
// Desktop on macOS does (modelcontextprotocol/mcpb#294).
func unzip(t *testing.T, path, dir string) {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, f := range r.File {
		if f.FileInfo().IsDir() {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(dst, dir+string(filepath.Separator)) {
			t.Fatalf("%s: entry %q leaves the folder", path, f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		src, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err == nil {
			_, err = io.Copy(out, src)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}
