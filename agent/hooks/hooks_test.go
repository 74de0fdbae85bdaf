package hooks

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
	"github.com/rubi-dev/rubi/core/tokens"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// project is a copy of the shop fixture, indexed, with the notes a test
// registered, and the Env the hooks run with.
type project struct {
	t    testing.TB
	root string
	env  Env
	vars map[string]string
}

func newProject(t testing.TB, notes ...knowledge.Input) *project {
	t.Helper()
	return newProjectFrom(t, "../../core/pipeline/testdata/shop", notes...)
}

// newProjectFrom is newProject with a copy of the tree src.
func newProjectFrom(t testing.TB, src string, notes ...knowledge.Input) *project {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUBI_VAULT", filepath.Join(t.TempDir(), "vault"))
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the record of the user's notes (project.OwnDir)
	p := &project{t: t, root: root, vars: map[string]string{"HOME": t.TempDir()}}
	p.env = Env{
		Getenv: func(k string) string { return p.vars[k] },
		Config: func(root string) (*config.Config, error) {
			cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"})
			if diags.HasErrors() {
				return nil, diags
			}
			return cfg, nil
		},
		Engine: func(cfg *config.Config) *pipeline.Engine {
			return pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments})
		},
		StartIndex: func(root string) (<-chan error, error) {
			// The test ends after the index it started, which writes into
			// its temporary folders: a run left going would write there
			// after they are removed.
			done, finished := make(chan error, 1), make(chan struct{})
			go func() { done <- p.indexRoot(root); close(finished) }()
			t.Cleanup(func() { <-finished })
			return done, nil
		},
	}
	if len(notes) > 0 {
		eng := p.engine()
		res, err := eng.Project().Knowledge().Register(context.Background(), notes)
		eng.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Action == knowledge.ActionError {
				t.Fatalf("register %+v", r)
			}
		}
	}
	if err := p.index(); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *project) engine() *pipeline.Engine {
	cfg, err := p.env.Config(p.root)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.env.Engine(cfg)
}

func (p *project) index() error { return p.indexRoot(p.root) }

func (p *project) indexRoot(root string) error {
	cfg, err := p.env.Config(root)
	if err != nil {
		return err
	}
	eng := p.env.Engine(cfg)
	defer eng.Close()
	_, err = eng.Index(context.Background(), pipeline.IndexOptions{})
	return err
}

// testdata is the absolute path of testdata/: some tests change the
// working directory.
var testdata, _ = filepath.Abs("testdata")

// payload reads a captured payload of testdata and points it at the
// project, with the given fields changed.
func (p *project) payload(sample string, set map[string]any) string {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, sample))
	if err != nil {
		p.t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		p.t.Fatal(err)
	}
	doc["cwd"] = p.root
	delete(doc, "transcript_path")
	for k, v := range set {
		doc[k] = v
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

// hook runs one hook and returns what it printed, decoded ("" fields when
// it printed nothing).
func (p *project) hook(event, payload string) hookAnswer {
	p.t.Helper()
	var out bytes.Buffer
	Run(context.Background(), p.env, event, strings.NewReader(payload), &out)
	var a hookAnswer
	a.raw = out.String()
	if a.raw == "" {
		return a
	}
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		p.t.Fatalf("%s printed %q: %v", event, a.raw, err)
	}
	return a
}

type hookAnswer struct {
	raw      string
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Specific struct {
		Event      string `json:"hookEventName"`
		Context    string `json:"additionalContext"`
		Permission string `json:"permissionDecision"`
		Why        string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func (p *project) logText() string {
	data, _ := os.ReadFile(filepath.Join(p.root, ".rubi", LogName))
	return string(data)
}

var couponNote = knowledge.Input{
	Type: knowledge.TypeGotcha, Title: "Coupon applied twice",
	Body:  "The discount ran before the total was recomputed, so the coupon counted twice. Apply coupons after the total.",
	Files: []string{"internal/discount/coupon.go"},
}

var ruleNote = knowledge.Input{
	Type: knowledge.TypeDecision, Title: "Money is stored in cents", Importance: knowledge.ImportanceCritical,
	Body: "Every amount is an int of cents; never use floats for prices.",
}

func TestSessionStartInjectsMapAndCriticalNotes(t *testing.T) {
	p := newProject(t, couponNote, ruleNote)
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	if a.Specific.Event != SessionStart {
		t.Fatalf("answer %q: want hookSpecificOutput for SessionStart", a.raw)
	}
	ctx := a.Specific.Context
	for _, want := range []string{"# Map of", "internal/discount", "critical notes", "Money is stored in cents", "never use floats"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("session start context lacks %q:\n%s", want, ctx)
		}
	}
	if strings.Contains(ctx, "Coupon applied twice") {
		t.Errorf("a medium note was injected at session start:\n%s", ctx)
	}
	if strings.Contains(ctx, "handoff") {
		t.Errorf("a startup injected a handoff:\n%s", ctx)
	}
	// The index keeps the critical notes in one small file; an index that
	// has not written it yet is read around.
	list := filepath.Join(p.root, ".rubi", "index", "critical.json")
	if data, err := os.ReadFile(list); err != nil || !strings.Contains(string(data), "Money is stored in cents") || strings.Contains(string(data), "Coupon") {
		t.Errorf("critical.json: %q, %v", data, err)
	}
	os.Remove(list)
	p.env.StartIndex = nil
	if a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil)); !strings.Contains(a.Specific.Context, "Money is stored in cents") {
		t.Errorf("without critical.json: %q", a.raw)
	}
}

func TestSessionStartAfterCompactPutsTheHandoffFirst(t *testing.T) {
	p := newProject(t)
	eng := p.engine()
	if _, err := eng.Project().Knowledge().SaveHandoff(knowledge.Handoff{Goal: "Ship the coupon fix", Next: []string{"write the regression test for Apply"}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	for _, source := range []string{"compact", "clear"} {
		a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": source}))
		ctx := a.Specific.Context
		h, m := strings.Index(ctx, "write the regression test for Apply"), strings.Index(ctx, "# Map of")
		if h < 0 || m < 0 || h > m {
			t.Errorf("source %s: want the handoff, then the map:\n%s", source, ctx)
		}
	}
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": "resume"}))
	if strings.Contains(a.Specific.Context, "Ship the coupon fix") {
		t.Errorf("resume injected the handoff:\n%s", a.Specific.Context)
	}
	// Three days later the handoff may be about other work: pointed to,
	// not injected.
	p.env.Now = func() time.Time { return time.Now().Add(72 * time.Hour) }
	a = p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": "compact"}))
	if strings.Contains(a.Specific.Context, "Ship the coupon fix") || !strings.Contains(a.Specific.Context, "the last handoff is from") || !strings.Contains(a.Specific.Context, "3 days ago") {
		t.Errorf("an old handoff after compaction:\n%s", a.Specific.Context)
	}
}

func TestSessionStartIndexesAFreshProject(t *testing.T) {
	root := t.TempDir()
	os.CopyFS(root, os.DirFS("../../core/pipeline/testdata/shop"))
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	p := &project{t: t, root: root, vars: map[string]string{"HOME": t.TempDir()}}
	p.env = newProject(t).env // the same wiring, pointed at this root below
	p.env.Getenv = func(k string) string { return p.vars[k] }
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	if !strings.Contains(a.Specific.Context, "internal/checkout") {
		t.Fatalf("first session start: want the map after a first index, got %q (log %q)", a.raw, p.logText())
	}

	// A first index slower than the wait: the session is told it runs.
	slow := t.TempDir()
	os.CopyFS(slow, os.DirFS("../../core/pipeline/testdata/shop"))
	os.Mkdir(filepath.Join(slow, ".git"), 0o755)
	p.root = slow
	release := make(chan struct{})
	defer close(release)
	p.env.StartIndex = func(string) (<-chan error, error) {
		done := make(chan error, 1)
		go func() { <-release; done <- nil }()
		return done, nil
	}
	p.env.FirstWait = 10 * time.Millisecond
	a = p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	if !strings.Contains(a.Specific.Context, "building this project's index in the background") {
		t.Errorf("slow first index: want the note that it runs, got %q", a.raw)
	}
}

func TestHooksStayOutOfDirectoriesThatAreNotProjects(t *testing.T) {
	p := newProject(t)
	dir := t.TempDir() // no .git, .rubi or rubi.hcl
	for _, ev := range []string{SessionStart, UserPromptSubmit, PreToolUse} {
		var out bytes.Buffer
		payload := fmt.Sprintf(`{"hook_event_name":%q,"session_id":"s1","cwd":%q,"source":"startup","prompt":"coupon applied twice"}`, ev, dir)
		Run(context.Background(), p.env, ev, strings.NewReader(payload), &out)
		if out.Len() != 0 {
			t.Errorf("%s outside a project printed %q", ev, out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".rubi")); err == nil {
		t.Error("a hook created .rubi/ outside a project")
	}
	// The home directory is not a project because it has .git.
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, ".git"), 0o755)
	p.vars["HOME"] = home
	var out bytes.Buffer
	Run(context.Background(), p.env, SessionStart, strings.NewReader(fmt.Sprintf(`{"session_id":"s1","cwd":%q,"source":"startup"}`, home)), &out)
	if out.Len() != 0 {
		t.Errorf("SessionStart in a home directory with .git printed %q", out.String())
	}
}

func TestRecallInjectsOnlyWhenSomethingMatches(t *testing.T) {
	p := newProject(t, couponNote, knowledge.Input{
		Type: knowledge.TypeDecision, Title: "Use JWT instead of session cookies",
		Body: "Stateless tokens, so the API runs on edge runtimes without a session store.",
	}, knowledge.Input{
		Type: knowledge.TypeHowto, Title: "Adding a promotion",
		Body: "Register it in the table with its percentage.", Files: []string{"internal/discount/rules.go"},
	})
	must := map[string]string{
		"why is the coupon applied twice at checkout?": "Coupon applied twice",
		"Fix the coupon":                            "Coupon applied twice",
		"should we keep session cookies?":           "Use JWT instead of session cookies",
		"what does internal/discount/coupon.go do?": "Coupon applied twice",
		"check rules.go":                            "Adding a promotion",
	}
	for prompt, want := range must {
		a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": prompt}))
		if !strings.Contains(a.Specific.Context, want) {
			t.Errorf("prompt %q: want %q recalled, got %q", prompt, want, a.raw)
			continue
		}
		if a.Specific.Event != UserPromptSubmit || !strings.HasPrefix(a.Specific.Context, "rubi recall:") {
			t.Errorf("prompt %q: answer %q is not a recall", prompt, a.raw)
		}
	}
	// The gotcha comes with the file it is about, and alone.
	a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice?"}))
	if !strings.Contains(a.Specific.Context, "files: internal/discount/coupon.go") {
		t.Errorf("the note's file was not recalled with it:\n%s", a.Specific.Context)
	}
	if strings.Contains(a.Specific.Context, "JWT") || strings.Contains(a.Specific.Context, "promotion") {
		t.Errorf("notes that do not match were recalled:\n%s", a.Specific.Context)
	}
	mustNot := []string{
		"thanks, looks good",
		"add a dark mode toggle to the settings page",
		"please continue",
		"/compact",
		"",
		"what is the weather like in Lisbon today?",
		"fix the tests",
		"fix the go build",
		"update README.md",
	}
	for _, prompt := range mustNot {
		a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": prompt}))
		if a.raw != "" {
			t.Errorf("prompt %q injected %q", prompt, a.raw)
		}
	}
}

func TestRecallStaysInTheBudget(t *testing.T) {
	// Eight long notes match, more than the budget holds; the words they
	// share stay rare in the project (the other notes are about other
	// things), so they are telling (rerank.floor).
	var notes []knowledge.Input
	for i := range 8 {
		notes = append(notes, knowledge.Input{Type: knowledge.TypeGotcha, Title: fmt.Sprintf("Coupon gotcha number %d", i),
			Body: strings.Repeat("Coupons and checkout totals interact in surprising ways. ", 8)})
	}
	for i := range 30 {
		notes = append(notes, knowledge.Input{Type: knowledge.TypeNote, Title: fmt.Sprintf("Release step %d", i),
			Body: fmt.Sprintf("Step %d of the release: tag, build and publish the archive.", i)})
	}
	p := newProject(t, notes...)
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("budgets {\n  recall = 300\n}\n"), 0o644)
	a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "coupon checkout gotchas"}))
	if a.Specific.Context == "" {
		t.Fatalf("nothing recalled (log %q)", p.logText())
	}
	// The footer states the tokens used against the budget.
	if !strings.Contains(a.Specific.Context, "(budget 300") {
		t.Errorf("recall did not use budgets.recall:\n%s", a.Specific.Context)
	}
	if strings.Count(a.Specific.Context, "[node]") > recallLimit {
		t.Errorf("more than %d items:\n%s", recallLimit, a.Specific.Context)
	}
}

func TestCodexPayloadsAreAnsweredTheSameWay(t *testing.T) {
	p := newProject(t, couponNote)
	a := p.hook(UserPromptSubmit, p.payload("codex/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice?"}))
	if !strings.Contains(a.Specific.Context, "Coupon applied twice") {
		t.Errorf("codex recall: got %q", a.raw)
	}
	a = p.hook(SessionStart, p.payload("codex/SessionStart.json", nil))
	if !strings.Contains(a.Specific.Context, "# Map of") {
		t.Errorf("codex session start: got %q", a.raw)
	}
	// Codex's shell tool is Bash: a plain ls counts as exploring and is
	// never guarded.
	if a := p.hook(PreToolUse, p.payload("codex/PreToolUse.json", nil)); a.raw != "" {
		t.Errorf("codex PreToolUse ls answered %q", a.raw)
	}
}

func TestMalformedAndEmptyInputPrintNothing(t *testing.T) {
	p := newProject(t)
	t.Chdir(p.root)
	for _, in := range []string{"", "   \n", "{not json", `["an","array"]`, `{"hook_event_name":"UserPromptSubmit"`} {
		var out bytes.Buffer
		Run(context.Background(), p.env, UserPromptSubmit, strings.NewReader(in), &out)
		if out.Len() != 0 {
			t.Errorf("stdin %q: printed %q", in, out.String())
		}
	}
	if !strings.Contains(p.logText(), "empty payload on stdin") || !strings.Contains(p.logText(), "payload on stdin") {
		t.Errorf("the log does not say what was wrong:\n%s", p.logText())
	}
	// Events rubi does not handle are ignored, whatever they carry.
	for _, sample := range []string{"claude-code/MessageDisplay.json", "claude-code/PostToolBatch.json", "claude-code/SubagentStop.json", "codex/PreModelRequest.json"} {
		if a := p.hook("", p.payload(sample, nil)); a.raw != "" {
			t.Errorf("%s answered %q", sample, a.raw)
		}
	}
}

func TestTheEventInThePayloadWins(t *testing.T) {
	p := newProject(t, couponNote)
	payload := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "coupon applied twice"})
	a := p.hook("SessionStart", payload)
	if a.Specific.Event != UserPromptSubmit {
		t.Errorf("command said SessionStart, payload UserPromptSubmit: answered %q", a.raw)
	}
}

func TestAnInternalErrorIsLoggedNotShown(t *testing.T) {
	p := newProject(t, couponNote)
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("budgets {\n  recall = \"many\"\n}\n"), 0o644)
	a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "coupon applied twice"}))
	if a.raw != "" {
		t.Errorf("a broken rubi.hcl: printed %q", a.raw)
	}
	if !strings.Contains(p.logText(), "rubi.hcl") {
		t.Errorf("the log does not name rubi.hcl:\n%s", p.logText())
	}
}

func TestTheLogIsCapped(t *testing.T) {
	p := newProject(t)
	log := filepath.Join(p.root, ".rubi", LogName)
	os.WriteFile(log, bytes.Repeat([]byte("x"), maxLog+1), 0o644)
	t.Chdir(p.root)
	Run(context.Background(), p.env, Stop, strings.NewReader(""), &bytes.Buffer{})
	st, err := os.Stat(log)
	if err != nil || st.Size() > 1000 {
		t.Errorf("hooks.log was not rotated: %v %v", st, err)
	}
	if _, err := os.Stat(log + ".1"); err != nil {
		t.Errorf("the rotated log is missing: %v", err)
	}
}

// A cloned repository commits .rubi/hooks.log as a link to a file outside
// it, and a broken rubi.hcl whose text is a shell command: no hook may
// append that text (or anything) to the link's target.
func TestTheLogNeverFollowsALink(t *testing.T) {
	p := newProject(t, couponNote)
	outside := filepath.Join(t.TempDir(), ".bashrc")
	if err := os.WriteFile(outside, []byte("# the user's shell profile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(p.root, ".rubi", LogName)
	if err := os.Symlink(outside, log); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("budgets {\n  recall = \"$(touch /tmp/PWNED)\"\n}\n"), 0o644)
	payload := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "coupon applied twice"})
	for _, event := range []string{UserPromptSubmit, SessionStart, Stop} {
		if a := p.hook(event, payload); a.raw != "" && event == UserPromptSubmit {
			t.Errorf("%s with a broken rubi.hcl printed %q", event, a.raw)
		}
	}
	if f, err := OpenLog(p.root); err == nil {
		f.Close()
		t.Error("OpenLog opened a hooks.log that is a link")
	} else if !strings.Contains(err.Error(), log) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("OpenLog's refusal does not say what and where: %v", err)
	}
	data, err := os.ReadFile(outside)
	if err != nil || string(data) != "# the user's shell profile\n" {
		t.Errorf("the link's target was written: %q %v", data, err)
	}
	if fi, err := os.Lstat(log); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link itself was replaced: %v %v", fi, err)
	}
}

// A rubi.hcl nested 200 KB deep used to overflow the stack of every hook
// (exit 2, which blocks the user's prompt); it is now a logged error.
func TestADeeplyNestedRubiHCLDoesNotCrashAHook(t *testing.T) {
	p := newProject(t, couponNote)
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), append([]byte("x = "), bytes.Repeat([]byte("["), 200<<10)...), 0o644)
	if a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "coupon applied twice"})); a.raw != "" {
		t.Errorf("printed %q", a.raw)
	}
	if !strings.Contains(p.logText(), "nested too deep") {
		t.Errorf("the log does not say what is wrong:\n%s", p.logText())
	}
}

// After a compaction the handoff comes back whole, as written: prose
// under a list section and sections rubi does not know included.
func TestSessionStartInjectsTheWholeHandoff(t *testing.T) {
	p := newProject(t)
	eng := p.engine()
	text := "## Goal\n\nAdd a second coupon type\n\n## Next\n\nWire the endpoint zebra-42\n\n## Risks\n\n```go\nfunc apply() {}\n```\n\n## Notes\nsomething else"
	h := knowledge.ParseHandoff(text)
	h.Created = time.Now()
	if _, err := eng.Project().Knowledge().SaveHandoff(h); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": "compact"}))
	if !strings.Contains(a.Specific.Context, text) {
		t.Errorf("the handoff is not injected whole:\n%s", a.Specific.Context)
	}
}

// A handoff past the injection's budget is cut at a line, and the cut
// says how much it left out and which sections.
func TestSessionStartSaysWhatItCutOfTheHandoff(t *testing.T) {
	p := newProject(t)
	eng := p.engine()
	var b strings.Builder
	b.WriteString("## Goal\n\nMove checkout to the new pricing engine\n\n## Done\n\n")
	for i := range 400 {
		fmt.Fprintf(&b, "- migrated price rule %d of the legacy table to the engine\n", i)
	}
	b.WriteString("\n## Next\n\nWire the endpoint zebra-42\n\n## Open questions\n\nWho owns refunds?\n")
	h := knowledge.ParseHandoff(b.String())
	h.Created = time.Now()
	if _, err := eng.Project().Knowledge().SaveHandoff(h); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": "compact"}))
	ctx := a.Specific.Context
	start := strings.Index(ctx, "rubi: the last handoff")
	end := strings.Index(ctx, "# Map of")
	if start < 0 || end < start {
		t.Fatalf("no handoff before the map:\n%s", ctx)
	}
	injected := ctx[start:end]
	if n := tokens.Estimate(injected); n > handoffBudget+100 {
		t.Errorf("the handoff takes %d tokens, past its budget of %d", n, handoffBudget)
	}
	for _, want := range []string{"Move checkout to the new pricing engine", "- migrated price rule 0 ", "cut to the budget of 2000 tokens",
		`the rest of "Done", then "Next", "Open questions" not shown`, "action last"} {
		if !strings.Contains(injected, want) {
			t.Errorf("the cut handoff lacks %q:\n%s", want, injected)
		}
	}
	if strings.Contains(injected, "zebra-42") {
		t.Errorf("the cut handoff shows what it says it cut:\n%s", injected)
	}
}
