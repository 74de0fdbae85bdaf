// Command mcpb builds rubi.mcpb, rubi's Claude Desktop extension: an MCP
// Bundle (github.com/modelcontextprotocol/mcpb), a zip of manifest.json
// and rubi's MCP server, rubi-mcp, as static binaries for macOS, Windows
// and Linux. make mcpb runs it:
//
//	go run ./internal/mcpb [-o dist/rubi.mcpb] [-targets darwin/arm64,...] [-version V]
//
// Claude Desktop gives an extension's server no project folder, so the
// manifest starts rubi-mcp --vault with the folder the user chose when
// installing it (user_config.vault; blank is the configured vault,
// ~/rubi-vault by default): the server serves that vault alone, the
// memory tools without the code map (mcpserver.Options.VaultOnly).
//
// On macOS and Linux the manifest runs server/rubi-mcp.sh with /bin/sh,
// which picks the binary of the processor and gives it back the execute
// bit Claude Desktop drops when it unpacks; Windows runs the amd64 binary
// directly (Windows on Arm runs it emulated). The bundle (manifest
// version 0.3) holds rubi-mcp cross-built static and stripped for
// darwin/arm64 (its ad-hoc signature checked), darwin/amd64,
// windows/amd64, linux/amd64 and linux/arm64.
//
// TestBundle builds the bundle with the host's binary only, the one it
// runs (each platform compiles Go's standard library and every dependency
// anew: with a cold build cache on 2 busy cores, the five took 13 minutes,
// 7.8 of CPU, and the host's alone 2.5, 1.8 of CPU), and the official MCP Bundle tool (@anthropic-ai/mcpb, pinned
// with the MCP TypeScript SDK in testdata/packer, installed by npm ci)
// validates its manifest and the manifest make mcpb writes for every
// platform, packs the folder and reads make mcpb's own zip. The packed bundle is unpacked with every file 0600, as Claude
// Desktop on macOS does (modelcontextprotocol/mcpb#294), and desktop.mjs
// starts its server as the manifest says, through the tool's
// getMcpConfigForManifest (the code Claude Desktop uses): the SDK client
// lists the tools, registers a preference and finds it in a second
// connection, in the chosen vault, in ~/rubi-vault when the setting is
// blank, and gets an error naming the path when the vault is a file;
// nothing is written into the working directory's project or the home
// folder.
package main

import (
	"archive/zip"
	"bytes"
	"debug/macho"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi"
)

// launcher is server/rubi-mcp.sh, the server on macOS and Linux.
//
//go:embed launcher.sh
var launcher []byte

// serverPackage is what the bundle's binaries are built from.
const serverPackage = "github.com/rubi-dev/rubi/cmd/rubi-mcp"

// Target is a platform the bundle carries a binary for.
type Target struct{ GOOS, GOARCH string }

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// Binary is the target's file in the bundle's server/ folder.
func (t Target) Binary() string {
	name := "rubi-mcp-" + t.GOOS + "-" + t.GOARCH
	if t.GOOS == "windows" {
		name += ".exe"
	}
	return name
}

// Targets are the platforms Claude Desktop runs on: macOS on Apple
// silicon and Intel, Windows (on Arm too, emulated), and Linux.
var Targets = []Target{{"darwin", "arm64"}, {"darwin", "amd64"}, {"windows", "amd64"}, {"linux", "amd64"}, {"linux", "arm64"}}

// Manifest is manifest.json, per the MCP Bundle specification (manifest
// version 0.3, the latest @anthropic-ai/mcpb validates).
type Manifest struct {
	ManifestVersion string                `json:"manifest_version"`
	Name            string                `json:"name"`
	DisplayName     string                `json:"display_name"`
	Version         string                `json:"version"`
	Description     string                `json:"description"`
	LongDescription string                `json:"long_description"`
	Author          Author                `json:"author"`
	Homepage        string                `json:"homepage"`
	Documentation   string                `json:"documentation"`
	Server          Server                `json:"server"`
	Tools           []Tool                `json:"tools"`
	Keywords        []string              `json:"keywords"`
	Compatibility   Compatibility         `json:"compatibility"`
	UserConfig      map[string]UserConfig `json:"user_config"`
}

type Author struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type Server struct {
	Type       string    `json:"type"`
	EntryPoint string    `json:"entry_point"`
	MCPConfig  MCPConfig `json:"mcp_config"`
}

// MCPConfig is how the host starts the server; it replaces ${__dirname}
// (the installed bundle), ${/} (the path separator) and ${user_config.X}.
type MCPConfig struct {
	Command           string               `json:"command"`
	Args              []string             `json:"args"`
	PlatformOverrides map[string]MCPConfig `json:"platform_overrides,omitempty"`
}

type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type Compatibility struct {
	Platforms []string `json:"platforms"`
}

type UserConfig struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// Files in the bundle.
const (
	manifestFile = "manifest.json"
	launcherFile = "server/rubi-mcp.sh"
)

// vaultArgs pass the user's vault folder to rubi-mcp.
var vaultArgs = []string{"--vault", "${user_config.vault}"}

// hostPlatform is Node's name (process.platform), which the manifest's
// compatibility and platform_overrides use, of a GOOS.
func hostPlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// NewManifest is the manifest of a bundle with binaries for targets.
func NewManifest(version string, targets []Target) Manifest {
	m := Manifest{
		ManifestVersion: "0.3",
		Name:            "rubi",
		DisplayName:     "Rubi",
		Version:         version,
		Description:     "Personal memory for Claude: your preferences, decisions and notes as a knowledge graph in a folder you choose, searched locally.",
		LongDescription: "Rubi keeps what you ask Claude to remember as plain markdown notes in your vault folder " +
			"(`personal/knowledge/`, one file per note, readable in Obsidian), and finds them again with a local hybrid search " +
			"(BM25, names and Personalized PageRank over the notes' links). It also saves and reads handoffs: where a long piece " +
			"of work stands, for the next conversation.\n\n" +
			"Choose an empty folder used only by Rubi (for example Documents/Rubi, or an Obsidian vault); leave it blank for " +
			"~/rubi-vault, the vault Rubi's Claude Code plugin uses too. Nothing leaves your machine.\n\n" +
			"In Claude Desktop Rubi provides the memory; the code map of a project and the automatic hooks (recall, meter, " +
			"early compaction) need Claude Code.",
		Author:        Author{Name: "rubi-dev", URL: "https://github.com/rubi-dev/rubi"},
		Homepage:      "https://github.com/rubi-dev/rubi",
		Documentation: "https://github.com/rubi-dev/rubi#claude-desktop",
		Server: Server{
			Type:       "binary",
			EntryPoint: launcherFile,
			MCPConfig: MCPConfig{
				Command: "/bin/sh",
				Args:    append([]string{"${__dirname}/" + launcherFile}, vaultArgs...),
			},
		},
		Tools: []Tool{
			{"context", "Search your notes and handoffs within a token budget."},
			{"register", "Store a preference, decision or note in your vault."},
			{"read", "Read a stored note in full."},
			{"memory", "Save and read handoffs and conversation notes."},
		},
		Keywords: []string{"memory", "knowledge graph", "notes", "preferences", "obsidian", "markdown", "local"},
		UserConfig: map[string]UserConfig{
			"vault": {
				Type:  "directory",
				Title: "Vault folder",
				Description: "An empty folder used only by Rubi for your notes, e.g. Documents/Rubi or an Obsidian vault. " +
					"Leave it blank to use ~/rubi-vault. Don't pick a busy folder like Downloads.",
			},
		},
	}
	for _, t := range targets {
		p := hostPlatform(t.GOOS)
		if !slices.Contains(m.Compatibility.Platforms, p) {
			m.Compatibility.Platforms = append(m.Compatibility.Platforms, p)
		}
		if t.GOOS == "windows" {
			m.Server.MCPConfig.PlatformOverrides = map[string]MCPConfig{"win32": {
				Command: "${__dirname}${/}server${/}" + t.Binary(),
				Args:    vaultArgs,
			}}
		}
	}
	return m
}

// Build writes the bundle's folder into dir: manifest.json, the launcher
// and rubi-mcp built for each target (static, stripped, version set).
// Apple silicon runs only signed code: a darwin/arm64 binary without the
// ad-hoc signature Go's linker gives it is an error.
func Build(dir, version string, targets []Target) error {
	for _, t := range targets {
		if !slices.Contains(Targets, t) {
			return fmt.Errorf("no target %s: the bundle carries %v", t, Targets)
		}
		if t.GOOS == "windows" && slices.ContainsFunc(targets, func(o Target) bool { return o.GOOS == "windows" && o != t }) {
			return fmt.Errorf("one windows target only: the manifest starts one binary there")
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "server"), 0o755); err != nil {
		return err
	}
	for _, t := range targets {
		out := filepath.Join(dir, "server", t.Binary())
		cmd := exec.Command("go", "build", "-ldflags", "-s -w -X github.com/rubi-dev/rubi.Version="+version, "-o", out, serverPackage)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build for %s: %v\n%s", t, err, msg)
		}
		if t == (Target{"darwin", "arm64"}) {
			if err := checkSigned(out); err != nil {
				return err
			}
		}
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(launcherFile)), launcher, 0o755); err != nil {
		return err
	}
	return WriteManifest(dir, NewManifest(version, targets))
}

// WriteManifest writes m as dir's manifest.json.
func WriteManifest(dir string, m Manifest) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, manifestFile), b.Bytes(), 0o644)
}

// checkSigned fails unless the Mach-O binary at path has a code signature
// (LC_CODE_SIGNATURE).
func checkSigned(path string) error {
	f, err := macho.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	const lcCodeSignature = 0x1d
	for _, l := range f.Loads {
		if raw := l.Raw(); len(raw) >= 4 && f.ByteOrder.Uint32(raw) == lcCodeSignature {
			return nil
		}
	}
	return fmt.Errorf("%s has no code signature: macOS would refuse to run it", path)
}

// Zip packs the bundle's folder dir into the .mcpb file out: every file,
// in name order, with its Unix mode (executables 0755) and one time.
func Zip(dir, out string) error {
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(names)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	stamp := time.Now().UTC().Truncate(time.Second)
	for _, name := range names {
		if err := addFile(zw, filepath.Join(dir, filepath.FromSlash(name)), name, stamp); err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func addFile(zw *zip.Writer, path, name string, stamp time.Time) error {
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: stamp}
	mode := fs.FileMode(0o644)
	if fi.Mode()&0o111 != 0 {
		mode = 0o755
	}
	h.SetMode(mode)
	w, err := zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, src)
	return err
}

// parseTargets reads -targets: "all", "host" or GOOS/GOARCH,...
func parseTargets(s, goos, goarch string) ([]Target, error) {
	switch s {
	case "all":
		return Targets, nil
	case "host":
		s = goos + "/" + goarch
	}
	var out []Target
	for _, part := range strings.Split(s, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(part), "/")
		t := Target{os, arch}
		if !ok || !slices.Contains(Targets, t) {
			return nil, fmt.Errorf("-targets %q: %q is not one of %v (or all, host)", s, part, Targets)
		}
		out = append(out, t)
	}
	return out, nil
}

func main() {
	out := flag.String("o", "dist/rubi.mcpb", "the bundle to write; its folder is written beside it, without the .mcpb")
	targets := flag.String("targets", "all", `the platforms: "all", "host", or GOOS/GOARCH,...`)
	version := flag.String("version", rubi.Version, "the version of the bundle and of its binaries")
	flag.Parse()
	if err := run(*out, *targets, *version); err != nil {
		fmt.Fprintln(os.Stderr, "mcpb:", err)
		os.Exit(1)
	}
}

func run(out, targetList, version string) error {
	goos, goarch, err := goEnv()
	if err != nil {
		return err
	}
	targets, err := parseTargets(targetList, goos, goarch)
	if err != nil {
		return err
	}
	if !strings.HasSuffix(out, ".mcpb") {
		return fmt.Errorf("-o %s: a bundle's name ends in .mcpb", out)
	}
	dir := strings.TrimSuffix(out, ".mcpb")
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := Build(dir, version, targets); err != nil {
		return err
	}
	if err := Zip(dir, out); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%.1f MB; %s: manifest.json, server/): %v\n", out, float64(fi.Size())/(1<<20), dir, targets)
	return nil
}

// goEnv is the go command's GOOS and GOARCH, the host's unless set.
func goEnv() (string, string, error) {
	msg, err := exec.Command("go", "env", "GOOS", "GOARCH").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env: %v", err)
	}
	f := strings.Fields(string(msg))
	if len(f) != 2 {
		return "", "", errors.New("go env GOOS GOARCH: unexpected output")
	}
	return f[0], f[1], nil
}
