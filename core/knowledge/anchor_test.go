package knowledge

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// codeHash is the hash a file-level anchor takes of src.
func codeHash(path, src string) string {
	c := codeLines(path, []byte(src), regex.MaskComments)
	return c.hash(1, len(c.lines))
}

func TestCodeHashIgnoresCommentsAndWhitespace(t *testing.T) {
	cases := []struct {
		path       string
		base       string
		same, diff []string
	}{
		{"a.go", "package a\n\n// F adds.\nfunc F(a, b int) int {\n\treturn a + b // sum\n}\n\nvar s = \"x // y\"\n",
			[]string{
				"package a\n\n// F adds two numbers.\nfunc F(a, b int) int {\n\treturn a + b\n}\n\nvar s = \"x // y\"\n",
				"package a\n/* block */\nfunc F(a,b int) int {\n\n\treturn a+b\n}\nvar s = \"x // y\"",
				"package a\n\nfunc F(a, b int) int { return a + b }\n\nvar s = \"x // y\"\n",
			},
			[]string{
				"package a\n\nfunc F(a, b int) int {\n\treturn a - b\n}\n\nvar s = \"x // y\"\n",
				"package a\n\nfunc F(a, b int) int {\n\treturn a + b\n}\n\nvar s = \"x // z\"\n",
				"package a\n\nfunc F(a, b int) int {\n\treturn a + b\n}\n\nvar s = \"x //  y\"\n", // inside a string, spaces count
			}},
		{"a.py", "def f(x):\n    \"\"\"Doc.\"\"\"\n    # note\n    s = 'a # b'\n    return x\n",
			[]string{
				"def f(x):\n    \"\"\"Another doc,\n    on two lines.\"\"\"\n    s = 'a # b'  # why\n\n    return x\n",
				"def f( x ):\n    s = 'a # b'\n    return x\n",
			},
			[]string{
				"def f(x):\n    s = 'a # c'\n    return x\n",
				"def f(x):\n    s = 'a # b'\nreturn x\n", // indentation is code
				"def f(x):\n    s = (\n        'a # b'\n    )\n    return x\n",
			}},
		{"a.js", "function f(a) {\n  // c\n  return a + '/* no */'; /* tail */\n}\n",
			[]string{
				"function f(a)\n{\n  return a + '/* no */';\n}\n",
				"/** doc */\nfunction f(a) { return a + '/* no */'; }\n",
			},
			[]string{"function f(a) {\n  return a + '/* yes */';\n}\n"}},
		{"a.rb", "def f(x) # c\n  x + 1 # d\nend\n",
			[]string{"# doc\ndef f(x)\n  x + 1\nend\n"},
			[]string{"def f(x)\n  x + 2\nend\n"}},
		{"a.c", "int f(int x) { /* c */ return x; } // d\n",
			[]string{"int f(int x)\n{\n    return x;\n}\n"},
			[]string{"int f(int x) { return -x; }\n"}},
		{"notes.md", "# Title\n\nSome  text.\n",
			[]string{"# Title\n\nSome text.\n\n"},
			[]string{"# Title\n\nOther text.\n"}},
	}
	for _, c := range cases {
		base := codeHash(c.path, c.base)
		for _, v := range c.same {
			if codeHash(c.path, v) != base {
				t.Errorf("%s: an edit to comments or whitespace changed the code hash:\n%s", c.path, v)
			}
		}
		for _, v := range c.diff {
			if codeHash(c.path, v) == base {
				t.Errorf("%s: an edit to code left the code hash unchanged:\n%s", c.path, v)
			}
		}
	}
}

const fGo = `package a

// A adds.
func A(x int) int {
	return x + 1
}

// B subtracts.
func B(x int) int {
	return x - 1
}

type T struct{}

func (T) Close() error { return nil }

type U struct{}

func (U) Close() error {
	return nil
}
`

// A note is stale only when the code it is about changed: the symbols it
// names, or, when it names none, its file's code.
func TestStaleOnlyWhatTheNoteIsAbout(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	notes := map[string]Input{
		"a":      {Title: "A is one more", Body: "A(x) returns x plus one.", Files: []string{"f.go"}},
		"b":      {Title: "Subtraction", Body: "It takes one away.", Files: []string{"f.go"}, Symbols: []string{"B"}},
		"file":   {Title: "The arithmetic package", Body: "Small helpers.", Files: []string{"f.go"}},
		"close":  {Title: "Closing", Body: "`Close` never fails.", Files: []string{"f.go"}},
		"uclose": {Title: "U closes", Body: "U.Close returns nil.", Files: []string{"f.go"}},
	}
	wantKeys := map[string][]string{"a": {"f.go#A"}, "b": {"f.go#B"}, "file": {"f.go"}, "close": {"f.go#Close"}, "uclose": {"f.go#U.Close"}}
	ids := map[string]string{}
	for k, in := range notes {
		ids[k] = registerOne(t, s, in).ID
		if got := sortedKeys(get(t, s, ids[k]).Anchors); !reflect.DeepEqual(got, wantKeys[k]) {
			t.Errorf("note %s anchored to %v, want %v", k, got, wantKeys[k])
		}
	}
	check := func(step string, want map[string][]string) {
		t.Helper()
		for k, id := range ids {
			if got := s.Stale(get(t, s, id)); !reflect.DeepEqual(got, want[k]) {
				t.Errorf("%s: note %s stale %q, want %q", step, k, got, want[k])
			}
		}
	}
	check("fresh", nil)

	edit := func(content string) {
		t.Helper()
		time.Sleep(5 * time.Millisecond)
		writeFile(t, s.root, "f.go", content)
	}
	// Comments and whitespace: nothing is stale.
	edit(strings.NewReplacer("// A adds.", "// A adds one:\n// more words.", "\treturn x - 1", "\n\treturn x-1  ", "type T struct{}", "type T struct {\n}").Replace(fGo))
	check("comment and whitespace edit", nil)

	// One function changes: its notes, and the file-level note, are stale.
	edit(strings.Replace(fGo, "return x - 1", "return x - 2", 1))
	check("B changed", map[string][]string{"b": {"B changed (f.go L9-11)"}, "file": {"f.go: code changed"}})

	// One of two methods of one name: the note naming it bare is stale,
	// the one naming the other by its type is not.
	edit(strings.Replace(fGo, "func (T) Close() error { return nil }", "func (T) Close() error { return errClosed }", 1))
	check("T.Close changed", map[string][]string{"close": {"Close changed (f.go L15-21)"}, "file": {"f.go: code changed"}})

	// A removed function.
	edit(strings.Replace(fGo, "func A(x int) int {\n\treturn x + 1\n}\n", "", 1))
	check("A removed", map[string][]string{"a": {"A no longer in f.go"}, "file": {"f.go: code changed"}})

	// Confirming re-anchors without rewriting the note.
	before := get(t, s, ids["a"])
	res := s.Confirm([]string{ids["file"], "Subtraction", "no-such-note"})
	if res[0].Error != "" || res[1].ID != ids["b"] || res[2].Error == "" {
		t.Errorf("confirm: %+v", res)
	}
	check("file confirmed", map[string][]string{"a": {"A no longer in f.go"}})
	if r := s.Confirm([]string{ids["a"]}); len(r[0].Unknown) != 0 || !reflect.DeepEqual(r[0].Anchors, []string{"f.go"}) {
		// A names no symbol of the file now: the note is about the file.
		t.Errorf("confirm a: %+v", r)
	}
	after := get(t, s, ids["a"])
	if after.Body != before.Body || after.Title != before.Title || !after.Updated.After(before.Updated) {
		t.Errorf("confirm rewrote the note or left its date: %+v", after)
	}
	check("all confirmed", nil)

	os.Remove(filepath.Join(s.root, "f.go"))
	check("file removed", map[string][]string{
		"a": {"f.go no longer exists"}, "b": {"f.go no longer exists"}, "file": {"f.go no longer exists"},
		"close": {"f.go no longer exists"}, "uclose": {"f.go no longer exists"},
	})
}

// Merging into a note re-anchors the files the input names, and keeps
// the anchors of the others: a merge does not confirm them.
func TestMergeKeepsOtherAnchors(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	writeFile(t, s.root, "g.go", "package a\n\nvar G = 1\n")
	id := registerOne(t, s, Input{Title: "Two files", Body: "Small.", Files: []string{"f.go", "g.go"}}).ID
	time.Sleep(5 * time.Millisecond)
	writeFile(t, s.root, "f.go", strings.Replace(fGo, "x + 1", "x + 3", 1))
	writeFile(t, s.root, "g.go", "package a\n\nvar G = 2\n")
	registerOne(t, s, Input{ID: id, Body: "More.", Files: []string{"g.go"}})
	if got := s.Stale(get(t, s, id)); !reflect.DeepEqual(got, []string{"f.go: code changed"}) {
		t.Errorf("stale %q", got)
	}
}

// legacyNote registers a note and rewrites its file with anchors of the
// old kind: the SHA-256 of each whole file as it was (content), written
// at commit.
func legacyNote(t *testing.T, s *Store, in Input, commit string, content map[string]string) string {
	t.Helper()
	id := registerOne(t, s, in).ID
	n := get(t, s, id).Clone()
	n.Anchors, n.Commit = map[string]string{}, commit
	for f, c := range content {
		n.Anchors[f] = hashString(c)
	}
	data, err := encodeNode(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(n.Path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestMigrate(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	writeFile(t, s.root, "g.go", "package a\n\nvar G = 1\n")
	v2 := strings.NewReplacer("// A adds.", "// A adds one.", "return x - 1", "return x - 2").Replace(fGo)
	ids := map[string]string{
		"a":    legacyNote(t, s, Input{Title: "A is one more", Body: "A(x) returns x plus one.", Files: []string{"f.go"}}, "1111111", map[string]string{"f.go": fGo}),
		"b":    legacyNote(t, s, Input{Title: "B is one less", Body: "B(x) returns x minus one.", Files: []string{"f.go"}}, "1111111", map[string]string{"f.go": fGo}),
		"file": legacyNote(t, s, Input{Title: "The arithmetic package", Body: "Small helpers.", Files: []string{"f.go"}}, "1111111", map[string]string{"f.go": fGo}),
		"lost": legacyNote(t, s, Input{Title: "Lost", Body: "A(x).", Files: []string{"f.go"}}, "2222222", map[string]string{"f.go": fGo + "// gone\nvar Z = 0\n"}),
		"g":    legacyNote(t, s, Input{Title: "G is one", Body: "Of G.", Files: []string{"g.go"}}, "1111111", map[string]string{"g.go": "package a\n\nvar G = 1\n"}),
	}
	time.Sleep(5 * time.Millisecond)
	writeFile(t, s.root, "f.go", v2)
	// Before: every note of f.go is stale, whatever changed.
	for _, k := range []string{"a", "b", "file", "lost"} {
		if st := s.Stale(get(t, s, ids[k])); !reflect.DeepEqual(st, []string{"f.go changed since this note"}) {
			t.Errorf("before: %s stale %q", k, st)
		}
	}
	var asked []string
	old := func(rel, hash, commit string) ([]byte, bool) {
		asked = append(asked, rel+"@"+commit)
		if commit == "1111111" && rel == "f.go" {
			return []byte(fGo), true
		}
		return []byte("not it"), true // a wrong answer is checked and refused
	}
	res, err := s.Migrate(old)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 5 {
		t.Errorf("migrated %+v", res)
	}
	for _, m := range res {
		switch m.ID {
		case ids["lost"]:
			if !reflect.DeepEqual(m.Kept, []string{"f.go"}) || len(m.Files) != 0 || !strings.Contains(m.String(), "kept the whole-file anchor of f.go") {
				t.Errorf("lost: %+v", m)
			}
		default:
			if len(m.Kept) != 0 || len(m.Files) != 1 {
				t.Errorf("%+v", m)
			}
		}
	}
	// g.go did not change: its content is today's, git is not asked.
	slices.Sort(asked)
	if !reflect.DeepEqual(asked, []string{"f.go@1111111", "f.go@1111111", "f.go@1111111", "f.go@2222222"}) {
		t.Errorf("asked %v", asked)
	}
	want := map[string][]string{
		"b":    {"B changed (f.go L9-11)"},
		"file": {"f.go: code changed"},
		"lost": {"f.go changed since this note"},
	}
	for k, id := range ids {
		n := get(t, s, id)
		if got := s.Stale(n); !reflect.DeepEqual(got, want[k]) {
			t.Errorf("after: %s stale %q, want %q", k, got, want[k])
		}
		if n.Commit == "" || n.Body == "" {
			t.Errorf("migration changed more than anchors: %+v", n)
		}
	}
	if a := get(t, s, ids["a"]).Anchors; len(a) != 1 || a["f.go#A"] == "" {
		t.Errorf("a anchors %v", a)
	}
	// The lost note keeps its whole-file anchor, marked as looked for.
	if n := get(t, s, ids["lost"]); !WholeFile(n) || Legacy(n) || !strings.HasPrefix(n.Anchors["f.go"], "whole:") {
		t.Errorf("lost anchors %v", n.Anchors)
	}
	// Again: nothing is tried, nothing changes.
	before, _ := os.ReadFile(get(t, s, ids["b"]).Path)
	asked = nil
	res, _ = s.Migrate(old)
	if len(res) != 0 || len(asked) != 0 {
		t.Errorf("second run %+v, asked %v", res, asked)
	}
	if after, _ := os.ReadFile(get(t, s, ids["b"]).Path); string(after) != string(before) {
		t.Error("second run rewrote a migrated note")
	}
}

// Which names of a note's text name code: qualified ones, names written
// as code, identifier-shaped ones and capitalized ones inside a sentence;
// not a capitalized word starting a sentence, nor a plain lowercase word.
func TestTextNames(t *testing.T) {
	q, bare, chained := textNames("Open the file", "Then check the Handoff. Index it with `parse` or build(x); headCommit reads MAX_SIZE.\n- Settle it; e.NotesChanged and U.Close.")
	var names []string
	for n := range bare {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"Handoff", "MAX_SIZE", "build", "headCommit", "parse"}; !reflect.DeepEqual(names, want) {
		t.Errorf("bare names %v, want %v", names, want)
	}
	if !q["e.NotesChanged"] || !q["U.Close"] || !reflect.DeepEqual(chained["Close"], []string{"U.Close"}) {
		t.Errorf("qualified %v, chained %v", q, chained)
	}
}

// The comment masker is the program's (Options.MaskComments): without one,
// code other than Go is hashed with its comments, and an edited comment
// changes the hash; Go is tokenized by go/scanner either way.
func TestCodeHashWithoutMasker(t *testing.T) {
	hash := func(path, src string, mask core.CommentMasker) string {
		c := codeLines(path, []byte(src), mask)
		return c.hash(1, len(c.lines))
	}
	js, edited := "function f(a) {\n  // c\n  return a;\n}\n", "function f(a) {\n  // d\n  return a;\n}\n"
	if hash("a.js", js, regex.MaskComments) != hash("a.js", edited, regex.MaskComments) {
		t.Error("with the regex parser's masker an edited comment changes the hash")
	}
	if hash("a.js", js, nil) == hash("a.js", edited, nil) {
		t.Error("without a masker an edited comment leaves the hash alone")
	}
	goSrc, goEdited := "package a\n\n// c\nfunc F() {}\n", "package a\n\n// d\nfunc F() {}\n"
	if hash("a.go", goSrc, nil) != hash("a.go", goEdited, nil) {
		t.Error("Go's comments count without a masker")
	}
}
