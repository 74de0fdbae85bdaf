package connect

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rubi-dev/rubi/core/messages"
)

// The golden cases in testdata/connect are txtar archives:
//
//	-- runs --              one `connect AGENT [--global] [--dry-run]
//	                        [--undo]` per line, run in order, or `cat PATH`
//	                        to print a file (home/... or project/...)
//	-- home/PATH --         the user's files before the runs
//	-- project/PATH --      the project's files before the runs
//	-- want/stdout --       what the runs printed, each after "$ rubi LINE"
//	-- want/home/PATH --    every file and empty directory after the runs
//	-- want/project/PATH --
//
// go test ./agent/connect -run TestConnectGolden -update rewrites the want
// sections; review the diff.
func TestConnectGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/connect/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
			os.MkdirAll(home, 0o755)
			os.MkdirAll(project, 0o755)
			t.Setenv("HOME", home)
			for _, name := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "CODEX_HOME", "APPDATA"} {
				t.Setenv(name, "")
			}
			var runs []string
			for _, f := range ar.Files {
				switch {
				case f.Name == "runs":
					runs = strings.Split(strings.TrimSpace(string(f.Data)), "\n")
				case strings.HasPrefix(f.Name, "home/"), strings.HasPrefix(f.Name, "project/"):
					writeFile(t, filepath.Join(root, f.Name), f.Data)
				}
			}
			var out strings.Builder
			for _, line := range runs {
				if path, ok := strings.CutPrefix(line, "cat "); ok {
					data, err := os.ReadFile(filepath.Join(root, path))
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "$ cat %s\n%s", path, data)
					continue
				}
				fmt.Fprintf(&out, "$ rubi %s\n", line)
				runConnect(t, &out, line, home, project)
			}
			// A project's backups are in a folder named for the project
			// and a hash of its path, which differs from run to run.
			stdout := strings.ReplaceAll(strings.ReplaceAll(out.String(), project, "$PROJECT"), home, "~")
			stdout = backupKey.ReplaceAllString(stdout, "${1}KEY")
			got := map[string][]byte{"want/stdout": []byte(stdout)}
			for path, data := range snapshot(t, root) {
				path = backupKey.ReplaceAllString(path, "${1}KEY")
				if strings.HasSuffix(path, ".lock/") {
					t.Errorf("a lock was left behind: %s", path)
				}
				if path == "home/" || path == "project/" {
					continue
				}
				got["want/"+path] = data
			}
			compareGolden(t, file, ar, got)
		})
	}
}

// backupKey finds the hash in a project's backup folder's name.
var backupKey = regexp.MustCompile(`(rubi/backups/[^/]*-)[0-9a-f]{12}`)

// compareGolden checks got against the archive's want sections, or
// rewrites them with -update.
func compareGolden(t *testing.T, file string, ar *txtar.Archive, got map[string][]byte) {
	t.Helper()
	if *update {
		var keep []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want/") {
				keep = append(keep, f)
			}
		}
		names := make([]string, 0, len(got))
		for name := range got {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			keep = append(keep, txtar.File{Name: name, Data: got[name]})
		}
		ar.Files = keep
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := map[string][]byte{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			want[f.Name] = f.Data
		}
	}
	for name, data := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s is missing", name)
		} else if !bytes.Equal(g, data) {
			t.Errorf("%s:\n%s\nwant:\n%s", name, g, data)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected %s:\n%s", name, got[name])
		}
	}
}

// runConnect runs one `connect AGENT [FLAGS]` line as rubi connect does,
// with rubi on PATH, printing the report or the error.
func runConnect(t *testing.T, out *strings.Builder, line, home, project string) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) < 2 || fields[0] != "connect" {
		t.Fatalf("a run is `connect AGENT [FLAGS]`: %q", line)
	}
	fs := flag.NewFlagSet("connect", flag.ContinueOnError)
	global := fs.Bool("global", false, "")
	dryRun := fs.Bool("dry-run", false, "")
	undo := fs.Bool("undo", false, "")
	if err := fs.Parse(fields[2:]); err != nil {
		t.Fatal(err)
	}
	o := ConnectOptions{Project: project, Home: home, Scope: ScopeProject, Rubi: "rubi", DryRun: *dryRun}
	if *global {
		o.Scope = ScopeGlobal
	}
	var rep *Report
	var err error
	if *undo {
		rep, err = Disconnect(context.Background(), fields[1], o)
	} else {
		rep, err = Connect(context.Background(), fields[1], o)
	}
	if rep != nil && (err == nil || len(rep.Files) > 0) {
		var b bytes.Buffer
		WriteReport(&b, messages.English, rep)
		out.Write(b.Bytes())
	}
	if err != nil {
		fmt.Fprintf(out, "error: %v\n", err)
	}
}

// Every agent, in both scopes, over files full of other settings: connect
// changes them, a second connect changes nothing (byte for byte), and the
// undo gives back every file as it was, removing those rubi created.
func TestConnectRoundTrip(t *testing.T) {
	for _, name := range AgentNames() {
		for _, scope := range []Scope{ScopeProject, ScopeGlobal} {
			t.Run(name+"/"+string(scope), func(t *testing.T) {
				root := t.TempDir()
				home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
				os.MkdirAll(project, 0o755)
				os.MkdirAll(home, 0o755)
				t.Setenv("HOME", home)
				for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "CODEX_HOME", "APPDATA"} {
					t.Setenv(v, "")
				}
				o := ConnectOptions{Project: project, Home: home, Scope: scope, Rubi: "rubi"}
				a, _ := findAgent(name)
				parts, err := a.parts(o)
				if err != nil {
					t.Skip(err)
				}
				// Half the files exist with settings of the user's own.
				for i, p := range parts {
					if i%2 == 0 && !p.owned {
						writeFile(t, p.file.path, []byte(sampleConfig(p.file.path)))
					}
				}
				before := snapshot(t, root)
				if _, err := Connect(context.Background(), name, o); err != nil {
					t.Fatal(err)
				}
				once := snapshot(t, root)
				for _, p := range parts {
					st, _ := readState(p.file)
					if !p.connected(st) {
						t.Errorf("%s: not connected after connect:\n%s", p.file.path, st.data)
					}
				}
				rep, err := Connect(context.Background(), name, o)
				if err != nil || len(rep.Files) > 0 {
					t.Fatalf("a second connect changed %v (%v)", rep.Files, err)
				}
				if !equalSnapshots(once, snapshot(t, root)) {
					t.Error("a second connect changed bytes")
				}
				if _, err := Disconnect(context.Background(), name, o); err != nil {
					t.Fatal(err)
				}
				after := snapshot(t, root)
				// A project's backups are kept in the user's state folder,
				// never in the project.
				original := map[string]string{}
				placed, _ := o.partsOf(a)
				for _, p := range placed {
					if rel, err := filepath.Rel(root, p.file.backupPath()); err == nil {
						path, _ := filepath.Rel(root, p.file.path)
						original[filepath.ToSlash(rel)] = filepath.ToSlash(path)
					}
				}
				for path, data := range after {
					if strings.HasSuffix(path, BackupSuffix) {
						delete(after, path)
						if want, ok := before[original[path]]; !ok || !bytes.Equal(data, want) {
							t.Errorf("backup %s is not the file before rubi", path)
						}
						if scope == ScopeProject && strings.HasPrefix(path, "project/") {
							t.Errorf("backup %s left in the project", path)
						}
					}
				}
				for path := range after {
					if strings.HasPrefix(path, "home/.local/state/rubi/backups/") {
						delete(after, path)
					}
				}
				if _, ok := before["home/"]; ok && !slices.ContainsFunc(slices.Collect(maps.Keys(after)), func(p string) bool { return strings.HasPrefix(p, "home/") }) {
					after["home/"] = nil // it holds only the backups' folder
				}
				if !equalSnapshots(before, after) {
					t.Errorf("after the undo:\n%v\nbefore:\n%v", keys(after), keys(before))
					for p, d := range after {
						if !bytes.Equal(d, before[p]) {
							t.Errorf("%s:\n%s\nwas:\n%s", p, d, before[p])
						}
					}
				}
			})
		}
	}
}

// sampleConfig is a file of the user's own, in the file's format.
func sampleConfig(path string) string {
	switch filepath.Ext(path) {
	case ".toml":
		return "# my Codex settings\nmodel = \"o3\" # the best\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"
	case ".yaml":
		return "# my settings\nname: mine\nversion: 1.0.0\nschema: v1\n\nextensions:\n  developer:\n    type: builtin   # on\n    enabled: true\n\nmcpServers:\n  - name: other\n    command: x\n"
	case ".json", ".jsonc":
		if strings.Contains(path, "cline") { // strict JSON
			return "{\n  \"mcpServers\": {\"other\": {\"command\": \"x\"}}\n}\n"
		}
		return "{\n  // mine\n  \"theme\": \"dark\",\n  \"mcpServers\": {\"other\": {\"command\": \"x\"}},\n  \"servers\": {},\n  \"context_servers\": {},\n}\n"
	}
	return "# Notes of my own\n\nKeep tests green.\n"
}

func equalSnapshots(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The hooks `rubi connect codex --global` writes are the example
// hooks.json that e2e's TestCodexHooks runs in the real Codex CLI.
func TestCodexHooksAreTheExample(t *testing.T) {
	root := t.TempDir()
	o := ConnectOptions{Project: filepath.Join(root, "project"), Home: filepath.Join(root, "home"), Scope: ScopeGlobal, Rubi: "rubi",
		Getenv: func(string) string { return "" }}
	if _, err := Connect(context.Background(), "codex", o); err != nil {
		t.Fatal(err)
	}
	var got, want any
	for path, v := range map[string]*any{filepath.Join(o.Home, ".codex", "hooks.json"): &got, "../../examples/agents/codex/.codex/hooks.json": &want} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		w, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("hooks.json:\n%s\nthe example:\n%s", g, w)
	}
}
