package python_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
)

// pyrightDir holds Pyright, pinned in its package-lock.json and installed
// by `npm ci` (make test does it).
const pyrightDir = "testdata/pyright"

// noNodeEnv opts out of the tests that run npm-installed programs, on a
// machine without Node.js (the repository's convention).
const noNodeEnv = "RUBI_TEST_NO_NODE"

// pyrightTreeEnv names a real project whose references are measured
// against Pyright's besides the fixture's (the figures are logged).
const pyrightTreeEnv = "RUBI_REFS_PYRIGHT_TREE"

// pyrightEveryEnv, N, asks Pyright about one definition in N of that
// project's, for a big one (django has some 30,000).
const pyrightEveryEnv = "RUBI_REFS_PYRIGHT_EVERY"

// Pyright's language server, asked for the references of every function,
// class, method and constant the fixture defines, is a ground truth the
// labels did not write: every reference rubi finds is one Pyright finds
// (import statements left out on both sides: rubi leaves them to the
// import graph), and rubi finds at least the share stated of Pyright's.
func TestPyrightAgrees(t *testing.T) {
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: Pyright is not run", noNodeEnv)
	}
	server, err := filepath.Abs(filepath.Join(pyrightDir, "node_modules", ".bin", "pyright-langserver"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(server); err != nil {
		t.Fatalf("Pyright is not installed: run `(cd core/refs/python/testdata/pyright && npm ci)` (make test does), or set %s=1 to leave this test out", noNodeEnv)
	}
	// Pyright may write into its workspace: it gets a copy.
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/shop")); err != nil {
		t.Fatal(err)
	}
	p, r := comparePyright(t, server, root, 1)
	if p != 1 {
		t.Errorf("precision against Pyright %.3f, want 1", p)
	}
	if r < minRecall {
		t.Errorf("recall against Pyright %.3f, want at least %.2f", r, minRecall)
	}
	if tree := os.Getenv(pyrightTreeEnv); tree != "" {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(tree)); err != nil {
			t.Fatal(err)
		}
		// Every platform's code, and a src/ layout's package found as
		// the project's rather than as typeshed's stubs of it.
		cfg := `{"pythonPlatform": "All"}`
		if st, err := os.Stat(filepath.Join(root, "src")); err == nil && st.IsDir() {
			cfg = `{"pythonPlatform": "All", "extraPaths": ["src"]}`
		}
		if err := os.WriteFile(filepath.Join(root, "pyrightconfig.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		every, _ := strconv.Atoi(os.Getenv(pyrightEveryEnv))
		comparePyright(t, server, root, max(every, 1))
	}
}

// comparePyright measures rubi's references of the Python project at
// root against Pyright's, logs the figures and the differences, and
// returns precision and recall.
func comparePyright(t *testing.T, server, root string, every int) (precision, recall float64) {
	t.Helper()
	p := loadProject(t, root)
	found := map[string]string{} // reference → its definition
	ours := map[string]bool{}
	aliased := 0
	for f, rs := range resolveAll(t, p) {
		lines := strings.Split(string(p.src[f]), "\n")
		for _, r := range rs {
			// A use through another name (import Ledger as Book, then
			// Book()) is a reference to rubi, not to Pyright, which
			// counts the uses of the name it is asked about.
			name := r.Name[strings.LastIndexByte(r.Name, '.')+1:]
			if line := lines[r.Line-1]; !strings.HasPrefix(line[r.Col-1:], name) {
				aliased++
				continue
			}
			def := r.Path + "::" + r.Name
			found[fmt.Sprintf("%s:%d:%d %s", f, r.Line, r.Col, def)] = def
		}
	}
	askedDefs := map[string]bool{}
	n := 0
	c := startLSP(t, server, root)
	theirs := map[string]bool{}
	asked := 0
	start := time.Now()
	for _, f := range p.files {
		ff := p.facts[f]
		lines := strings.Split(string(p.src[f]), "\n")
		for _, s := range ff.Symbols {
			line, col, ok := defPosition(lines, s)
			if n++; !ok || n%every != 0 {
				continue
			}
			asked++
			locs := c.references(t, filepath.Join(root, f), line-1, utf16Col(lines[line-1], col))
			key := s.Name
			if s.Parent != "" {
				key = s.Parent + "." + s.Name
			}
			askedDefs[f+"::"+key] = true
			for _, l := range locs {
				rel, ok := relPath(root, l.URI)
				if !ok || p.src[rel] == nil {
					continue
				}
				src := strings.Split(string(p.src[rel]), "\n")
				if l.Range.Start.Line >= len(src) || inImport(src, p.facts[rel], l.Range.Start.Line+1) || inAll(src, l.Range.Start.Line+1) {
					continue
				}
				bc := byteCol(src[l.Range.Start.Line], l.Range.Start.Character)
				if declares(src[l.Range.Start.Line], bc) {
					continue // another overload's def
				}
				theirs[fmt.Sprintf("%s:%d:%d %s::%s", rel, l.Range.Start.Line+1, bc, f, key)] = true
			}
		}
	}
	for k, def := range found {
		if askedDefs[def] {
			ours[k] = true
		}
	}
	tp := 0
	var fp, fn []string
	for k := range ours {
		if theirs[k] {
			tp++
		} else {
			fp = append(fp, k)
		}
	}
	for k := range theirs {
		if !ours[k] {
			fn = append(fn, k)
		}
	}
	sort.Strings(fp)
	sort.Strings(fn)
	precision, recall = ratio(tp, len(ours)), ratio(tp, len(theirs))
	t.Logf("%s: %d files, %d symbols asked in %s; rubi %d references (and %d through an alias), Pyright %d, both %d: precision %.3f, recall %.3f",
		root, len(p.files), asked, time.Since(start).Round(time.Millisecond), len(ours), aliased, len(theirs), tp, precision, recall)
	t.Logf("rubi only (first 100):\n%s", strings.Join(fp[:min(100, len(fp))], "\n"))
	t.Logf("Pyright only (first 100):\n%s", strings.Join(fn[:min(100, len(fn))], "\n"))
	return precision, recall
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// defPosition finds the name of a definition on its line: after def or
// class, or at the start of a constant's assignment.
func defPosition(lines []string, s core.Symbol) (line, col int, ok bool) {
	if s.Line < 1 || s.Line > len(lines) {
		return 0, 0, false
	}
	var re *regexp.Regexp
	switch s.Kind {
	case core.SymbolFunction, core.SymbolMethod:
		re = regexp.MustCompile(`\bdef\s+(` + regexp.QuoteMeta(s.Name) + `)\b`)
	case core.SymbolClass:
		re = regexp.MustCompile(`\bclass\s+(` + regexp.QuoteMeta(s.Name) + `)\b`)
	case core.SymbolConst:
		re = regexp.MustCompile(`^\s*(` + regexp.QuoteMeta(s.Name) + `)\b`)
	default:
		return 0, 0, false
	}
	m := re.FindStringSubmatchIndex(lines[s.Line-1])
	if m == nil {
		return 0, 0, false
	}
	return s.Line, m[2] + 1, true
}

// inImport reports whether line is part of an import statement of the
// file: the line its facts give and, for a parenthesized list, the lines
// up to the closing parenthesis.
func inImport(lines []string, ff core.FileFacts, line int) bool {
	for _, imp := range ff.Imports {
		if imp.Kind != core.ImportStatic {
			continue
		}
		end := imp.Line
		if imp.Line <= len(lines) && strings.Contains(lines[imp.Line-1], "(") {
			for end <= len(lines) && !strings.Contains(lines[end-1], ")") {
				end++
			}
		}
		if line >= imp.Line && line <= end {
			return true
		}
	}
	return false
}

// inAll reports whether line is part of an assignment to __all__, whose
// strings Pyright counts as uses and rubi does not (no string is).
func inAll(lines []string, line int) bool {
	for l := line; l >= 1; l-- {
		text := lines[l-1]
		if text != "" && text[0] != ' ' && text[0] != '\t' && text[0] != ')' && text[0] != ']' {
			return strings.HasPrefix(text, "__all__")
		}
	}
	return false
}

// declares reports whether the name at byte column col of line is the
// one a def or class statement defines.
func declares(line string, col int) bool {
	before := strings.TrimRight(line[:col-1], " \t")
	return strings.HasSuffix(before, "def") || strings.HasSuffix(before, "class")
}

func utf16Col(line string, byteCol int) int {
	n := 0
	for i, r := range line {
		if i >= byteCol-1 {
			break
		}
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func byteCol(line string, utf16 int) int {
	n := 0
	for i, r := range line {
		if n >= utf16 {
			return i + 1
		}
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return len(line) + 1
}

func relPath(root, uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	rel, err := filepath.Rel(root, u.Path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// lsp is a language server driven over stdio.
type lsp struct {
	in     io.WriteCloser
	msgs   chan map[string]json.RawMessage
	id     int
	opened map[string]bool
}

type location struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct {
			Line      int `json:"line"`
			Character int `json:"character"`
		} `json:"start"`
	} `json:"range"`
}

func startLSP(t *testing.T, server, root string) *lsp {
	t.Helper()
	cmd := exec.Command(server, "--stdio")
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lsp{in: in, msgs: make(chan map[string]json.RawMessage, 16), opened: map[string]bool{}}
	go func() {
		defer close(c.msgs)
		r := bufio.NewReader(out)
		for {
			n := -1
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				line = strings.TrimSpace(line)
				if line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, max(n, 0))
			if _, err := io.ReadFull(r, body); err != nil {
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	uri := fileURI(root)
	c.call(t, "initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "project"}},
		"capabilities":     map[string]any{"workspace": map[string]any{"configuration": true, "workspaceFolders": true}},
	})
	c.notify(t, "initialized", map[string]any{})
	return c
}

func (c *lsp) write(t *testing.T, msg map[string]any) {
	t.Helper()
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		t.Fatalf("writing to the language server: %v", err)
	}
}

func (c *lsp) notify(t *testing.T, method string, params any) {
	c.write(t, map[string]any{"method": method, "params": params})
}

// call sends a request and waits for its answer, answering what the
// server asks meanwhile (its configuration, its registrations) with
// nothing.
func (c *lsp) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	c.id++
	id := c.id
	c.write(t, map[string]any{"id": id, "method": method, "params": params})
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				t.Fatalf("the language server stopped during %s", method)
			}
			if _, isReq := m["method"]; isReq {
				if rid, ok := m["id"]; ok {
					var result any
					if string(m["method"]) == `"workspace/configuration"` {
						var p struct{ Items []any }
						json.Unmarshal(m["params"], &p)
						result = make([]any, len(p.Items))
					}
					c.write(t, map[string]any{"id": json.RawMessage(rid), "result": result})
				}
				continue
			}
			if string(m["id"]) == strconv.Itoa(id) {
				if e, ok := m["error"]; ok {
					t.Fatalf("%s: %s", method, e)
				}
				return m["result"]
			}
		case <-timeout:
			t.Fatalf("the language server did not answer %s", method)
		}
	}
}

// references asks for the references of the name at (line, col), both
// 0-based, col in UTF-16 units, its declaration left out.
func (c *lsp) references(t *testing.T, file string, line, col int) []location {
	t.Helper()
	uri := fileURI(file)
	if !c.opened[uri] {
		c.opened[uri] = true
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(text) {
			text = bytes.ToValidUTF8(text, []byte("?"))
		}
		c.notify(t, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": "python", "version": 1, "text": string(text)}})
	}
	res := c.call(t, "textDocument/references", map[string]any{
		"textDocument": map[string]string{"uri": uri},
		"position":     map[string]int{"line": line, "character": col},
		"context":      map[string]bool{"includeDeclaration": false},
	})
	var locs []location
	json.Unmarshal(res, &locs)
	return locs
}
