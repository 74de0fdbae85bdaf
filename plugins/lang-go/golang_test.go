package golang

import (
	"context"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/parsertest"
	gorefs "github.com/rubi-dev/rubi/core/refs/golang"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// TestFixtures runs the Go archive of the shared fixture suite
// (core/parsertest), which lang.regex and lang.treesitter run too, and
// lang.go's own cases.
func TestFixtures(t *testing.T) {
	parsertest.Run(t, New(), "../lang-regex/testdata/go.txtar")
	parsertest.Run(t, New(), "testdata/*.txtar")
}

// TestContract runs the checks every parser must pass (core/parsertest).
func TestContract(t *testing.T) {
	parsertest.Contract(t, func(*testing.T) core.Parser { return New() })
}

func TestInfo(t *testing.T) {
	b, ok := core.LookupBuiltin(Name)
	if !ok || b.Kind != core.KindParser {
		t.Fatalf("not registered: %+v", b)
	}
	p, ok := b.Factory().(*Parser)
	if !ok {
		t.Fatalf("factory makes %T", b.Factory())
	}
	if info := p.Info(); len(info.Languages) != 1 || info.Languages[0] != core.LangGo || !info.Stateless {
		t.Errorf("Info = %+v, want Go only and stateless", info)
	}
}

func parseOne(t *testing.T, p core.Parser, path, src string) core.FileFacts {
	t.Helper()
	facts, err := p.Parse(context.Background(), []core.SourceFile{{Path: path, Language: core.LangGo, Content: []byte(src)}})
	if err != nil || len(facts) != 1 {
		t.Fatalf("Parse: %v, %d facts", err, len(facts))
	}
	return facts[0]
}

// TestFileDoc: the file's own doc is its package comment, the one right
// above the package clause, past a build constraint; a license header
// apart from the clause is nobody's doc.
func TestFileDoc(t *testing.T) {
	for src, want := range map[string]string{
		"//go:build linux\n\n// Package tagged is built on Linux only.\n// More.\npackage tagged\n": "Package tagged is built on Linux only.",
		"// Copyright 2024 The Authors. All rights reserved.\n\npackage lic\n":                      "",
		"/*\nPackage block is documented in a block.\n*/\npackage block\n":                          "Package block is documented in a block.",
		"package none\n\n// F is not the file's doc.\nfunc F() {}\n":                                "",
	} {
		if got := parseOne(t, New(), "a.go", src).Doc; got != want {
			t.Errorf("%q: Doc = %q, want %q", src, got, want)
		}
	}
}

// TestGivenUp: a file go/parser gives up on (more than ten errors, when
// it returns no tree) gets lang.regex's facts, not none.
func TestGivenUp(t *testing.T) {
	src := "package p\n\nimport \"os\"\n\n" + strings.Repeat("var = = ;\n", 20) + "\nfunc (s *Stack) Push() { os.Exit(0) }\n"
	if tree, err := ParseFile(token.NewFileSet(), core.SourceFile{Path: "a.go", Content: []byte(src)}); err == nil || tree.Name.Name != "" {
		t.Fatalf("go/parser returns a tree of package %q (err %v), want none", tree.Name.Name, err)
	}
	f := parseOne(t, New(), "a.go", src)
	if f.Error != "" || f.Package != "p" || len(f.Imports) != 1 || len(f.Symbols) != 1 || f.Symbols[0].Parent != "Stack" || f.Symbols[0].Line != 26 {
		t.Errorf("facts %+v, want lang.regex's: package p, the import of os and Stack.Push on line 26", f)
	}
}

// TestMaxSymbolsInterface: an interface's methods count against
// max_symbols in source order, like any symbol.
func TestMaxSymbolsInterface(t *testing.T) {
	p := New()
	if err := p.Configure(context.Background(), core.Setup{Settings: []byte(`{"max_symbols": 2}`)}); err != nil {
		t.Fatal(err)
	}
	f := parseOne(t, p, "a.go", "package p\n\ntype I interface {\n\tA()\n\tB()\n}\n\nfunc F() {}\n")
	if len(f.Symbols) != 2 || f.Symbols[0].Name != "I" || f.Symbols[1].Name != "A" {
		t.Errorf("symbols %+v, want I and A", f.Symbols)
	}
	// The fallback has the same cap.
	f = parseOne(t, p, "b.go", "package 7\n\nfunc A() {}\nfunc B() {}\nfunc C() {}\n")
	if len(f.Symbols) != 2 {
		t.Errorf("lang.regex's facts: %d symbols, want 2", len(f.Symbols))
	}
}

// TestCgoFree: lang.go and what it links build with cgo off, so rubi
// parses Go without a C compiler.
func TestCgoFree(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test needs the go command on PATH: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("packages with cgo files among lang.go's dependencies: %s", s)
	}
}

// treeFiles reads the Go files of rubi's own tree, the benchmark's input.
func treeFiles(tb testing.TB) []core.SourceFile {
	tb.Helper()
	root := filepath.Join("..", "..")
	var files []core.SourceFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".rubi" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, core.SourceFile{Path: filepath.ToSlash(rel), Language: core.LangGo, Content: b})
		return nil
	})
	if err != nil || len(files) < 100 {
		tb.Fatalf("%d Go files in rubi's tree: %v", len(files), err)
	}
	return files
}

// BenchmarkTree parses rubi's own Go files with lang.go and with
// lang.regex, the parser it takes Go over from.
func BenchmarkTree(b *testing.B) {
	files := treeFiles(b)
	var size int64
	for _, f := range files {
		size += int64(len(f.Content))
	}
	for _, p := range []core.Parser{New(), regex.New()} {
		b.Run(p.Info().Name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if _, err := p.Parse(context.Background(), files); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSkeletonSameFacts: the facts read from a file's skeleton, its
// function bodies emptied, are those of the whole file, on rubi's own
// Go files.
func TestSkeletonSameFacts(t *testing.T) {
	emptied := 0
	for _, sf := range treeFiles(t) {
		skel := gorefs.Skeleton(sf.Content)
		if skel == nil {
			continue
		}
		emptied++
		whole := token.NewFileSet()
		wf, err := ParseFile(whole, sf)
		if err != nil {
			t.Fatalf("%s: %v", sf.Path, err)
		}
		read := core.SourceFile{Path: sf.Path, Language: sf.Language, Content: skel}
		fset := token.NewFileSet()
		f, err := ParseFile(fset, read)
		if err != nil {
			t.Errorf("%s: the skeleton does not parse: %v", sf.Path, err)
			continue
		}
		if a, b := Extract(whole, wf, sf, core.DefaultMaxSymbols), Extract(fset, f, read, core.DefaultMaxSymbols); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: facts of the skeleton\n%+v\nwant those of the whole file\n%+v", sf.Path, b, a)
		}
	}
	if emptied < 100 {
		t.Errorf("only %d files had a body emptied", emptied)
	}
}

// TestSkeletonWrong: where the skeleton does not parse (a body whose
// first line opens a block, not gofmt'd), the file is parsed whole.
func TestSkeletonWrong(t *testing.T) {
	src := "package p\n\nfunc f(x bool) { if x {\n\t\tg()\n\t}\n}\n\nfunc g() {}\n"
	if _, err := ParseFile(token.NewFileSet(), core.SourceFile{Path: "a.go", Content: gorefs.Skeleton([]byte(src))}); err == nil {
		t.Fatal("the skeleton parses: the case does not test the fallback")
	}
	f := parseOne(t, New(), "a.go", src)
	if len(f.Symbols) != 2 || f.Symbols[0].EndLine != 6 || f.Symbols[1].Name != "g" || f.Symbols[1].Line != 8 {
		t.Errorf("symbols %+v, want f on lines 3-6 and g on 8", f.Symbols)
	}
}
