package codemap

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/core/messages"
	rubitext "github.com/rubi-dev/rubi/core/text"
)

// The fixed phrases of Level0 and Level1, as they render them.
var (
	countsLine  = regexp.MustCompile(`^(\d+) files? in (\d+) modules?\.(?: Languages: (.*)\.)?$`)
	moreLine    = regexp.MustCompile(`^(\d+) modules? more\. (.*)$`)
	filesCount  = regexp.MustCompile(`^(\d+) files?$`)
	listMore    = regexp.MustCompile(` and (\d+) more$`)
	groupCount  = regexp.MustCompile(` \((\d+) files\)`)
	closingLine = "Open a module with `rubi map MODULE` (or .rubi/modules/); search with `rubi context`."
)

// Localize writes the fixed phrases of a map that Level0 or Level1
// rendered in l: headings, labels, counts, the closing line. What the map
// is made of stays as it is: paths, module and symbol names, files'
// descriptions and the curated summary (the map's own, given here, which
// follows the heading). The stored maps (.rubi/map.md, .rubi/modules/)
// are English; `rubi map` prints them in the user's language.
func Localize(text, summary string, l messages.Lang) string {
	summary = rubitext.EscapeLines(summary) // as Level0 and Level1 wrote it
	if l == messages.English || text == "" {
		return text
	}
	first, rest, _ := strings.Cut(text, "\n")
	module := false
	switch {
	case strings.HasPrefix(first, "# Map of "):
		first = l.Format(messages.MapTitle, strings.TrimPrefix(first, "# Map of "))
	case strings.HasPrefix(first, "# Module "):
		first = l.Format(messages.MapModuleTitle, strings.TrimPrefix(first, "# Module "))
		module = true
	default:
		return text
	}
	var b strings.Builder
	b.WriteString(first + "\n")
	// The summary is the user's text: kept as written.
	if s := strings.TrimSpace(summary); s != "" && strings.HasPrefix(rest, "\n"+s+"\n\n") {
		b.WriteString("\n" + s + "\n")
		rest = strings.TrimPrefix(rest, "\n"+s+"\n")
	}
	lines := strings.SplitAfter(rest, "\n")
	for i, line := range lines {
		body, nl := strings.CutSuffix(line, "\n")
		if nl {
			lines[i] = localizeLine(body, module, l) + "\n"
		} else {
			lines[i] = localizeLine(body, module, l)
		}
	}
	b.WriteString(strings.Join(lines, ""))
	return b.String()
}

func localizeLine(line string, module bool, l messages.Lang) string {
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	switch {
	case line == "":
		return line
	case line == "## Modules, most central first":
		return l.Get(messages.MapModules)
	case line == "## Files, most central first":
		return l.Get(messages.MapFiles)
	case line == closingLine:
		return l.Get(messages.MapClosing)
	case strings.HasPrefix(line, "Central files: ") && strings.HasSuffix(line, "."):
		return l.Format(messages.MapCentral, strings.TrimSuffix(strings.TrimPrefix(line, "Central files: "), "."))
	case strings.HasPrefix(line, "Tests: "):
		return l.Format(messages.MapTests, localizeList(strings.TrimPrefix(line, "Tests: "), l))
	case strings.HasPrefix(line, "  - exports: "):
		return l.Format(messages.MapExports, localizeList(strings.TrimPrefix(line, "  - exports: "), l))
	case strings.HasPrefix(line, "  - imports: "):
		return l.Format(messages.MapImports, localizeList(strings.TrimPrefix(line, "  - imports: "), l))
	case strings.HasPrefix(line, "  - imported by: "):
		return l.Format(messages.MapImportedBy, localizeList(strings.TrimPrefix(line, "  - imported by: "), l))
	case strings.HasPrefix(line, "  - used by: "):
		return l.Format(messages.MapFileUsedBy, localizeList(strings.TrimPrefix(line, "  - used by: "), l))
	}
	if m := countsLine.FindStringSubmatch(line); m != nil && !module {
		out := l.Format(messages.MapCounts, l.Count(num(m[1]), messages.NounFile), l.Count(num(m[2]), messages.NounModule))
		if m[3] != "" {
			out += l.Format(messages.MapLanguages, m[3])
		}
		return out
	}
	if m := moreLine.FindStringSubmatch(line); m != nil && !module {
		return l.Format(messages.MapMore, l.Count(num(m[1]), messages.NounModule)) + " " + localizeLine(m[2], module, l)
	}
	// "N files · depends on … · used by …" (a module's page) and
	// "- `name` (N) a.go, b.go · used by …" (a module on the map).
	if module && !strings.HasPrefix(line, "- ") || !module && strings.HasPrefix(line, "- `") {
		parts := strings.Split(line, " · ")
		for i, p := range parts {
			switch {
			case i == 0 && module:
				if m := filesCount.FindStringSubmatch(p); m != nil {
					parts[i] = l.Count(num(m[1]), messages.NounFile)
				}
			case i == 0:
				parts[i] = strings.Replace(p, "`. (root)`", "`. ("+l.Get(messages.MapRoot)+")`", 1)
			case strings.HasPrefix(p, "used by "):
				parts[i] = l.Format(messages.MapUsedBy, localizeList(strings.TrimPrefix(p, "used by "), l))
			case strings.HasPrefix(p, "depends on "):
				parts[i] = l.Format(messages.MapDependsOn, localizeList(strings.TrimPrefix(p, "depends on "), l))
			}
		}
		return strings.Join(parts, " · ")
	}
	return line
}

// localizeList writes a list's "and N more" and its groups' "(N files)"
// in l.
func localizeList(s string, l messages.Lang) string {
	s = groupCount.ReplaceAllStringFunc(s, func(g string) string {
		n, _ := strconv.Atoi(groupCount.FindStringSubmatch(g)[1])
		return " (" + l.Count(n, messages.NounFile) + ")"
	})
	if m := listMore.FindStringSubmatchIndex(s); m != nil {
		n, _ := strconv.Atoi(s[m[2]:m[3]])
		s = l.Format(messages.MapListMore, s[:m[0]], n)
	}
	return s
}
