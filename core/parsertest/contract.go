package parsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// Contract checks the behaviour every parser must have, whatever it
// finds in a file: what Info says, which settings Configure takes and
// rejects, the max_symbols cap, files in languages it does not know,
// malformed input, canceled calls and concurrent ones. Each check is a
// subtest. A parser's own test calls it with a constructor:
//
//	parsertest.Contract(t, func(*testing.T) core.Parser { return regex.New() })
//
// newParser returns a parser that has not been configured; the checks
// configure each one as rubi does, once and before any other call but
// Info. The checks that need facts found parse small files in Go, or in
// Python for a parser that does not know Go.
func Contract(t *testing.T, newParser func(t *testing.T) core.Parser) {
	t.Run("Info", func(t *testing.T) { checkInfo(t, newParser(t).Info()) })
	t.Run("Configure", func(t *testing.T) { checkConfigure(t, newParser) })
	t.Run("MaxSymbols", func(t *testing.T) { checkMaxSymbols(t, newParser) })
	t.Run("UnknownLanguages", func(t *testing.T) { checkUnknown(t, configured(t, newParser, "")) })
	t.Run("Malformed", func(t *testing.T) { checkMalformed(t, configured(t, newParser, "")) })
	t.Run("Canceled", func(t *testing.T) { checkCanceled(t, configured(t, newParser, "")) })
	t.Run("Concurrent", func(t *testing.T) { checkConcurrent(t, configured(t, newParser, "")) })
}

// configured returns a parser from newParser configured with the JSON
// settings raw ("" for none).
func configured(t *testing.T, newParser func(*testing.T) core.Parser, raw string) core.Parser {
	t.Helper()
	p := newParser(t)
	setup := core.Setup{Root: t.TempDir(), StateDir: t.TempDir()}
	if raw != "" {
		setup.Settings = json.RawMessage(raw)
	}
	if err := p.Configure(context.Background(), setup); err != nil {
		t.Fatalf("Configure(%s): %v", raw, err)
	}
	return p
}

// A sample writes the files of the checks that need facts found, in a
// language every parser of rubi knows.
type sample struct {
	lang, ext string
	head      string // the file's start; %s is the spec of its import
	def       string // one function; %d is its number
}

var samples = []sample{
	{core.LangGo, ".go", "package p\n\nimport %q\n\n", "func F%d() {}\n"},
	{core.LangPython, ".py", "import %s\n\n", "def F%d():\n    pass\n"},
}

// file returns a file that imports spec and defines n functions, F0 to
// F<n-1>, one a line or two.
func (s sample) file(spec string, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, s.head, spec)
	for i := range n {
		fmt.Fprintf(&b, s.def, i)
	}
	return []byte(b.String())
}

// sampleFor returns the sample in the first language of samples that p
// knows.
func sampleFor(t *testing.T, p core.Parser) sample {
	t.Helper()
	info := p.Info()
	for _, s := range samples {
		if slices.Contains(info.Languages, s.lang) {
			return s
		}
	}
	t.Fatalf("%s knows neither Go nor Python, the languages of the contract's samples (it knows %v)", info.Name, info.Languages)
	return sample{}
}

// parse parses files with p, with no error and one FileFacts per file in
// order.
func parse(t *testing.T, ctx context.Context, p core.Parser, files []core.SourceFile) []core.FileFacts {
	t.Helper()
	facts, err := p.Parse(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != len(files) {
		t.Fatalf("%d facts for %d files", len(facts), len(files))
	}
	for i, f := range files {
		if facts[i].Path != f.Path {
			t.Fatalf("facts %d are for %q, want %q", i, facts[i].Path, f.Path)
		}
	}
	return facts
}

// firstDefs reports whether symbols are the first n functions of a
// sample file, F0 to F<n-1>, in source order.
func firstDefs(symbols []core.Symbol, n int) bool {
	if len(symbols) != n {
		return false
	}
	for i, s := range symbols {
		if s.Name != fmt.Sprintf("F%d", i) {
			return false
		}
	}
	return true
}

// checkInfo: Info names a parser that lists its languages, sorted, and
// takes max_symbols.
func checkInfo(t *testing.T, info core.Info) {
	if info.Name == "" || info.Kind != core.KindParser || info.Version == "" || info.Description == "" {
		t.Errorf("Info = %+v, want a parser with a name, a version and a description", info)
	}
	if len(info.Languages) == 0 || !slices.IsSorted(info.Languages) || len(slices.Compact(slices.Clone(info.Languages))) != len(info.Languages) {
		t.Errorf("Languages = %v, want a sorted list without repeats", info.Languages)
	}
	if a, ok := info.Schema.Lookup("max_symbols"); !ok || a.Type != "number" || a.Required {
		t.Errorf("schema max_symbols = %+v, %v; want an optional number", a, ok)
	}
}

// checkConfigure: Configure takes no settings and a valid max_symbols,
// and rejects the others with a *core.SettingError naming the setting, so
// that rubi can point at its line in rubi.hcl.
func checkConfigure(t *testing.T, newParser func(*testing.T) core.Parser) {
	for _, raw := range []string{"", "null", "{}", `{"max_symbols": 1}`, `{"max_symbols": 100000}`} {
		configured(t, newParser, raw)
	}
	for _, c := range []struct{ raw, setting string }{
		{`{"max_symbols": 0}`, "max_symbols"},
		{`{"max_symbols": -3}`, "max_symbols"},
		{`{"max_symbols": "many"}`, "max_symbols"},
		{`{"max_symbols": 3, "max_symbol": 3}`, "max_symbol"}, // unknown
		{`[3]`, ""}, // not an object
	} {
		err := newParser(t).Configure(context.Background(), core.Setup{Settings: json.RawMessage(c.raw)})
		var se *core.SettingError
		if !errors.As(err, &se) || se.Setting != c.setting || se.Message == "" {
			t.Errorf("Configure(%s): err = %#v, want a *core.SettingError on %q with a message", c.raw, err, c.setting)
		}
	}
}

// checkMaxSymbols: a file reports its first max_symbols symbols in source
// order, core.DefaultMaxSymbols when the setting is not given; the cap is
// per file.
func checkMaxSymbols(t *testing.T, newParser func(*testing.T) core.Parser) {
	p := configured(t, newParser, `{"max_symbols": 3}`)
	s := sampleFor(t, p)
	f := core.SourceFile{Path: "a" + s.ext, Language: s.lang, Content: s.file("m", 10)}
	g := f
	g.Path = "b" + s.ext
	for _, ff := range parse(t, context.Background(), p, []core.SourceFile{f, g}) {
		if !firstDefs(ff.Symbols, 3) {
			t.Errorf("max_symbols 3, %s: symbols %v, want F0 F1 F2", ff.Path, ff.Symbols)
		}
	}

	p = configured(t, newParser, "")
	f.Content = s.file("m", core.DefaultMaxSymbols+5)
	if ff := parse(t, context.Background(), p, []core.SourceFile{f})[0]; !firstDefs(ff.Symbols, core.DefaultMaxSymbols) {
		t.Errorf("no max_symbols: %d symbols, want the first %d", len(ff.Symbols), core.DefaultMaxSymbols)
	}
}

// checkUnknown: a file in a language the parser does not know gets facts
// with neither imports nor symbols, not an error; a file without a
// language is read in the language its path names.
func checkUnknown(t *testing.T, p core.Parser) {
	s := sampleFor(t, p)
	files := []core.SourceFile{
		{Path: "a.cob", Language: "cobol", Content: []byte("import x from 'y'\n")},
		{Path: "c.md", Language: core.LangMarkdown, Content: []byte("# import os\n")},
		{Path: "b" + s.ext, Content: s.file("m", 1)},
	}
	facts := parse(t, context.Background(), p, files)
	for i, f := range facts[:2] {
		if f.Language != files[i].Language || len(f.Imports)+len(f.Symbols) != 0 || f.Error != "" {
			t.Errorf("%s: %+v, want no facts", f.Path, f)
		}
	}
	if f := facts[2]; f.Language != s.lang || len(f.Imports) != 1 || len(f.Symbols) != 1 {
		t.Errorf("%s without a language: %+v, want it read as %s", f.Path, f, s.lang)
	}
}

// malformed are broken inputs in every language a parser of rubi knows:
// unterminated strings, comments and brackets, stray closers, binary and
// invalid UTF-8, a line of 3,000 slashes, empty files.
var malformed = map[string]string{
	"a.go":     "package p\nfunc f() {\n\tx := `unterminated\nfunc G() {}\n",
	"b.go":     "}}}\n)))\nfunc F() {\nimport (\n\"x\"\n",
	"c.py":     "def f(:\n  '''open\nclass X:\n",
	"d.py":     "\tdef a():\n    return (\n\nimport os\n",
	"e.ts":     "export class A {\n  m() {\n const s = `${ `${'}'}` \nimport x from 'y'\n",
	"f.js":     "a = b / c; d = /[/]/ ; e = f / g /\nimport x from 'y' // x\n" + strings.Repeat("/", 3000) + "\n",
	"g.tsx":    "export const C = () => <p>it's {'<'} </p>\nexport function D() {}\n",
	"h.js":     "",
	"i.go":     "\xff\xfe\x00 package \n",
	"j.rs":     "use a::{b, {c::{;\nfn f<'a>(x: &'a str) { r#\"open\n'\\u{12\nimpl<T for {\nmod m { use super::super::super::x; }\n",
	"k.java":   "package ;\nimport static ;\nclass { void (\n@interface\nrecord R(\n\"\"\"\nopen",
	"l.kt":     "fun <T> (\nclass A(val x: () -> Unit = { \"${ \"}\"\n\"\"\"${\nobject\ncompanion object\n",
	"m.php":    "<?php use A\\{B, {C}; require __DIR__ . ; <<<EOT\nx\n?> <?php class { function (",
	"n.rb":     "x = <<~A, <<-B\nA\n%w[ %q( =begin\nclass << self\n def self.\nprivate :\n__END__",
	"o.c":      "#define\n#include <\n#include \"\ntypedef struct {\nint f(int a,\nR\"x(\n1'2'3\nnamespace {\nA::~A(\noperator",
	"p.cpp":    "template <class T\nclass : {\nstruct X<{\nint x = R\"(\n}\n}}}\nextern \"C\" {\n",
	"q.kt":     "fun f() {}\n",
	"q.scss":   "@import url(; @use \"\n$: ;\n@mixin (\nurl(//x\n",
	"r.dart":   "import 'a' if ( 'b\npart of\nlibrary;\nclass A { A.(\nextension on {\n'${'\nr'\n",
	"s.vue":    "<script><script lang=\"ts\" x=\">\nimport a from 'b'\n<!-- </script>",
	"t.svelte": "<script",
	"u.php":    "",
	"v.rb":     "'",
}

// checkMalformed: broken input costs no panic, no error and no fact out of
// the file's lines.
func checkMalformed(t *testing.T, p core.Parser) {
	var files []core.SourceFile
	for _, name := range slices.Sorted(maps.Keys(malformed)) {
		files = append(files, core.SourceFile{Path: name, Language: core.DetectLanguage(name), Content: []byte(malformed[name])})
	}
	for i, f := range parse(t, context.Background(), p, files) {
		CheckSane(t, files[i], f)
	}
}

// CheckSane reports through t what no parser may answer for sf, whatever
// its content: facts for another file, an error, an import or a symbol
// on a line the file does not have, one without a spec or a name, a
// symbol that ends before it starts.
func CheckSane(t testing.TB, sf core.SourceFile, f core.FileFacts) {
	t.Helper()
	lines := strings.Count(string(sf.Content), "\n") + 1
	if f.Path != sf.Path || f.Error != "" {
		t.Errorf("%s: facts for %q, Error %q", sf.Path, f.Path, f.Error)
	}
	for _, im := range f.Imports {
		if im.Line < 1 || im.Line > lines || im.Spec == "" {
			t.Errorf("%s: bad import %+v", sf.Path, im)
		}
	}
	for _, s := range f.Symbols {
		if s.Line < 1 || s.Line > lines || s.Name == "" || s.EndLine != 0 && (s.EndLine < s.Line || s.EndLine > lines) {
			t.Errorf("%s: bad symbol %+v", sf.Path, s)
		}
	}
}

// checkCanceled: a call with a canceled context returns its error, and
// the parser stays usable. A call's context is also canceled once it
// returns (gRPC does so, for a plugin); hundreds of such calls must leave
// later ones parsing as the first did.
func checkCanceled(t *testing.T, p core.Parser) {
	s := sampleFor(t, p)
	files := make([]core.SourceFile, 16)
	for i := range files {
		files[i] = core.SourceFile{Path: fmt.Sprintf("f%d%s", i, s.ext), Language: s.lang, Content: s.file("m", 1)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, files); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v, want context.Canceled", err)
	}
	for range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		parse(t, ctx, p, files)
		cancel()
	}
	for range 20 {
		for _, f := range parse(t, context.Background(), p, files) {
			if f.Error != "" || len(f.Symbols) != 1 {
				t.Fatalf("after canceled calls: %+v", f)
			}
		}
	}
}

// checkConcurrent: Parse called from several goroutines at once, as
// rubi's index does, answers each as it answers alone.
func checkConcurrent(t *testing.T, p core.Parser) {
	s := sampleFor(t, p)
	files := make([]core.SourceFile, 40)
	for i := range files {
		files[i] = core.SourceFile{Path: fmt.Sprintf("f%d%s", i, s.ext), Language: s.lang, Content: s.file(fmt.Sprintf("m%d", i), 2)}
	}
	want := parse(t, context.Background(), p, files)
	for i, f := range want {
		if len(f.Imports) != 1 || f.Imports[0].Spec != fmt.Sprintf("m%d", i) || len(f.Symbols) != 2 {
			t.Fatalf("%s: %+v, want an import of m%d and 2 symbols", f.Path, f, i)
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := p.Parse(context.Background(), files)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%s: %+v, want %+v", files[i].Path, got[i], want[i])
				}
			}
		})
	}
	wg.Wait()
}
