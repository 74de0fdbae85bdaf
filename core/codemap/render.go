package codemap

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// Level0 renders the project map within budget tokens: the curated summary
// (if any), the languages, the most central files, then the modules, most
// central first, each with its file count, central files and neighbours,
// for as many modules as the budget holds.
func (m *Map) Level0(project string, budget int, summary string) string {
	var head strings.Builder
	fmt.Fprintf(&head, "# Map of %s\n\n", project)
	if s := strings.TrimSpace(text.EscapeLines(summary)); s != "" {
		head.WriteString(s + "\n\n")
	}
	fmt.Fprintf(&head, "%s in %s. %s\n", count(len(m.Files), "file"), count(len(m.Modules), "module"), m.languages())
	if central := m.centralCode(5); len(central) > 0 && central[0].Rank > 0 {
		names := make([]string, len(central))
		for i, f := range central {
			names[i] = "`" + text.Escape(f.Path) + "`"
		}
		fmt.Fprintf(&head, "Central files: %s.\n", strings.Join(names, ", "))
	}
	head.WriteString("\n## Modules, most central first\n")
	const closing = "Open a module with `rubi map MODULE` (or .rubi/modules/); search with `rubi context`.\n"
	out := head.String()
	// Room for the closing lines, "N modules more." included.
	used := tokens.Estimate(out) + tokens.Estimate("\n9999 modules more. "+closing)
	shown := 0
	for _, mod := range m.Modules {
		line := moduleLine(mod)
		if used+tokens.Estimate(line) > budget {
			break
		}
		out += line
		used += tokens.Estimate(line)
		shown++
	}
	if rest := len(m.Modules) - shown; rest > 0 {
		out += fmt.Sprintf("\n%s more. ", count(rest, "module"))
	} else {
		out += "\n"
	}
	return out + closing
}

func moduleLine(mod *Module) string {
	var b strings.Builder
	name := mod.Name
	if name == "." {
		name = ". (root)"
	}
	fmt.Fprintf(&b, "- `%s` (%d)", text.Escape(name), len(mod.Files))
	var central []string
	for _, f := range mod.Files {
		if len(central) == 3 {
			break
		}
		if !IsTest(f.Path) {
			central = append(central, text.Escape(path.Base(f.Path)))
		}
	}
	if len(central) > 0 {
		b.WriteString(" " + strings.Join(central, ", "))
	}
	if len(mod.UsedBy) > 0 {
		fmt.Fprintf(&b, " · used by %s", list(mod.UsedBy, 3))
	}
	b.WriteByte('\n')
	return b.String()
}

// Level1 renders a module's page: the curated summary, its neighbours, and
// every file with its description, exports and imports in and out.
func (m *Map) Level1(mod *Module, summary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Module %s\n\n", text.Escape(mod.Name))
	if s := strings.TrimSpace(text.EscapeLines(summary)); s != "" {
		b.WriteString(s + "\n\n")
	}
	fmt.Fprintf(&b, "%s", count(len(mod.Files), "file"))
	if len(mod.DependsOn) > 0 {
		fmt.Fprintf(&b, " · depends on %s", list(mod.DependsOn, 8))
	}
	if len(mod.UsedBy) > 0 {
		fmt.Fprintf(&b, " · used by %s", list(mod.UsedBy, 8))
	}
	b.WriteString("\n\n## Files, most central first\n")
	var tests []string
	for _, f := range mod.Files {
		if IsTest(f.Path) {
			tests = append(tests, "`"+text.Escape(path.Base(f.Path))+"`")
			continue
		}
		fmt.Fprintf(&b, "- `%s`", text.Escape(f.Path))
		if f.Doc != "" {
			b.WriteString(" — " + text.Escape(f.Doc))
		}
		b.WriteByte('\n')
		if len(f.Exported) > 0 {
			fmt.Fprintf(&b, "  - exports: %s\n", list(f.Exported, 12))
		}
		if len(f.ImportsOut) > 0 {
			fmt.Fprintf(&b, "  - imports: %s\n", list(m.grouped(f.ImportsOut, mod.Name), 8))
		}
		switch {
		case f.Referenced && len(f.UsedBy) > 0:
			fmt.Fprintf(&b, "  - used by: %s\n", list(m.grouped(f.UsedBy, mod.Name), 8))
		case len(f.ImportedBy) > 0 && !f.Referenced:
			fmt.Fprintf(&b, "  - imported by: %s\n", list(m.grouped(f.ImportedBy, mod.Name), 8))
		}
	}
	if len(tests) > 0 {
		fmt.Fprintf(&b, "\nTests: %s\n", list(tests, 20))
	}
	return b.String()
}

// grouped names files of the same module together: a file of this module
// by its name, one file of another module by its path, several as the
// module with a count ("core/config (2 files)"). Go imports a whole
// package at once; listing its files one by one says nothing more.
func (m *Map) grouped(paths []string, self string) []string {
	byMod := map[string][]string{}
	var order []string
	for _, p := range paths {
		mod := "?"
		if f, ok := m.Files[p]; ok {
			mod = f.Module
		}
		if _, seen := byMod[mod]; !seen {
			order = append(order, mod)
		}
		byMod[mod] = append(byMod[mod], p)
	}
	var out []string
	for _, mod := range order {
		files := byMod[mod]
		switch {
		case mod == self:
			for _, p := range files {
				out = append(out, path.Base(p))
			}
		case len(files) == 1:
			out = append(out, files[0])
		default:
			out = append(out, fmt.Sprintf("%s (%d files)", mod, len(files)))
		}
	}
	return out
}

// centralCode returns the n most central files that are not tests.
func (m *Map) centralCode(n int) []*File {
	var out []*File
	for _, f := range m.CentralFiles(len(m.Files)) {
		if len(out) == n {
			break
		}
		if !IsTest(f.Path) {
			out = append(out, f)
		}
	}
	return out
}

// languages summarizes the files' languages, most files first.
func (m *Map) languages() string {
	n := map[string]int{}
	for _, f := range m.Files {
		if f.Language != "" {
			n[f.Language]++
		}
	}
	if len(n) == 0 {
		return ""
	}
	langs := make([]string, 0, len(n))
	for l := range n {
		langs = append(langs, l)
	}
	sort.Slice(langs, func(i, j int) bool {
		if n[langs[i]] != n[langs[j]] {
			return n[langs[i]] > n[langs[j]]
		}
		return langs[i] < langs[j]
	})
	parts := make([]string, 0, 4)
	for i, l := range langs {
		if i == 4 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", l, n[l]))
	}
	return "Languages: " + strings.Join(parts, ", ") + "."
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// list joins up to max items and says how many more there are. The items
// are names the repository chose (files, modules, symbols): escaped, none
// can start a line of the map's own.
func list(items []string, max int) string {
	if len(items) <= max {
		return text.Escape(strings.Join(items, ", "))
	}
	return fmt.Sprintf("%s and %d more", text.Escape(strings.Join(items[:max], ", ")), len(items)-max)
}
