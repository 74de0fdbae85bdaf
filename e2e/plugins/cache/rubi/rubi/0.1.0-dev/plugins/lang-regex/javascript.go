package regex

import (
	"bytes"
	"regexp"
	"slices"
	"sync"
	"unicode"

	"github.com/rubi-dev/rubi/core"
)

// One extractor serves JavaScript and TypeScript in all their file forms
// (.js .jsx .mjs .cjs .ts .tsx .mts .cts): TypeScript's additions are a few
// more declaration keywords, and JSX only matters to the lexer.
func init() {
	register(&language{
		names:   []string{core.LangJavaScript, core.LangTypeScript},
		syntax:  syntax{lineComment: "//", blockComment: true, template: true, regexLit: true},
		extract: extractJS,
	})
}

const jsIdent = `[\pL_$][\pL\pN_$]*`

// jsRE returns the JavaScript and TypeScript patterns, compiled once on first use.
var jsRE = sync.OnceValue(func() *jsPatterns {
	return &jsPatterns{
		importFrom:  regexp.MustCompile(`^import\s*[\pL\pN_$*{}\s,]*?\bfrom\s*["']`),
		importBare:  regexp.MustCompile(`^import\s*["']`),
		importCall:  regexp.MustCompile("^import\\s*\\(\\s*[\"'`]"),
		require:     regexp.MustCompile("^require\\s*\\(\\s*[\"'`]"),
		exportFrom:  regexp.MustCompile(`^export\s*(?:type\s+)?(?:\*(?:\s*as\s+` + jsIdent + `)?|\{[^}]*\})\s*from\s*["']`),
		exportList:  regexp.MustCompile(`^export\s*(?:type\s+)?\{([^}]*)\}`),
		exportIdent: regexp.MustCompile(`^export\s+default\s+(` + jsIdent + `)\s*(?:;|\n|\r|$)`),
		varRest:     regexp.MustCompile(`^\s+(` + jsIdent + `)\s*!?\s*(?::(?:[^=]|=>)*)?(=)?`),
		fieldRest:   regexp.MustCompile(`^(?::(?:[^=]|=>)*)?=`),
	}
})

type jsPatterns struct {
	// Import patterns are anchored and run on a bounded window that starts
	// at an occurrence of the keyword, so the cost is per keyword, not per
	// byte.
	importFrom, importBare, importCall, require, exportFrom, exportList, exportIdent *regexp.Regexp
	// Declarations are read word by word: modifiers, then a keyword, then
	// a name. Only const/let/var and class fields need a pattern, for the
	// type annotation before the initializer.
	varRest, fieldRest *regexp.Regexp
}

// jsModifiers may precede a top-level declaration keyword.
var jsModifiers = map[string]bool{"export": true, "default": true, "declare": true, "async": true, "abstract": true}

var jsKeywords = map[string]bool{
	"function": true, "class": true, "interface": true, "type": true, "enum": true,
	"namespace": true, "module": true, "const": true, "let": true, "var": true,
}

// jsMemberModifiers may precede a class member's name.
var jsMemberModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "readonly": true, "abstract": true,
	"override": true, "async": true, "declare": true, "get": true, "set": true, "accessor": true,
}

var jsDoc = docStyle{line: "//", block: "/**", decorators: true}

// jsNotMember are words that can open a line in a class body without
// naming a method (defensive: they are only legal deeper down).
var jsNotMember = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true, "return": true, "function": true}

const jsWindow = 4096

func extractJS(f *file) {
	exported := f.jsImports()
	f.jsSymbols(exported)
}

// jsImports records the imports and returns the names exported by a
// separate export list (export { a, b as c }; export default a).
func (f *file) jsImports() map[string]bool {
	re := jsRE()
	code := f.code
	// A clause never holds another import or export keyword, so each
	// window ends at the next one: windows cannot overlap and the work is
	// linear even in a file that is nothing but keywords.
	var stops []int
	for _, w := range []string{"import", "export"} {
		eachWord(code, w, false, func(off int) { stops = append(stops, off) })
	}
	slices.Sort(stops)
	window := func(off int) []byte {
		end := min(len(code), off+jsWindow)
		if k, _ := slices.BinarySearch(stops, off+1); k < len(stops) {
			end = min(end, stops[k])
		}
		return code[off:end]
	}
	spec := func(q int, kind string, call bool) {
		s, end, ok := f.quoted(q)
		if !ok {
			return
		}
		if call { // the literal must be the whole argument
			if e := skipSpace(code, end); e >= len(code) || code[e] != ')' && code[e] != ',' {
				return
			}
		}
		f.addImport(q, s, kind)
	}
	exported := map[string]bool{}
	for _, off := range stops {
		w := window(off)
		switch {
		case bytes.HasPrefix(w, []byte("import")):
			if m := re.importFrom.FindIndex(w); m != nil {
				spec(off+m[1]-1, core.ImportStatic, false)
			} else if m := re.importBare.FindIndex(w); m != nil {
				spec(off+m[1]-1, core.ImportSideEffect, false)
			} else if m := re.importCall.FindIndex(w); m != nil {
				spec(off+m[1]-1, core.ImportDynamic, true)
			}
		case bytes.HasPrefix(w, []byte("export")):
			if m := re.exportFrom.FindIndex(w); m != nil {
				spec(off+m[1]-1, core.ImportReexport, false)
			} else if m := re.exportList.FindSubmatch(w); m != nil {
				for _, e := range bytes.Split(m[1], []byte(",")) {
					e = bytes.TrimSpace(e)
					e = bytes.TrimSpace(bytes.TrimPrefix(e, []byte("type ")))
					if k := bytes.IndexFunc(e, unicode.IsSpace); k >= 0 {
						e = e[:k] // "a as b" exports the local a
					}
					exported[string(e)] = true
				}
			} else if m := re.exportIdent.FindSubmatch(w); m != nil {
				exported[string(m[1])] = true
			}
		}
	}
	eachWord(code, "require", false, func(off int) {
		// The window is small: only whitespace may precede the literal.
		if m := re.require.FindIndex(code[off:min(len(code), off+256)]); m != nil {
			spec(off+m[1]-1, core.ImportRequire, true)
		}
	})
	return exported
}

// jsClassBody is the class whose members are being read.
type jsClassBody struct {
	name     string
	depth    int // depth of the class line
	body     int // first line of the body
	exported bool
	seen     map[string]bool
}

func (f *file) jsSymbols(exportList map[string]bool) {
	var (
		ends []endQuery
		cls  *jsClassBody
		seen = map[string]bool{} // kind+name of top-level symbols
	)
	add := func(i int, s core.Symbol) int {
		s.Line = i + 1
		s.Signature = f.signature(i)
		s.Doc = f.docAbove(i, jsDoc)
		k := f.addSymbol(s)
		if k >= 0 {
			ends = append(ends, endQuery{sym: k, from: i, max: f.depth[i]})
		}
		return k
	}
	top := func(i int, name, kind string, export bool) int {
		// TypeScript overloads repeat a function; keep the first.
		if key := kind + " " + name; !seen[key] {
			seen[key] = true
			return add(i, core.Symbol{Name: name, Kind: kind, Exported: export || exportList[name]})
		}
		return -1
	}
	for i := 0; i < f.lines() && !f.full(); i++ {
		if f.inText[i] {
			continue
		}
		d := f.depth[i]
		if cls != nil && i >= cls.body && d <= cls.depth {
			cls = nil
		}
		code := f.codeLine(i)
		t := bytes.TrimLeft(code, " \t")
		off := f.starts[i] + len(code) - len(t)
		if cls != nil && i >= cls.body && d == cls.depth+1 {
			f.jsMember(i, t, off, cls, add)
			continue
		}
		if d != 0 {
			continue
		}
		h, ok := jsHeadOf(t, off)
		if !ok {
			continue
		}
		r := bytes.TrimLeft(h.rest, " \t")
		spaced := len(r) < len(h.rest) // keyword and name are apart
		switch h.kw {
		case "function":
			name := firstWord(bytes.TrimLeft(bytes.TrimPrefix(r, []byte("*")), " \t"))
			if name == "" && h.def {
				name = "default"
			}
			if name != "" {
				top(i, name, core.SymbolFunction, h.export)
			}
		case "class":
			name := firstWord(r)
			if name == "extends" || name == "implements" {
				name = "" // export default class extends Base
			}
			if name == "" && h.def {
				name = "default"
			}
			if name == "" {
				continue
			}
			exp := h.export || exportList[name]
			k := top(i, name, core.SymbolClass, exp)
			brace, body := f.jsBody(h.off+len(h.rest)-len(r)+len(name), d)
			if k >= 0 && brace > i {
				// The header spans lines (class A\n extends B {): the
				// class ends where the brace opened on that line closes.
				ends[len(ends)-1].from = brace
			}
			if body >= 0 {
				cls = &jsClassBody{name: name, depth: d, body: body, exported: exp, seen: map[string]bool{}}
			}
		case "interface", "enum", "namespace", "module", "type":
			name := firstWord(r)
			if !spaced || name == "" {
				continue
			}
			kind := core.SymbolType
			switch h.kw {
			case "interface":
				kind = core.SymbolInterface
			case "namespace", "module":
				kind = core.SymbolModule
			case "type": // type X = ..., type X<T> = ...; not a variable called type
				if after := bytes.TrimLeft(r[len(name):], " \t"); len(after) == 0 || after[0] != '=' && after[0] != '<' {
					continue
				}
			}
			top(i, name, kind, h.export)
		case "const", "let", "var":
			m := jsRE().varRest.FindSubmatchIndex(h.rest)
			if m == nil {
				continue // destructuring: const { a } = ...
			}
			kind := core.SymbolVar
			if h.kw == "const" {
				kind = core.SymbolConst
			}
			if m[4] >= 0 && jsFuncRHS(f.code, h.off+m[5]) {
				kind = core.SymbolFunction
			}
			top(i, string(h.rest[m[2]:m[3]]), kind, h.export)
		}
	}
	f.braceEnds(ends)
}

// jsHead is the start of a top-level declaration.
type jsHead struct {
	export, def bool
	kw          string // declaration keyword; "enum" for const enum
	rest        []byte // what follows the keyword
	off         int    // offset of rest in the file
}

// jsHeadOf reads the modifiers and keyword that t starts with.
func jsHeadOf(t []byte, off int) (h jsHead, ok bool) {
	for range len(jsModifiers) + 1 {
		w := firstWord(t)
		rest := t[len(w):]
		r := bytes.TrimLeft(rest, " \t")
		switch {
		case w == "const" && firstWord(r) == "enum":
			h.kw, h.rest, h.off = "enum", r[4:], off+len(t)-len(r)+4
			return h, true
		case jsKeywords[w]:
			h.kw, h.rest, h.off = w, rest, off+len(w)
			return h, true
		case jsModifiers[w] && len(r) < len(rest):
			h.export = h.export || w == "export"
			h.def = h.def || w == "default"
			off += len(t) - len(r)
			t = r
		default:
			return h, false
		}
	}
	return h, false
}

// jsMember reads a method (or a property holding a function) of cls.
func (f *file) jsMember(i int, t []byte, off int, cls *jsClassBody, add func(int, core.Symbol) int) {
	private := false
	for range len(jsMemberModifiers) {
		w := firstWord(t)
		if !jsMemberModifiers[w] {
			break
		}
		r := bytes.TrimLeft(t[len(w):], " \t")
		// "get() {}" is a method called get, not a getter.
		if len(r) == len(t)-len(w) || len(r) == 0 || !isIdent(r[0]) && r[0] != '#' && r[0] != '*' {
			break
		}
		private = private || w == "private"
		off += len(t) - len(r)
		t = r
	}
	if len(t) > 0 && t[0] == '*' {
		r := bytes.TrimLeft(t[1:], " \t")
		off += len(t) - len(r)
		t = r
	}
	name := firstWord(bytes.TrimPrefix(t, []byte("#")))
	if name == "" || jsNotMember[name] {
		return
	}
	if t[0] == '#' {
		name, private = "#"+name, true
	}
	r := bytes.TrimLeft(t[len(name):], " \t")
	r = bytes.TrimLeft(bytes.TrimLeft(r, "?!"), " \t")
	switch {
	case len(r) == 0:
		return
	case r[0] == '(' || r[0] == '<':
		// a method
	case r[0] == '=' || r[0] == ':':
		// a field: a method only when it holds a function
		m := jsRE().fieldRest.FindIndex(r)
		if m == nil || !jsFuncRHS(f.code, off+len(t)-len(r)+m[1]) {
			return
		}
	default:
		return
	}
	if cls.seen[name] {
		return // getter and setter pairs, overloads: keep the first
	}
	cls.seen[name] = true
	add(i, core.Symbol{Name: name, Kind: core.SymbolMethod, Parent: cls.name, Exported: cls.exported && !private})
}

// jsBody finds the brace opening the class body whose header continues at
// offset off. It returns the brace's line (-1 for none: declare class A;)
// and the first line of the body (-1 when the body closes on the line it
// opens, as in class A {}).
func (f *file) jsBody(off, d int) (brace, body int) {
	angle := 0 // type arguments may hold object types: Base<{a: 1}>
	for k := off; k < len(f.code) && k < off+jsWindow; k++ {
		switch f.code[k] {
		case '(', '<':
			angle++
		case ')', '>':
			angle--
		case ';':
			return -1, -1
		case '{':
			if angle > 0 {
				continue
			}
			line := f.lineOf(k)
			if line+1 < f.lines() && f.depth[line+1] > d {
				return line, line + 1
			}
			return line, -1
		}
	}
	return -1, -1
}

// jsFuncRHS reports whether the initializer starting at off is a function:
// function expression, arrow (generic, async, typed return) or not.
func jsFuncRHS(code []byte, off int) bool {
	end := min(len(code), off+jsWindow)
	w := code[skipSpace(code[:end], off):end]
	if jsWord(w, "async") {
		w = w[skipSpace(w, 5):]
	}
	if jsWord(w, "function") {
		return true
	}
	if len(w) > 0 && w[0] == '<' { // <T,>(x: T) => x
		k := bytes.IndexByte(w, '(')
		if k < 0 {
			return false
		}
		w = w[k:]
	}
	if len(w) > 0 && w[0] == '(' {
		k := matchParen(w)
		if k < 0 {
			return false
		}
		w = w[skipSpace(w, k+1):]
		if bytes.HasPrefix(w, []byte("=>")) {
			return true
		}
		if len(w) > 0 && w[0] == ':' { // (x): Promise<T> =>
			k := bytes.Index(w, []byte("=>"))
			return k > 0 && !bytes.ContainsAny(w[:k], ";=")
		}
		return false
	}
	k := 0
	for k < len(w) && isIdent(w[k]) {
		k++
	}
	return k > 0 && bytes.HasPrefix(w[skipSpace(w, k):], []byte("=>"))
}

func jsWord(w []byte, word string) bool {
	return bytes.HasPrefix(w, []byte(word)) && (len(w) == len(word) || !isIdent(w[len(word)]))
}

// matchParen returns the index of the parenthesis closing w[0], or -1.
func matchParen(w []byte) int {
	depth := 0
	for k, c := range w {
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}
