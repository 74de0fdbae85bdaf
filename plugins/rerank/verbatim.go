package rerank

import (
	"bytes"
	"math"
	"strings"
)

// What a question writes verbatim that a unit's lines hold as written:
// the code names it uses (`prepare_content_length`, `USE_TZ`,
// `makeRequest`, `__ne__`) and the text its quotes hold (an error
// message, a warning). Matched word by word, a code name is a few common
// words ("prepare", "content", "length"); the name whole tells the unit
// that uses it from those that only share its words, and a message the
// report quotes is most often raised where the fix goes. Each is a part
// of the listing across files: the names by their inverse document
// frequency over the units read (names_used_weight), the quoted text as
// 1 (quoted_weight).

// minCodeName is the shortest identifier taken for a code name.
const minCodeName = 4

// minQuoted is the shortest piece of a quoted string, in bytes, that
// counts as the question quoting it: shorter pieces ("utf-8", "%s")
// occur in any text.
const minQuoted = 12

// maxQuestionScan bounds how much of the question is searched for a
// unit's quoted text.
const maxQuestionScan = 64 << 10

// codeNames returns the identifiers of text that read as code, not
// prose: snake_case (an inner underscore), camelCase or CamelCase with an
// inner capital after a lower-case letter, dunder names; at least
// minCodeName bytes.
func codeNames(text string) map[string]bool {
	out := map[string]bool{}
	eachIdent([]byte(text), func(id []byte) {
		if isCodeName(id) {
			out[string(id)] = true
		}
	})
	return out
}

// isCodeName reports an identifier no one writes as prose (codeNames).
func isCodeName(id []byte) bool {
	if len(id) < minCodeName {
		return false
	}
	if bytes.HasPrefix(id, []byte("__")) || bytes.IndexByte(bytes.Trim(id, "_"), '_') >= 0 {
		return true
	}
	lower := false
	for _, c := range id {
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z' && lower:
			return true
		}
	}
	return false
}

// eachIdent calls f with each identifier of b ([A-Za-z_][A-Za-z0-9_]*),
// a slice of b.
func eachIdent(b []byte, f func([]byte)) {
	for i := 0; i < len(b); {
		c := b[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(b) && isIdentByte(b[j]) {
			j++
		}
		f(b[i:j])
		i = j
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// usedNames adds to seen the question's code names that line uses.
func (p *profile) usedNames(line []byte, seen map[string]bool) {
	eachIdent(line, func(id []byte) {
		if p.codeNames[string(id)] {
			seen[string(id)] = true
		}
	})
}

// quotes reports whether line holds a quoted string ('…' or "…", on the
// line) a piece of which the question writes: the string cut at its
// format placeholders (%s, %(name)r, {}, {name}), each piece of at least
// minQuoted bytes, matched in lower case.
func (p *profile) quotes(line []byte) bool {
	if p.lowerQuestion == "" {
		return false
	}
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != q {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(line) {
			return false
		}
		if j-i-1 >= minQuoted && p.quotedIn(line[i+1:j]) {
			return true
		}
		i = j
	}
	return false
}

// quotedIn reports whether a piece of the quoted string s, cut at its
// format placeholders, is in the question.
func (p *profile) quotedIn(s []byte) bool {
	low := string(asciiLower(nil, s))
	for _, piece := range splitPlaceholders(low) {
		if piece = strings.TrimSpace(piece); len(piece) >= minQuoted && strings.Contains(p.lowerQuestion, piece) {
			return true
		}
	}
	return false
}

// splitPlaceholders cuts a format string at its placeholders: %-verbs
// (%s, %d, %r, %(name)s, %-5.2f) and braces ({}, {name!r}).
func splitPlaceholders(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		end := -1
		switch s[i] {
		case '{':
			if k := strings.IndexByte(s[i:], '}'); k >= 0 {
				end = i + k + 1
			}
		case '%':
			k := i + 1
			if k < len(s) && s[k] == '(' {
				if c := strings.IndexByte(s[k:], ')'); c >= 0 {
					k += c + 1
				}
			}
			for k < len(s) && strings.IndexByte("-#+ 0123456789.", s[k]) >= 0 {
				k++
			}
			if k < len(s) && strings.IndexByte("sdrfiexXgGcoa%", s[k]) >= 0 {
				end = k + 1
			}
		}
		if end > 0 {
			out = append(out, s[start:i])
			start, i = end, end-1
		}
	}
	return append(out, s[start:])
}

// sharedNames is each unit's use of the question's code names over all
// the units read, as one collection: the sum of the inverse document
// frequencies of the names it uses, the best unit scoring 1.
func sharedNames(files []readFile) map[*unitSpan]float64 {
	df := map[string]int{}
	n := 0
	for _, f := range files {
		for _, s := range f.spans {
			n++
			for _, id := range s.names {
				df[id]++
			}
		}
	}
	out := map[*unitSpan]float64{}
	best := 0.0
	for _, f := range files {
		for _, s := range f.spans {
			v := 0.0
			for _, id := range s.names {
				v += math.Log(1 + (float64(n-df[id])+0.5)/(float64(df[id])+0.5))
			}
			if v > 0 {
				out[s] = v
				best = max(best, v)
			}
		}
	}
	for s := range out {
		out[s] /= best
	}
	return out
}
