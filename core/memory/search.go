package memory

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/rubi-dev/rubi/core/text"
)

// Filter narrows chunks before anything is searched or cut. Zero fields
// do not filter.
type Filter struct {
	// Since and Until bound the creation time, both inclusive: a date
	// given as its midnight keeps the whole day when passed as Until's
	// next midnight minus a second, as the command line does.
	Since, Until time.Time
	Project      string
	Domain       string
	Type         string
	Session      string
	// Tags keeps chunks that carry every one of them.
	Tags []string
	// Entity keeps chunks naming it (a file, version, module, ticket or
	// function), compared without case.
	Entity string
}

func (f Filter) accepts(c *Chunk) bool {
	if !f.Since.IsZero() && c.Created.Before(f.Since) || !f.Until.IsZero() && c.Created.After(f.Until) {
		return false
	}
	eq := strings.EqualFold
	if f.Project != "" && !eq(c.Project, f.Project) || f.Domain != "" && !eq(c.Domain, f.Domain) ||
		f.Type != "" && !eq(c.Type, f.Type) || f.Session != "" && c.Session != f.Session {
		return false
	}
	for _, t := range f.Tags {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(c.Tags, t) {
			return false
		}
	}
	if f.Entity != "" {
		found := eq(c.Ticket, f.Entity)
		for _, e := range c.Entities.All() {
			found = found || eq(e, f.Entity)
		}
		if !found {
			return false
		}
	}
	return true
}

// GrepOptions say how Grep matches.
type GrepOptions struct {
	Filter
	// Fuzzy matches the pattern's words, each allowing typos, instead of
	// reading the pattern as a regular expression.
	Fuzzy bool
	// MaxTypos is the edits a fuzzy word may be away from a word of the
	// text (insertions, deletions, substitutions, swaps); 0 means one for
	// words of five letters or more, two from nine.
	MaxTypos int
	// Limit caps the matches returned (default 100); Total counts them all.
	Limit int
}

// Match is one matching line.
type Match struct {
	ID   string `json:"id"`
	Line int    `json:"line"`
	Text string `json:"text"`
	// Words are the text's words a fuzzy search matched, as written.
	Words []string `json:"words,omitempty"`
}

// GrepResult is a search's answer: the first matches, and how many there
// were in all.
type GrepResult struct {
	Matches []Match `json:"matches"`
	Total   int     `json:"total"`
	// Chunks counts the chunks searched, after the filter.
	Chunks int `json:"chunks"`
}

// maxPattern bounds a pattern's length. Go's regular expressions run in
// time linear in the text (no backtracking), so no pattern is
// pathological; the bound keeps the compiled program small.
const maxPattern = 1000

// maxLine is the longest line shown of a match, in characters.
const maxLine = 300

// Grep searches the content of the chunks that pass the filter, newest
// chunk first, lines in order.
func (s *Store) Grep(pattern string, o GrepOptions) (*GrepResult, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, errors.New("the pattern is empty")
	}
	if len(pattern) > maxPattern {
		return nil, fmt.Errorf("the pattern is %d bytes; keep it under %d", len(pattern), maxPattern)
	}
	limit := o.Limit
	if limit <= 0 {
		limit = 100
	}
	var match func(line string) (bool, []string)
	if o.Fuzzy {
		words := fuzzyWords(pattern)
		if len(words) == 0 {
			return nil, fmt.Errorf("the pattern %q has no words to match", pattern)
		}
		match = func(line string) (bool, []string) { return fuzzyLine(words, line, o.MaxTypos) }
	} else {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w (or search words with typos allowed: fuzzy)", pattern, err)
		}
		match = func(line string) (bool, []string) { return re.MatchString(line), nil }
	}
	all, err := s.scanAll()
	if err != nil {
		return nil, err
	}
	res := &GrepResult{Matches: []Match{}}
	for _, c := range all {
		if !o.accepts(c) {
			continue
		}
		res.Chunks++
		lines := strings.Split(c.Content, "\n")
		if c.Archived {
			// An archived chunk is found by its summary and tags (line 0);
			// reading it restores the rest.
			lines = []string{c.Summary + " [" + strings.Join(c.Tags, ", ") + "] (archived)"}
		}
		for i, line := range lines {
			ok, words := match(line)
			if !ok {
				continue
			}
			res.Total++
			if len(res.Matches) < limit {
				if r := []rune(line); len(r) > maxLine {
					line = string(r[:maxLine-1]) + "…"
				}
				n := i + 1
				if c.Archived {
					n = 0
				}
				res.Matches = append(res.Matches, Match{ID: c.ID, Line: n, Text: line, Words: words})
			}
		}
	}
	return res, nil
}

// fuzzyWords are the pattern's words, folded like the index folds them
// (accents off, lower case), not stemmed: a typo is in the letters.
func fuzzyWords(pattern string) []string {
	var out []string
	for _, w := range splitWords(pattern) {
		if w = text.Fold(strings.ToLower(w)); len(w) >= 2 && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// fuzzyLine reports whether every word of the pattern is in the line, each
// within its typo allowance, and returns the line's words that matched.
func fuzzyLine(words []string, line string, maxTypos int) (bool, []string) {
	lineWords := splitWords(line)
	var hits []string
	for _, w := range words {
		limit := maxTypos
		if limit <= 0 {
			switch {
			case len(w) >= 9:
				limit = 2
			case len(w) >= 5:
				limit = 1
			}
		}
		found := false
		for _, lw := range lineWords {
			f := text.Fold(strings.ToLower(lw))
			if f == w || limit > 0 && abs(len(f)-len(w)) <= limit && text.Distance(f, w, limit) <= limit {
				found = true
				if !slices.Contains(hits, lw) {
					hits = append(hits, lw)
				}
				break
			}
		}
		if !found {
			return false, nil
		}
	}
	return true, hits
}

func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
