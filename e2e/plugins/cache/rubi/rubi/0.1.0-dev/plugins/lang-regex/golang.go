package regex

import (
	"bytes"
	"regexp"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names:   []string{core.LangGo},
		syntax:  syntax{lineComment: "//", blockComment: true, rawBacktick: true},
		extract: extractGo,
	})
}

const goIdent = `[\pL_][\pL\pN_]*`

// goRE returns the Go patterns, compiled once on first use.
// Top-level patterns are anchored and applied to one masked line with its
// indentation removed, so each costs a few steps per line.
var goRE = sync.OnceValue(func() *goPatterns {
	return &goPatterns{
		pkg:         regexp.MustCompile(`^package\s+(` + goIdent + `)`),
		importGroup: regexp.MustCompile(`^import\s*\(`),
		importOne:   regexp.MustCompile(`^import\s*`),
		spec:        regexp.MustCompile("^(?:(\\.|" + goIdent + ")\\s*)?[\"`]"),
		group:       regexp.MustCompile(`^(const|var|type)\s*\(`),
		function:    regexp.MustCompile(`^func\s+(` + goIdent + `)`),
		method:      regexp.MustCompile(`^func\s*\(([^)]*)\)\s*(` + goIdent + `)`),
		typeDecl:    regexp.MustCompile(`^type\s+(` + goIdent + `)`),
		value:       regexp.MustCompile(`^(const|var)\s+`),
		names:       regexp.MustCompile(`^` + goIdent + `(?:\s*,\s*` + goIdent + `)*`),
		typeSpec:    regexp.MustCompile(`^` + goIdent),
	}
})

type goPatterns struct {
	pkg, importGroup, importOne, spec, group           *regexp.Regexp
	function, method, typeDecl, value, names, typeSpec *regexp.Regexp
}

var goDoc = docStyle{line: "//", block: "/*"}

func extractGo(f *file) {
	re := goRE()
	var ends []endQuery
	add := func(i int, s core.Symbol) {
		if s.Name == "_" {
			return
		}
		s.Line = i + 1
		s.Signature = f.signature(i)
		s.Doc = f.docAbove(i, goDoc)
		if k := f.addSymbol(s); k >= 0 {
			ends = append(ends, endQuery{sym: k, from: i, max: f.depth[i]})
		}
	}
	values := func(i int, names []byte, kind string) {
		for _, n := range bytes.Split(names, []byte(",")) {
			n = bytes.TrimSpace(n)
			add(i, core.Symbol{Name: string(n), Kind: kind, Exported: goExported(n)})
		}
	}
	group := "" // keyword of the ( ... ) block being read
	for i := 0; i < f.lines(); i++ {
		if f.inText[i] {
			continue
		}
		code := f.codeLine(i)
		t := bytes.TrimLeft(code, " \t")
		off := f.starts[i] + len(code) - len(t) // offset of t
		if f.depth[i] == 0 {
			group = ""
		}
		switch {
		case f.depth[i] == 0:
			switch firstWord(t) {
			case "package", "import", "const", "var", "type", "func":
			default:
				continue
			}
			if m := re.pkg.FindSubmatch(t); m != nil {
				if f.facts.Package == "" {
					f.facts.Package = string(m[1])
					f.facts.Doc = f.docAbove(i, goDoc)
				}
			} else if m := re.importGroup.FindIndex(t); m != nil {
				group = "import"
				f.goSpecs(off+m[1], t[m[1]:])
			} else if m := re.importOne.FindIndex(t); m != nil {
				f.goSpecs(off+m[1], t[m[1]:])
			} else if m := re.group.FindSubmatch(t); m != nil {
				group = string(m[1])
			} else if f.full() {
				continue
			} else if m := re.method.FindSubmatch(t); m != nil {
				add(i, core.Symbol{Name: string(m[2]), Kind: core.SymbolMethod, Exported: goExported(m[2]), Parent: goReceiver(m[1])})
			} else if m := re.function.FindSubmatch(t); m != nil {
				add(i, core.Symbol{Name: string(m[1]), Kind: core.SymbolFunction, Exported: goExported(m[1])})
			} else if m := re.typeDecl.FindSubmatchIndex(t); m != nil {
				name := t[m[2]:m[3]]
				add(i, core.Symbol{Name: string(name), Kind: goTypeKind(t[m[1]:]), Exported: goExported(name)})
			} else if m := re.value.FindSubmatchIndex(t); m != nil {
				if names := re.names.Find(t[m[1]:]); names != nil {
					values(i, names, goValueKind(t))
				}
			}
		case f.depth[i] == 1 && group == "import":
			f.goSpecs(off, t)
		case f.depth[i] == 1 && group != "" && !f.full() && !f.goContinued(i):
			// A spec of a const/var/type group, unless the line merely
			// continues the previous spec's expression.
			if group == "type" {
				if m := re.typeSpec.FindIndex(t); m != nil {
					add(i, core.Symbol{Name: string(t[:m[1]]), Kind: goTypeKind(t[m[1]:]), Exported: goExported(t[:m[1]])})
				}
			} else if names := re.names.Find(t); names != nil {
				kind := core.SymbolConst
				if group == "var" {
					kind = core.SymbolVar
				}
				values(i, names, kind)
			}
		}
	}
	f.braceEnds(ends)
}

// goSpecs reads the import specs in seg (at offset off), up to a closing
// parenthesis: `"fmt"`, `str "strings"`, `_ "embed"`, `. "x"`, several
// per line when separated by semicolons.
func (f *file) goSpecs(off int, seg []byte) {
	if k := bytes.IndexByte(seg, ')'); k >= 0 {
		seg = seg[:k]
	}
	spec := goRE().spec
	for pos := 0; pos < len(seg); {
		pos += len(seg[pos:]) - len(bytes.TrimLeft(seg[pos:], " \t;"))
		m := spec.FindSubmatchIndex(seg[pos:])
		if m == nil {
			return
		}
		q := off + pos + m[1] - 1
		spec, end, ok := f.quoted(q)
		if !ok {
			return
		}
		kind := core.ImportStatic
		if m[2] >= 0 && string(seg[pos+m[2]:pos+m[3]]) == "_" {
			kind = core.ImportSideEffect // imported for its init only
		}
		f.addImport(q+1, spec, kind)
		pos = end - off
	}
}

// goContinued reports whether line i continues an expression from the
// line above (which ends with an operator or a comma).
func (f *file) goContinued(i int) bool {
	if i == 0 {
		return false
	}
	prev := bytes.TrimSpace(f.codeLine(i - 1))
	return len(prev) > 0 && bytes.IndexByte([]byte("=,+-*/%&|^<.:"), prev[len(prev)-1]) >= 0
}

func goValueKind(t []byte) string {
	if bytes.HasPrefix(t, []byte("var")) {
		return core.SymbolVar
	}
	return core.SymbolConst
}

// goReceiver turns "s *Stack[T]" into "Stack".
func goReceiver(r []byte) string {
	if k := bytes.IndexByte(r, '['); k >= 0 {
		r = r[:k]
	}
	fs := bytes.Fields(r)
	if len(fs) == 0 {
		return ""
	}
	return string(bytes.TrimLeft(fs[len(fs)-1], "*"))
}

// goTypeKind looks past the type parameters (or an array length, which
// is harmless) for the interface keyword.
func goTypeKind(rest []byte) string {
	rest = bytes.TrimSpace(rest)
	if len(rest) > 0 && rest[0] == '[' {
		depth := 0
		for k, c := range rest {
			if c == '[' {
				depth++
			} else if c == ']' {
				if depth--; depth == 0 {
					rest = rest[k+1:]
					break
				}
			}
		}
	}
	rest = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(rest), []byte("=")))
	if bytes.HasPrefix(rest, []byte("interface")) && (len(rest) == 9 || !isIdent(rest[9])) {
		return core.SymbolInterface
	}
	return core.SymbolType
}

func goExported(name []byte) bool {
	r, _ := utf8.DecodeRune(name)
	return unicode.IsUpper(r)
}
