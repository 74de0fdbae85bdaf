package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// doctorSetup makes an indexed project, a home with no agent configured,
// and a PATH of one folder holding rubi's four programs (links to the
// ones rubitest built); it returns the project and that folder.
func doctorSetup(t *testing.T) (root, bin string) {
	t.Helper()
	built := filepath.Dir(rubitest.Binary(t))
	bin = t.TempDir()
	for _, name := range []string{"rubi", "rubi-hook", "rubi-mcp", "rubi-full"} {
		if err := os.Symlink(filepath.Join(built, name), filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PATH", bin)
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "RUBI_VAULT"} {
		t.Setenv(v, "")
	}
	root = rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	return root, bin
}

// doctorJSON runs rubi doctor --json and returns its exit status and
// report.
func doctorJSON(t *testing.T, root string) (int, doctorReport) {
	t.Helper()
	code, out, errOut := runRubi(t, "doctor", "--root", root, "--json")
	var r doctorReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("doctor --json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	return code, r
}

// problemsOf lists the report's problems as "check/name: detail | fix".
func problemsOf(r doctorReport) []string {
	var out []string
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c.Check+"/"+c.Name+": "+c.Detail+" | "+c.Fix)
		}
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDoctorAllOK(t *testing.T) {
	root, _ := doctorSetup(t)
	// A connected agent whose rubi is on PATH, an old hook error.
	writeFile(t, filepath.Join(root, ".cursor", "mcp.json"), `{"mcpServers": {"rubi": {"command": "rubi", "args": ["mcp"]}}}`)
	writeFile(t, filepath.Join(root, ".rubi", "hooks.log"), time.Now().Add(-72*time.Hour).UTC().Format(time.RFC3339)+" Stop: an old error\n")
	code, r := doctorJSON(t, root)
	if code != 0 || r.Problems != 0 || len(problemsOf(r)) != 0 {
		t.Fatalf("exit %d, %d problems: %q", code, r.Problems, problemsOf(r))
	}
	want := map[string]bool{"programs/rubi-mcp": false, "programs/rubi-hook": false, "programs/rubi-full": false, "index/index": false, "agents/cursor (project)": false, "hooks.log/hooks.log": false, "fixed cost/MCP tools": false}
	for _, c := range r.Checks {
		if _, ok := want[c.Check+"/"+c.Name]; ok {
			want[c.Check+"/"+c.Name] = true
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("no check %s in %+v", k, r.Checks)
		}
	}
	code, out, _ := runRubi(t, "doctor", "--root", root)
	if code != 0 || !strings.Contains(out, "✓ rubi-mcp: ") || !strings.Contains(out, "no problem found") || strings.Contains(out, "✗") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestDoctorFindsProblems(t *testing.T) {
	cases := []struct {
		name string
		// breakIt breaks the setup; want is in the one problem expected,
		// fix in its fix.
		breakIt   func(t *testing.T, root, bin string)
		want, fix string
	}{
		{"missing rubi-mcp", func(t *testing.T, _, bin string) {
			os.Remove(filepath.Join(bin, "rubi-mcp"))
		}, "programs/rubi-mcp: missing", "go install github.com/rubi-dev/rubi/cmd/...@latest"},
		{"agent's rubi path gone", func(t *testing.T, root, _ string) {
			writeFile(t, filepath.Join(root, ".cursor", "mcp.json"), `{"mcpServers": {"rubi": {"command": "/gone/bin/rubi", "args": ["mcp"]}}}`)
		}, "/gone/bin/rubi, which no longer exists", "rubi connect cursor"},
		{"agent's rubi no longer on PATH", func(t *testing.T, root, bin string) {
			home, _ := os.UserHomeDir()
			writeFile(t, filepath.Join(home, ".codex", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "rubi hook Stop"}]}]}}`)
			os.Remove(filepath.Join(bin, "rubi"))
		}, "agents/codex (global): ", "rubi connect codex --global"},
		{"damaged index", func(t *testing.T, root, _ string) {
			files, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "symbols-*"))
			n := 0
			for _, f := range files {
				if data, err := os.ReadFile(f); err == nil && !strings.HasSuffix(f, ".written") {
					writeFile(t, f, string(data[:len(data)/2]))
					n++
				}
			}
			if n == 0 {
				t.Fatalf("no symbols file in %s", filepath.Join(root, ".rubi", "index"))
			}
		}, "index/index: damaged", "rubi index --root " + "ROOT"},
		{"recent hook error", func(t *testing.T, root, _ string) {
			writeFile(t, filepath.Join(root, ".rubi", "hooks.log"),
				time.Now().Add(-72*time.Hour).UTC().Format(time.RFC3339)+" Stop: old\n"+
					time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)+" UserPromptSubmit: recall failed \x1b[31m\n")
		}, "1 hook error(s) in the last 24 hours; the last: ", "hooks.log"},
		{"garbage in an agent's file", func(t *testing.T, root, _ string) {
			writeFile(t, filepath.Join(root, ".gemini", "settings.json"), "{\n  \"mcpServers\": {,\n")
		}, "settings.json", "rubi connect gemini"},
		{"codex project not trusted", func(t *testing.T, root, _ string) {
			writeFile(t, filepath.Join(root, ".codex", "config.toml"), "[mcp_servers.rubi]\ncommand = \"rubi\"\nargs = [\"mcp\"]\n")
		}, "agents/codex trust: Codex does not trust", "trust_level"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, bin := doctorSetup(t)
			tc.breakIt(t, root, bin)
			code, r := doctorJSON(t, root)
			probs := problemsOf(r)
			fix := strings.ReplaceAll(tc.fix, "ROOT", root)
			if code != 1 || r.Problems != len(probs) || len(probs) != 1 || !strings.Contains(probs[0], tc.want) || !strings.Contains(probs[0], fix) {
				t.Fatalf("exit %d, want one problem with %q and fix %q, got %q", code, tc.want, fix, probs)
			}
			if strings.Contains(probs[0], "\x1b") {
				t.Errorf("a control character reached the output: %q", probs[0])
			}
			code, out, _ := runRubi(t, "doctor", "--root", root)
			if code != 1 || !strings.Contains(out, "✗ ") || !strings.Contains(out, "fix: ") || !strings.Contains(out, "\n1 problem\n") {
				t.Errorf("text: exit %d\n%s", code, out)
			}
		})
	}
}

// A trusted project's Codex connection is no problem.
func TestDoctorCodexTrusted(t *testing.T) {
	root, _ := doctorSetup(t)
	home, _ := os.UserHomeDir()
	writeFile(t, filepath.Join(root, ".codex", "config.toml"), "[mcp_servers.rubi]\ncommand = \"rubi\"\nargs = [\"mcp\"]\n")
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), "[projects."+`"`+root+`"`+"]\ntrust_level = \"trusted\"\n")
	if code, r := doctorJSON(t, root); code != 0 {
		t.Fatalf("exit %d: %q", code, problemsOf(r))
	}
}

// rubi doctor --json's keys are documented in docs/cli.md.
func TestDoctorJSONKeysDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## `rubi doctor")
	section, _, _ = strings.Cut(section, "\n## ")
	r := doctorReport{Checks: []doctorCheck{{}}}
	data, _ := json.Marshal(r)
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for k := range top {
		keys = append(keys, k)
	}
	data, _ = json.Marshal(doctorCheck{Fix: "x"})
	var check map[string]any
	_ = json.Unmarshal(data, &check)
	for k := range check {
		keys = append(keys, k)
	}
	if len(keys) != 9 {
		t.Fatalf("keys %q", keys)
	}
	for _, k := range keys {
		if !regexp.MustCompile(`[{ ,]` + k + `[,}]`).MatchString(section) {
			t.Errorf("docs/cli.md's rubi doctor section does not list the key %s", k)
		}
	}
}

// Doctor says what is true of a project without rubi.hcl (the defaults
// are in use) and of a home with no agent connected: both pass, and the
// second says how to connect one.
func TestDoctorSaysWhatIsTrue(t *testing.T) {
	root, _ := doctorSetup(t)
	code, out, _ := runRubi(t, "doctor", "--root", root)
	for _, want := range []string{
		"\n  ✓ rubi.hcl: none in the project: the built-in defaults are in use\n",
		"\n  ✓ agents: no agent is connected: no agent's configuration starts rubi\n      fix: rubi connect --list shows the agents and their files; rubi install sets Claude Code up\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, want %q in:\n%s", code, want, out)
		}
	}
	writeFile(t, filepath.Join(root, "rubi.hcl"), "budgets {\n  context = 900\n}\n")
	if code, out, _ := runRubi(t, "doctor", "--root", root); code != 0 || !strings.Contains(out, "\n  ✓ rubi.hcl: loads\n") {
		t.Errorf("with a rubi.hcl: exit %d:\n%s", code, out)
	}
}
