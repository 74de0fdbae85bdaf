package codemap

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The maps as an Obsidian vault: .rubi/ opens as one, and its graph view
// shows the modules, the files the notes name, the notes and their ties.
// map.md and each module page end with a links section of wiki-links
// (LinksMarker, then "## Links"): the map to every module, a module to
// the map, the modules it depends on and is used by, the pages of its
// files that notes name, and those notes. A note's own links name files
// bare ([[core/host/host.go]], core/knowledge); each file a note names
// gets a page, files/<path>.md, which such a link reaches by Obsidian's
// rule for a link with a folder (the page whose path ends with it, the
// shortest first) and which links its module's page and the notes. The
// links section is for Obsidian alone: rubi map, the MCP map tool and
// the session start read the pages without it (WithoutLinks). All of it
// is sorted, so an index that changes nothing rewrites nothing.

// LinksMarker starts the links section of the map and the module pages.
const LinksMarker = "<!-- rubi: links for Obsidian's graph view, left out of rubi map and the agents' context -->"

// FilesDir is the folder of the file pages, under .rubi/.
const FilesDir = "files"

// WithoutLinks is a map or module page without its links section.
func WithoutLinks(text string) string {
	// The section starts with a blank line, which goes with it.
	if i := strings.LastIndex(text, "\n"+LinksMarker+"\n"); i >= 0 {
		return text[:i]
	}
	return text
}

// FilePage is the vault path, without .md, of the page of a project
// file: files/<path>. ok is false for a path no wiki-link can reach: one
// with a part Obsidian hides (starting with '.'), a character that ends
// or splits a link (# ^ [ ] |) or that Obsidian refuses in a file name
// (\ : * " < > ?), a control or format character, or not UTF-8.
func FilePage(p string) (string, bool) {
	if p == "" || !utf8.ValidString(p) {
		return "", false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	for _, r := range p {
		if strings.ContainsRune("#^[]|\\:*\"<>?", r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return "", false
		}
	}
	return FilesDir + "/" + p, true
}

// ModulePage is the vault path, without .md, of a module's page.
func ModulePage(module string) string { return "modules/" + Slug(module) }

// wikiLink links page, shown as alias when the alias can be one.
func wikiLink(page, alias string) string {
	if alias == "" || alias == page || strings.ContainsAny(alias, "[]|#^\n\r") || !utf8.ValidString(alias) {
		return "[[" + page + "]]"
	}
	return "[[" + page + "|" + alias + "]]"
}

// NoteRef is a note as the vault links it: its page (vault-relative,
// without .md) and the project files it names.
type NoteRef struct {
	Page  string
	Files []string
}

// MapLinks is the links section of map.md: every module's page.
func (m *Map) MapLinks() string {
	names := make([]string, 0, len(m.Modules))
	for _, mod := range m.Modules {
		names = append(names, mod.Name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("\n" + LinksMarker + "\n## Links\n\n")
	for _, name := range names {
		b.WriteString("- module " + wikiLink(ModulePage(name), name) + "\n")
	}
	return b.String()
}

// MaxNoteFiles is how many of a note's files, the first, the vault
// gives pages and links; MaxMissingPages how many pages, in all, it
// gives files the index does not hold. A repository's note may name
// thousands: the vault stays the size of the project.
const (
	MaxNoteFiles    = 100
	MaxMissingPages = 1000
)

// Vault is what the notes add to the maps: the file pages (vault path
// with .md → content) and each module's links section.
type Vault struct {
	Files   map[string]string
	Modules map[string]string
}

// Vault renders the file pages of the files the notes name and the
// modules' links sections. A file the index no longer holds keeps a page
// while a note names it, which says so.
func (m *Map) Vault(notes []NoteRef) *Vault {
	v := &Vault{Files: map[string]string{}, Modules: map[string]string{}}
	byFile := map[string][]string{}   // a file → the notes naming it
	byModule := map[string][]string{} // a module → the notes naming its files
	pages := map[string][]string{}    // a module → its files with a page
	for _, n := range notes {
		for _, f := range n.Files[:min(len(n.Files), MaxNoteFiles)] {
			byFile[f] = append(byFile[f], n.Page)
			if file, ok := m.Files[f]; ok {
				byModule[file.Module] = append(byModule[file.Module], n.Page)
			}
		}
	}
	// The files the index does not hold get pages up to a bound, the
	// first by path: a repository's notes may name any number of them.
	var missing []string
	for f := range byFile {
		if _, ok := m.Files[f]; !ok {
			missing = append(missing, f)
		}
	}
	sort.Strings(missing)
	for _, f := range missing[min(len(missing), MaxMissingPages):] {
		delete(byFile, f)
	}
	for f, ns := range byFile {
		page, ok := FilePage(f)
		if !ok {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", f)
		if file, ok := m.Files[f]; ok {
			fmt.Fprintf(&b, "A file of module %s", wikiLink(ModulePage(file.Module), file.Module))
			if file.Language != "" {
				fmt.Fprintf(&b, ", in %s", file.Language)
			}
			b.WriteString(".\n")
			pages[file.Module] = append(pages[file.Module], f)
		} else {
			b.WriteString("Not in the index: moved, deleted or left out since the notes named it.\n")
		}
		b.WriteString("\n## Notes\n\n")
		for _, n := range sortedSet(ns) {
			b.WriteString("- " + wikiLink(n, "") + "\n")
		}
		v.Files[page+".md"] = b.String()
	}
	for _, mod := range m.Modules {
		var b strings.Builder
		b.WriteString("\n" + LinksMarker + "\n## Links\n\n- map [[map]]\n")
		for _, d := range sortedSet(mod.DependsOn) {
			b.WriteString("- depends-on " + wikiLink(ModulePage(d), d) + "\n")
		}
		for _, u := range sortedSet(mod.UsedBy) {
			b.WriteString("- used-by " + wikiLink(ModulePage(u), u) + "\n")
		}
		for _, f := range sortedSet(pages[mod.Name]) {
			page, _ := FilePage(f)
			b.WriteString("- file " + wikiLink(page, f) + "\n")
		}
		for _, n := range sortedSet(byModule[mod.Name]) {
			b.WriteString("- note " + wikiLink(n, "") + "\n")
		}
		v.Modules[mod.Name] = b.String()
	}
	return v
}

// sortedSet is s sorted, each once.
func sortedSet(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	k := 0
	for i, x := range out {
		if i == 0 || x != out[k-1] {
			out[k] = x
			k++
		}
	}
	return out[:k]
}

// notePage is the vault page of a note file at rel (slash-separated,
// relative to .rubi/), "" when it is not a markdown file.
func NotePage(rel string) string {
	p, ok := strings.CutSuffix(path.Clean(rel), ".md")
	if !ok || p == "" || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}
