package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// bins are the programs measured, as users run them.
type bins struct {
	rubi, mcp, hook string
	// env is their environment: the user's configuration, state and
	// vault kept out (a folder of the run's own), rubi's variables unset.
	env []string
}

// binNames are the programs a -bin folder must hold.
var binNames = []string{"rubi", "rubi-mcp", "rubi-hook"}

// newBins finds the programs in dir and makes their environment in work.
func newBins(dir, work string) (*bins, error) {
	for _, n := range binNames {
		if fi, err := os.Stat(filepath.Join(dir, n)); err != nil || !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("-bin %s: no program %s there", dir, n)
		}
	}
	b := &bins{rubi: filepath.Join(dir, "rubi"), mcp: filepath.Join(dir, "rubi-mcp"), hook: filepath.Join(dir, "rubi-hook")}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "RUBI_") && !strings.HasPrefix(e, "XDG_CONFIG_HOME=") && !strings.HasPrefix(e, "XDG_STATE_HOME=") {
			b.env = append(b.env, e)
		}
	}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "RUBI_VAULT"} {
		d := filepath.Join(work, "env", strings.ToLower(v))
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
		b.env = append(b.env, v+"="+d)
	}
	return b, nil
}

// buildBins builds the programs from the checkout at root into dir.
func buildBins(ctx context.Context, root, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", dir+string(filepath.Separator), "./cmd/rubi", "./cmd/rubi-mcp", "./cmd/rubi-hook")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/rubi ./cmd/rubi-mcp ./cmd/rubi-hook in %s: %v\n%s", root, err, out)
	}
	return nil
}

// run runs one of the programs in dir with stdin, returning its stdout.
func (b *bins) run(ctx context.Context, dir string, stdin []byte, bin string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, b.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", filepath.Base(bin), strings.Join(shortArgs(args), " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// shortArgs cuts long arguments (an issue's text) for error messages.
func shortArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if len(a) > 60 {
			a = strconv.Quote(a[:57] + "...")
		}
		out[i] = a
	}
	return out
}

// index indexes the project at dir (cold the first time, then the
// changes), untimed: the calls measured find it up to date.
func (b *bins) index(ctx context.Context, dir string) error {
	_, err := b.run(ctx, dir, nil, b.rubi, "index", "--root", dir)
	return err
}

// context asks `rubi context` as a user does: the text answer, at
// budget (0 = the default, no --budget).
func (b *bins) context(ctx context.Context, dir, query string, budget int) (string, error) {
	args := []string{"context", "--root", dir}
	if budget > 0 {
		args = append(args, "--budget", strconv.Itoa(budget))
	}
	out, err := b.run(ctx, dir, nil, b.rubi, append(args, "--", query)...)
	return string(out), err
}

// register registers notes (a JSON array) on the project at dir and
// returns the answer of `rubi register --json`.
func (b *bins) register(ctx context.Context, dir string, notes []byte) ([]byte, error) {
	return b.run(ctx, dir, notes, b.rubi, "register", "--json", "--root", dir)
}

// prompt sends a prompt to the recall hook as Claude Code sends it
// (UserPromptSubmit, a fresh session each time) and returns what it
// injects.
func (b *bins) prompt(ctx context.Context, dir, session, prompt string) (string, error) {
	payload, err := json.Marshal(map[string]string{
		"hook_event_name": "UserPromptSubmit",
		"session_id":      session,
		"transcript_path": filepath.Join(dir, ".no-transcript.jsonl"),
		"cwd":             dir,
		"permission_mode": "default",
		"prompt":          prompt,
	})
	if err != nil {
		return "", err
	}
	out, err := b.run(ctx, dir, payload, b.hook, "UserPromptSubmit")
	if err != nil {
		return "", err
	}
	return hookContext(out)
}

// mcpSession is one rubi-mcp server over stdio with a client, which
// keeps the bytes the server sent so the structured content is counted
// as sent, not as decoded and encoded again.
type mcpSession struct {
	cmd    *exec.Cmd
	cl     *client.Client
	rec    *recorder
	stderr *tail
}

// recorder keeps the lines read from the server since the last reset.
type recorder struct {
	r   io.Reader
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.mu.Lock()
	r.buf.Write(p[:n])
	r.mu.Unlock()
	return n, err
}

func (r *recorder) take() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := bytes.Clone(r.buf.Bytes())
	r.buf.Reset()
	return out
}

// startMCP starts rubi-mcp on the project at dir and initializes a
// client.
func (b *bins) startMCP(ctx context.Context, dir string) (*mcpSession, error) {
	cmd := exec.Command(b.mcp, "--root", dir)
	cmd.Dir, cmd.Env = dir, b.env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// The transport drains no stderr of a process it did not start: the
	// server's goes to a buffer that keeps its end, for errors.
	s := &mcpSession{cmd: cmd, rec: &recorder{r: stdout}, stderr: &tail{}}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.cl = client.NewClient(transport.NewIO(s.rec, stdin, nil))
	if err := s.cl.Start(ctx); err != nil {
		s.close()
		return nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "rubi-bench-payload", Version: "1"}
	if _, err := s.cl.Initialize(ctx, init); err != nil {
		s.close()
		return nil, fmt.Errorf("rubi-mcp: initialize: %w%s", err, s.stderr.say())
	}
	return s, nil
}

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 8 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(p), nil
}

// say is what the server last wrote on stderr, for an error message.
func (t *tail) say() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := strings.TrimSpace(string(t.buf)); s != "" {
		return " (its stderr: " + s + ")"
	}
	return ""
}

// context calls the context tool at budget (0 = the default, no budget
// argument) and returns its text content and its structured content's
// JSON as the server sent it.
func (s *mcpSession) context(ctx context.Context, query string, budget int) (string, []byte, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "context"
	args := map[string]any{"query": query}
	if budget > 0 {
		args["budget"] = budget
	}
	req.Params.Arguments = args
	s.rec.take()
	res, err := s.cl.CallTool(ctx, req)
	if err != nil {
		return "", nil, fmt.Errorf("rubi-mcp: context: %w%s", err, s.stderr.say())
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "", nil, fmt.Errorf("rubi-mcp: context: %s", text.String())
	}
	raw, err := rawStructured(s.rec.take())
	if err != nil {
		return "", nil, err
	}
	return text.String(), raw, nil
}

// rawStructured finds, in the lines a server sent, the last response
// with a result and returns its structuredContent's bytes as sent.
func rawStructured(sent []byte) ([]byte, error) {
	var found []byte
	sc := bufio.NewScanner(bytes.NewReader(sent))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var msg struct {
			Result *struct {
				Structured json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Result == nil {
			continue
		}
		found = msg.Result.Structured
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if found == nil {
		return nil, errors.New("rubi-mcp: the context result has no structuredContent")
	}
	return found, nil
}

func (s *mcpSession) close() {
	if s.cl != nil {
		_ = s.cl.Close()
	}
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	_ = s.cmd.Wait()
}

// ask asks one question through every transport at each budget and adds
// a row per answer.
func ask(ctx context.Context, b *bins, m *mcpSession, dir, set, id, query string, g gold, budgets []int) ([]row, error) {
	var rows []row
	for _, budget := range budgets {
		label := budgetLabel(budget)
		text, err := b.context(ctx, dir, query, budget)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{Set: set, ID: id, Budget: label, Transport: transportCLI, delivery: textDelivery(text, g)})
		mtext, raw, err := m.context(ctx, query, budget)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{Set: set, ID: id, Budget: label, Transport: transportText, delivery: textDelivery(mtext, g)})
		d, err := structuredDelivery(raw, g)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row{Set: set, ID: id, Budget: label, Transport: transportStruct, delivery: d})
	}
	return rows, nil
}

// budgetLabel names a budget in the report: "default" for 0.
func budgetLabel(b int) string {
	if b <= 0 {
		return "default"
	}
	return strconv.Itoa(b)
}
