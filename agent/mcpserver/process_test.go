package mcpserver

import (
	"context"
	"encoding/json"
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

// The tests in this file run the real rubi binary, built once per test
// run into a temporary directory.

func TestMain(m *testing.M) { os.Exit(rubitest.Main(m)) }

// procClient starts `rubi mcp` as a subprocess in dir and connects to it
// over stdio. The process is stopped when the test ends.
func procClient(t *testing.T, dir string, env []string, opts ...client.ClientOption) (*client.Client, *exec.Cmd, *syncBuffer) {
	t.Helper()
	bin := rubitest.Binary(t)
	stderr := &syncBuffer{}
	var cmd *exec.Cmd
	tr := transport.NewStdioWithOptions(bin, env, []string{"mcp", "--log-level", "info"},
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd = exec.CommandContext(ctx, command, args...)
			cmd.Env = append(os.Environ(), env...)
			cmd.Dir = dir
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(stderr))
	if err := tr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, opts...)
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "rubi-test", Version: "1"}
	if _, err := c.Initialize(context.Background(), req); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr)
	}
	return c, cmd, stderr
}

// testEnv keeps the user's configuration and vault out of a subprocess,
// and its temporary files (Node's compile cache) in the test's folder.
func testEnv(t *testing.T) []string {
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "RUBI_VAULT=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "RUBI_PROJECT_DIR=", "TMPDIR=" + t.TempDir()}
}

// rubi mcp as a real subprocess, in both protocol eras: everything on
// stdout is protocol (the client would choke otherwise), logs go to
// stderr, and closing stdin ends the process.
func TestStdioSubprocess(t *testing.T) {
	for _, version := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.ProtocolVersion20250618} {
		t.Run(version, func(t *testing.T) {
			root := writeProject(t, rubitest.GoProject)
			writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
			c, cmd, stderr := procClient(t, filepath.Join(root, "store"), testEnv(t), client.WithProtocolVersion(version))
			if got := c.ProtocolVersion(); got != version {
				t.Errorf("negotiated %s", got)
			}
			list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil || len(list.Tools) != 4 {
				t.Fatalf("tools: %v %v", list, err)
			}
			out, _ := ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "gotcha", "title": "Migrate locks the orders table", "body": "Run it off-hours.", "files": []string{"store/migrate.go"}}}})
			if !strings.HasPrefix(out, "created: gotcha-migrate-locks-the-orders-table") {
				t.Errorf("register: %s", out)
			}
			if out, _ = ok(t, c, "context", map[string]any{"query": "when can the schema migration run", "terms": []string{"migrate", "lock"}}); !strings.Contains(out, "Migrate locks the orders table") {
				t.Errorf("context:\n%s", out)
			}
			if out, _ = ok(t, c, "read", map[string]any{"target": "store/store.go:4"}); !strings.Contains(out, "4\t// Open connects to the order database.") {
				t.Errorf("read:\n%s", out)
			}
			fails(t, c, "read", map[string]any{"target": "../../outside"}, "inside the project")
			// The project is the one around the working directory.
			if _, err := os.Stat(filepath.Join(root, ".rubi", "knowledge", "gotcha-migrate-locks-the-orders-table.md")); err != nil {
				t.Error(err)
			}

			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if cmd.ProcessState == nil || !cmd.ProcessState.Exited() || cmd.ProcessState.ExitCode() != 0 {
				t.Errorf("rubi mcp after stdin closed: %v\nstderr:\n%s", cmd.ProcessState, stderr)
			}
			if !strings.Contains(stderr.String(), "project opened: root="+root) {
				t.Errorf("no log on stderr:\n%s", stderr)
			}
		})
	}
}

// Two servers and the command line write to one project at once: every
// node is stored, and every merge into a shared node keeps its text.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	root := writeProject(t, rubitest.GoProject)
	env := append(testEnv(t), "RUBI_PROJECT_DIR="+root)
	const rounds = 6
	a, _, _ := procClient(t, t.TempDir(), env)
	b, _, _ := procClient(t, t.TempDir(), env)

	var wg sync.WaitGroup
	errs := make(chan error, 3*rounds)
	for _, w := range []struct {
		name string
		c    *client.Client
	}{{"a", a}, {"b", b}} {
		wg.Go(func() {
			for i := range rounds {
				nodes := []any{
					map[string]any{"type": "note", "title": fmt.Sprintf("Server %s note %d", w.name, i), "body": "written by server " + w.name},
					map[string]any{"type": "note", "title": "Shared log", "body": fmt.Sprintf("line from server %s, round %d", w.name, i)},
				}
				req := mcp.CallToolRequest{}
				req.Params.Name = "register"
				req.Params.Arguments = map[string]any{"nodes": nodes}
				res, err := w.c.CallTool(context.Background(), req)
				if err != nil || res.IsError {
					errs <- fmt.Errorf("server %s round %d: %v %v", w.name, i, err, res)
					return
				}
				// Queries re-index while the others write.
				req.Params.Name = "context"
				req.Params.Arguments = map[string]any{"query": "shared log"}
				if res, err := w.c.CallTool(context.Background(), req); err != nil || res.IsError {
					errs <- fmt.Errorf("server %s context: %v %v", w.name, err, res)
				}
			}
		})
	}
	wg.Go(func() {
		for i := range rounds {
			for _, args := range [][]string{
				{"--title", fmt.Sprintf("CLI note %d", i), "--body", "written by the command line"},
				{"--title", "Shared log", "--body", fmt.Sprintf("line from the command line, round %d", i)},
			} {
				cmd := exec.Command(rubitest.Binary(t), append([]string{"register", "--root", root, "--type", "note"}, args...)...)
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil {
					errs <- fmt.Errorf("rubi register: %v\n%s", err, out)
				}
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	cmd := exec.Command(rubitest.Binary(t), "nodes", "--json", "--root", root)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var nodes []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if err := json.Unmarshal(out, &nodes); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	titles := map[string]string{}
	for _, n := range nodes {
		titles[n.Title] = n.Body
	}
	if len(nodes) != 3*rounds+1 {
		t.Errorf("%d nodes, want %d", len(nodes), 3*rounds+1)
	}
	for i := range rounds {
		for _, title := range []string{fmt.Sprintf("Server a note %d", i), fmt.Sprintf("Server b note %d", i), fmt.Sprintf("CLI note %d", i)} {
			if _, ok := titles[title]; !ok {
				t.Errorf("lost node %q", title)
			}
		}
		for _, line := range []string{fmt.Sprintf("line from server a, round %d", i), fmt.Sprintf("line from server b, round %d", i), fmt.Sprintf("line from the command line, round %d", i)} {
			if !strings.Contains(titles["Shared log"], line) {
				t.Errorf("the shared node lost %q", line)
			}
		}
	}
}

// sdkClientDir holds the client written with the official TypeScript SDK.
const sdkClientDir = "testdata/sdkclient"

// noNodeEnv opts out of TestOfficialSDKClient on a machine without Node.js.
const noNodeEnv = "RUBI_TEST_NO_NODE"

// A client rubi did not write, the official MCP TypeScript SDK, drives
// rubi mcp: it lists the tools, registers a node and finds it with
// context, in a project named only by its roots.
func TestOfficialSDKClient(t *testing.T) {
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the official SDK client is not run", noNodeEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed: this test runs the official MCP TypeScript SDK client with Node.js 20 or later (set %s=1 to leave it out)", noNodeEnv)
	}
	if _, err := os.Stat(filepath.Join(sdkClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Fatalf("the MCP TypeScript SDK is not installed: run `npm ci` in agent/mcpserver/%s (make test does), or set %s=1 to leave this test out", sdkClientDir, noNodeEnv)
	}
	root := writeProject(t, rubitest.GoProject)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", rubitest.Binary(t), root, t.TempDir())
	cmd.Dir = sdkClientDir
	cmd.Env = append(os.Environ(), testEnv(t)...)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the SDK client failed: %v\n%s\nstderr:\n%s", err, out, &stderr)
	}
	var seen struct {
		Server struct {
			Name string `json:"name"`
		} `json:"server"`
		Instructions string   `json:"instructions"`
		Tools        []string `json:"tools"`
		Register     string   `json:"register"`
		Context      string   `json:"context"`
		Outside      string   `json:"outside"`
		RootsAsked   int      `json:"rootsAsked"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if seen.Server.Name != Name || seen.Instructions != Instructions || len(seen.Tools) != 4 || seen.RootsAsked != 1 {
		t.Errorf("the SDK client saw: %+v", seen)
	}
	if !strings.Contains(seen.Context, "Open ignores a bad DSN") || !strings.Contains(seen.Outside, "inside the project") {
		t.Errorf("answers: %+v", seen)
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "knowledge", "gotcha-open-ignores-a-bad-dsn.md")); err != nil {
		t.Errorf("the node is not in the roots' project: %v", err)
	}
}
