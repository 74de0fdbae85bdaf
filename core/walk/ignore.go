package walk

import (
	"bufio"
	"io"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rubi-dev/rubi/core/store"
)

// Ignore files are parsed here and matched with doublestar rather than with
// go-git's gitignore package: its matcher counts a pattern that matches any
// ancestor as matching the path, so "*.txt" + "!keep/" fails to ignore
// keep/a.txt and the whitelist idiom "*" + "!*/" + "!*.go" re-includes every
// file; and its "**" does not backtrack ("**/a/b" misses a/x/a/b). Git's
// syntax maps onto doublestar almost one to one, so only line parsing is
// ours.

// ignoreFrame holds the rules of one directory's ignore files.
type ignoreFrame struct {
	dir   string // slash path of the directory, "" for the root
	rules []rule
}

// rule is one parsed ignore-file line.
type rule struct {
	pattern  string // doublestar pattern
	negate   bool   // "!pattern" re-includes
	dirOnly  bool   // "pattern/" matches directories only
	anchored bool   // contained a "/": matched against the path below the frame's dir, not the name
}

// ignored reports whether rel (whose base name is name) is ignored by
// frames, the ignore files of its ancestors, outermost first. Git's rule:
// the last matching pattern wins, and deeper ignore files come after
// shallower ones.
func ignored(frames []ignoreFrame, rel, name string, isDir bool) bool {
	for i := len(frames) - 1; i >= 0; i-- {
		f := &frames[i]
		sub := rel
		if f.dir != "" {
			sub = rel[len(f.dir)+1:]
		}
		for j := len(f.rules) - 1; j >= 0; j-- {
			r := &f.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			target := name
			if r.anchored {
				target = sub
			}
			if doublestar.MatchUnvalidated(r.pattern, target) {
				return !r.negate
			}
		}
	}
	return false
}

// maxIgnoreFile bounds what is read of one ignore file: the largest real
// .gitignore files are some KB; the rules past 4 MiB are not read.
const maxIgnoreFile = 4 << 20

// readIgnoreFile parses a gitignore-syntax file, and stamps the file it
// read (the zero stamp if none). A missing or unreadable file has no
// rules: an ignore file must never make a walk fail. It is opened
// without following a link and without blocking (a FIFO the walk listed
// as a file a moment ago has no rules, it does not hang). The stamp is
// taken before the reading, so that a change after it changes the stamp.
func readIgnoreFile(name string) ([]rule, stamp) {
	f, err := store.OpenLeaf(name)
	if err != nil {
		return nil, stamp{}
	}
	defer f.Close()
	st := fileStamp(f)
	var rules []rule
	sc := bufio.NewScanner(io.LimitReader(f, maxIgnoreFile))
	for sc.Scan() {
		if r, ok := parseRule(sc.Text()); ok {
			rules = append(rules, r)
		}
	}
	return rules, st
}

// parseRule turns one gitignore line into a rule; ok is false for blank
// lines, comments and patterns that cannot match anything.
func parseRule(line string) (r rule, ok bool) {
	line = strings.TrimSuffix(line, "\r") // CRLF files from Windows checkouts
	if line == "" || line[0] == '#' {
		return r, false
	}
	// Trailing spaces are dropped unless escaped with a backslash.
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		end--
	}
	if end > 0 && end < len(line) && line[end-1] == '\\' {
		end++
	}
	p := line[:end]
	if strings.HasPrefix(p, "!") {
		r.negate, p = true, p[1:]
	}
	if s, ok := strings.CutSuffix(p, "/"); ok {
		r.dirOnly, p = true, s
	}
	if strings.Contains(p, "/") {
		r.anchored = true
		p = strings.TrimPrefix(p, "/")
		// Git's "dir/**" matches everything inside dir but not dir itself,
		// so "!dir/keep" can still re-include; doublestar's matches dir too.
		if s, ok := strings.CutSuffix(p, "/**"); ok {
			p = s + "/*/**"
		}
	}
	p = escapeBraces(p)
	if p == "" || !doublestar.ValidatePattern(p) {
		return r, false
	}
	r.pattern = p
	return r, true
}

// escapeBraces makes "{" and "}" literal: they are doublestar alternation
// but plain characters in gitignore.
func escapeBraces(p string) string {
	if !strings.ContainsAny(p, "{}") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			b.WriteByte(c)
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		case '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
