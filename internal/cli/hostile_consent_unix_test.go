//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// consentRepo is the case: a cloned repository whose rubi.hcl
// names a ranker run by an executable it commits, bin/x, which writes a
// marker outside the project (and the environment it got) when it runs.
func consentRepo(t *testing.T) (root, marker string) {
	t.Helper()
	root, _ = hostileRepo(t, "ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n}\n")
	marker = filepath.Join(t.TempDir(), "pwned")
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	script := fmt.Sprintf("#!/bin/sh\nenv >> %q\necho ran >> %q\nexit 1\n", marker+".env", marker)
	if err := os.WriteFile(filepath.Join(root, "bin", "x"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, marker
}

// ran reports whether bin/x ran since the last call, and forgets it.
func ran(marker string) bool {
	_, err := os.Stat(marker)
	os.Remove(marker)
	return err == nil
}

// A cloned repository's plugin runs from no entry point until the user
// trusts the project: not from the hooks (SessionStart and its
// background index, UserPromptSubmit's recall), not from the MCP server's
// context tool, not from rubi index, context, map, config check or
// plugins; each says, in one line, what it left out and how to trust it.
// After rubi trust it runs, with a minimal environment; a change to
// bin/x or to rubi.hcl stops it until the user trusts the project again;
// rubi trust --revoke stops it too.
func TestAClonedRepositoryRunsNothingUntilTrusted(t *testing.T) {
	bin := rubitest.Binary(t)
	hook := filepath.Join(filepath.Dir(bin), "rubi-hook")
	root, marker := consentRepo(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("RUBI_VAULT", filepath.Join(home, "vault"))
	t.Setenv("RUBI_TEST_SECRET", "hunter2")
	t.Setenv("PATH", "/usr/bin:/bin") // rubi-full only beside rubi

	rubi := func(args ...string) (code int, stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("rubi %s: %v", strings.Join(args, " "), err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errb.String()
	}
	hookRun := func(event string) string {
		t.Helper()
		payload := fmt.Sprintf(`{"hook_event_name":%q,"session_id":"s1","cwd":%q,"prompt":"why is the coupon applied twice in the order database"}`, event, root)
		cmd := exec.Command(hook, event)
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(payload)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rubi-hook %s: %v", event, err)
		}
		// SessionStart's background index ends on its own.
		deadline := time.Now().Add(60 * time.Second)
		for len(processesIn(root)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		return string(out)
	}
	mcpContext := func() string {
		t.Helper()
		stderr := &syncWriter{}
		tr := transport.NewStdioWithOptions(bin, nil, []string{"mcp"},
			transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
				cmd := exec.CommandContext(ctx, command, args...)
				cmd.Dir = root
				return cmd, nil
			}),
			transport.WithCommandStderrWriter(stderr))
		if err := tr.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr)
		defer c.Close()
		req := mcp.InitializeRequest{}
		req.Params.ClientInfo = mcp.Implementation{Name: "rubi-test", Version: "1"}
		if _, err := c.Initialize(context.Background(), req); err != nil {
			t.Fatalf("initialize: %v\n%s", err, stderr)
		}
		call := mcp.CallToolRequest{}
		call.Params.Name = "context"
		call.Params.Arguments = map[string]any{"query": "where is the order database opened"}
		res, err := c.CallTool(context.Background(), call)
		if err != nil || res.IsError {
			t.Fatalf("context tool: %v %+v\n%s", err, res, stderr)
		}
		var text strings.Builder
		for _, ct := range res.Content {
			if tc, ok := ct.(mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if strings.Contains(text.String(), "rubi trust") {
			t.Errorf("the trust notice reached the agent's answer:\n%s", text.String())
		}
		c.Close()
		return stderr.String()
	}
	trustCmd := "rubi trust " + root

	// Untrusted: nothing runs, from any entry point.
	out := hookRun("SessionStart")
	if ran(marker) {
		t.Error("SessionStart (or its background index) ran bin/x")
	}
	var answer struct {
		SystemMessage string `json:"systemMessage"`
		Hook          struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Fatalf("SessionStart: %v: %s", err, out)
	}
	if !strings.HasPrefix(answer.SystemMessage, "rubi: ranker rank.evil (") || !strings.Contains(answer.SystemMessage, trustCmd) {
		t.Errorf("SessionStart does not tell the user: %s", out)
	}
	if strings.Contains(answer.Hook.AdditionalContext, "rubi trust") {
		t.Errorf("the notice is in the model's context: %s", out)
	}
	hookRun("UserPromptSubmit")
	if ran(marker) {
		t.Error("UserPromptSubmit ran bin/x")
	}
	if log := mcpContext(); strings.Count(log, trustCmd) != 1 {
		t.Errorf("the MCP server's log should say it once:\n%s", log)
	}
	if ran(marker) {
		t.Error("the MCP server's context tool ran bin/x")
	}
	for _, args := range [][]string{{"index"}, {"context", "open the order database"}, {"map"}, {"graph"}, {"config", "check"}, {"plugins"}} {
		code, _, stderr := rubi(append(args, "--root", root)...)
		if ran(marker) {
			t.Errorf("rubi %s ran bin/x", args[0])
		}
		if code != 0 || strings.Count(stderr, trustCmd) != 1 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("rubi %s: exit %d, want 0 and one line naming rank.evil and %q:\n%s", args[0], code, trustCmd, stderr)
		}
	}
	code, stdout, _ := rubi("doctor", "--root", root)
	if code != 1 || !strings.Contains(stdout, "not trusted: ranker rank.evil (") || !strings.Contains(stdout, trustCmd) {
		t.Errorf("rubi doctor: exit %d\n%s", code, stdout)
	}

	// Trusted: it runs, without the user's secrets.
	code, stdout, stderr := rubi("trust", root)
	if code != 0 || !strings.Contains(stdout, filepath.Join(root, "rubi.hcl")) || !strings.Contains(stdout, filepath.Join(root, "bin", "x")) {
		t.Fatalf("rubi trust: exit %d\n%s%s", code, stdout, stderr)
	}
	if fi, err := os.Stat(filepath.Join(home, ".config", "rubi", "trust.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("trust.json: %v %v", fi, err)
	}
	rubi("config", "check", "--root", root)
	if !ran(marker) {
		t.Fatal("trusted, bin/x did not run")
	}
	env, _ := os.ReadFile(marker + ".env")
	if strings.Contains(string(env), "hunter2") || !strings.Contains(string(env), "PATH=") {
		t.Errorf("the plugin's environment:\n%s", env)
	}
	hookRun("UserPromptSubmit")
	if !ran(marker) {
		t.Error("trusted, UserPromptSubmit did not run bin/x")
	}
	mcpContext()
	if !ran(marker) {
		t.Error("trusted, the MCP server did not run bin/x")
	}
	if _, stdout, _ := rubi("trust", "--list"); !strings.Contains(stdout, root) {
		t.Errorf("rubi trust --list:\n%s", stdout)
	}

	// bin/x changes: it no longer runs, until trusted again.
	os.WriteFile(filepath.Join(root, "bin", "x"), []byte(fmt.Sprintf("#!/bin/sh\necho changed >> %q\nexit 1\n", marker)), 0o755)
	_, _, stderr = rubi("config", "check", "--root", root)
	if ran(marker) || !strings.Contains(stderr, "changed since you trusted") {
		t.Errorf("bin/x changed: it ran, or no line says so:\n%s", stderr)
	}
	rubi("trust", root)
	rubi("config", "check", "--root", root)
	if !ran(marker) {
		t.Error("trusted again, bin/x did not run")
	}
	// rubi.hcl changes: likewise.
	os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte("ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n  weight = 2\n}\n"), 0o644)
	hookRun("UserPromptSubmit")
	rubi("config", "check", "--root", root)
	if ran(marker) {
		t.Error("rubi.hcl changed: bin/x ran")
	}
	rubi("trust", root)
	if code, stdout, _ := rubi("trust", "--revoke", root); code != 0 || !strings.Contains(stdout, "no longer trusts") {
		t.Errorf("rubi trust --revoke: %d %s", code, stdout)
	}
	rubi("config", "check", "--root", root)
	if ran(marker) {
		t.Error("revoked: bin/x ran")
	}
}

// syncWriter is a strings.Builder safe for the transport's goroutine.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// rubi hands no command to rubi-full for a plugin trust left out: the
// handover would start it.
func TestUntrustedPluginsAreNotHandedOver(t *testing.T) {
	full := fakeProgram(t, "rubi-full")
	var ran []string
	execProgram = func(argv0 string, argv, env []string) error {
		ran = argv
		return nil
	}
	t.Cleanup(func() { execProgram = syscallExec })
	root, marker := consentRepo(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("PATH", filepath.Dir(full))
	for _, args := range [][]string{{"index"}, {"context", "open the order database"}, {"map"}, {"graph"}, {"config", "check"}, {"plugins"}} {
		ran = nil
		code, _, stderr := runRubi(t, append(args, "--root", root)...)
		if code != 0 || ran != nil || !strings.Contains(stderr, "rubi trust "+root) {
			t.Errorf("rubi %s: exit %d, handed over %q\n%s", args[0], code, ran, stderr)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("bin/x ran")
	}
}
