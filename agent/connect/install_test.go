package connect

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rubi-dev/rubi/core/messages"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/install and the plugin's agent/claude/hooks/hooks.json from the results")

// The golden cases in testdata/install are txtar archives:
//
//	-- runs --            one `install [FLAGS]` per line, run in order, or
//	                      `cat PATH` to print a file under the home
//	-- env --             optional NAME=VALUE lines ($HOME is the home)
//	-- home/PATH --       the files before the runs
//	-- want/stdout --     what the runs printed, each after "$ rubi LINE"
//	-- want/home/PATH --  every file and directory (PATH/) after the runs
//
// go test ./agent/connect -update rewrites the want sections; review the diff.
func TestInstallGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/install/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_STATE_HOME", "")
			t.Setenv("CLAUDE_CONFIG_DIR", "")
			t.Setenv("XDG_CONFIG_HOME", "")
			var runs []string
			for _, f := range ar.Files {
				switch {
				case f.Name == "runs":
					runs = strings.Split(strings.TrimSpace(string(f.Data)), "\n")
				case f.Name == "env":
					for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
						name, value, _ := strings.Cut(line, "=")
						t.Setenv(name, strings.ReplaceAll(value, "$HOME", home))
					}
				case strings.HasPrefix(f.Name, "home/"):
					writeFile(t, filepath.Join(home, strings.TrimPrefix(f.Name, "home/")), f.Data)
				}
			}
			var out strings.Builder
			for _, line := range runs {
				if path, ok := strings.CutPrefix(line, "cat "); ok {
					data, err := os.ReadFile(filepath.Join(home, path))
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&out, "$ cat ~/%s\n%s", path, data)
					continue
				}
				fmt.Fprintf(&out, "$ rubi %s\n", line)
				runInstall(t, &out, line)
			}
			got := map[string][]byte{"want/stdout": []byte(strings.ReplaceAll(out.String(), home, "$HOME"))}
			for path, data := range snapshot(t, home) {
				got["want/home/"+path] = data
			}
			compareGolden(t, file, ar, got)
		})
	}
}

// runInstall runs one `install [FLAGS]` line as rubi install does, with
// rubi on PATH, printing the report or the error.
func runInstall(t *testing.T, out *strings.Builder, line string) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "install" {
		t.Fatalf("a run is `install [FLAGS]`: %q", line)
	}
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	vault := fs.String("vault", "", "")
	window := fs.String("window", "", "")
	hooks := fs.Bool("hooks", false, "")
	dryRun := fs.Bool("dry-run", false, "")
	undo := fs.Bool("undo", false, "")
	if err := fs.Parse(fields[1:]); err != nil {
		t.Fatal(err)
	}
	claude, err := FindClaude()
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	o := Options{Claude: claude, UserConfig: filepath.Join(home, ".config", "rubi", "config.hcl"), Hooks: *hooks, DryRun: *dryRun, Rubi: "rubi"}
	var rep *Report
	if *undo {
		rep, err = Uninstall(context.Background(), o)
	} else {
		defVault, defWindow, derr := Defaults(claude, o.UserConfig)
		if derr != nil {
			fmt.Fprintf(out, "error: %v\n", derr)
			return
		}
		if *vault == "" {
			*vault = defVault
		}
		if o.Vault, err = NormalizeVault(*vault); err != nil {
			t.Fatal(err)
		}
		o.Window = defWindow
		if *window != "" {
			if o.Window, err = ParseWindow(*window); err != nil {
				t.Fatal(err)
			}
		}
		rep, err = Install(context.Background(), o)
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

// snapshot returns every file (and, as PATH/, every empty directory)
// under dir by slash path.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel := filepath.ToSlash(path[len(dir)+1:])
		if d.IsDir() {
			if entries, _ := os.ReadDir(path); len(entries) == 0 {
				files[rel+"/"] = nil
			}
			return nil
		}
		data, err := os.ReadFile(path)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, string(filepath.Separator)) {
		return
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
