package knowledge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

var t0 = time.Date(2026, 10, 17, 15, 30, 0, 0, time.UTC)

// clock returns a clock that starts at t0 and advances a second per call.
func clock() func() time.Time {
	var mu sync.Mutex
	now := t0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// codeMap is a CodeMap over fixed data.
type codeMap struct {
	files   map[string]string
	symbols map[string][2]string
}

func (c *codeMap) FileHash(p string) (string, bool) { h, ok := c.files[p]; return h, ok }
func (c *codeMap) Symbol(name string) (string, string, bool) {
	s, ok := c.symbols[name]
	return s[0], s[1], ok
}

// Symbols parses content with the regex parser, as rubi's default
// pipeline does.
func (c *codeMap) Symbols(p string, content []byte) ([]core.Symbol, bool) {
	return parseSymbols(p, content)
}

func parseSymbols(p string, content []byte) ([]core.Symbol, bool) {
	lang := core.DetectLanguage(p)
	facts, err := regex.New().Parse(context.Background(), []core.SourceFile{{Path: p, Language: lang, Content: content}})
	if err != nil || len(facts) != 1 {
		return nil, false
	}
	return facts[0].Symbols, true
}

func newStore(t testing.TB, mod ...func(*Options)) *Store {
	t.Helper()
	opts := Options{Root: t.TempDir(), Now: clock(), MaskComments: regex.MaskComments}
	for _, m := range mod {
		m(&opts)
	}
	return Open(opts)
}

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func register(t testing.TB, s *Store, in ...Input) []Result {
	t.Helper()
	res, err := s.Register(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func registerOne(t testing.TB, s *Store, in Input) Result {
	t.Helper()
	r := register(t, s, in)[0]
	if r.Action == ActionError {
		t.Fatalf("register %q: %s", in.Title, r.Error)
	}
	return r
}

func get(t testing.TB, s *Store, id string) *Node {
	t.Helper()
	n, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func hasNote(r Result, note string) bool { return slices.Contains(r.Notes, note) }

func TestRoundTrip(t *testing.T) {
	s := newStore(t)
	writeFile(t, s.root, "src/auth/login.ts", "export function login() {}\n")
	registerOne(t, s, Input{Type: "concept", Title: "Authentication"})
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	in := Input{
		Type: "decision", Title: "Use JWT instead of session",
		Body:       "Stateless, so it runs on edge runtimes.\n\n```go\nx := \"---\"\n```\n\n- a list\n- [[not a link section]]",
		Files:      []string{"./src/auth/login.ts"},
		Links:      []Link{{Rel: "About", Target: "concept-authentication"}},
		Tags:       []string{"#auth", "security review"},
		Importance: "high",
		Created:    &created,
	}
	r := registerOne(t, s, in)
	if r.Action != ActionCreated || r.ID != "decision-use-jwt-instead-of-session" {
		t.Fatalf("result %+v", r)
	}
	if want := filepath.Join(s.root, ".rubi", "knowledge", r.ID+".md"); r.Path != want {
		t.Errorf("path %s, want %s", r.Path, want)
	}
	n := get(t, s, r.ID)
	want := &Node{
		ID: r.ID, Type: TypeDecision, Status: StatusActive, Importance: ImportanceHigh,
		Title: in.Title, Files: []string{"src/auth/login.ts"},
		Links:   []Link{{Rel: "about", Target: "concept-authentication"}},
		Tags:    []string{"auth", "security-review"},
		Created: created, Updated: n.Updated,
		Anchors: map[string]string{"src/auth/login.ts": "code:" + hashString("export function login(){}")},
		Body:    strings.TrimSpace(in.Body),
		Path:    r.Path,
	}
	if !reflect.DeepEqual(n, want) {
		t.Errorf("read back\n%#v\nwant\n%#v", n, want)
	}
	if n.Updated.IsZero() || n.Updated.Before(t0) {
		t.Errorf("updated %v", n.Updated)
	}
	// A fresh store (no cache) reads the same.
	fresh := Open(Options{Root: s.root})
	if n2 := get(t, fresh, r.ID); !reflect.DeepEqual(n2, n) {
		t.Errorf("fresh read\n%#v\nwant\n%#v", n2, n)
	}
	data, _ := os.ReadFile(r.Path)
	for _, line := range []string{
		"# Use JWT instead of session",
		"- about [[concept-authentication]]",
		"- file [[src/auth/login.ts]]",
		"files: [src/auth/login.ts]",
		"links: [{rel: about, target: concept-authentication}]",
	} {
		if !strings.Contains(string(data), line+"\n") {
			t.Errorf("file lacks line %q:\n%s", line, data)
		}
	}
}

// Every field and unknown keys survive encode then decode.
func TestEncodeDecodeAllFields(t *testing.T) {
	vu := t0.Add(time.Hour)
	n := &Node{
		ID: "gotcha-x", Type: TypeGotcha, Status: StatusSuperseded, Importance: ImportanceCritical,
		Title: "yes: no # not a comment", Files: []string{"a b/c.go", "on"}, Symbols: []string{"1:20", "Login"},
		Links:      []Link{{Rel: "about", Target: "file:a b/c.go"}, {Rel: "causes", Target: "x, y {z}"}},
		Supersedes: []string{"gotcha-old"}, SupersededBy: "gotcha-new", ValidUntil: &vu,
		Tags: []string{"null", "123"}, Created: t0, Updated: t0.Add(time.Minute), Commit: "1234567",
		Anchors: map[string]string{"a b/c.go": "abc", "symbol:Login": "def"},
		Body:    "line one\n\n## Links\n\nnot only links here\n- about [[y]]",
	}
	data, err := encodeNode(n)
	if err != nil {
		t.Fatal(err)
	}
	got, warnings, err := decodeNode("gotcha-x.md", data)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("decode: %v %v\n%s", err, warnings, data)
	}
	if !reflect.DeepEqual(got, n) {
		t.Errorf("decoded\n%#v\nwant\n%#v\nfile:\n%s", got, n, data)
	}
}

func TestMergeByIDAndTitle(t *testing.T) {
	s := newStore(t)
	writeFile(t, s.root, "a.go", "package a\n")
	writeFile(t, s.root, "b.go", "package b\n")
	first := registerOne(t, s, Input{Type: "gotcha", Title: "Coupon applied twice", Body: "Discount runs before the total.", Files: []string{"a.go"}, Importance: "high", Tags: []string{"cart"}})

	// Same normalized title: accents, case and punctuation do not matter.
	r := registerOne(t, s, Input{Type: "gotcha", Title: "  coupon — APPLIED twice! ", Body: "Also on refunds.", Files: []string{"b.go"}, Importance: "low", Tags: []string{"cart", "refund"}})
	if r.Action != ActionMerged || r.ID != first.ID || !hasNote(r, "merged into "+first.ID) {
		t.Fatalf("merge by title: %+v", r)
	}
	n := get(t, s, first.ID)
	wantBody := "Discount runs before the total.\n\n---\n\n*" + n.Updated.Format("2006-01-02") + "*\n\nAlso on refunds."
	if n.Body != wantBody {
		t.Errorf("body %q, want %q", n.Body, wantBody)
	}
	if n.Importance != ImportanceHigh {
		t.Errorf("importance lowered to %s", n.Importance)
	}
	if !reflect.DeepEqual(n.Files, []string{"a.go", "b.go"}) || !reflect.DeepEqual(n.Tags, []string{"cart", "refund"}) {
		t.Errorf("files %v tags %v", n.Files, n.Tags)
	}
	if n.Title != "Coupon applied twice" {
		t.Errorf("title changed to %q", n.Title)
	}

	// By id; text already present is not appended again; importance rises.
	r = registerOne(t, s, Input{ID: first.ID, Body: "Also   on\nrefunds.", Importance: "critical"})
	if r.Action != ActionMerged {
		t.Fatalf("merge by id: %+v", r)
	}
	n2 := get(t, s, first.ID)
	if n2.Body != wantBody || n2.Importance != ImportanceCritical {
		t.Errorf("body %q importance %s", n2.Body, n2.Importance)
	}
	// Another type with the same title is another node.
	r = registerOne(t, s, Input{Type: "bug", Title: "Coupon applied twice"})
	if r.Action != ActionCreated || r.ID != "bug-coupon-applied-twice" {
		t.Errorf("other type: %+v", r)
	}
	// An id of another type is refused.
	if r := register(t, s, Input{ID: first.ID, Type: "bug", Title: "x"})[0]; r.Action != ActionError || !strings.Contains(r.Error, "is a gotcha") {
		t.Errorf("type clash: %+v", r)
	}
	// Within one batch, the second input merges into the first.
	res := register(t, s, Input{Title: "Batch note", Body: "one"}, Input{Title: "batch note", Body: "two"})
	if res[0].Action != ActionCreated || res[1].Action != ActionMerged || res[1].ID != res[0].ID {
		t.Errorf("same batch: %+v", res)
	}
}

func TestGeneratedIDs(t *testing.T) {
	s := newStore(t)
	a := registerOne(t, s, Input{Type: "note", Title: "Ação rápida: é isso"})
	if a.ID != "note-acao-rapida-e-isso" {
		t.Errorf("id %s", a.ID)
	}
	// Same slug, different title: a numeric suffix.
	b := registerOne(t, s, Input{Type: "note", Title: "Acao rapida, e isso?"})
	if b.Action != ActionMerged {
		// normalized titles are equal, so this merges; use a retracted
		// node to force a slug clash instead.
		t.Logf("%+v", b)
	}
	if err := s.Forget(a.ID, false); err != nil {
		t.Fatal(err)
	}
	c := registerOne(t, s, Input{Type: "note", Title: "Ação rápida: é isso"})
	if c.Action != ActionCreated || c.ID != "note-acao-rapida-e-isso-2" {
		t.Errorf("clash with a retracted node: %+v", c)
	}
	long := registerOne(t, s, Input{Type: "howto", Title: strings.Repeat("deploy the service ", 10)})
	if len(long.ID) > MaxIDLen || strings.HasSuffix(long.ID, "-") || validateID(long.ID) != nil {
		t.Errorf("long id %q", long.ID)
	}
	cjk := registerOne(t, s, Input{Type: "note", Title: "認証の決定"})
	if validateID(cjk.ID) != nil || !strings.HasPrefix(cjk.ID, "note-") {
		t.Errorf("cjk id %q", cjk.ID)
	}
	given := registerOne(t, s, Input{ID: "my-own-id", Type: "task", Title: "Ship it"})
	if given.ID != "my-own-id" {
		t.Errorf("caller id not kept: %+v", given)
	}
}

func TestNearDuplicate(t *testing.T) {
	s := newStore(t)
	a := registerOne(t, s, Input{Type: "gotcha", Title: "Coupon applied twice at checkout", Body: "The discount runs before the cart total is recalculated."})
	r := registerOne(t, s, Input{Type: "gotcha", Title: "Coupons get applied twice in checkout", Body: "Seen again."})
	if r.Action != ActionCreated || !hasNote(r, "similar: "+a.ID) {
		t.Errorf("near duplicate by title: %+v", r)
	}
	// Different title, nearly the same text.
	r = registerOne(t, s, Input{Type: "gotcha", Title: "Cart total wrong", Body: "Coupon applied twice at checkout: the discount runs before the cart total is recalculated."})
	if !hasNote(r, "similar: "+a.ID) {
		t.Errorf("near duplicate by body: %+v", r)
	}
	// Another type, or unrelated text: nothing.
	r = registerOne(t, s, Input{Type: "bug", Title: "Coupon applied twice at checkout page"})
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "similar:") }) {
		t.Errorf("other type reported similar: %+v", r)
	}
	r = registerOne(t, s, Input{Type: "gotcha", Title: "Flaky websocket reconnect", Body: "Backoff resets too early."})
	if len(r.Notes) > 0 {
		t.Errorf("unrelated: %+v", r)
	}
}

func TestSupersedeChain(t *testing.T) {
	s := newStore(t)
	a := registerOne(t, s, Input{Type: "decision", Title: "Session cookie", Body: "Sessions in a cookie."})
	b := registerOne(t, s, Input{Type: "decision", Title: "Use JWT", Supersedes: []string{"session COOKIE"}})
	if b.Action != ActionSuperseded || !hasNote(b, "superseded: "+a.ID) {
		t.Fatalf("b: %+v", b)
	}
	c := registerOne(t, s, Input{Type: "decision", Title: "Use PASETO", Supersedes: []string{b.ID, "no such decision"}})
	if !hasNote(c, "superseded: "+b.ID) || !hasNote(c, "unresolved supersedes: no such decision") {
		t.Fatalf("c: %+v", c)
	}
	na, nb, nc := get(t, s, a.ID), get(t, s, b.ID), get(t, s, c.ID)
	if na.Status != StatusSuperseded || na.SupersededBy != b.ID || na.ValidUntil == nil {
		t.Errorf("a: %+v", na)
	}
	if nb.Status != StatusSuperseded || nb.SupersededBy != c.ID || nb.ValidUntil == nil || !reflect.DeepEqual(nb.Supersedes, []string{a.ID}) {
		t.Errorf("b: %+v", nb)
	}
	if nc.Status != StatusActive || !reflect.DeepEqual(nc.Supersedes, []string{b.ID}) {
		t.Errorf("c: %+v", nc)
	}
	if na.Body != "Sessions in a cookie." {
		t.Errorf("superseded node lost its body: %q", na.Body)
	}
	data, _ := os.ReadFile(nb.Path)
	for _, l := range []string{"- supersedes [[" + a.ID + "]]", "- superseded-by [[" + c.ID + "]]", "status: superseded"} {
		if !strings.Contains(string(data), l) {
			t.Errorf("b's file lacks %q:\n%s", l, data)
		}
	}
	// A superseded node is not merged into by title: a new one is made.
	r := registerOne(t, s, Input{Type: "decision", Title: "Session cookie"})
	if r.Action != ActionCreated || r.ID == a.ID {
		t.Errorf("re-registering a superseded title: %+v", r)
	}
	// And it is not reported as similar to what it supersedes.
	r = registerOne(t, s, Input{Type: "decision", Title: "Use PASETO v4", Supersedes: []string{c.ID}})
	if slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "similar:") }) {
		t.Errorf("similar to the superseded node: %+v", r)
	}
}

// An input that needs a body creates no node from a title alone, but
// still merges into an existing node and creates one with anything
// beside the title; without NeedsBody a title alone is a node (a concept
// to link to).
func TestNeedsBody(t *testing.T) {
	s := newStore(t)
	res := register(t, s, Input{Type: "note", Title: "x", Tags: []string{"t"}, Importance: "high", NeedsBody: true})
	if res[0].Action != ActionError || res[0].Error != ErrNoBody.Error() {
		t.Fatalf("a title alone: %+v", res[0])
	}
	if nodes, _ := s.Nodes(); len(nodes) != 0 {
		t.Fatalf("a node was written: %+v", nodes[0])
	}
	registerOne(t, s, Input{Type: "note", Title: "With a file", Files: []string{"a.go"}, NeedsBody: true})
	registerOne(t, s, Input{Type: "concept", Title: "Checkout"})
	if r := registerOne(t, s, Input{Type: "concept", Title: "Checkout", Tags: []string{"cart"}, NeedsBody: true}); r.Action != ActionMerged {
		t.Errorf("a tag for an existing node: %+v", r)
	}
}

func TestLinks(t *testing.T) {
	cm := &codeMap{
		files:   map[string]string{"src/cart.ts": "h1"},
		symbols: map[string][2]string{"applyCoupon": {"src/cart.ts", "function applyCoupon(c)"}},
	}
	s := newStore(t, func(o *Options) { o.Code = cm })
	writeFile(t, s.root, "README.md", "hi\n")
	concept := registerOne(t, s, Input{Type: "concept", Title: "Checkout"})
	res := register(t, s,
		Input{Type: "gotcha", Title: "Coupon applied twice", Links: []Link{
			{Rel: "about", Target: concept.ID},
			{Rel: "about", Target: "checkout"},           // by title: same node, once
			{Rel: "in", Target: "src/cart.ts"},           // file of the code map
			{Rel: "see", Target: "README.md"},            // file on disk only
			{Rel: "uses", Target: "applyCoupon"},         // symbol
			{Rel: "", Target: "Later in this batch"},     // resolved after the batch
			{Rel: "about", Target: "Nothing like this"},  // unresolved
			{Rel: "about", Target: "file:src/nope.ts"},   // unknown file
			{Rel: "about", Target: "symbol:NoSuchThing"}, // unknown symbol
		}},
		Input{Type: "note", Title: "Later in this batch"},
	)
	r := res[0]
	if r.Action != ActionCreated {
		t.Fatalf("%+v", r)
	}
	for _, note := range []string{"unresolved link: Nothing like this", "unresolved link: file:src/nope.ts", "unresolved link: symbol:NoSuchThing"} {
		if !hasNote(r, note) {
			t.Errorf("missing note %q in %v", note, r.Notes)
		}
	}
	n := get(t, s, r.ID)
	want := []Link{
		{"about", concept.ID}, {"in", "file:src/cart.ts"}, {"see", "file:README.md"},
		{"uses", "symbol:applyCoupon"}, {"related", res[1].ID}, {"about", "Nothing like this"},
		{"about", "file:src/nope.ts"}, {"about", "symbol:NoSuchThing"},
	}
	if !reflect.DeepEqual(n.Links, want) {
		t.Errorf("links\n%v\nwant\n%v", n.Links, want)
	}
	data, _ := os.ReadFile(n.Path)
	for _, l := range []string{"- in [[src/cart.ts]]", "- uses [[applyCoupon]]", "- about [[concept-checkout]]"} {
		if !strings.Contains(string(data), l+"\n") {
			t.Errorf("file lacks %q", l)
		}
	}
	// Bad link input is a per-node error.
	bad := register(t, s, Input{Title: "x", Links: []Link{{Rel: "about", Target: "a]]b"}}}, Input{Title: "y", Links: []Link{{Rel: "a b!", Target: "z"}}},
		Input{Title: "z", Links: []Link{{Rel: "about", Target: "file:../../etc/passwd"}}})
	for _, b := range bad {
		if b.Action != ActionError {
			t.Errorf("bad link accepted: %+v", b)
		}
	}
}

func TestUnknownFilesAndSymbols(t *testing.T) {
	s := newStore(t)
	writeFile(t, s.root, "known.go", "package x\n")
	r := registerOne(t, s, Input{Title: "Files", Files: []string{"known.go", "gone.go"}, Symbols: []string{"Foo"}})
	if !hasNote(r, "unknown file: gone.go") || hasNote(r, "unknown file: known.go") {
		t.Errorf("notes %v", r.Notes)
	}
	n := get(t, s, r.ID)
	if !reflect.DeepEqual(n.Files, []string{"known.go", "gone.go"}) || len(n.Anchors) != 1 || !reflect.DeepEqual(n.Symbols, []string{"Foo"}) {
		t.Errorf("node %+v", n)
	}
	// With a code map, symbols are checked, and anchored to their bodies
	// in the file that declares them.
	writeFile(t, s.root, "known.go", "package x\n\nfunc Bar() {\n\treturn\n}\n")
	s2 := Open(Options{Root: s.root, Code: &codeMap{symbols: map[string][2]string{"Bar": {"known.go", "func Bar()"}}}})
	r = registerOne(t, s2, Input{Title: "Symbols", Symbols: []string{"Bar", "Baz"}})
	if !hasNote(r, "unknown symbol: Baz") || hasNote(r, "unknown symbol: Bar") {
		t.Errorf("notes %v", r.Notes)
	}
	if a := get(t, s2, r.ID).Anchors; a["known.go#Bar"] != "body:"+hashString("func Bar ( ) { return } ;") {
		t.Errorf("symbol anchor missing: %v", a)
	}
}

func TestInvalidInputs(t *testing.T) {
	s := newStore(t, func(o *Options) { o.MaxBody = 100 })
	in := []Input{
		{ID: "../x", Title: "a"},
		{ID: "a/b", Title: "a"},
		{ID: "..", Title: "a"},
		{ID: `a\b`, Title: "a"},
		{ID: "Upper", Title: "a"},
		{ID: "-lead", Title: "a"},
		{ID: "trail-", Title: "a"},
		{ID: "dot.md", Title: "a"},
		{ID: strings.Repeat("a", 81), Title: "a"},
		{Title: "a", Files: []string{"../outside.go"}},
		{Title: "a", Files: []string{"/etc/passwd"}},
		{Title: "a", Files: []string{"src/../../x"}},
		{Title: "big", Body: strings.Repeat("x", 101)},
		{Type: "idea", Title: "a"},
		{Importance: "urgent", Title: "a"},
		{Title: "   "},
		{Title: "personal", Personal: true},
		{Title: strings.Repeat("t", MaxTitleLen+1)},
		{Title: "ok node", Body: strings.Repeat("y", 100)},
	}
	res := register(t, s, in...)
	for i, r := range res[:len(res)-1] {
		if r.Action != ActionError || r.Error == "" {
			t.Errorf("input %d (%+v) accepted: %+v", i, in[i].ID, r)
		}
	}
	if last := res[len(res)-1]; last.Action != ActionCreated {
		t.Errorf("valid input in a bad batch: %+v", last)
	}
	for _, want := range []string{"path separators", "lowercase", "start or end", "limit is 80", "inside the project", "body is 101 bytes; the limit is 100", "unknown type", "title is required", "no personal vault"} {
		if !slices.ContainsFunc(res, func(r Result) bool { return strings.Contains(r.Error, want) }) {
			t.Errorf("no error mentions %q", want)
		}
	}
	// Nothing was written outside .rubi/knowledge.
	var files []string
	filepath.Walk(filepath.Dir(s.root), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	for _, f := range files {
		if filepath.Dir(f) != s.project.dir {
			t.Errorf("file outside the knowledge dir: %s", f)
		}
	}
	// An absolute path inside the project is made relative.
	writeFile(t, s.root, "in/side.go", "x")
	r := registerOne(t, s, Input{Title: "abs", Files: []string{filepath.Join(s.root, "in", "side.go")}})
	if n := get(t, s, r.ID); !reflect.DeepEqual(n.Files, []string{"in/side.go"}) {
		t.Errorf("files %v", n.Files)
	}
	// Merging past the body limit fails that input only.
	r = register(t, s, Input{Title: "ok node", Body: "more"})[0]
	if r.Action != ActionError || !strings.Contains(r.Error, "limit") {
		t.Errorf("oversized merge: %+v", r)
	}
}

func TestPersonalVault(t *testing.T) {
	vault := t.TempDir()
	s := newStore(t, func(o *Options) { o.Vault = vault })
	p := registerOne(t, s, Input{Type: "preference", Title: "Practical examples", Personal: true})
	if want := filepath.Join(vault, "personal", "knowledge", "preference-practical-examples.md"); p.Path != want {
		t.Errorf("path %s, want %s", p.Path, want)
	}
	q := registerOne(t, s, Input{Type: "preference", Title: "Practical examples"})
	if q.Action != ActionCreated || q.Path == p.Path {
		t.Errorf("project node merged into the vault: %+v", q)
	}
	n := get(t, s, "personal:"+p.ID)
	if !n.Personal || n.Path != p.Path {
		t.Errorf("vault node %+v", n)
	}
	if n := get(t, s, p.ID); n.Personal {
		t.Errorf("the project's node should win without the prefix")
	}
	nodes, probs := s.Nodes()
	if len(nodes) != 2 || len(probs) > 0 {
		t.Errorf("nodes %d problems %v", len(nodes), probs)
	}
	if err := s.Forget("personal:"+p.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("personal:" + p.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("after forget: %v", err)
	}
	if _, err := s.Get("personal:anything"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing: %v", err)
	}
}

func TestForget(t *testing.T) {
	s := newStore(t)
	r := registerOne(t, s, Input{Title: "Temporary", Body: "x"})
	if err := s.Forget(r.ID, false); err != nil {
		t.Fatal(err)
	}
	n := get(t, s, r.ID)
	if n.Status != StatusRetracted || n.Body != "x" {
		t.Errorf("soft forget: %+v", n)
	}
	// Re-registering by id revives it.
	rr := registerOne(t, s, Input{ID: r.ID, Body: "y"})
	if !hasNote(rr, "reactivated: it was retracted") || get(t, s, r.ID).Status != StatusActive {
		t.Errorf("revive: %+v", rr)
	}
	if err := s.Forget(r.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(r.Path); !os.IsNotExist(err) {
		t.Errorf("hard forget left the file: %v", err)
	}
	if err := s.Forget(r.ID, true); !errors.Is(err, ErrNotFound) {
		t.Errorf("forget twice: %v", err)
	}
	if err := s.Forget("../x", true); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("traversal id: %v", err)
	}
}

func TestSummaries(t *testing.T) {
	s := newStore(t)
	if err := s.WriteSummary("map", "# Project\n\nThree modules."); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteSummary("module:src/checkout", "Checkout flow."); err != nil {
		t.Fatal(err)
	}
	register(t, s, Input{Title: "Something"})
	if got, ok := s.Summary("map"); !ok || got != "# Project\n\nThree modules." {
		t.Errorf("map %q %v", got, ok)
	}
	if got, ok := s.Summary("module:src/checkout"); !ok || got != "Checkout flow." {
		t.Errorf("module %q %v", got, ok)
	}
	if _, err := os.Stat(filepath.Join(s.root, ".rubi", "summaries", "modules", "src-checkout.md")); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"maps", "module:", "module:../..", "../map"} {
		if err := s.WriteSummary(bad, "x"); err == nil && bad != "module:../.." {
			t.Errorf("target %q accepted", bad)
		}
	}
	// "module:../.." slugs to nothing and is refused too.
	if err := s.WriteSummary("module:../..", "x"); err == nil {
		t.Error("module:../.. accepted")
	}
	if _, ok := s.Summary("module:other"); ok {
		t.Error("missing summary found")
	}
	if err := s.WriteSummary("map", ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Summary("map"); ok {
		t.Error("empty text should remove the summary")
	}
	// Summaries are not nodes.
	if nodes, _ := s.Nodes(); len(nodes) != 1 {
		t.Errorf("%d nodes", len(nodes))
	}
}

func TestHandoffs(t *testing.T) {
	// Every handoff below is in the store's past: one in its future is
	// never the last (TestHandoffFromTheFuture).
	s := newStore(t, func(o *Options) { o.Now = func() time.Time { return t0.Add(2 * time.Hour) } })
	if _, err := s.LastHandoff(); !errors.Is(err, ErrNotFound) {
		t.Errorf("no handoff: %v", err)
	}
	h1 := Handoff{Goal: "Ship coupons", Done: []string{"fixed the bug", "two\nlines"}, Next: []string{"tests"},
		InProgress: []string{"refactor"}, Decisions: []string{"use JWT"}, Files: []string{"src/cart.ts"},
		Notes: "## Not a section\nfree text", Created: t0}
	p1, err := s.SaveHandoff(h1)
	if err != nil {
		t.Fatal(err)
	}
	h2 := Handoff{Goal: "Second, same minute", Created: t0.Add(20 * time.Second)}
	p2, err := s.SaveHandoff(h2)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p1) != "2026-10-17-1530.md" || filepath.Base(p2) != "2026-10-17-1530-2.md" {
		t.Errorf("names %s %s", p1, p2)
	}
	last, err := s.LastHandoff()
	if err != nil {
		t.Fatal(err)
	}
	if last.Goal != h2.Goal || last.Path != p2 {
		t.Errorf("last %+v", last)
	}
	for k := 3; k <= 11; k++ {
		if _, err := s.SaveHandoff(Handoff{Goal: fmt.Sprint(k), Created: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if last, _ := s.LastHandoff(); last.Goal != "11" {
		t.Errorf("suffix -11 should be last, got %q", last.Goal)
	}
	// An earlier minute saved later does not win.
	if _, err := s.SaveHandoff(Handoff{Goal: "old", Created: t0.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	p3, _ := s.SaveHandoff(Handoff{Goal: "later", Created: t0.Add(time.Minute)})
	last, _ = s.LastHandoff()
	if last.Path != p3 {
		t.Errorf("last %s, want %s", last.Path, p3)
	}
	// Round trip of every field.
	data, _ := os.ReadFile(p1)
	got, err := decodeHandoff(data)
	if err != nil {
		t.Fatal(err)
	}
	h1.Path = ""
	h1.Text = h1.fieldsMarkdown() // the text a handoff of fields is saved with
	if !reflect.DeepEqual(*got, h1) {
		t.Errorf("handoff\n%#v\nwant\n%#v\n%s", *got, h1, data)
	}
}

func TestReadRegion(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	writeFile(t, root, "src/big.txt", b.String())
	writeFile(t, root, "small.txt", "a\nb\nc")
	writeFile(t, root, "bin.dat", "ab\x00cd")
	writeFile(t, root, "long.txt", strings.Repeat("x", 5000)+"\nend\n")

	got, err := ReadRegion(root, "small.txt:2-3")
	if err != nil || got != "2\tb\n3\tc\n" {
		t.Errorf("range: %q %v", got, err)
	}
	got, _ = ReadRegion(root, "small.txt")
	if got != "1\ta\n2\tb\n3\tc\n" {
		t.Errorf("whole: %q", got)
	}
	got, _ = ReadRegion(root, "small.txt:2-100")
	if got != "2\tb\n3\tc\n" {
		t.Errorf("range past the end: %q", got)
	}
	got, _ = ReadRegion(root, "src/big.txt:10-2000")
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != MaxRegionLines+1 || lines[0] != " 10\tline 10" || lines[MaxRegionLines-1] != "409\tline 409" ||
		lines[MaxRegionLines] != "… 591 more lines (at most 400 per read): ask for src/big.txt:410-1000" {
		t.Errorf("bounded: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	got, _ = ReadRegion(root, "src/big.txt:995")
	if !strings.HasPrefix(got, " 995\tline 995\n") || !strings.HasSuffix(got, "1000\tline 1000\n") {
		t.Errorf("from N: %q", got)
	}
	got, _ = ReadRegion(root, "long.txt:1")
	if !strings.HasSuffix(strings.SplitN(got, "\n", 2)[0], "x …") || len(got) > 2100 {
		t.Errorf("long line not cut: %d bytes", len(got))
	}
	if _, err := ReadRegion(root, "small.txt:9"); err == nil || !strings.Contains(err.Error(), "has 3 lines") {
		t.Errorf("past the end: %v", err)
	}
	outside := t.TempDir()
	writeFile(t, outside, "secret.txt", "secret")
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt"))
	for _, spec := range []string{"../x", "../../etc/passwd:1-2", "/etc/passwd", "link.txt", "src/../../x", "bin.dat", "small.txt:0-2", "small.txt:3-2", "nope.txt", ""} {
		if got, err := ReadRegion(root, spec); err == nil {
			t.Errorf("%q accepted: %q", spec, got)
		}
	}
}

func TestMalformedFiles(t *testing.T) {
	s := newStore(t)
	good := registerOne(t, s, Input{Title: "Good one"})
	dir := s.project.dir
	writeFile(t, dir, "bad-yaml.md", "---\nid: bad-yaml\ntype: note\ntitle: [unclosed\nstatus: active\n---\nbody\n")
	writeFile(t, dir, "bad-shape.md", "---\nid: bad-shape\ntitle: x\nfiles: {a: 1}\n---\n")
	writeFile(t, dir, "unclosed.md", "---\nid: unclosed\n")
	writeFile(t, dir, "nofront.md", "# Just markdown\n")
	writeFile(t, dir, "odd-type.md", "---\nid: odd-type\ntype: idea\ntitle: Odd\n---\n# Odd\n")
	writeFile(t, dir, ".decision-x.md.tmp-123", "---\nid: half\n")
	writeFile(t, dir, ".hidden.md", "garbage")
	nodes, probs := s.Nodes()
	ids := []string{}
	for _, n := range nodes {
		ids = append(ids, n.ID)
	}
	if !reflect.DeepEqual(ids, []string{good.ID, "odd-type"}) {
		t.Errorf("nodes %v", ids)
	}
	want := map[string]int{"bad-yaml.md": 4, "bad-shape.md": 4, "unclosed.md": 1, "nofront.md": 1, "odd-type.md": 3}
	if len(probs) != len(want) {
		t.Errorf("problems %v", probs)
	}
	for _, p := range probs {
		if line, ok := want[filepath.Base(p.Path)]; !ok || p.Line != line {
			t.Errorf("problem %s, want line %d", p, line)
		}
	}
	// A malformed file's name is not reused by a new node.
	r := register(t, s, Input{ID: "bad-yaml", Title: "x"})[0]
	if r.Action != ActionError || !strings.Contains(r.Error, "cannot be read") {
		t.Errorf("overwrote a malformed file: %+v", r)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "bad-yaml.md"))
	if !strings.Contains(string(data), "[unclosed") {
		t.Error("malformed file changed")
	}
}

func TestNodesCache(t *testing.T) {
	s := newStore(t)
	r := registerOne(t, s, Input{Title: "Cached", Body: "one"})
	a, _ := s.Nodes()
	b, _ := s.Nodes()
	if a[0] != b[0] {
		t.Error("unchanged file parsed again")
	}
	// Another process rewrites the file (same size, same second).
	other := Open(Options{Root: s.root, Now: func() time.Time { return t0 }})
	registerOne(t, other, Input{ID: r.ID, Body: "two"})
	c, _ := s.Nodes()
	if !strings.Contains(c[0].Body, "two") {
		t.Errorf("stale cache: %q", c[0].Body)
	}
}

// The anchors of the old kind (whole files, signature lines) are checked
// as they were until they are migrated.
func TestStaleLegacyAnchors(t *testing.T) {
	cm := &codeMap{files: map[string]string{}, symbols: map[string][2]string{"Login": {"auth.go", "func Login(u User) error"}}}
	s := newStore(t, func(o *Options) { o.Code = cm })
	writeFile(t, s.root, "auth.go", "package auth\n")
	writeFile(t, s.root, "db.go", "package db\n")
	n := &Node{ID: "x", Title: "Auth note", Files: []string{"auth.go", "db.go"}, Symbols: []string{"Login"}, Anchors: map[string]string{
		"auth.go":      hashString("package auth\n"),
		"db.go":        hashString("package db\n"),
		"symbol:Login": hashString("func Login(u User) error"),
	}}
	if st := s.Stale(n); len(st) != 0 {
		t.Errorf("fresh node stale: %v", st)
	}
	if !Legacy(n) {
		t.Error("old anchors not seen as legacy")
	}
	time.Sleep(10 * time.Millisecond)
	writeFile(t, s.root, "auth.go", "package auth // changed\n")
	os.Remove(filepath.Join(s.root, "db.go"))
	cm.symbols["Login"] = [2]string{"auth.go", "func Login(u User, otp string) error"}
	want := []string{"auth.go changed since this note", "db.go no longer exists", "symbol Login changed"}
	if st := s.Stale(n); !reflect.DeepEqual(st, want) {
		t.Errorf("stale %v, want %v", st, want)
	}
	delete(cm.symbols, "Login")
	if st := s.Stale(n); !slices.Contains(st, "symbol Login no longer exists") {
		t.Errorf("stale %v", st)
	}
	// The code map's hash wins over the disk's.
	cm.files["auth.go"] = n.Anchors["auth.go"]
	if st := s.Stale(n); slices.Contains(st, "auth.go changed since this note") {
		t.Errorf("code map ignored: %v", st)
	}
}

func TestCommit(t *testing.T) {
	s := newStore(t)
	hash := "0123456789abcdef0123456789abcdef01234567"
	writeFile(t, s.root, ".git/HEAD", "ref: refs/heads/main\n")
	writeFile(t, s.root, ".git/packed-refs", "# pack-refs\n"+hash+" refs/heads/main\n")
	r := registerOne(t, s, Input{Title: "With commit"})
	if c := get(t, s, r.ID).Commit; c != "0123456" {
		t.Errorf("commit %q", c)
	}
	writeFile(t, s.root, ".git/refs/heads/main", "fedcba9876543210fedcba9876543210fedcba98\n")
	r = registerOne(t, s, Input{Title: "Loose ref"})
	if c := get(t, s, r.ID).Commit; c != "fedcba9" {
		t.Errorf("commit %q", c)
	}
}

func TestLegacy(t *testing.T) {
	s := newStore(t)
	legacy := filepath.Join(s.root, ".rubi", "conhecimento")
	writeFile(t, legacy, "decisao-usar-jwt-em-vez-de-sessao.md", `---
id: "decisao-usar-jwt-em-vez-de-sessao"
tipo: "decisao"
status: "ativo"
arquivos: "src/auth/login.ts"
liga: {"rel":"sobre","alvo":"conceito-autenticacao"}
substitui: "decisao-sessao-em-cookie"
commit: "a1b2c3d"
criado: "2026-03-01T10:00:00.000Z"
---
# Usar JWT em vez de sessão

Stateless, so it runs on edge runtimes without a session store.

## Ligações

- sobre [[conceito-autenticacao]]
- substitui [[decisao-sessao-em-cookie]]
`)
	writeFile(t, legacy, "decisao-sessao-em-cookie.md", `---
id: "decisao-sessao-em-cookie"
tipo: "decisao"
status: "substituido"
titulo: "Sessão em cookie"
---
Sessões num cookie.
`)
	writeFile(t, legacy, "conceito-autenticacao.md", "---\nid: conceito-autenticacao\ntipo: conceito\narquivos: [\"src/auth/login.ts\", \"src/auth/jwt.ts\"]\nliga: [{\"rel\": \"sobre\", \"alvo\": \"x\"}]\n---\n# Autenticação\n")
	writeFile(t, legacy, "armadilha-quebrada.md", "---\ntipo: [\n---\n")

	nodes, probs := s.Nodes()
	if len(nodes) != 3 || len(probs) != 1 || probs[0].Line != 2 {
		t.Fatalf("nodes %d problems %v", len(nodes), probs)
	}
	n := get(t, s, "decisao-usar-jwt-em-vez-de-sessao")
	if n.Type != TypeDecision || n.Status != StatusActive || n.Title != "Usar JWT em vez de sessão" ||
		!reflect.DeepEqual(n.Files, []string{"src/auth/login.ts"}) ||
		!reflect.DeepEqual(n.Links, []Link{{"about", "conceito-autenticacao"}}) ||
		!reflect.DeepEqual(n.Supersedes, []string{"decisao-sessao-em-cookie"}) ||
		n.Body != "Stateless, so it runs on edge runtimes without a session store." ||
		!n.Created.Equal(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("legacy read %#v", n)
	}
	if c := get(t, s, "Sessão em cookie"); c.Status != StatusSuperseded || c.Title != "Sessão em cookie" {
		t.Errorf("legacy superseded %+v", c)
	}
	if c := get(t, s, "conceito-autenticacao"); c.Type != TypeConcept || len(c.Files) != 2 {
		t.Errorf("legacy concept %+v", c)
	}

	res, err := ImportLegacy(filepath.Join(s.root, ".rubi"), s)
	if err != nil {
		t.Fatal(err)
	}
	errs := 0
	for _, r := range res {
		if r.Action == ActionError {
			errs++
			if !strings.Contains(r.Error, "armadilha-quebrada.md:2:") {
				t.Errorf("error %q does not name file and line", r.Error)
			}
		}
	}
	if errs != 1 || len(res) != 4 {
		t.Errorf("import results %+v", res)
	}
	for _, id := range []string{"decisao-usar-jwt-em-vez-de-sessao", "decisao-sessao-em-cookie", "conceito-autenticacao"} {
		p := filepath.Join(s.project.dir, id+".md")
		if _, err := os.Stat(p); err != nil {
			t.Errorf("not migrated: %v", err)
		}
		if n := get(t, s, id); n.Path != p {
			t.Errorf("%s read from %s", id, n.Path)
		}
	}
	old := get(t, s, "decisao-sessao-em-cookie")
	if old.Status != StatusSuperseded || old.SupersededBy != "decisao-usar-jwt-em-vez-de-sessao" {
		t.Errorf("migrated superseded node %+v", old)
	}
	data, _ := os.ReadFile(filepath.Join(s.project.dir, "decisao-usar-jwt-em-vez-de-sessao.md"))
	if !strings.Contains(string(data), "type: decision\n") || !strings.Contains(string(data), "- about [[conceito-autenticacao]]") || strings.Contains(string(data), "tipo") {
		t.Errorf("migrated file:\n%s", data)
	}
	nodes, _ = s.Nodes()
	if len(nodes) != 3 {
		t.Errorf("%d nodes after import (duplicates?)", len(nodes))
	}
	// Importing again changes nothing but the update time.
	res, _ = ImportLegacy(filepath.Join(s.root, ".rubi"), s)
	if n := get(t, s, "decisao-usar-jwt-em-vez-de-sessao"); strings.Count(n.Body, "Stateless") != 1 {
		t.Errorf("body duplicated: %q", n.Body)
	}
	_ = res
}

func TestCanceled(t *testing.T) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := s.Register(ctx, []Input{{Title: "a"}})
	if err == nil {
		t.Errorf("canceled batch: %+v", res)
	}
}

// Keys added by hand (Obsidian's aliases, say) and hand-added link lines
// survive a rewrite.
func TestHandEditsSurvive(t *testing.T) {
	s := newStore(t)
	r := registerOne(t, s, Input{Type: "concept", Title: "Checkout", Body: "Flow."})
	registerOne(t, s, Input{Type: "concept", Title: "Cart"})
	data, _ := os.ReadFile(r.Path)
	edited := strings.Replace(string(data), "---\n# Checkout", "aliases: [Finalizar compra]\ncssclass: wide\n---\n# Checkout", 1)
	edited += "\n## Links\n\n- part-of [[concept-cart]]\n"
	writeFile(t, filepath.Dir(r.Path), filepath.Base(r.Path), edited)
	n := get(t, s, r.ID)
	if !reflect.DeepEqual(n.Links, []Link{{"part-of", "concept-cart"}}) || n.Body != "Flow." {
		t.Fatalf("hand-added link not read: %+v", n)
	}
	registerOne(t, s, Input{ID: r.ID, Body: "More."})
	data, _ = os.ReadFile(r.Path)
	for _, l := range []string{"aliases: [Finalizar compra]\n", "cssclass: wide\n", "- part-of [[concept-cart]]\n"} {
		if !strings.Contains(string(data), l) {
			t.Errorf("lost %q:\n%s", l, data)
		}
	}
	if strings.Count(string(data), "## Links") != 1 {
		t.Errorf("links section duplicated:\n%s", data)
	}
}

// Goroutines of one process share a Store (the MCP server) or use two
// (a hook racing the server) while others read.
func TestConcurrentGoroutines(t *testing.T) {
	s := newStore(t)
	other := Open(Options{Root: s.root})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s
			if g%2 == 1 {
				st = other
			}
			for i := range 10 {
				res, err := st.Register(context.Background(), []Input{{Title: fmt.Sprintf("goroutine %d item %d", g, i), Body: "same body for all"}})
				if err != nil || res[0].Action != ActionCreated {
					t.Errorf("%v %+v", err, res)
				}
				if nodes, probs := st.Nodes(); len(nodes) == 0 || len(probs) > 0 {
					t.Errorf("%d nodes, %v", len(nodes), probs)
				}
			}
		}()
	}
	wg.Wait()
	if nodes, _ := Open(Options{Root: s.root}).Nodes(); len(nodes) != 40 {
		t.Errorf("%d nodes", len(nodes))
	}
}

// A fresh process that imports the node cache parses only the node files
// that changed since it was exported, and never caches a node whose
// frontmatter holds keys rubi does not know.
func TestNodeCache(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	if _, err := s.Register(ctx, []Input{
		{Type: "gotcha", Title: "Coupon applied twice", Body: "Once per cart."},
		{Type: "decision", Title: "Use JWT", Body: "Stateless."},
	}); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(s.root, ".rubi", "knowledge", "note-odd.md")
	if err := os.WriteFile(odd, []byte("---\nid: note-odd\ntype: note\ntitle: Odd\nowner: team-a\n---\nKept.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Nodes()
	data, changed, err := s.ExportCache()
	if err != nil || !changed || len(data) == 0 {
		t.Fatalf("export: %d bytes, changed %v, %v", len(data), changed, err)
	}

	fresh := Open(Options{Root: s.root})
	if err := fresh.ImportCache(data); err != nil {
		t.Fatal(err)
	}
	nodes, _ := fresh.Nodes()
	if len(nodes) != 3 {
		t.Fatalf("%d nodes", len(nodes))
	}
	// The odd node was parsed (not cached); the two others came from the
	// cache, so only the odd one made the store dirty.
	fresh.mu.Lock()
	cached := 0
	for _, e := range fresh.cache {
		if e.node != nil && e.node.extra == nil {
			cached++
		}
	}
	fresh.mu.Unlock()
	if cached != 2 {
		t.Errorf("%d cached nodes without extra keys, want 2", cached)
	}
	if _, changed, _ := fresh.ExportCache(); !changed {
		t.Error("the odd node was not parsed again")
	}
	if _, changed, _ := fresh.ExportCache(); changed {
		t.Error("a second export reports changes")
	}
	fresh.Nodes()
	if _, changed, _ := fresh.ExportCache(); changed {
		t.Error("reading unchanged nodes parsed something")
	}
	// An edit is seen: the file's key changed.
	jwt := filepath.Join(s.root, ".rubi", "knowledge", "decision-use-jwt.md")
	src, _ := os.ReadFile(jwt)
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(jwt, []byte(strings.Replace(string(src), "Stateless.", "Stateless, and short-lived.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(jwt, later, later)
	n, err := fresh.Get("decision-use-jwt")
	if err != nil || !strings.Contains(n.Body, "short-lived") {
		t.Errorf("edited node = %+v, %v", n, err)
	}
	// Rewriting the odd node keeps its unknown key.
	if _, err := fresh.Register(ctx, []Input{{ID: "note-odd", Type: "note", Title: "Odd", Body: "More."}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(odd); !strings.Contains(string(b), "owner: team-a") {
		t.Errorf("the unknown key was lost:\n%s", b)
	}
	if err := Open(Options{Root: s.root}).ImportCache([]byte("garbage")); err == nil {
		t.Error("a damaged cache was accepted")
	}
}

// A handoff written as markdown reads into its sections, in any order;
// text outside them is kept as notes.
func TestParseHandoff(t *testing.T) {
	h := ParseHandoff("Context first.\n\n## Next\n- Wire the endpoint\n- Add a test\n  for refunds\n\n## Goal\nShip coupons\n\n## Files\n- web/api.js\n")
	if h.Goal != "Ship coupons" || !slices.Equal(h.Next, []string{"Wire the endpoint", "Add a test\nfor refunds"}) ||
		!slices.Equal(h.Files, []string{"web/api.js"}) || h.Notes != "Context first." {
		t.Errorf("sections: %+v", h)
	}
	if h := ParseHandoff("Halfway; the endpoint is next."); h.Notes != "Halfway; the endpoint is next." || h.Goal != "" {
		t.Errorf("free text: %+v", h)
	}
	// A handoff's own markdown reads back as itself.
	orig := Handoff{Goal: "g", Done: []string{"a", "b"}, InProgress: []string{"c"}, Next: []string{"d"}, Decisions: []string{"e"}, Files: []string{"f.go"}, Notes: "n"}
	back := ParseHandoff(orig.Markdown())
	if back.Goal != "g" || !slices.Equal(back.Done, orig.Done) || !slices.Equal(back.Decisions, orig.Decisions) || back.Notes != "n" {
		t.Errorf("round trip: %+v", back)
	}
}

// A note's links section links the files a wiki-link can reach and names
// as code those it cannot (a folder Obsidian hides), so that no link of
// it resolves nowhere; the files stay the note's when it is read back.
func TestLinksSectionNamesHiddenPathsAsCode(t *testing.T) {
	n := &Node{ID: "decision-ci", Type: TypeDecision, Status: StatusActive, Importance: ImportanceMedium, Title: "CI", Files: []string{".ci/run", "core/x.go", "a`b/.c"}}
	lines := strings.Join(linkLines(n), "\n")
	for _, want := range []string{"- file `.ci/run`", "- file [[core/x.go]]", "- file ``a`b/.c``"} {
		if !strings.Contains(lines, want) {
			t.Errorf("links section lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, "[[.ci/run]]") {
		t.Errorf("a hidden path is linked:\n%s", lines)
	}

	// Read back, the section is the generated one, not the body's: each
	// write makes one, and the files it names as code stay the note's.
	n.Body = "Runs the suite."
	first, err := encodeNode(n)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := decodeNode("decision-ci.md", first)
	if err != nil {
		t.Fatal(err)
	}
	if back.Body != "Runs the suite." || !slices.Equal(back.Files, n.Files) {
		t.Errorf("read back: body %q, files %q", back.Body, back.Files)
	}
	again, err := encodeNode(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, first) {
		t.Errorf("a second write changed the note:\n%s\n---\n%s", first, again)
	}
	// An entry added by hand as code is read like a wiki-link.
	hand := bytes.Replace(first, []byte("- file [[core/x.go]]\n"), []byte("- file [[core/x.go]]\n- file `.github/ci.yml`\n"), 1)
	if back, _, err = decodeNode("decision-ci.md", hand); err != nil || back.Body != "Runs the suite." || !slices.Contains(back.Files, ".github/ci.yml") {
		t.Errorf("a file added by hand as code: %v, body %q, files %q", err, back.Body, back.Files)
	}
}
