package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped task set loads, and -short picks rubi's own chain, which
// needs no mirror.
func TestShippedTasks(t *testing.T) {
	ts, err := loadTasks("tasks.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Chains) < 3 {
		t.Fatalf("%d chains, want rubi's own and two from the mirrors", len(ts.Chains))
	}
	for _, c := range ts.Chains {
		if len(c.Tasks) < 2 {
			t.Errorf("chain %s has %d tasks: a chain's later tasks build on its earlier ones", c.Name, len(c.Tasks))
		}
	}
	short, err := pick(ts, options{short: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(short) != 1 || short[0].Repo == "" || short[0].Mirror != "" || len(short[0].Tasks) != 2 {
		t.Fatalf("-short picks %+v, want the first chain (a repo, not a mirror) with two tasks", short)
	}
	root, _ := filepath.Abs("../..")
	if short[0].Repo != root {
		t.Errorf("the short chain's repo is %s, want this checkout %s", short[0].Repo, root)
	}
}

// A scripted step's usage is read as written, and a step of rubi's tools
// is left out of the arm without rubi.
func TestScriptSteps(t *testing.T) {
	path := writeTasks(t, `chain "c" {
  repo = "."
  task "t" {
    prompt = "p"
    mock {
      step "read" {
        path  = "a/b.go"
        usage = { input = 3, cache_write = 12000, output = 150 }
      }
      step "register" {
        title = "A note"
        files = ["a/b.go"]
      }
      step "answer" { text = "ok" }
    }
  }
  task "bare" { prompt = "q" }
}
`)
	ts, err := loadTasks(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := ts.Chains[0].Tasks[0].Script
	if len(steps) != 3 || steps[0].Path != "a/b.go" || steps[2].Text != "ok" {
		t.Fatalf("steps %+v", steps)
	}
	if u := steps[0].Usage; u == nil || u.Input != 3 || u.CacheRead != 0 || u.CacheWrite != 12000 || u.Output != 150 {
		t.Errorf("usage %+v, want input 3, cache write 12000, output 150", u)
	}
	if n := steps[1].Note; n.Type != "gotcha" || n.Title != "A note" || len(n.Files) != 1 {
		t.Errorf("note %+v", n)
	}
	if got := forArm(steps, false); len(got) != 2 || got[1].Kind != "answer" {
		t.Errorf("without rubi the script is %+v, want read then answer", got)
	}
	if bare := ts.Chains[0].Tasks[1].Script; len(bare) != 1 || bare[0].Kind != "answer" {
		t.Errorf("a task without mock answers at once, got %+v", bare)
	}
}

// Bad task files are refused with the file and line of the mistake.
func TestTaskFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // each must appear in the error
	}{
		{"syntax", "chain \"c\" {\n  repo = \"x\n}\n", []string{"tasks.hcl:2:"}},
		{"no chain", "# nothing\n", []string{"tasks.hcl:1:", "No chain"}},
		{"no repository", "chain \"c\" {\n  task \"t\" { prompt = \"p\" }\n}\n", []string{"tasks.hcl:1:", "exactly one of repo"}},
		{"repo and mirror", "chain \"c\" {\n  repo = \".\"\n  mirror = \"a/b\"\n  task \"t\" { prompt = \"p\" }\n}\n", []string{"tasks.hcl:1:", "exactly one of repo"}},
		{"bad mirror", "chain \"c\" {\n  mirror = \"requests\"\n  task \"t\" { prompt = \"p\" }\n}\n", []string{"tasks.hcl:2:", "OWNER/NAME"}},
		{"no task", "chain \"c\" {\n  repo = \".\"\n}\n", []string{"tasks.hcl:1:", "no task block"}},
		{"no prompt", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n  }\n}\n", []string{"tasks.hcl:3:", "prompt"}},
		{"unknown attribute", "chain \"c\" {\n  repo = \".\"\n  branch = \"main\"\n  task \"t\" { prompt = \"p\" }\n}\n", []string{"tasks.hcl:3:", "branch"}},
		{"unknown step", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"edit\" { path = \"a\" }\n      step \"answer\" { text = \"x\" }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:6:", `step "edit"`}},
		{"answer not last", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"answer\" { text = \"x\" }\n      step \"read\" { path = \"a\" }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:6:", "last step", "tasks.hcl:5:", "ends with"}},
		{"bad usage", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"answer\" {\n        text = \"x\"\n        usage = { input = 1, cached = 2 }\n      }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:8:", `no field "cached"`}},
		{"fractional usage", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"answer\" {\n        text = \"x\"\n        usage = { input = 1.5 }\n      }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:8:", "whole number"}},
		{"path outside", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"read\" { path = \"../secret\" }\n      step \"answer\" { text = \"x\" }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:6:", "relative to the repository"}},
		{"duplicate chain", "chain \"c\" {\n  repo = \".\"\n  task \"t\" { prompt = \"p\" }\n}\nchain \"c\" {\n  repo = \".\"\n  task \"t\" { prompt = \"p\" }\n}\n",
			[]string{"tasks.hcl:5:", "already defined at", "tasks.hcl:1"}},
		{"unknown note type", "chain \"c\" {\n  repo = \".\"\n  task \"t\" {\n    prompt = \"p\"\n    mock {\n      step \"register\" {\n        title = \"x\"\n        type = \"idea\"\n      }\n      step \"answer\" { text = \"x\" }\n    }\n  }\n}\n",
			[]string{"tasks.hcl:8:", `type "idea"`}},
		{"missing knowledge", "chain \"c\" {\n  repo = \".\"\n  knowledge = \"seeds\"\n  task \"t\" { prompt = \"p\" }\n}\n", []string{"tasks.hcl:3:", "not a folder of notes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadTasks(writeTasks(t, tc.src))
			if err == nil {
				t.Fatalf("loaded:\n%s", tc.src)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
	if _, err := loadTasks(filepath.Join(t.TempDir(), "missing.hcl")); err == nil || !strings.Contains(err.Error(), "missing.hcl") {
		t.Errorf("a missing task file: %v, want an error naming it", err)
	}
}

// writeTasks writes src as tasks.hcl in a new folder and returns its path.
func writeTasks(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tasks.hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
