package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names: []string{core.LangPHP},
		syntax: syntax{blockComment: true, phpTags: true,
			hook: phpLex, special: "'\"`/#?<"},
		extract: extractPHP,
	})
}

// phpLex lexes PHP's strings (all of which span lines), its // and #
// comments (which end at ?> too), #[attributes], ?> (back to HTML) and
// heredocs.
func phpLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	switch c := src[i]; c {
	case '\'', '"', '`':
		return l.strBody(i+1, strKind{q: c, multiline: true})
	case '/':
		if i+1 < n && src[i+1] == '/' {
			return l.phpComment(i)
		}
	case '#':
		if i+1 < n && src[i+1] == '[' {
			return i + 1 // an attribute: its bracket is counted next
		}
		return l.phpComment(i)
	case '?':
		if i+1 < n && src[i+1] == '>' {
			l.code[i], l.code[i+1] = ' ', ' '
			return l.outside(i + 2)
		}
	case '<':
		if bytes.HasPrefix(src[i:], []byte("<<<")) {
			if m := phpRE().heredoc.FindSubmatchIndex(src[i:min(n, i+128)]); m != nil {
				e := i + m[1]
				if string(src[i+m[2]:i+m[3]]) == string(src[i+m[6]:i+m[7]]) && (e == n || src[e] == '\n' || src[e] == '\r') {
					l.heredocs = append(l.heredocs, heredoc{id: string(src[i+m[4] : i+m[5]]), php: true})
					return e
				}
			}
		}
	}
	return i
}

// phpRE returns the PHP patterns, compiled once on first use.
var phpRE = sync.OnceValue(func() *phpPatterns {
	return &phpPatterns{
		heredoc:   regexp.MustCompile(`^<<<[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)(["']?)`),
		namespace: regexp.MustCompile(`^namespace\s+\\?([\pL_][\pL\pN_]*(?:\\[\pL_][\pL\pN_]*)*)`),
		ident:     regexp.MustCompile(`^&?\s*([\pL_][\pL\pN_]*)`),
	}
})

type phpPatterns struct {
	heredoc, namespace, ident *regexp.Regexp
}

func (l *lexer) phpComment(i int) int {
	src := l.src
	for ; i < len(src) && src[i] != '\n'; i++ {
		if src[i] == '?' && i+1 < len(src) && src[i+1] == '>' {
			return i
		}
		l.code[i] = ' '
	}
	return i
}

var phpModifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "abstract": true,
	"final": true, "readonly": true, "var": true,
}

var phpDoc = docStyle{block: "/**"}

func phpAttr(t []byte) bool { return bytes.HasPrefix(t, []byte("#[")) }

// PHP scope kinds.
const (
	phpNS    = "namespace" // namespace X { ... }: its body is file scope
	phpClass = "class"
)

func extractPHP(f *file) {
	d := decls{f: f}
	var scopes []scope
	for i := 0; i < f.lines() && !f.full(); i++ {
		t, off, top, ok := f.braceLine(&scopes, i)
		if !ok {
			continue
		}
		// #[Attr] before the declaration on the same line.
		for bytes.HasPrefix(t, []byte("#[")) {
			k := skipBalanced(t[1:])
			if k < 0 {
				break
			}
			r := bytes.TrimLeft(t[1+k:], " \t")
			off += len(t) - len(r)
			t = r
		}
		switch {
		case (top == nil || top.kind == phpNS) && f.depth[i] == nsBody(top):
			f.phpFileScope(&d, i, t, off, &scopes)
		case top != nil && top.kind == phpClass && f.depth[i] == top.body:
			f.phpMember(&d, i, t, top)
		}
	}
	d.finish()
	for _, kw := range []string{"require", "require_once", "include", "include_once"} {
		eachWord(f.code, kw, false, func(off int) { f.phpRequire(off + len(kw)) })
	}
}

func nsBody(top *scope) int {
	if top == nil {
		return 0
	}
	return top.body
}

func (f *file) phpFileScope(d *decls, i int, t []byte, off int, scopes *[]scope) {
	w, r := word(t)
	switch w {
	case "namespace":
		if m := phpRE().namespace.FindSubmatch(t); m != nil && f.facts.Package == "" {
			f.facts.Package = string(m[1])
		}
		if b := f.bodyBrace(off+len(w), ""); b >= 0 {
			*scopes = append(*scopes, f.openScope(b, "", phpNS, true))
		}
		return
	case "use":
		f.phpUse(off + len(w))
		return
	case "function":
		if m := phpRE().ident.FindSubmatchIndex(r); m != nil {
			name := r[m[2]:m[3]]
			d.add(i, core.Symbol{Name: string(name), Kind: core.SymbolFunction, Exported: true,
				Doc: f.docAboveAttrs(i, phpDoc, phpAttr)}, f.bodyBrace(off+len(t)-len(r)+m[3], ""))
		}
		return
	case "const":
		f.phpConsts(d, i, r, nil)
		return
	}
	// [abstract|final|readonly] class|interface|trait|enum Name
	for phpModifiers[w] && len(r) < len(t)-len(w) {
		t = r
		w, r = word(t)
	}
	kind := ""
	switch w {
	case "class", "trait":
		kind = core.SymbolClass
	case "interface":
		kind = core.SymbolInterface
	case "enum":
		kind = core.SymbolEnum
	default:
		return
	}
	name := firstWord(r)
	if name == "" || len(r) == len(t)-len(w) {
		return
	}
	nameOff := f.starts[i] + len(f.codeLine(i)) - len(r)
	brace := f.bodyBrace(nameOff+len(name), "")
	d.add(i, core.Symbol{Name: name, Kind: kind, Exported: true, Doc: f.docAboveAttrs(i, phpDoc, phpAttr)}, brace)
	if brace >= 0 {
		*scopes = append(*scopes, f.openScope(brace, name, phpClass, true))
	}
}

func (f *file) phpMember(d *decls, i int, t []byte, top *scope) {
	private := false
	w, r := word(t)
	for phpModifiers[w] && len(r) < len(t)-len(w) {
		private = private || w == "private" || w == "protected"
		t = r
		w, r = word(t)
	}
	switch w {
	case "function":
		m := phpRE().ident.FindSubmatchIndex(r)
		if m == nil {
			return
		}
		nameOff := f.starts[i] + len(f.codeLine(i)) - len(r) + m[3]
		d.add(i, core.Symbol{Name: string(r[m[2]:m[3]]), Kind: core.SymbolMethod, Parent: top.name,
			Exported: !private, Doc: f.docAboveAttrs(i, phpDoc, phpAttr)}, f.bodyBrace(nameOff, ""))
	case "const":
		f.phpConsts(d, i, r, &core.Symbol{Parent: top.name, Exported: !private})
	}
}

// phpConsts reads const A = 1, B = 2; and const int A = 1; (typed).
func (f *file) phpConsts(d *decls, i int, r []byte, member *core.Symbol) {
	for range 64 {
		name := firstWord(r)
		if name == "" {
			return
		}
		after := bytes.TrimLeft(r[len(name):], " \t")
		if len(after) > 0 && after[0] != '=' { // a type first
			r = after
			continue
		}
		s := core.Symbol{Name: name, Kind: core.SymbolConst, Exported: true, Doc: f.docAboveAttrs(i, phpDoc, phpAttr)}
		if member != nil {
			s.Parent, s.Exported = member.Parent, member.Exported
		}
		d.add(i, s, -1)
		// Next name after a comma at depth 0 on this line.
		depth := 0
		k := 0
		for ; k < len(after); k++ {
			c := after[k]
			if c == '(' || c == '[' || c == '{' {
				depth++
			} else if c == ')' || c == ']' || c == '}' {
				depth--
			} else if depth == 0 && (c == ',' || c == ';') {
				break
			}
		}
		if k >= len(after) || after[k] == ';' {
			return
		}
		r = bytes.TrimLeft(after[k+1:], " \t")
	}
}

// phpUse reads a use statement from off (after the keyword) to its ';':
// use A\B, C\D as E; use function A\b; use A\{B, function c}.
func (f *file) phpUse(off int) {
	end := min(len(f.code), off+declWindow)
	if k := bytes.IndexByte(f.code[off:end], ';'); k >= 0 {
		end = off + k
	} else {
		return
	}
	p := useParser{code: f.code[:end], pos: off, sep: `\`, words: map[string]bool{"function": true, "const": true}}
	p.emit = func(spec string, at int) { f.addImport(at, spec, core.ImportStatic) }
	p.ws()
	if w := firstWord(f.code[p.pos:end]); w == "function" || w == "const" {
		p.pos += len(w)
	}
	for p.pos < end {
		before := p.pos
		p.tree("", 0)
		p.ws()
		if p.pos >= end || f.code[p.pos] != ',' || p.pos == before {
			return
		}
		p.pos++
	}
}

// phpRequire reads the argument of require/include at off: a literal,
// maybe after __DIR__ . or dirname(__FILE__) . and inside parentheses.
func (f *file) phpRequire(off int) {
	code := f.code
	p := skipSpace(code, off)
	paren := p < len(code) && code[p] == '('
	if paren {
		p = skipSpace(code, p+1)
	}
	prefix := ""
	for _, dir := range []string{"__DIR__", "dirname(__FILE__)"} {
		if bytes.HasPrefix(code[p:], []byte(dir)) {
			q := skipSpace(code, p+len(dir))
			if q < len(code) && code[q] == '.' {
				prefix, p = "__DIR__", skipSpace(code, q+1)
			}
		}
	}
	if p >= len(code) || code[p] != '\'' && code[p] != '"' {
		return
	}
	spec, end, ok := f.quoted(p)
	if !ok || code[p] == '"' && bytes.ContainsAny([]byte(spec), "${") {
		return
	}
	// The source, not the masked code, tells a closing ?> from HTML.
	e := skipSpace(f.src, end)
	if paren && e < len(code) && code[e] == ')' {
		e = skipSpace(f.src, e+1)
	}
	if e < len(code) && code[e] != ';' && code[e] != ')' && code[e] != ',' && f.src[e] != '?' {
		return
	}
	f.addImport(p, prefix+spec, core.ImportRequire)
}
