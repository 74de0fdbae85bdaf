// Command httpload puts rubi's HTTP MCP server under a bounded load and
// reports its peak memory and whether every write landed: clients × calls
// mixed tool calls (context queries up to the query limit, notes and
// chunks up to theirs, reads, maps) against one server process on
// loopback, then the notes on disk are counted against the registrations
// that succeeded.
//
//	go run -C bench ./httpload [-clients 20] [-calls 50] [-root DIR] [-slow N]
//
// With -slow N it first opens N connections that send the start of a
// request and nothing more (as a local process that means harm would) and
// reports how long a request with the token then waits for its answer.
//
// It builds rubi-mcp, starts it with --http 127.0.0.1:0 and a token made
// for the run (RUBI_MCP_TOKEN, sent by every client) on a copy of
// -root (default: the rubi checkout it runs in) and reads the peak resident set
// (VmHWM, Linux) when the load is done. Exit status 1 when a write was
// lost, a call failed at the protocol level, or the peak is over -max-rss.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/bench/internal/perf"
)

func main() {
	clients := flag.Int("clients", 20, "concurrent MCP clients")
	calls := flag.Int("calls", 50, "tool calls per client")
	root := flag.String("root", "", "the project to copy and serve (default: the rubi checkout it runs in)")
	maxRSS := flag.Int("max-rss", 300, "peak resident memory of the server, in MB, over which the run fails")
	slow := flag.Int("slow", 0, "connections to open first that never finish their request; reports how long a request with the token then waits")
	flag.Parse()
	if err := run(*clients, *calls, *root, *maxRSS, *slow); err != nil {
		fmt.Fprintln(os.Stderr, "httpload:", err)
		os.Exit(1)
	}
}

// The sizes of the calls: up to the server's limits (mcpserver.MaxBody
// bounds a body, the tools their arguments).
const (
	bigQuery = 250 << 10 // under the 256 KiB query limit
	bigNote  = 60 << 10  // under the 64 KiB node body limit
	bigChunk = 500 << 10 // a chunk of conversation, under the 512 KiB chunk limit
	bigBatch = 50        // notes of bigNote in one register call: a 3 MB body, under the 4 MiB limit
)

func run(clients, calls int, root string, maxRSS, slow int) error {
	work, err := os.MkdirTemp("", "rubi-httpload-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	checkout, err := perf.Checkout()
	if err != nil {
		return err
	}
	if root == "" {
		root = checkout
	}
	bin := filepath.Join(work, "bin")
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/rubi-mcp")
	build.Dir = checkout
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/rubi-mcp: %v\n%s", err, out)
	}
	project := filepath.Join(work, "project")
	if err := copyCode(root, project); err != nil {
		return err
	}
	nodesBefore := countFiles(filepath.Join(project, ".rubi", "knowledge"), ".md")
	chunksBefore := countFiles(filepath.Join(project, ".rubi", "sessions"), ".md")
	home := filepath.Join(work, "home")
	os.MkdirAll(home, 0o755)

	cmd := exec.Command(filepath.Join(bin, "rubi-mcp"), "--http", "127.0.0.1:0", "--root", project)
	cmd.Dir = project
	token := fmt.Sprintf("httpload-%016x%016x", rand.Uint64(), rand.Uint64())
	headers := transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token})
	cmd.Env = append(os.Environ(), "HOME="+home, "RUBI_VAULT="+filepath.Join(home, "vault"), "RUBI_MCP_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	url, err := serverURL(stderr)
	if err != nil {
		return err
	}
	if slow > 0 {
		closeSlow, err := slowLoad(url, slow, headers)
		defer closeSlow()
		if err != nil {
			return err
		}
	}

	var registered, saved, protocolErrors, toolErrors atomic.Int64
	var mu sync.Mutex
	var firstErr []string
	note := func(s string) {
		mu.Lock()
		if len(firstErr) < 5 {
			firstErr = append(firstErr, s)
		}
		mu.Unlock()
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			cl, err := client.NewStreamableHttpClient(url, headers)
			if err != nil {
				protocolErrors.Add(int64(calls))
				note(err.Error())
				return
			}
			defer cl.Close()
			ctx := context.Background()
			if err := cl.Start(ctx); err != nil {
				protocolErrors.Add(int64(calls))
				note(err.Error())
				return
			}
			init := mcp.InitializeRequest{}
			init.Params.ClientInfo = mcp.Implementation{Name: "httpload", Version: "1"}
			if _, err := cl.Initialize(ctx, init); err != nil {
				protocolErrors.Add(int64(calls))
				note(err.Error())
				return
			}
			rng := rand.New(rand.NewPCG(uint64(c), 7))
			for i := range calls {
				name, args, write := mixedCall(rng, c, i)
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = name, args
				res, err := cl.CallTool(ctx, req)
				switch {
				case err != nil:
					protocolErrors.Add(1)
					note(name + ": " + err.Error())
				case res.IsError:
					toolErrors.Add(1)
					note(name + " (tool error): " + resultText(res))
				case strings.HasPrefix(write, "nodes "):
					var n int64
					fmt.Sscanf(write, "nodes %d", &n)
					registered.Add(n)
				case write == "chunk":
					saved.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	peak, err := peakRSS(cmd.Process.Pid)
	if err != nil {
		return err
	}
	nodes := countFiles(filepath.Join(project, ".rubi", "knowledge"), ".md") - nodesBefore
	chunks := countFiles(filepath.Join(project, ".rubi", "sessions"), ".md") - chunksBefore

	total := clients * calls
	fmt.Printf("%d clients × %d calls (%d) in %.1f s against %s\n", clients, calls, total, elapsed.Seconds(), url)
	fmt.Printf("peak resident memory of the server: %d MB (limit %d)\n", peak>>20, maxRSS)
	fmt.Printf("notes registered %d, on disk %d; chunks saved %d, on disk %d\n", registered.Load(), nodes, saved.Load(), chunks)
	fmt.Printf("protocol errors %d, tool errors %d\n", protocolErrors.Load(), toolErrors.Load())
	for _, e := range firstErr {
		fmt.Printf("  e.g. %.200s\n", e)
	}
	var problems []string
	if int64(nodes) != registered.Load() {
		problems = append(problems, fmt.Sprintf("%d notes registered, %d on disk", registered.Load(), nodes))
	}
	if int64(chunks) != saved.Load() {
		problems = append(problems, fmt.Sprintf("%d chunks saved, %d on disk", saved.Load(), chunks))
	}
	if protocolErrors.Load() > 0 {
		problems = append(problems, fmt.Sprintf("%d protocol errors", protocolErrors.Load()))
	}
	if peak>>20 > int64(maxRSS) {
		problems = append(problems, fmt.Sprintf("peak memory %d MB over %d", peak>>20, maxRSS))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// words are what the generated calls are made of.
var words = strings.Fields("order coupon checkout cart discount applied twice database migrate plugin host index ranker query budget token session handoff retry backoff parse config")

func text(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// mixedCall is the i-th call of client c: mostly queries, a fifth notes,
// some chunks, reads and maps; a tenth of the queries, notes and chunks
// near their limits. write says what it stores, if anything: "nodes N",
// "chunk".
func mixedCall(rng *rand.Rand, c, i int) (name string, args map[string]any, write string) {
	big := rng.IntN(10) == 0
	switch r := rng.IntN(20); {
	case r < 9:
		q := "how are " + text(rng, 40) + " handled"
		if big {
			q = text(rng, bigQuery)
		}
		return "context", map[string]any{"query": q}, ""
	case r < 13:
		// A batch near the body limit now and then: 50 notes of 60 KiB.
		n, size := 1, 300
		if big {
			n, size = bigBatch, bigNote
		}
		nodes := make([]any, n)
		for k := range nodes {
			nodes[k] = map[string]any{"type": "gotcha", "title": fmt.Sprintf("Load note %d.%d from client %d", i, k, c), "body": text(rng, size)}
		}
		return "register", map[string]any{"nodes": nodes}, fmt.Sprintf("nodes %d", n)
	case r < 15:
		t := text(rng, 2000)
		if big {
			t = text(rng, bigChunk)
		}
		return "memory", map[string]any{"action": "save", "text": fmt.Sprintf("chunk %d of client %d: %s", i, c, t)}, "chunk"
	case r < 18:
		return "read", map[string]any{"target": "README.md:1-40"}, ""
	default:
		return "read", map[string]any{"target": "map"}, ""
	}
}

func resultText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

var servingRE = regexp.MustCompile(`serving (http://\S+)`)

// serverURL reads the server's standard error until it says where it
// listens, then drains the rest in the background.
func serverURL(stderr interface{ Read([]byte) (int, error) }) (string, error) {
	sc := bufio.NewScanner(stderr)
	found := make(chan string, 1)
	go func() {
		sent := false
		for sc.Scan() {
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u, ok := <-found:
		if !ok {
			return "", errors.New("the server exited before it listened")
		}
		return u, nil
	case <-time.After(60 * time.Second):
		return "", errors.New("the server did not say where it listens within 60 s")
	}
}

// peakRSS reads a process's peak resident set (VmHWM) in bytes.
func peakRSS(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("peak memory needs Linux's /proc: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

func countFiles(dir, ext string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ext) && !strings.HasPrefix(d.Name(), ".") {
			n++
		}
		return nil
	})
	return n
}

// copyCode copies a project's tracked-looking files (no .git, no .rubi/
// index or sessions, no build outputs) to dst.
func copyCode(src, dst string) error {
	skip := []string{".git", "node_modules", "index", "sessions", "bin"}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && rel != "." && slices.Contains(skip, d.Name()) {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > 4<<20 || fi.Mode()&0o111 != 0 && !strings.HasSuffix(p, ".sh") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// slowLoad opens n connections to the server at url that send the start
// of a request and nothing more, then times one request with the token
// (initialize and a tools/list) and prints it. closeAll closes the
// connections still open.
func slowLoad(url string, n int, headers transport.StreamableHTTPCOption) (closeAll func(), err error) {
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	var conns []net.Conn
	closeAll = func() {
		for _, c := range conns {
			c.Close()
		}
	}
	failed := 0
	for range n {
		c, err := net.DialTimeout("tcp", host, 5*time.Second)
		if err != nil {
			failed++
			continue
		}
		conns = append(conns, c)
		io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+host+"\r\n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	cl, err := client.NewStreamableHttpClient(url, headers)
	if err != nil {
		return closeAll, err
	}
	defer cl.Close()
	if err := cl.Start(ctx); err != nil {
		return closeAll, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "httpload", Version: "1"}
	if _, err := cl.Initialize(ctx, init); err != nil {
		return closeAll, fmt.Errorf("a request with the token among %d slow connections: %w", len(conns), err)
	}
	if _, err := cl.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		return closeAll, fmt.Errorf("a request with the token among %d slow connections: %w", len(conns), err)
	}
	fmt.Printf("%d slow connections opened (%d failed to connect): a request with the token answered in %.2f s\n", len(conns), failed, time.Since(start).Seconds())
	return closeAll, nil
}
