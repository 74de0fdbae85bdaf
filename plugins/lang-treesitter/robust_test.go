package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func TestInfo(t *testing.T) {
	info := New().Info()
	if info.Name != Name || info.Kind != core.KindParser || info.Version == "" || info.Description == "" {
		t.Errorf("Info = %+v", info)
	}
	want := []string{core.LangC, core.LangCPP, core.LangGo, core.LangJava, core.LangJavaScript, core.LangPython, core.LangRuby, core.LangRust, core.LangTypeScript}
	if !slices.Equal(info.Languages, want) {
		t.Errorf("Languages = %v, want %v", info.Languages, want)
	}
	// Every language's queries compile, for each of its grammars.
	for name, l := range languages {
		for _, g := range append([]*grammar{l.grammar}, mapValues(l.byExt)...) {
			if _, err := g.query(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

func mapValues(m map[string]*grammar) []*grammar {
	var out []*grammar
	for _, g := range m {
		out = append(out, g)
	}
	return out
}

func TestConfigure(t *testing.T) {
	var se *core.SettingError
	if err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(`{"max_symbols": 0}`)}); !errors.As(err, &se) || se.Setting != "max_symbols" {
		t.Errorf("max_symbols 0: err = %v", err)
	}
	p := New()
	if err := p.Configure(context.Background(), core.Setup{Settings: json.RawMessage(`{"max_symbols": 3}`)}); err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("package p\n")
	for i := range 10 {
		fmt.Fprintf(&src, "func F%d() {}\n", i)
	}
	facts, err := p.Parse(context.Background(), []core.SourceFile{{Path: "p.go", Language: core.LangGo, Content: []byte(src.String())}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(facts[0].Symbols); n != 3 || facts[0].Symbols[2].Name != "F2" {
		t.Errorf("max_symbols 3: got %d symbols %v", n, facts[0].Symbols)
	}
}

// TestMalformed feeds broken inputs: no panic, no error, lines in range.
func TestMalformed(t *testing.T) {
	inputs := map[string]string{
		"a.go":   "package p\nfunc f() {\n\tx := `unterminated\nfunc G() {}\n",
		"b.go":   "}}}\n)))\nfunc F() {\nimport (\n\"x\"\n",
		"c.py":   "def f(:\n  '''open\nclass X:\n",
		"d.py":   "\tdef a():\n    return (\n\nimport os\n",
		"e.ts":   "export class A {\n  m() {\n const s = `${ `${'}'}` \nimport x from 'y'\n",
		"f.js":   "a = b / c; d = /[/]/ ; e = f / g /\nimport x from 'y' // x\n" + strings.Repeat("/", 3000) + "\n",
		"g.tsx":  "export const C = () => <p>it's {'<'} </p>\nexport function D() {}\n",
		"h.js":   "",
		"i.go":   "\xff\xfe\x00 package \n",
		"j.rs":   "use a::{b, {c::{;\nfn f<'a>(x: &'a str) { r#\"open\n'\\u{12\nimpl<T for {\nmod m { use super::super::super::x; }\n",
		"k.java": "package ;\nimport static ;\nclass { void (\n@interface\nrecord R(\n\"\"\"\nopen",
		"n.rb":   "x = <<~A, <<-B\nA\n%w[ %q( =begin\nclass << self\n def self.\nprivate :\n__END__",
		"o.c":    "#define\n#include <\n#include \"\ntypedef struct {\nint f(int a,\nR\"x(\n1'2'3\nnamespace {\nA::~A(\noperator",
		"p.cpp":  "template <class T\nclass : {\nstruct X<{\nint x = R\"(\n}\n}}}\nextern \"C\" {\n",
		"q.kt":   "fun f() {}\n", // a language without a grammar here: lang.regex's facts
	}
	var files []core.SourceFile
	for name, src := range inputs {
		files = append(files, core.SourceFile{Path: name, Language: core.DetectLanguage(name), Content: []byte(src)})
	}
	facts, err := New().Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range facts {
		lines := strings.Count(string(files[i].Content), "\n") + 1
		if f.Path != files[i].Path || f.Error != "" {
			t.Errorf("%s: facts %+v", files[i].Path, f)
		}
		for _, im := range f.Imports {
			if im.Line < 1 || im.Line > lines {
				t.Errorf("%s: import %+v out of range", f.Path, im)
			}
		}
		for _, s := range f.Symbols {
			if s.Line < 1 || s.Line > lines || s.EndLine != 0 && (s.EndLine < s.Line || s.EndLine > lines) {
				t.Errorf("%s: symbol %+v out of range", f.Path, s)
			}
		}
	}
}

// TestConcurrent calls Parse from several goroutines at once, as rubi's
// parse workers do: every answer matches the sequential one.
func TestConcurrent(t *testing.T) {
	p := New()
	var files []core.SourceFile
	for i := range 40 {
		files = append(files, core.SourceFile{Path: fmt.Sprintf("f%d.py", i), Language: core.LangPython,
			Content: []byte(fmt.Sprintf("import m%d\n\nclass C%d:\n    def m(self):\n        pass\n", i, i))})
	}
	want, err := p.Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := p.Parse(context.Background(), files)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range got {
				if got[i].Imports[0].Spec != want[i].Imports[0].Spec || len(got[i].Symbols) != 2 {
					t.Errorf("file %d: %+v", i, got[i])
				}
			}
		}()
	}
	wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, files); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v", err)
	}
}

// TestCanceledCallsLeaveParsersUsable: a call's context is canceled once
// it returns (gRPC does so); later calls must still parse. The binding's
// ParseCtx could leave a worker's parser flagged as canceled for good; the
// race shows only under load (bench/parsers.sh met it on kubernetes: two
// files in three came back empty over RPC), so this test guards the
// calling pattern rather than reproducing the race every time.
func TestCanceledCallsLeaveParsersUsable(t *testing.T) {
	p := New()
	var files []core.SourceFile
	for range 16 {
		files = append(files, core.SourceFile{Path: "a.go", Language: core.LangGo, Content: []byte("package a\n\nfunc A() {}\n")})
	}
	for range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		if _, err := p.Parse(ctx, files); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	for range 20 {
		facts, err := p.Parse(context.Background(), files)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range facts {
			if f.Error != "" || len(f.Symbols) != 1 {
				t.Fatalf("after canceled calls: %+v", f)
			}
		}
	}
}

// TestOtherLanguages: a language named in rubi.hcl that lang.treesitter
// has no grammar for gets lang.regex's facts, so swapping it in for every
// language loses nothing.
func TestOtherLanguages(t *testing.T) {
	files := []core.SourceFile{
		{Path: "a.kt", Language: core.LangKotlin, Content: []byte("package a\n\nimport b.C\n\nfun f() {}\n")},
		{Path: "b.cob", Language: "cobol", Content: []byte("import x\n")},
	}
	facts, err := New().Parse(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	if f := facts[0]; f.Package != "a" || len(f.Imports) != 1 || len(f.Symbols) != 1 || f.Language != core.LangKotlin {
		t.Errorf("kotlin: %+v", f)
	}
	if f := facts[1]; f.Path != "b.cob" || len(f.Imports)+len(f.Symbols) != 0 || f.Error != "" {
		t.Errorf("cobol: %+v", f)
	}
}
