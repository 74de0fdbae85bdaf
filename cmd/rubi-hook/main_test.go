package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// TestMain lets the test binary stand in for rubi-hook when the hook
// under test starts its background index (rubi-hook index DIR).
func TestMain(m *testing.M) {
	if os.Getenv("RUBI_TEST_AS_RUBI_HOOK") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	rubitest.EnglishLocale()
	os.Exit(m.Run())
}

func runHook(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// project writes a small Go project with a git folder.
func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range map[string]string{
		"go.mod":               "module example.com/shop\n\ngo 1.22\n",
		"main.go":              "package main\n\nimport \"example.com/shop/coupon\"\n\nfunc main() { coupon.Apply(1) }\n",
		"coupon/coupon.go":     "// Package coupon applies discounts to orders.\npackage coupon\n\n// Apply applies a coupon.\nfunc Apply(n int) int { return n }\n",
		".git/HEAD":            "ref: refs/heads/main\n",
		"coupon/coupon_doc.md": "Coupons.\n",
	} {
		path := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("RUBI_VAULT", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	return root
}

type answer struct {
	Specific struct {
		Event   string `json:"hookEventName"`
		Context string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// The first session start indexes the project in a background
// rubi-hook index, waits for it, and injects the map; the index ends on
// its own.
func TestSessionStartIndexes(t *testing.T) {
	root := project(t)
	t.Setenv("RUBI_TEST_AS_RUBI_HOOK", "1")
	code, out, errOut := runHook(t, fmt.Sprintf(`{"hook_event_name":"SessionStart","session_id":"s1","cwd":%q,"source":"startup"}`, root), "SessionStart")
	var a answer
	if err := json.Unmarshal([]byte(out), &a); code != 0 || errOut != "" || err != nil || !strings.Contains(a.Specific.Context, "coupon") {
		log, _ := os.ReadFile(filepath.Join(root, ".rubi", "hooks.log"))
		t.Fatalf("exit %d, stderr %q, stdout %q (%v); hooks.log:\n%s", code, errOut, out, err, log)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(root, ".rubi", "index", "manifest.bin")); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("no index was written")
}

// A prompt about what a note says gets the note, as from `rubi hook`.
func TestRecall(t *testing.T) {
	root := project(t)
	cfg, diags := config.Load(config.Options{Root: root})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments})
	ctx := context.Background()
	if _, err := eng.Project().Knowledge().Register(ctx, []knowledge.Input{{Type: knowledge.TypeGotcha, Title: "Coupon applied twice at checkout",
		Body: "The discount ran before the total was recomputed.", Files: []string{"coupon/coupon.go"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	prompt := func(p string) string {
		code, out, errOut := runHook(t, fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":%q,"prompt":%q}`, root, p), "UserPromptSubmit")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		return out
	}
	if out := prompt("why is the coupon applied twice at checkout?"); !strings.Contains(out, "Coupon applied twice at checkout") {
		t.Errorf("recall: %s", out)
	}
	if out := prompt("thanks, looks good"); out != "" {
		t.Errorf("a prompt that matches nothing injected %q", out)
	}
}

func TestUsage(t *testing.T) {
	// A payload that does not read is logged in the working directory's
	// project: a project of the test's, not this checkout.
	root := project(t)
	if err := os.MkdirAll(filepath.Join(root, ".rubi"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	if code, out, _ := runHook(t, "", "version"); code != 0 || !strings.HasPrefix(out, "rubi-hook ") {
		t.Errorf("version: %d %q", code, out)
	}
	for _, args := range [][]string{{"a", "b", "c"}, {"--nope", "Stop"}, {"index"} /* an event named index: ignored */} {
		code, out, errOut := runHook(t, "", args...)
		switch {
		case len(args) == 1:
			if code != 0 || out != "" {
				t.Errorf("%v: exit %d, %q", args, code, out)
			}
		case code != 2 || out != "" || !strings.Contains(errOut, "usage: rubi-hook"):
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// Broken input still exits 0 with nothing injected.
	if code, out, errOut := runHook(t, "not json", "UserPromptSubmit"); code != 0 || out != "" || errOut != "" {
		t.Errorf("malformed payload: exit %d, %q, %q", code, out, errOut)
	}
	if log, _ := os.ReadFile(filepath.Join(root, ".rubi", "hooks.log")); !strings.Contains(string(log), "UserPromptSubmit: payload on stdin") {
		t.Errorf("the malformed payload is not in the project's .rubi/hooks.log:\n%s", log)
	}
}

// At a terminal, with nothing piped in, rubi-hook says what it reads and
// exits 2 instead of waiting for the payload, with or without an event.
func TestAtATerminal(t *testing.T) {
	t.Chdir(project(t))
	want := `rubi-hook: the hook reads the agent's JSON payload on standard input, which is a terminal: an agent's hook runs it with the payload piped in, e.g. echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi-hook UserPromptSubmit (rubi hook --help lists the events)` + "\n"
	for _, args := range [][]string{nil, {"Stop"}, {"--config", "extra.hcl", "SessionStart"}} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, rubitest.Terminal{}, &out, &errOut)
		if code != 2 || out.String() != "" || errOut.String() != want {
			t.Errorf("rubi-hook %v: exit %d, stdout %q, stderr:\n%s", args, code, out.String(), errOut.String())
		}
	}
}
