package regex

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

// One extractor serves CSS, SCSS and LESS: // comments are SCSS and LESS
// only, but plain CSS never writes // outside a string or a url(), which
// the lexer reads as a whole.
func init() {
	register(&language{
		names:   []string{core.LangCSS},
		syntax:  syntax{lineComment: "//", blockComment: true, hook: cssLex, special: "uU"},
		extract: extractCSS,
	})
}

// cssLex masks an unquoted url(...), which may hold // and quotes.
func cssLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	if i+4 > n || !bytes.EqualFold(src[i:i+4], []byte("url(")) || i > 0 && (isIdent(src[i-1]) || src[i-1] == '-') {
		return i
	}
	j := i + 4
	for j < n && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j < n && (src[j] == '"' || src[j] == '\'') {
		return i // a string inside: lexed as usual
	}
	if j < l.mark {
		return i // no ')' before the end of this line: looked already
	}
	k := j
	for k < n && src[k] != ')' && src[k] != '\n' {
		k++
	}
	if k >= n || src[k] != ')' {
		l.mark = k
		return i
	}
	for m := j; m < k; m++ {
		l.code[m] = fill
	}
	l.d++ // the url's parenthesis
	return k
}

// cssRE returns the CSS patterns, compiled once on first use.
var cssRE = sync.OnceValue(func() *cssPatterns {
	return &cssPatterns{
		variable: regexp.MustCompile(`^([$@][A-Za-z_-][\w-]*)\s*:`),
		function: regexp.MustCompile(`^@(?:mixin|function)\s+([A-Za-z_-][\w-]*)`),
	}
})

type cssPatterns struct {
	variable, function *regexp.Regexp
}

var (
	cssDoc     = docStyle{line: "///"}
	cssLineDoc = docStyle{line: "//", block: "/*"}
)

func extractCSS(f *file) {
	re := cssRE()
	for _, kw := range []string{"import", "use", "forward"} {
		eachWord(f.code, kw, false, func(off int) {
			if off > 0 && f.code[off-1] == '@' {
				f.cssImport(off+len(kw), kw == "import")
			}
		})
	}
	less := strings.HasSuffix(strings.ToLower(f.facts.Path), ".less")
	d := decls{f: f}
	for i := 0; i < f.lines() && !f.full(); i++ {
		if f.inText[i] || f.depth[i] != 0 {
			continue
		}
		t := bytes.TrimLeft(f.codeLine(i), " \t")
		if len(t) == 0 || t[0] != '$' && t[0] != '@' {
			continue
		}
		var s core.Symbol
		if m := re.function.FindSubmatch(t); m != nil {
			s = core.Symbol{Name: string(m[1]), Kind: core.SymbolFunction}
		} else if m := re.variable.FindSubmatch(t); m != nil && (m[1][0] == '$' || less) {
			s = core.Symbol{Name: string(m[1]), Kind: core.SymbolVar}
		} else {
			continue
		}
		bare := strings.TrimLeft(s.Name, "$@")
		s.Exported = bare[0] != '-' && bare[0] != '_'
		if s.Doc = f.docAbove(i, cssDoc); s.Doc == "" {
			s.Doc = f.docAbove(i, cssLineDoc)
		}
		brace := -1
		if s.Kind == core.SymbolFunction {
			brace = f.bodyBrace(f.starts[i]+len(f.codeLine(i))-len(t)+1, "")
		}
		d.add(i, s, brace)
	}
	d.finish()
}

// cssImport reads the targets after @import (a list: "a", url(b), 'c'
// media) or @use and @forward (one), up to the end of the rule.
func (f *file) cssImport(off int, list bool) {
	code := f.code
	end := min(len(code), off+1024)
	if k := bytes.IndexAny(code[off:end], ";{}"); k >= 0 {
		end = off + k
	}
	p := skipSpace(code[:end], off)
	if p < end && code[p] == '(' { // LESS: @import (reference) "x";
		if e := skipBalanced(code[p:end]); e > 0 {
			p = skipSpace(code[:end], p+e)
		}
	}
	for p < end {
		var spec string
		at := p
		switch {
		case code[p] == '"' || code[p] == '\'':
			s, e, ok := f.quoted(p)
			if !ok {
				return
			}
			spec, p = s, e
		case p+4 <= end && bytes.EqualFold(code[p:p+4], []byte("url(")):
			q := skipSpace(code[:end], p+4)
			if q < end && (code[q] == '"' || code[q] == '\'') {
				s, e, ok := f.quoted(q)
				if !ok {
					return
				}
				spec, at = s, q
				p = skipSpace(code[:end], e)
			} else {
				k := bytes.IndexByte(code[q:end], ')')
				if k < 0 {
					return
				}
				spec, at, p = string(bytes.TrimSpace(f.src[q:q+k])), q, q+k
			}
			if p >= end || code[p] != ')' {
				return
			}
			p++
		default:
			return
		}
		if spec != "" && !strings.HasPrefix(spec, "//") && !strings.HasPrefix(spec, "http://") && !strings.HasPrefix(spec, "https://") {
			f.addImport(at, spec, core.ImportStatic)
		}
		if !list {
			return
		}
		p = skipSpace(code[:end], p)
		if p >= end || code[p] != ',' {
			return
		}
		p = skipSpace(code[:end], p+1)
	}
}
