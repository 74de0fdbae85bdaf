package knowledge

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a registering worker: with workerEnv set,
// TestMain runs the worker instead of the tests, so that tests can start
// real concurrent processes (and kill them).
const workerEnv = "RUBI_KNOWLEDGE_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(runWorker())
	}
	os.Exit(m.Run())
}

// runWorker registers RUBI_KW_COUNT nodes in batches of RUBI_KW_BATCH
// into RUBI_KW_ROOT, or batches forever with RUBI_KW_COUNT=0.
func runWorker() int {
	root := os.Getenv("RUBI_KW_ROOT")
	w := os.Getenv(workerEnv)
	count, _ := strconv.Atoi(os.Getenv("RUBI_KW_COUNT"))
	batch, _ := strconv.Atoi(os.Getenv("RUBI_KW_BATCH"))
	s := Open(Options{Root: root})
	for i := 0; count == 0 || i < count; i += batch {
		var in []Input
		for j := i; j < i+batch && (count == 0 || j < count); j++ {
			in = append(in, workerInput(w, j))
		}
		res, err := s.Register(context.Background(), in)
		if err != nil {
			fmt.Fprintln(os.Stderr, "register:", err)
			return 1
		}
		for _, r := range res {
			if r.Action != ActionCreated {
				fmt.Fprintf(os.Stderr, "worker %s: %+v\n", w, r)
				return 1
			}
		}
	}
	return 0
}

// vocabulary is a fixed set of made-up words: text that repeats words
// like prose does, without two notes being alike.
var vocabulary = func() []string {
	r := rand.New(rand.NewPCG(42, 7))
	ws := make([]string, 3000)
	for i := range ws {
		b := make([]byte, 4+r.IntN(6))
		for k := range b {
			b[k] = byte('a' + r.IntN(26))
		}
		ws[i] = string(b)
	}
	return ws
}()

// words picks n words of the vocabulary, pseudo-randomly from seed.
func words(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(ws, " ")
}

func workerInput(w string, j int) Input {
	seed, _ := strconv.ParseUint(w, 10, 64)
	return Input{
		Type:  Types[j%len(Types)],
		Title: fmt.Sprintf("Worker %s fact %d %s", w, j, words(seed<<32|uint64(j), 2)),
		Body:  words(seed<<32|uint64(j)|1<<31, 30),
		Tags:  []string{"worker-" + w},
	}
}

func startWorker(t *testing.T, root string, w, count, batch int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		workerEnv+"="+strconv.Itoa(w), "RUBI_KW_ROOT="+root,
		"RUBI_KW_COUNT="+strconv.Itoa(count), "RUBI_KW_BATCH="+strconv.Itoa(batch))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A failing test must not leave workers behind.
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// checkAllParse decodes every node file of dir directly and returns the
// titles.
func checkAllParse(t *testing.T, dir string) map[string]bool {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		n, warnings, err := decodeNode(name, data)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%s does not parse: %v %v", name, err, warnings)
		}
		if titles[n.Title] {
			t.Errorf("title %q twice", n.Title)
		}
		titles[n.Title] = true
	}
	return titles
}

func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	const workers, per = 8, 500
	root := t.TempDir()
	start := time.Now()
	var cmds []*exec.Cmd
	for w := range workers {
		cmds = append(cmds, startWorker(t, root, w, per, 50))
	}
	for w, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("worker %d: %v", w, err)
		}
	}
	t.Logf("%d processes × %d nodes in batches of 50: %v", workers, per, time.Since(start))
	s := Open(Options{Root: root})
	nodes, probs := s.Nodes()
	if len(nodes) != workers*per || len(probs) > 0 {
		t.Fatalf("%d nodes, problems %v", len(nodes), probs)
	}
	titles := checkAllParse(t, s.Dir())
	for w := range workers {
		for j := range per {
			if in := workerInput(strconv.Itoa(w), j); !titles[in.Title] {
				t.Fatalf("missing %q", in.Title)
			}
		}
	}
}

func TestKilledWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	root := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 6 {
		var cmds []*exec.Cmd
		for w := range 4 {
			cmds = append(cmds, startWorker(t, root, round*10+w, 0, 20))
		}
		time.Sleep(time.Duration(150+r.IntN(250)) * time.Millisecond)
		for _, c := range cmds {
			c.Process.Signal(syscall.SIGKILL)
		}
		for _, c := range cmds {
			c.Wait()
		}
	}
	dir := filepath.Join(root, ".rubi", "knowledge")
	titles := checkAllParse(t, dir)
	s := Open(Options{Root: root})
	nodes, probs := s.Nodes()
	if len(probs) > 0 || len(nodes) != len(titles) || len(nodes) == 0 {
		t.Fatalf("%d nodes, %d files, problems %v", len(nodes), len(titles), probs)
	}
	temps := 0
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if strings.Contains(de.Name(), ".tmp-") {
			temps++
		}
	}
	t.Logf("%d nodes survived 6 rounds of kill -9; %d temporary files left and ignored", len(nodes), temps)
	// The lock of a killed process is free again, and the next writer
	// clears the temporaries.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if res, err := s.Register(ctx, []Input{{Title: "After the crash"}}); err != nil || res[0].Action != ActionCreated {
		t.Fatalf("after the crash: %v %+v", err, res)
	}
	des, _ = os.ReadDir(dir)
	for _, de := range des {
		if strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", de.Name())
		}
	}
}

// pythonWithYAML finds a Python interpreter that has PyYAML: the first
// python3 on PATH, or Debian's, where apt-get install python3-yaml puts it.
func pythonWithYAML(t *testing.T) string {
	t.Helper()
	var tried []string
	for _, name := range []string{"python3", "/usr/bin/python3"} {
		py, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if exec.Command(py, "-c", "import yaml").Run() == nil {
			return py
		}
		tried = append(tried, py)
	}
	t.Fatalf("this test needs python3 with PyYAML (apt-get install python3-yaml); tried %v", tried)
	return ""
}

// The file rubi writes is ordinary YAML to another implementation.
func TestPyYAMLReadsNodeFile(t *testing.T) {
	py := pythonWithYAML(t)
	s := newStore(t)
	writeFile(t, s.root, "docs/my file.md", "x")
	registerOne(t, s, Input{Type: "concept", Title: "Target"})
	r := registerOne(t, s, Input{
		Type: "gotcha", Title: "yes: no # not a comment", Body: "---\nbody: not: yaml\n",
		Files: []string{"docs/my file.md"}, Symbols: []string{"1:20", "Login"},
		Links: []Link{{Rel: "about", Target: "concept-target"}, {Rel: "see", Target: "x, y {z}"}},
		Tags:  []string{"on", "null", "123"}, Importance: "critical",
	})
	script := `import sys, json, yaml
text = open(sys.argv[1], encoding="utf-8").read()
assert text.startswith("---\n"), "no frontmatter"
head, body = text[4:].split("\n---\n", 1)
print(json.dumps({"fm": yaml.safe_load(head), "body": body}, default=str))
`
	out, err := exec.Command(py, "-c", script, r.Path).CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "No module named 'yaml'") {
			t.Fatalf("this test needs PyYAML (apt-get install python3-yaml):\n%s", out)
		}
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var got struct {
		FM   map[string]any `json:"fm"`
		Body string         `json:"body"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	n := get(t, s, r.ID)
	stamp := n.Created.Format("2006-01-02 15:04:05+00:00") // Python's str(datetime)
	want := map[string]any{
		"id": r.ID, "type": "gotcha", "status": "active", "importance": "critical",
		"title":   "yes: no # not a comment",
		"files":   []any{"docs/my file.md"},
		"symbols": []any{"1:20", "Login"},
		"links": []any{
			map[string]any{"rel": "about", "target": "concept-target"},
			map[string]any{"rel": "see", "target": "x, y {z}"},
		},
		"tags":    []any{"on", "null", "123"},
		"created": stamp, "updated": n.Updated.Format("2006-01-02 15:04:05+00:00"),
		"anchors": map[string]any{"docs/my file.md": "code:" + hashString("x")},
	}
	if !reflect.DeepEqual(got.FM, want) {
		t.Errorf("PyYAML read\n%v\nwant\n%v", got.FM, want)
	}
	if !strings.HasPrefix(got.Body, "# yes: no # not a comment\n\n---\nbody: not: yaml\n") {
		t.Errorf("body %q", got.Body)
	}
}
