package memory

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Entities are the things a chunk names, found by patterns, for filters.
type Entities struct {
	Files     []string `yaml:"files,omitempty" json:"files,omitempty"`
	Versions  []string `yaml:"versions,omitempty" json:"versions,omitempty"`
	Modules   []string `yaml:"modules,omitempty" json:"modules,omitempty"`
	Tickets   []string `yaml:"tickets,omitempty" json:"tickets,omitempty"`
	Functions []string `yaml:"functions,omitempty" json:"functions,omitempty"`
}

// All lists every entity.
func (e Entities) All() []string {
	return slices.Concat(e.Files, e.Versions, e.Modules, e.Tickets, e.Functions)
}

// IsZero reports no entities (for JSON's omitzero).
func (e Entities) IsZero() bool { return len(e.All()) == 0 }

// maxEntities caps each kind, so a log of thousands of paths stays a
// readable frontmatter.
const maxEntities = 50

var entityPatterns = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		// A path or file name with a known source or config extension.
		"file": regexp.MustCompile(`(?:[A-Za-z0-9_.@-]+/)*[A-Za-z0-9_@-][A-Za-z0-9_.@-]*\.(?i:go|py|pyi|js|jsx|mjs|cjs|ts|tsx|vue|svelte|rs|java|kt|kts|php|rb|c|h|cc|cpp|hpp|cs|swift|dart|css|scss|less|sql|sh|yaml|yml|json|toml|hcl|md|proto|html)\b`),
		// A version: v1.2, 1.2.3, v1.31.0-rc.1.
		"version": regexp.MustCompile(`\bv?\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?\b`),
		// A module path: a host with a dot, then at least one segment.
		"module": regexp.MustCompile(`\b[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:/[A-Za-z0-9_.-]+)+`),
		// A ticket: PROJ-123.
		"ticket": regexp.MustCompile(`\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b`),
		// A function called or defined: name(.
		"function": regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(`),
	}
})

// notTickets are names shaped like tickets that are standards: encodings,
// hashes, protocols.
var notTickets = map[string]bool{
	"UTF": true, "UCS": true, "ISO": true, "SHA": true, "MD": true, "RFC": true, "HTTP": true, "TLS": true,
	"SSL": true, "AES": true, "RSA": true, "CP": true, "WIN": true, "IEC": true, "ES": true, "ECMA": true,
	"X": true, "AVX": true, "SSE": true, "GPL": true, "LGPL": true, "AGPL": true,
	"CC": true, "BSD": true, "MIT": true, "ASCII": true, "ANSI": true, "IPV": true, "KOI": true, "EUC": true,
}

// notFunctions are words followed by "(" that are not calls.
var notFunctions = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "func": true, "function": true,
	"def": true, "catch": true, "elif": true, "and": true, "or": true, "not": true, "in": true, "with": true,
	"see": true,
}

// Extract finds the entities a text names.
func Extract(text string) Entities {
	p := entityPatterns()
	var e Entities
	add := func(list *[]string, v string) {
		if v != "" && len(*list) < maxEntities && !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	files := p["file"].FindAllString(text, -1)
	for _, f := range files {
		add(&e.Files, strings.TrimPrefix(f, "./"))
	}
	for _, m := range p["module"].FindAllString(text, -1) {
		if !isFileLike(m, files) {
			add(&e.Modules, m)
		}
	}
	for _, v := range p["version"].FindAllString(text, -1) {
		if !partOfFile(v, files) && strings.Count(v, ".") <= 3 {
			add(&e.Versions, v)
		}
	}
	for _, t := range p["ticket"].FindAllString(text, -1) {
		prefix := t[:strings.IndexByte(t, '-')]
		if !notTickets[prefix] {
			add(&e.Tickets, t)
		}
	}
	for _, m := range p["function"].FindAllStringSubmatch(text, -1) {
		name := m[1]
		if len(name) >= 3 && !notFunctions[strings.ToLower(name)] {
			add(&e.Functions, name)
		}
	}
	return e
}

// isFileLike reports a module match that is one of the files found.
func isFileLike(m string, files []string) bool {
	for _, f := range files {
		if strings.Contains(f, m) || strings.Contains(m, f) {
			return true
		}
	}
	return false
}

// partOfFile reports a version match that is inside a file name found
// (v1.2.go, app.v2.js).
func partOfFile(v string, files []string) bool {
	for _, f := range files {
		if strings.Contains(f, v) {
			return true
		}
	}
	return false
}
