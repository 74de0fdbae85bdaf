package subprocess

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"google.golang.org/grpc/encoding"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/pluginsdk"
	_ "github.com/rubi-dev/rubi/plugins/fuse-rrf"
)

// The test binary doubles as the plugins under test: started with
// RUBI_TEST_PLUGIN=<mode> it serves a fake ranker (or fuser) that behaves
// as the mode says, so the subprocess path runs in `go test` with no build
// step.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RUBI_TEST_PLUGIN"); mode != "" {
		servePlugin(mode)
		return
	}
	if cfgRoot := os.Getenv("RUBI_TEST_HOST"); cfgRoot != "" {
		runHost(cfgRoot)
		return
	}
	os.Exit(m.Run())
}

// fakeRanker answers every query with one hit naming who answered.
type fakeRanker struct {
	who      string
	mode     string
	indexed  string // what the last corpus held, for the "echo" mode
	settings struct {
		Level int `hcl:"level,optional"`
	}
}

func (f *fakeRanker) Info() core.Info {
	return core.Info{Name: "rank.fake", Kind: core.KindRanker, Version: "1.2.3", Schema: core.MustSchemaOf(&f.settings), Scoped: f.mode == "echo", NoEdges: f.mode == "noedges"}
}

func (f *fakeRanker) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &f.settings); err != nil {
		return err
	}
	if f.settings.Level > 9 {
		return &core.SettingError{Setting: "level", Message: "must be at most 9"}
	}
	return nil
}

func (f *fakeRanker) Index(_ context.Context, c *core.Corpus) error {
	ids := make([]string, 0, len(c.Documents))
	for _, d := range c.Documents {
		ids = append(ids, d.ID)
	}
	f.indexed = fmt.Sprintf("scope=%v docs=%v changed=%v removed=%v edges=%d full=%v texts=%v", c.Scope, ids, c.Changed, c.Removed, len(c.Edges), c.Full, c.TextsOnly)
	return nil
}

func (f *fakeRanker) Rank(_ context.Context, q core.Query) ([]core.Hit, error) {
	switch f.mode {
	case "crash":
		os.Exit(3)
	case "hang":
		select {}
	case "garbage":
		return []core.Hit{{ID: "file:a"}, {ID: "file:a"}}, nil
	case "echo", "noedges":
		return []core.Hit{{ID: "file:echo", Score: 1, Reason: f.indexed}}, nil
	case "bench":
		hits := make([]core.Hit, q.Limit)
		for i := range hits {
			hits[i] = core.Hit{ID: fmt.Sprintf("file:src/pkg%d/file%d.go", i%17, i), Score: float64(q.Limit - i), Reason: `matches "plugin", "load"`}
		}
		return hits, nil
	}
	return []core.Hit{{ID: "file:" + f.who, Score: 1, Reason: fmt.Sprintf("%s level %d", f.who, f.settings.Level)}}, nil
}

// fakeFuser is a third-party fuser with no built-in of its name.
type fakeFuser struct{ mode string }

func (f *fakeFuser) Info() core.Info {
	return core.Info{Name: "fuse.fake", Kind: core.KindFuser, Version: "0.1.0"}
}
func (f *fakeFuser) Configure(context.Context, core.Setup) error { return nil }
func (f *fakeFuser) Fuse(_ context.Context, lists []core.RankedList) ([]core.Hit, error) {
	if f.mode == "fuser-crash" {
		os.Exit(4)
	}
	return []core.Hit{{ID: "file:invented"}}, nil
}

func init() {
	core.Register("rank.fake", core.KindRanker, func() core.Stage { return &fakeRanker{who: "builtin"} })
}

// junkCodec replaces rubi's codec in a plugin so its answers are not JSON.
type junkCodec struct{}

func (junkCodec) Marshal(v any) ([]byte, error) {
	if _, ok := v.(*pluginsdk.HitsResponse); ok {
		return []byte("\x00\xffnot json"), nil
	}
	return pluginsdk.Codec().Marshal(v)
}
func (junkCodec) Unmarshal(data []byte, v any) error {
	return pluginsdk.Codec().Unmarshal(data, v)
}
func (junkCodec) Name() string { return pluginsdk.CodecName }

func servePlugin(mode string) {
	switch mode {
	case "stdout":
		fmt.Println("hello from a plugin that talks before Serve")
		os.Exit(0)
	case "exit":
		fmt.Fprintln(os.Stderr, "cannot start: missing model file")
		os.Exit(1)
	case "junk":
		encoding.RegisterCodec(junkCodec{})
	case "fuser", "fuser-crash":
		pluginsdk.Serve(&fakeFuser{mode: mode})
		return
	}
	if r, ok := servedRanker(mode); ok {
		pluginsdk.Serve(r)
		return
	}
	pluginsdk.Serve(&fakeRanker{who: "subprocess", mode: mode})
}

// pluginScript writes an executable that starts this test binary as the
// plugin in the given mode, the way a user's rubi.hcl names a binary.
func pluginScript(t *testing.T, mode string) string {
	return pluginScriptB(t, mode)
}

func pluginScriptB(t testing.TB, mode string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rubi-plugin-"+mode)
	script := fmt.Sprintf("#!/bin/sh\nRUBI_TEST_PLUGIN=%s exec %q\n", mode, self)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func loadConfig(t *testing.T, root, src string) *config.Config {
	return loadConfigB(t, root, src)
}

func loadConfigB(t testing.TB, root, src string) *config.Config {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The project names a plugin: the user trusts it, as rubi trust does.
	opts := config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"}
	if _, err := config.TrustProject(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

// logSink collects the host's log lines.
type logSink struct{ strings.Builder }

func newHost(t *testing.T, cfg *config.Config) (*host.Host, *logSink) {
	sink := &logSink{}
	h := host.New(cfg, host.Options{Logger: hclog.New(&hclog.LoggerOptions{Output: sink, Level: hclog.Error}), Launcher: Launcher{}})
	t.Cleanup(h.Close)
	return h, sink
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// assertGone waits for the process to disappear: plugins must never outlive
// the rubi that started them.
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatalf("no pid recorded")
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("plugin process %d is still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// privateTemp points the system's temporary folder, where rubi makes each
// plugin's socket folder, at a fresh one for the test and returns it.
func privateTemp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

// assertNoSocketLeft checks that a stopped plugin left nothing in the
// temporary folder: neither its socket nor the folder rubi made for it.
func assertNoSocketLeft(t *testing.T, tmp string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var left []string
		filepath.WalkDir(tmp, func(path string, d os.DirEntry, err error) error {
			if err == nil && path != tmp {
				left = append(left, path)
			}
			return nil
		})
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stopped plugin left in the temporary folder: %q", left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func rankerFor(t *testing.T, mode, extra string) (*host.Host, *logSink, core.Ranker, string) {
	root := t.TempDir()
	script := pluginScript(t, mode)
	cfg := loadConfig(t, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n  level = 2\n%s}\n", script, extra))
	h, sink := newHost(t, cfg)
	stage, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return h, sink, stage.(core.Ranker), script
}

func rank(t *testing.T, r core.Ranker) core.Hit {
	t.Helper()
	hits, err := r.Rank(context.Background(), core.Query{Text: "x", Limit: 5})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Rank = %v, %v", hits, err)
	}
	return hits[0]
}

// A plugin says it takes corpora scoped to the notes, and is given one
// whole: the scope, the changed documents, what was removed, the edges.
func TestSubprocessRankerTakesAScopedCorpus(t *testing.T) {
	h, _, r, _ := rankerFor(t, "echo", "")
	defer h.Close()
	if !r.Info().Scoped {
		t.Error("the plugin's Info lost Scoped on the way")
	}
	corpus := &core.Corpus{
		Scope:     core.NotesScope,
		Documents: []core.Document{{ID: "node:coupon", Kind: core.DocNode, Title: "Coupon", Body: "applied twice"}},
		Changed:   []string{"node:coupon"},
		Removed:   []string{"chunk:old"},
		Edges:     []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: "about"}},
	}
	if err := r.Index(context.Background(), corpus); err != nil {
		t.Fatal(err)
	}
	want := "scope=[node chunk] docs=[node:coupon] changed=[node:coupon] removed=[chunk:old] edges=1 full=false texts=false"
	if got := rank(t, r); got.Reason != want {
		t.Errorf("the plugin indexed %q, want %q", got.Reason, want)
	}
	texts := &core.Corpus{Scope: core.NotesScope, TextsOnly: true, Documents: corpus.Documents, Changed: corpus.Changed}
	if err := r.Index(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	want = "scope=[node chunk] docs=[node:coupon] changed=[node:coupon] removed=[] edges=0 full=false texts=true"
	if got := rank(t, r); got.Reason != want {
		t.Errorf("the plugin indexed %q, want %q", got.Reason, want)
	}
}

// A plugin that reads no edge (Info.NoEdges) is sent the documents alone:
// an index run gives it its corpus before the edges exist
// (core.Corpus.LinksLater), and it indexes without waiting for them.
func TestSubprocessRankerThatReadsNoEdgeIsSentNone(t *testing.T) {
	h, _, r, _ := rankerFor(t, "noedges", "")
	defer h.Close()
	if !r.Info().NoEdges {
		t.Fatal("the plugin's Info lost NoEdges on the way")
	}
	corpus := &core.Corpus{
		Full:      true,
		Documents: []core.Document{{ID: "file:cart.go", Kind: core.DocFile, Title: "cart.go", Body: "func Total()"}},
		Edges:     []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: "about"}},
	}
	done := corpus.LinksLater() // never called while it indexes
	defer done(nil)
	indexed := make(chan error, 1)
	go func() { indexed <- r.Index(context.Background(), corpus) }()
	select {
	case err := <-indexed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Index waited for edges the plugin never reads")
	}
	want := "scope=[] docs=[file:cart.go] changed=[] removed=[] edges=0 full=true texts=false"
	if got := rank(t, r); got.Reason != want {
		t.Errorf("the plugin indexed %q, want %q", got.Reason, want)
	}
}

func TestSubprocessRanker(t *testing.T) {
	tmp := privateTemp(t)
	h, sink, r, script := rankerFor(t, "good", "")
	if got := rank(t, r); got.ID != "file:subprocess" || got.Reason != "subprocess level 2" {
		t.Errorf("hit = %+v, want the subprocess's answer with the configured level", got)
	}
	opened := h.Opened()
	if len(opened) != 1 || !opened[0].Subprocess || opened[0].Path != script || opened[0].Version != "1.2.3" {
		t.Fatalf("opened = %+v", opened)
	}
	pid := opened[0].PID
	if pid == os.Getpid() || !alive(pid) {
		t.Fatalf("plugin pid %d should be a live child process", pid)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "rubi-plugin-") {
		t.Errorf("a running plugin's socket should be in a rubi-plugin-* folder of its own, the temporary folder holds %v", entries)
	}
	h.Close()
	assertGone(t, pid)
	assertNoSocketLeft(t, tmp)
	if sink.Len() != 0 {
		t.Errorf("unexpected log: %s", sink.String())
	}
}

func TestBuiltinRunsInProcess(t *testing.T) {
	root := t.TempDir()
	cfg := loadConfig(t, root, "ranker \"rank.fake\" {\n  level = 4\n}\n")
	h, _ := newHost(t, cfg)
	stage, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, ok := stage.(*fakeRanker); !ok {
		t.Fatalf("built-in should be the stage itself, got %T", stage)
	}
	if got := rank(t, stage.(core.Ranker)); got.Reason != "builtin level 4" {
		t.Errorf("hit = %+v", got)
	}
	if o := h.Opened(); len(o) != 1 || o[0].Subprocess {
		t.Errorf("opened = %+v", o)
	}
	if _, err := os.Stat(filepath.Join(root, host.StateDir, "rank.fake")); err != nil {
		t.Errorf("state dir not created: %v", err)
	}
}

// Each failure mid-call produces one error line naming the plugin and its
// path, the built-in answers instead, and the plugin process is gone.
func TestFailureMidCall(t *testing.T) {
	cases := []struct {
		mode, extra, want string
	}{
		{"crash", "", "during Rank: crashed"},
		{"hang", "  timeout = \"300ms\"\n", "during Rank: did not answer within 300ms (timeout)"},
		{"garbage", "", `during Rank: answered garbage: hit 1 repeats "file:a"`},
		{"junk", "", "during Rank: answered garbage"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			tmp := privateTemp(t)
			h, sink, r, script := rankerFor(t, c.mode, c.extra)
			pid := h.Opened()[0].PID
			start := time.Now()
			if got := rank(t, r); got.ID != "file:builtin" || got.Reason != "builtin level 2" {
				t.Errorf("hit = %+v, want the built-in's answer with the block's settings", got)
			}
			if c.mode == "hang" && time.Since(start) > 3*time.Second {
				t.Errorf("a hung plugin should be killed, not waited for")
			}
			problems := h.Problems()
			if len(problems) != 1 {
				t.Fatalf("problems = %q, want exactly one line", problems)
			}
			want := fmt.Sprintf("plugin rank.fake (%s) %s", script, c.want)
			if !strings.HasPrefix(problems[0], want) || !strings.HasSuffix(problems[0], "using the built-in rank.fake instead") {
				t.Errorf("problem = %q\nwant prefix %q", problems[0], want)
			}
			if strings.Count(sink.String(), "plugin rank.fake") != 1 {
				t.Errorf("log should hold the line once:\n%s", sink.String())
			}
			assertGone(t, pid)
			assertNoSocketLeft(t, tmp)
			// Later calls go straight to the built-in.
			if got := rank(t, r); got.ID != "file:builtin" {
				t.Errorf("second call = %+v", got)
			}
			if o := h.Opened(); o[0].FellBack != "rank.fake" {
				t.Errorf("opened = %+v", o)
			}
		})
	}
}

func TestStartFailure(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-plugin")
	cases := []struct{ name, path, want string }{
		{"missing", missing, "failed to start"},
		{"stdout", "", "failed to start"},
		{"exit", "", "failed to start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path
			if path == "" {
				path = pluginScript(t, c.name)
			}
			root := t.TempDir()
			cfg := loadConfig(t, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n}\n", path))
			h, _ := newHost(t, cfg)
			stage, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake"))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if _, ok := stage.(*fakeRanker); !ok {
				t.Fatalf("want the built-in fallback, got %T", stage)
			}
			problems := h.Problems()
			want := fmt.Sprintf("plugin rank.fake (%s) %s", path, c.want)
			if c.name == "missing" {
				// The line to fix comes first.
				want = "rubi.hcl:2: " + want
			}
			if len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
				t.Errorf("problems = %q, want one starting %q", problems, want)
			}
		})
	}
}

// TestPluginBesideRubi finds a plugin named by its bare name next to the
// running binary when it is not on PATH, as `go install` leaves them.
func TestPluginBesideRubi(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	got, err := config.FindPlugin(filepath.Base(self))
	if err != nil || got != self {
		t.Errorf("FindPlugin(%s) = %q, %v; want %s", filepath.Base(self), got, err, self)
	}
	_, err = config.FindPlugin("rubi-no-such-plugin")
	var nf *config.PluginNotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), filepath.Join(filepath.Dir(self), "rubi-no-such-plugin")) {
		t.Errorf("missing: err = %v, want where it looked", err)
	}
}

func TestNoFallbackForThirdPartyRanker(t *testing.T) {
	root := t.TempDir()
	script := pluginScript(t, "crash")
	// The subprocess calls itself rank.fake; a block must use that name.
	cfg := loadConfig(t, root, fmt.Sprintf("ranker \"rank.other\" {\n  plugin = %q\n}\n", script))
	h, _ := newHost(t, cfg)
	_, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.other"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), `calls itself "rank.fake"`) {
		t.Fatalf("diags = %v", diags)
	}
}

func TestFuserFallsBackToRRF(t *testing.T) {
	root := t.TempDir()
	script := pluginScript(t, "fuser-crash")
	cfg := loadConfig(t, root, fmt.Sprintf("fuser \"fuse.rrf\" {\n  enabled = false\n}\nfuser \"fuse.fake\" {\n  plugin = %q\n}\n", script))
	h, _ := newHost(t, cfg)
	stage, diags := h.Open(context.Background(), cfg.Stage(core.KindFuser, "fuse.fake"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	hits, err := stage.(core.Fuser).Fuse(context.Background(), []core.RankedList{{Weight: 1, Hits: []core.Hit{{ID: "file:a"}, {ID: "file:b"}}}})
	if err != nil || len(hits) != 2 || hits[0].ID != "file:a" {
		t.Fatalf("fuse = %v, %v", hits, err)
	}
	if p := h.Problems(); len(p) != 1 || !strings.Contains(p[0], "using the built-in fuse.rrf instead") {
		t.Errorf("problems = %q", p)
	}
}

func TestFuserGarbageIsRejected(t *testing.T) {
	root := t.TempDir()
	cfg := loadConfig(t, root, fmt.Sprintf("fuser \"fuse.rrf\" {\n  enabled = false\n}\nfuser \"fuse.fake\" {\n  plugin = %q\n}\n", pluginScript(t, "fuser")))
	h, _ := newHost(t, cfg)
	stage, _ := h.Open(context.Background(), cfg.Stage(core.KindFuser, "fuse.fake"))
	hits, err := stage.(core.Fuser).Fuse(context.Background(), []core.RankedList{{Weight: 1, Hits: []core.Hit{{ID: "file:a"}}}})
	if err != nil || len(hits) != 1 || hits[0].ID != "file:a" {
		t.Fatalf("fuse = %v, %v", hits, err)
	}
	if p := h.Problems(); len(p) != 1 || !strings.Contains(p[0], "hit 0 (file:invented) is in none of the lists") {
		t.Errorf("problems = %q", p)
	}
}

func TestPluginSettingErrorsPointAtRubiHCL(t *testing.T) {
	script := pluginScript(t, "good")
	cases := []struct{ body, want string }{
		{"  level = 12\n", "rubi.hcl:3:11: Invalid level for ranker \"rank.fake\": must be at most 9."},
		{"  levle = 1\n", "rubi.hcl:3:3: Unsupported argument: An argument named \"levle\" is not expected in ranker \"rank.fake\". Did you mean \"level\"?"},
		{"  level = \"high\"\n", "rubi.hcl:3:11: Incorrect attribute value type"},
	}
	for _, c := range cases {
		root := t.TempDir()
		t.Chdir(root)
		cfg := loadConfig(t, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n%s}\n", script, c.body))
		h, _ := newHost(t, cfg)
		_, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake"))
		if len(diags) != 1 {
			t.Fatalf("diags = %v, problems = %q, opened = %+v", diags, h.Problems(), h.Opened())
		}
		d := diags[0]
		got := fmt.Sprintf("%s:%d:%d: %s: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
		if len(h.Problems()) != 0 {
			t.Errorf("a settings mistake is not a plugin failure: %q", h.Problems())
		}
		h.Close()
	}
}

// runHost is the body of a rubi process for TestPluginExitsWithParent: it
// opens the plugin, prints its pid and waits to be killed.
func runHost(root string) {
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"})
	if diags.HasErrors() {
		fmt.Println("error", diags.Error())
		os.Exit(1)
	}
	h := host.New(cfg, host.Options{Launcher: Launcher{}})
	if _, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake")); diags.HasErrors() {
		fmt.Println("error", diags.Error())
		os.Exit(1)
	}
	fmt.Println(h.Opened()[0].PID)
	select {}
}

// A rubi killed with SIGKILL cannot stop its plugins; the plugins notice
// and exit on their own.
func TestPluginExitsWithParent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes and waits for one to notice the other died")
	}
	tmp := privateTemp(t)
	root := t.TempDir()
	loadConfig(t, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n}\n", pluginScript(t, "good")))
	self, _ := os.Executable()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "RUBI_TEST_HOST="+root)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("host said %q", line)
	}
	if !alive(pid) {
		t.Fatalf("plugin %d not running", pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	assertGone(t, pid)
	assertNoSocketLeft(t, tmp)
}

// A plugin gets where it runs and how it speaks, not the secrets of the
// user's shell.
func TestPluginEnvIsMinimal(t *testing.T) {
	got := pluginEnv([]string{"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=fr_FR.UTF-8", "TMPDIR=/tmp/u", "AWS_SECRET_ACCESS_KEY=k", "GITHUB_TOKEN=t", "SSH_AUTH_SOCK=/s", "RUBI_VAULT=/v", "PATHOLOGY=1"})
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=fr_FR.UTF-8", "TMPDIR=/tmp/u"}
	if !slices.Equal(got, want) {
		t.Errorf("pluginEnv = %q, want %q", got, want)
	}
}
