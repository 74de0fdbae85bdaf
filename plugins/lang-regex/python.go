package regex

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names:   []string{core.LangPython},
		syntax:  syntax{lineComment: "#", triple: true},
		extract: extractPython,
	})
}

const pyIdent = `[\pL_][\pL\pN_]*`

// pyRE returns the Python patterns, compiled once on first use.
var pyRE = sync.OnceValue(func() *pyPatterns {
	return &pyPatterns{
		importStmt: regexp.MustCompile(`^import\s`),
		importName: regexp.MustCompile(`(` + pyIdent + `(?:\s*\.\s*` + pyIdent + `)*)(?:\s+as\s+` + pyIdent + `)?`),
		from:       regexp.MustCompile(`^from\s*(\.*)\s*(` + pyIdent + `(?:\s*\.\s*` + pyIdent + `)*)?\s*import\b`),
		def:        regexp.MustCompile(`^(?:async\s+)?def\s+(` + pyIdent + `)`),
		class:      regexp.MustCompile(`^class\s+(` + pyIdent + `)`),
		constant:   regexp.MustCompile(`^(_*[A-Z][A-Z0-9_]*)\s*(?::[^=]*)?=(?:[^=]|$)`),
		all:        regexp.MustCompile(`^__all__\s*(?::[^=]*)?\+?=`),
		allName:    regexp.MustCompile(`["'](` + pyIdent + `)["']`),
		docPrefix:  regexp.MustCompile(`^[rRuUbBfF]{0,2}("""|'''|"|')`),
	}
})

type pyPatterns struct {
	importStmt, importName, from, def, class, constant, all, allName, docPrefix *regexp.Regexp
}

// pyBlock is an open def or class, for telling methods from functions.
type pyBlock struct {
	indent int
	class  string // "" for a def
	local  bool   // inside a def: not part of the module's API
}

func extractPython(f *file) {
	re := pyRE()
	n := f.lines()
	stmt := make([]bool, n) // line i starts a logical line
	for i := range n {
		stmt[i] = !f.inText[i] && f.depth[i] == 0 && !(i > 0 && pyBackslash(f.codeLine(i-1))) && !f.blank(i)
	}
	var (
		stack  []pyBlock
		ends   []endQuery
		heads  []int // header end line of each queried symbol
		all    map[string]bool
		hasAll bool
	)
	for i := 0; i < n; i++ {
		if !stmt[i] {
			continue
		}
		// The logical line runs on while brackets are open, a string is
		// open or a backslash continues it.
		h := i
		for h+1 < n && !stmt[h+1] && (f.depth[h+1] > 0 || f.inText[h+1] || pyBackslash(f.codeLine(h))) {
			h++
		}
		code := f.codeLine(i)
		t := bytes.TrimLeft(code, " \t")
		indent := pyIndent(code)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		f.pyImports(f.starts[i]+len(code)-len(t), f.starts[h]+len(f.codeLine(h)))

		word := firstWord(t)
		if word != "def" && word != "async" && word != "class" && (indent > 0 || word == "" || word[0] != '_' && (word[0] < 'A' || word[0] > 'Z')) {
			i = h
			continue
		}
		var sym core.Symbol
		var class string
		if m := re.def.FindSubmatch(t); m != nil {
			sym = core.Symbol{Name: string(m[1]), Kind: core.SymbolFunction}
		} else if m := re.class.FindSubmatch(t); m != nil {
			sym = core.Symbol{Name: string(m[1]), Kind: core.SymbolClass}
			class = sym.Name
		} else if indent == 0 {
			if m := re.constant.FindSubmatch(t); m != nil && !f.full() {
				f.addSymbol(core.Symbol{Name: string(m[1]), Kind: core.SymbolConst, Line: i + 1, EndLine: h + 1,
					Exported: m[1][0] != '_', Signature: f.signature(i)})
			} else if re.all.Match(t) {
				a, _ := f.bounds(i)
				_, b := f.bounds(h)
				if all == nil {
					all = map[string]bool{}
				}
				hasAll = true
				for _, m := range re.allName.FindAllSubmatch(f.src[a:b], -1) {
					all[string(m[1])] = true
				}
			}
			i = h
			continue
		} else {
			i = h
			continue
		}
		local := false
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.local || top.class == "" {
				local = true
			} else {
				sym.Parent = top.class
				if sym.Kind == core.SymbolFunction {
					sym.Kind = core.SymbolMethod
				}
			}
		}
		stack = append(stack, pyBlock{indent: indent, class: class, local: local})
		if !local && !f.full() {
			sym.Line = i + 1
			sym.Exported = sym.Name[0] != '_'
			sym.Signature = f.signature(i)
			sym.Doc = f.pyDocstring(h)
			if k := f.addSymbol(sym); k >= 0 {
				ends = append(ends, endQuery{sym: k, from: h + 1, max: indent})
				heads = append(heads, h)
			}
		}
		i = h
	}
	f.pyDynamicImports()
	if hasAll {
		for k := range f.facts.Symbols {
			if s := &f.facts.Symbols[k]; s.Parent == "" {
				s.Exported = all[s.Name]
			}
		}
	}
	f.pyEnds(stmt, ends, heads)
}

// pyImports reads the import statements of the logical line code[a:b],
// which may hold several separated by semicolons.
func (f *file) pyImports(a, b int) {
	re := pyRE()
	for a < b {
		end := bytes.IndexByte(f.code[a:b], ';')
		if end < 0 {
			end = b
		} else {
			end += a
		}
		s := skipSpace(f.code[:end], a)
		seg := f.code[s:end]
		if w := firstWord(seg); w != "import" && w != "from" {
			// not an import statement
		} else if m := re.importStmt.FindIndex(seg); m != nil {
			for _, n := range re.importName.FindAllSubmatchIndex(seg[m[1]:], -1) {
				name := seg[m[1]+n[2] : m[1]+n[3]]
				f.addImport(s+m[1]+n[2], string(pyDotted(name)), core.ImportStatic)
			}
		} else if m := re.from.FindSubmatchIndex(seg); m != nil && (m[3] > m[2] || m[4] >= 0) {
			spec := string(seg[m[2]:m[3]])
			if m[4] >= 0 {
				spec += string(pyDotted(seg[m[4]:m[5]]))
			}
			f.addImport(s, spec, core.ImportStatic)
			if names := pyFromNames(seg[m[1]:]); len(names) > 0 {
				f.imports[len(f.imports)-1].names = names
			}
		}
		a = end + 1
	}
}

// pyFromNames lists the names of `from m import a, b as c, (d, e)`; a star
// import names nothing.
func pyFromNames(list []byte) []string {
	var names []string
	for _, n := range pyRE().importName.FindAllSubmatch(list, -1) {
		name := string(pyDotted(n[1]))
		if !strings.Contains(name, ".") {
			names = append(names, name)
		}
	}
	return names
}

// pyDynamicImports finds importlib.import_module("x") and __import__("x")
// with a literal argument.
func (f *file) pyDynamicImports() {
	for _, w := range []string{"import_module", "__import__"} {
		eachWord(f.code, w, true, func(off int) {
			p := skipSpace(f.code, off+len(w))
			if p >= len(f.code) || f.code[p] != '(' {
				return
			}
			p = skipSpace(f.code, p+1)
			if p >= len(f.code) || f.code[p] != '"' && f.code[p] != '\'' {
				return
			}
			if spec, end, ok := f.quoted(p); ok {
				if e := skipSpace(f.code, end); e < len(f.code) && (f.code[e] == ')' || f.code[e] == ',') {
					f.addImport(p, spec, core.ImportDynamic)
				}
			}
		})
	}
}

// pyDocstring returns the first line of the docstring of the def or class
// whose header ends on line h.
func (f *file) pyDocstring(h int) string {
	if !bytes.HasSuffix(bytes.TrimSpace(f.codeLine(h)), []byte(":")) {
		return "" // one-line body: no docstring
	}
	k := h + 1
	for k < f.lines() && f.blank(k) {
		k++
	}
	return f.pyStringDoc(k)
}

// pyStringDoc returns the first line of text of the string literal that
// starts line k, if the line starts with one (a docstring).
func (f *file) pyStringDoc(k int) string {
	if k >= f.lines() {
		return ""
	}
	t := bytes.TrimSpace(f.srcLine(k))
	m := pyRE().docPrefix.FindSubmatchIndex(t)
	if m == nil {
		return ""
	}
	q := t[m[2]:m[3]]
	t = t[m[1]:]
	for stop := k + 50; ; {
		last := false
		if e := bytes.Index(t, q); e >= 0 {
			t, last = t[:e], true
		}
		if t = bytes.TrimSpace(t); len(t) > 0 {
			return Clip(t)
		}
		if k++; last || len(q) == 1 || k >= f.lines() || k > stop {
			return ""
		}
		t = f.srcLine(k)
	}
}

// pyEnds sets EndLine of defs and classes: the body ends before the first
// logical line indented no deeper than the header.
func (f *file) pyEnds(stmt []bool, qs []endQuery, heads []int) {
	if len(qs) == 0 {
		return
	}
	n := f.lines()
	keys := make([]int, n)
	lastCode := make([]int, n) // last line at or before i holding code
	prev := -1
	for i := range n {
		keys[i] = noKey
		if stmt[i] {
			keys[i] = pyIndent(f.codeLine(i))
		}
		if !f.blank(i) {
			prev = i
		}
		lastCode[i] = prev
	}
	for k, a := range firstAtMost(keys, qs) {
		end := lastCode[a-1]
		f.facts.Symbols[qs[k].sym].EndLine = max(end, heads[k]) + 1
	}
}

// pyIndent is the width of the line's indentation, tabs to multiples of 8
// as Python counts them.
func pyIndent(line []byte) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w = w/8*8 + 8
		default:
			return w
		}
	}
	return w
}

func pyBackslash(code []byte) bool {
	return bytes.HasSuffix(bytes.TrimRight(code, " \t"), []byte(`\`))
}

// pyDotted removes blanks from a dotted name ("a . b" is legal Python).
func pyDotted(name []byte) []byte {
	if !bytes.ContainsAny(name, " \t\\\n") {
		return name
	}
	out := make([]byte, 0, len(name))
	for _, c := range name {
		if !isSpace(c) && c != '\\' {
			out = append(out, c)
		}
	}
	return out
}
