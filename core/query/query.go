// Package query reads a question before it is ranked: what it asks for
// (code, docs or tests) and what it names — file paths from tracebacks
// and locations, dotted names, identifiers in backticks and code blocks,
// CamelCase and snake_case names, exception names. Bug reports run to
// thousands of words of prose, logs and stack traces; their few telling
// words are what this package pulls out, each with the reason it counts.
//
// Analyze gives the intent (code, the default and every bug report; docs
// for "how do I install / configure / document"; tests), whether the
// question reads as a bug report (long, a traceback, a code block or log
// output), and its mentions, each with a weight: traceback frames
// (File "x/y.py", line 12, in f; the last frame strongest), path:line
// locations and file names, identifiers in backticks and code blocks,
// dotted names, CamelCase and snake_case names, exception names. Links
// and environment version lists (numpy: 1.19.1) leave the text the
// rankers read: they hold words no answer should be found by.
//
// Every query of every hook goes through here, so identifiers, dotted
// names and paths are scanned by hand, and the few regular expressions
// compile on first use, each only for a question that holds what it looks
// for.
package query

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Intents: what a question asks for.
const (
	// IntentCode is the default: a bug report, a stack trace, "where is
	// X", "how does X work".
	IntentCode = "code"
	// IntentDocs is a question about using the project: installing,
	// configuring, documenting.
	IntentDocs = "docs"
	// IntentTests asks for tests.
	IntentTests = "tests"
)

// Mention kinds.
const (
	KindPath  = "path"  // a file path: "requests/models.py"
	KindName  = "name"  // an identifier: "Session.send", "load_plugin"
	KindError = "error" // an exception or error type: "KeyError"
)

// Mention is something the question names.
type Mention struct {
	// Text is as written, trimmed: "src/_pytest/python.py",
	// "PreparedRequest.prepare_body", "ValueError".
	Text string
	Kind string
	// Line is the line a path mention points at, 0 when none.
	Line int
	// Func is the function a traceback frame was in.
	Func string
	// Weight says how strong the evidence is, in (0, 1]: a traceback's
	// last frame is 1, a name in backticks 0.9, a name in prose less.
	Weight float64
	// Why is the reason as an answer shows it: "in the traceback".
	Why string
}

// Analysis is what Analyze found.
type Analysis struct {
	Intent string
	// Report says the question reads as a bug report: long, or holding a
	// traceback, a code block or log output.
	Report bool
	// Text is the question as rankers should read it: without links and
	// without the lists of installed versions reports paste (`numpy:
	// 1.19.1`, `pandas==1.1.0`), whose package names match the project's
	// version-printing helpers and nothing the report is about.
	Text     string
	Mentions []Mention
	// Title is a report's first line when it reads as one (a short line
	// of prose): an issue's title says in a few words what the rest
	// tells at length.
	Title string
	// Uses are the names whose callers or users the question asks for
	// ("what calls Estimate", "where is `Session.send` used"; uses.go):
	// it wants the code that references them.
	Uses []string
}

// maxMentions bounds what one question yields, so a 5 MB paste costs
// what a long report does.
const maxMentions = 200

// maxScan bounds how much of a question is read.
const maxScan = 256 << 10

// The regular expressions compile on first use, and each runs only on a
// question that holds what it looks for: compiling them all took a
// fresh `rubi context` 1.3 ms, and identifiers, dotted names and paths
// are scanned by hand.
var (
	urlRE   = lazyRE(`\b(?:https?|ftp)://[^\s<>"'\x60)\]]+`)
	frameRE = lazyRE(`File "([^"\n]{1,400})", line (\d{1,7})(?:, in ([A-Za-z_<][\w<>.]*))?`)
	// ipyFrameRE is a frame of an IPython or Jupyter traceback: "PATH in
	// FUNC(ARGS)" (the line is the "---->" marker below it), or, from
	// IPython 8, "File PATH:LINE, in FUNC(ARGS)".
	ipyFrameRE = lazyRE(`(?m)^[ \t]*(?:File )?([^\s"'<>]{1,400}\.pyx?)(?::(\d{1,7}))?,? in ([A-Za-z_][\w.]*)\(`)
	// ipyMarkerRE is the line marker of an IPython frame: "----> 61".
	ipyMarkerRE = lazyRE(`(?m)^-*> ?[ \t]*(\d{1,7})`)
	backtickRE  = lazyRE("`([^`\n]{1,200})`")
	fenceRE     = lazyRE("(?s)```[^\n]*\n(.*?)(?:```|$)")
)

func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// codeExts are the extensions a location mention may have.
const codeExts = `py|pyi|pyx|go|js|jsx|mjs|cjs|ts|tsx|mts|rs|java|kt|kts|rb|php|c|h|cc|cpp|cxx|hpp|hh|cs|swift|scala|dart|vue|svelte|css|scss|less|sh|sql|lua|ex|exs|erl|hs|ml|clj|proto|tf|hcl|toml|yaml|yml|json|ini|cfg|md|rst|txt|html|jinja|j2`

// Analyze reads a question.
func Analyze(text string) Analysis {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	a := Analysis{Intent: intent(text)}
	if strings.Contains(text, "://") {
		text = urlRE().ReplaceAllString(text, " ")
	}
	text = dropVersionLists(text)
	a.Text = text
	seen := map[string]int{} // kind + text → index in Mentions
	add := func(m Mention) {
		if len(a.Mentions) >= maxMentions || m.Text == "" {
			return
		}
		key := m.Kind + "\x00" + m.Text
		if i, ok := seen[key]; ok {
			prev := &a.Mentions[i]
			if m.Weight > prev.Weight {
				prev.Weight, prev.Why = m.Weight, m.Why
			}
			if prev.Line == 0 {
				prev.Line = m.Line
			}
			if prev.Func == "" {
				prev.Func = m.Func
			}
			return
		}
		seen[key] = len(a.Mentions)
		a.Mentions = append(a.Mentions, m)
	}

	// Traceback frames: the last frames are nearest the fault.
	var frames [][]string
	if strings.Contains(text, `File "`) {
		frames = frameRE().FindAllStringSubmatch(text, -1)
	}
	if len(frames) == 0 && strings.Contains(text, " in ") && strings.Contains(text, ".py") {
		frames = ipythonFrames(text)
	}
	for i, f := range frames {
		line, _ := strconv.Atoi(f[2])
		w := 0.6 + 0.4*float64(i+1)/float64(len(frames))
		add(Mention{Text: f[1], Kind: KindPath, Line: line, Func: f[3], Weight: w, Why: "in the traceback"})
		if fn := f[3]; fn != "" && !strings.HasPrefix(fn, "<") {
			add(Mention{Text: fn, Kind: KindName, Weight: 0.7 * w, Why: "a function in the traceback"})
		}
	}
	if len(frames) > 0 {
		a.Report = true
	}
	// Paths and locations anywhere else: x/y.py, path/to/x.go:123.
	for _, loc := range locations(text) {
		p, line := loc.path, loc.line
		w, why := 0.8, "a file named in the question"
		if line > 0 {
			w, why = 0.9, "a location in the question"
		}
		if !strings.Contains(p, "/") {
			w -= 0.2 // a bare name may be many files
		}
		add(Mention{Text: p, Kind: KindPath, Line: line, Weight: w, Why: why})
	}

	// Code: fenced blocks, then backticks, then the prose.
	var prose strings.Builder
	rest := text
	var fences [][]int
	if strings.Contains(text, "```") {
		fences = fenceRE().FindAllStringSubmatchIndex(text, -1)
	}
	for _, loc := range fences {
		a.Report = true
		block := text[loc[2]:loc[3]]
		names(block, 0.6, "in a code block", add)
		prose.WriteString(rest[:loc[0]-(len(text)-len(rest))])
		rest = text[loc[1]:]
	}
	prose.WriteString(rest)
	body := prose.String()
	if strings.Contains(body, "`") {
		for _, m := range backtickRE().FindAllStringSubmatch(body, -1) {
			names(m[1], 0.9, "in backticks", add)
		}
	}
	lines := strings.Split(body, "\n")
	for _, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, ">>>") || strings.HasPrefix(t, "$ ") || strings.HasPrefix(line, "    ") && t != "" || strings.HasPrefix(line, "\t"):
			// An interpreter session, a shell line, an indented block.
			a.Report = true
			names(t, 0.5, "in a code sample", add)
		default:
			proseNames(line, add)
		}
	}
	if len(strings.Fields(text)) > 60 {
		a.Report = true
	}
	if a.Report {
		a.Title = title(text)
		// A report asks for the code at fault, whatever words it uses
		// ("the docs say", "in my tests").
		a.Intent = IntentCode
	} else {
		a.Uses = uses(text)
	}
	return a
}

// ipythonFrames reads the frames of IPython tracebacks as frameRE's
// submatches (path, line, function); the line of an IPython 7 frame is
// its "---->" marker's, before the next frame.
func ipythonFrames(text string) [][]string {
	locs := ipyFrameRE().FindAllStringSubmatchIndex(text, -1)
	out := make([][]string, 0, len(locs))
	for i, l := range locs {
		f := []string{text[l[0]:l[1]], text[l[2]:l[3]], "", text[l[6]:l[7]]}
		if l[4] >= 0 {
			f[2] = text[l[4]:l[5]]
		} else {
			end := len(text)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			if m := ipyMarkerRE().FindStringSubmatch(text[l[1]:end]); m != nil {
				f[2] = m[1]
			}
		}
		out = append(out, f)
	}
	return out
}

// versionLineRE matches a line of an environment report: a name, then a
// version or None.
var versionLineRE = lazyRE(`^\s*[-*]?\s*[A-Za-z][\w.\-]{0,40}\s*(?::|==|>=|<=|~=|=)\s*(?:v?\d+(?:\.\d+)+\S*|None|not installed|installed)\s*(?:\(.*\))?\s*$`)

// minVersionLines is how many version lines make a list to drop.
const minVersionLines = 3

// dropVersionLists blanks the lines of environment reports when there
// are enough of them to be one.
func dropVersionLists(text string) string {
	if strings.Count(text, "\n") < minVersionLines {
		return text
	}
	lines := strings.Split(text, "\n")
	var hit []int
	for i, l := range lines {
		if len(l) < 120 && strings.ContainsAny(l, ":=") && versionLineRE().MatchString(l) {
			hit = append(hit, i)
		}
	}
	if len(hit) < minVersionLines {
		return text
	}
	for _, i := range hit {
		lines[i] = ""
	}
	return strings.Join(lines, "\n")
}

// names adds the identifiers of a piece of code: dotted names whole and
// by their last parts, exception names, and identifiers that read as
// names (CamelCase, snake_case, or longer than a short word).
func names(code string, w float64, why string, add func(Mention)) {
	for _, d := range dottedNames(code) {
		if isVersionOrFile(d) {
			continue
		}
		add(Mention{Text: d, Kind: KindName, Weight: w, Why: why})
		parts := strings.Split(d, ".")
		last := parts[len(parts)-1]
		if len(parts) >= 2 {
			// Class.method, as expected spans and reasons name them.
			add(Mention{Text: parts[len(parts)-2] + "." + last, Kind: KindName, Weight: w, Why: why})
		}
		add(Mention{Text: last, Kind: KindName, Weight: 0.9 * w, Why: why})
	}
	for _, id := range identifiers(code) {
		switch {
		case isErrorName(id):
			add(Mention{Text: id, Kind: KindError, Weight: w, Why: why})
		case readsAsName(id) || len(id) >= 4 && !commonWords[strings.ToLower(id)]:
			add(Mention{Text: id, Kind: KindName, Weight: 0.8 * w, Why: why})
		}
	}
}

// proseNames adds from a line of prose only what is written as a name:
// dotted names, CamelCase, snake_case, exception names.
func proseNames(line string, add func(Mention)) {
	for _, d := range dottedNames(line) {
		if isVersionOrFile(d) || !strings.ContainsFunc(d, func(r rune) bool { return r == '_' || unicode.IsUpper(r) }) && strings.Count(d, ".") < 2 {
			// "e.g", "i.e" and the end of one sentence and the start of
			// the next ("fails.Then") are not names.
			continue
		}
		add(Mention{Text: d, Kind: KindName, Weight: 0.7, Why: "named in the question"})
		parts := strings.Split(d, ".")
		add(Mention{Text: parts[len(parts)-1], Kind: KindName, Weight: 0.6, Why: "named in the question"})
	}
	for i, id := range identifiers(line) {
		switch {
		case isErrorName(id):
			add(Mention{Text: id, Kind: KindError, Weight: 0.8, Why: "an error named in the question"})
		case readsAsName(id) && !(i == 0 && isCapitalized(id)):
			add(Mention{Text: id, Kind: KindName, Weight: 0.6, Why: "named in the question"})
		}
	}
}

// readsAsName reports identifiers no one writes as prose: snake_case,
// camelCase or CamelCase with an inner capital, dunder names.
func readsAsName(id string) bool {
	if len(id) < 3 {
		return false
	}
	if strings.Contains(strings.Trim(id, "_"), "_") || strings.HasPrefix(id, "__") {
		return true
	}
	inner := false
	lower := false
	for i, r := range id {
		if unicode.IsLower(r) {
			lower = true
		}
		if i > 0 && unicode.IsUpper(r) && lower {
			inner = true
		}
	}
	return inner
}

func isCapitalized(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// isVersionOrFile reports dotted words that are not names: versions
// (v1.2.3 has no letters past the first part), file names with a known
// extension, abbreviations.
func isVersionOrFile(d string) bool {
	parts := strings.Split(d, ".")
	last := strings.ToLower(parts[len(parts)-1])
	if slices.Contains(strings.Split(codeExts, "|"), last) {
		return true
	}
	for _, p := range parts[1:] {
		if strings.IndexFunc(p, unicode.IsLetter) >= 0 {
			return len(parts) == 2 && len(parts[0]) <= 2 && len(parts[1]) <= 2 // "e.g", "i.e"
		}
	}
	return true
}

// commonWords are words of code samples that name nothing of a project.
var commonWords = map[string]bool{
	"self": true, "none": true, "true": true, "false": true, "null": true, "return": true, "import": true,
	"from": true, "class": true, "with": true, "print": true, "elif": true, "else": true, "then": true,
	"func": true, "function": true, "const": true, "type": true, "struct": true, "async": true,
	"await": true, "yield": true, "lambda": true, "pass": true, "raise": true, "assert": true,
	"while": true, "break": true, "continue": true, "this": true, "that": true, "what": true,
	"when": true, "where": true, "which": true, "there": true, "their": true, "have": true, "will": true,
	"would": true, "should": true, "could": true, "does": true, "using": true, "line": true, "file": true,
	"most": true, "recent": true, "call": true, "last": true, "traceback": true, "error": true,
	"value": true, "args": true, "kwargs": true, "python": true, "pip": true, "install": true,
	"version": true, "test": true, "tests": true, "expected": true, "actual": true, "output": true,
	"result": true, "results": true, "example": true, "data": true, "name": true, "list": true,
	"dict": true, "str": true, "int": true, "float": true, "bool": true, "bytes": true, "object": true,
	"range": true, "len": true, "open": true, "main": true, "string": true, "number": true,
}

// docsWords ask about using the project rather than about its code.
var docsWords = map[string]bool{
	"document": true, "documentation": true, "documented": true, "docs": true, "doc": true,
	"readme": true, "install": true, "installation": true, "installing": true, "installed": true,
	"tutorial": true, "guide": true, "changelog": true, "configure": true, "configuring": true,
	"configuration": true, "setup": true, "usage": true, "quickstart": true, "license": true,
	"contributing": true, "release": true, "releases": true, "docstring": false,
}

// testWords ask for tests.
var testWords = map[string]bool{
	"test": true, "tests": true, "testing": true, "spec": true, "specs": true, "fixture": true,
	"fixtures": true, "testdata": true, "benchmark": true, "benchmarks": true, "mock": true, "mocks": true,
}

// AsksForTests reports words that ask for tests, as an agent's extra
// terms may.
func AsksForTests(s string) bool { return intent(s) == IntentTests }

// intent reads what a short question asks for; Analyze turns a report
// into a question about code whatever words it uses.
func intent(text string) string {
	docs, tests := false, false
	n := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		n++
		if n > 60 {
			break
		}
		w = strings.ToLower(w)
		docs = docs || docsWords[w]
		tests = tests || testWords[w]
	}
	switch {
	case tests:
		return IntentTests
	case docs:
		return IntentDocs
	}
	return IntentCode
}

// isWord reports the bytes of identifiers: ASCII letters, digits, '_'.
func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isWordStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// identifiers returns the identifiers of s ([A-Za-z_][A-Za-z0-9_]*, not
// inside a longer word), in order.
func identifiers(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isWordStart(s[i]) || i > 0 && isWord(s[i-1]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isWord(s[j]) {
			j++
		}
		if j == len(s) || s[j] < 0x80 { // not the start of a longer non-ASCII word
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// dottedNames returns the chains of identifiers joined by dots
// (pkg.mod.Class.meth) in s.
func dottedNames(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isWordStart(s[i]) || i > 0 && isWord(s[i-1]) {
			i++
			continue
		}
		j, parts := i, 0
		for {
			k := j + 1
			for k < len(s) && isWord(s[k]) {
				k++
			}
			parts++
			j = k
			if j+1 < len(s) && s[j] == '.' && isWordStart(s[j+1]) {
				j++
				continue
			}
			break
		}
		if parts >= 2 {
			out = append(out, s[i:j])
		}
		i = j
	}
	return out
}

// isErrorName reports names of exception and error types: capitalized,
// ending in Error, Exception, Warning and the like.
func isErrorName(id string) bool {
	if id == "" || id[0] < 'A' || id[0] > 'Z' {
		return false
	}
	for _, suf := range []string{"Error", "Exception", "Warning", "Exit", "Interrupt", "Fault", "Failure"} {
		if strings.HasSuffix(id, suf) {
			return true
		}
	}
	return false
}

// location is a path written in a question, with the line after it.
type location struct {
	path string
	line int
}

// isPathByte reports the bytes a written path is made of.
func isPathByte(c byte) bool {
	return isWord(c) || c == '.' || c == '/' || c == '@' || c == '+' || c == '-'
}

// codeExtSet holds codeExts.
var codeExtSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Split(codeExts, "|") {
		m[e] = true
	}
	return m
})

// locations returns the file paths of s: a run of path bytes, after the
// start, a space, a bracket, a quote or '=', that ends in a known
// extension; with the line of a following ":123".
func locations(s string) []location {
	var out []location
	exts := codeExtSet()
	for i := 0; i < len(s); {
		if !isPathByte(s[i]) {
			i++
			continue
		}
		start := i
		for i < len(s) && isPathByte(s[i]) {
			i++
		}
		if start > 0 && !strings.ContainsRune(" \t\n\r('\"`[=", rune(s[start-1])) {
			continue
		}
		p := strings.TrimRight(s[start:i], ".-")
		p = strings.TrimLeft(p, ".")
		dot := strings.LastIndexByte(p, '.')
		if dot <= 0 || !exts[p[dot+1:]] || strings.HasSuffix(p[:dot], "/") {
			continue
		}
		loc := location{path: p}
		if end := start + len(s[start:i]) - len(strings.TrimLeft(s[start:i], ".")) + len(p); end < len(s) && s[end] == ':' {
			k := end + 1
			for k < len(s) && k-end <= 7 && '0' <= s[k] && s[k] <= '9' {
				k++
			}
			if k > end+1 && (k == len(s) || !isWord(s[k])) {
				loc.line, _ = strconv.Atoi(s[end+1 : k])
			}
		}
		out = append(out, loc)
	}
	return out
}

// maxTitle is the longest first line taken for a report's title.
const maxTitle = 200

// title is the first non-blank line of a report when it is short prose:
// not a code fence, a quote or an interpreter line.
func title(text string) string {
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if len(t) > maxTitle || strings.HasPrefix(t, "```") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "$ ") {
			return ""
		}
		return t
	}
	return ""
}

// CleanPath turns a path as a question writes it into a slash path
// relative to some root: backslashes become slashes, a drive letter,
// "./" and leading slashes go; "" when nothing is left.
func CleanPath(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if len(p) > 2 && p[1] == ':' && p[2] == '/' {
		p = p[3:]
	}
	p = path.Clean("/" + p)[1:]
	if p == "" || p == "." {
		return ""
	}
	return p
}
