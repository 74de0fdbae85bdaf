package cli

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// vault is .rubi/ as Obsidian reads it: its markdown pages (vault-relative
// paths with .md) and the links between them.
type vault struct {
	pages      map[string]bool
	links      map[string][]string // a page → the pages its links reach
	unresolved []string            // "page: [[link]]"
}

var (
	wikiLinkRE   = regexp.MustCompile(`\[\[([^\[\]]+)\]\]`)
	fenceRE      = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpanRE   = regexp.MustCompile("`[^`\n]*`")
	frontmatterR = regexp.MustCompile(`(?s)\A---\n.*?\n---\n`)
)

// readVault reads dir as Obsidian does: files and folders whose name
// starts with '.' are hidden, and a link in code or the frontmatter is
// none. A link [[X]], [[X|alias]], [[X#heading]] resolves by Obsidian's
// rules: to the page at X or X.md from the vault's root; else to the
// pages whose path ends with /X or /X.md (a bare name is a file name),
// the shortest first. Two at the same length are ambiguous, which this
// counts as unresolved (Obsidian would pick one).
func readVault(t *testing.T, dir string) *vault {
	t.Helper()
	v := &vault{pages: map[string]bool{}, links: map[string][]string{}}
	texts := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		v.pages[filepath.ToSlash(rel)] = true
		texts[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range slices.Sorted(maps.Keys(texts)) {
		text := frontmatterR.ReplaceAllString(texts[page], "")
		text = codeSpanRE.ReplaceAllString(fenceRE.ReplaceAllString(text, ""), "")
		for _, m := range wikiLinkRE.FindAllStringSubmatch(text, -1) {
			target, _, _ := strings.Cut(m[1], "|")
			target, _, _ = strings.Cut(target, "#")
			if target == "" {
				continue // a heading of the page itself
			}
			if to := v.resolve(target); to != "" {
				v.links[page] = append(v.links[page], to)
			} else {
				v.unresolved = append(v.unresolved, page+": "+m[0])
			}
		}
	}
	return v
}

func (v *vault) resolve(target string) string {
	for _, p := range []string{target, target + ".md"} {
		if v.pages[p] {
			return p
		}
	}
	best, tie := "", false
	for p := range v.pages {
		if !strings.HasSuffix(p, "/"+target) && !strings.HasSuffix(p, "/"+target+".md") {
			continue
		}
		switch {
		case best == "" || len(p) < len(best):
			best, tie = p, false
		case len(p) == len(best):
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// unconnected lists the notes (pages under knowledge/) with no link to or
// from a module's page or a file's page: dots alone in the graph view.
func (v *vault) unconnected() []string {
	tied := map[string]bool{}
	for from, tos := range v.links {
		for _, to := range tos {
			if strings.HasPrefix(to, "modules/") || strings.HasPrefix(to, "files/") {
				tied[from] = true
			}
			if strings.HasPrefix(from, "modules/") || strings.HasPrefix(from, "files/") {
				tied[to] = true
			}
		}
	}
	var out []string
	for p := range v.pages {
		if strings.HasPrefix(p, "knowledge/") && !tied[p] {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// vaultPages is every page of the vault rubi generates, by path.
func vaultPages(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, sub := range []string{"map.md", "modules", "files"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				out[rel] = string(data)
			}
			return nil
		})
	}
	return out
}

// .rubi/ opens in Obsidian as a graph: notes name files, each such file
// has a page linking its module, the map links every module, a module
// links its neighbours, files and notes; no link is left unresolved and
// no note alone. An index that changes nothing rewrites nothing, and rubi
// map shows none of the links.
func TestObsidianVaultLinksResolve(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"--type", "gotcha", "--title", "Open needs a DSN", "--file", "store/store.go", "--body", "Open fails without one."},
		{"--type", "decision", "--title", "Orders render client side", "--file", "web/handlers/order.js", "--file", "web/api.js", "--link", "about:gotcha-open-needs-a-dsn"},
		{"--type", "note", "--title", "The old loader", "--file", "store/loader.go", "--body", "Gone since the migration."},
	} {
		if code, _, errOut := runRubi(t, append([]string{"register", "--root", root}, args...)...); code != 0 {
			t.Fatal(errOut)
		}
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	dir := filepath.Join(root, ".rubi")
	v := readVault(t, dir)
	if len(v.unresolved) > 0 {
		t.Errorf("unresolved links:\n%s", strings.Join(v.unresolved, "\n"))
	}
	if u := v.unconnected(); len(u) > 0 {
		t.Errorf("notes tied to no module or file page: %q", u)
	}
	for _, want := range []string{"files/store/store.go.md", "files/web/api.js.md", "files/store/loader.go.md", "modules/store.md", "map.md"} {
		if !v.pages[want] {
			t.Errorf("no page %s; pages: %v", want, slices.Sorted(maps.Keys(v.pages)))
		}
	}
	// The notes' own bare links reach the file pages.
	if got := v.links["knowledge/gotcha-open-needs-a-dsn.md"]; !slices.Contains(got, "files/store/store.go.md") {
		t.Errorf("the note links %q", got)
	}
	if got := v.links["files/store/store.go.md"]; !slices.Equal(got, []string{"modules/store.md", "knowledge/gotcha-open-needs-a-dsn.md"}) {
		t.Errorf("the file page links %q", got)
	}
	if got := v.links["map.md"]; !slices.Contains(got, "modules/store.md") || !slices.Contains(got, "modules/web-handlers.md") {
		t.Errorf("the map links %q", got)
	}
	if got := v.links["modules/store.md"]; !slices.Contains(got, "files/store/store.go.md") || !slices.Contains(got, "knowledge/gotcha-open-needs-a-dsn.md") || !slices.Contains(got, "modules/root.md") {
		t.Errorf("the module page links %q", got)
	}

	// No churn: a full index writes the same pages, byte for byte.
	before := vaultPages(t, dir)
	if code, _, errOut := runRubi(t, "index", "--root", root, "--full"); code != 0 {
		t.Fatal(errOut)
	}
	after := vaultPages(t, dir)
	for _, p := range slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, bool) bool) {
		for k := range before {
			yield(k, true)
		}
		for k := range after {
			yield(k, true)
		}
	}))) {
		if before[p] != after[p] {
			t.Errorf("a second index changed %s:\n%s\n----\n%s", p, before[p], after[p])
		}
	}
	// rubi map and a module's page show no link.
	for _, args := range [][]string{{"map"}, {"map", "store"}} {
		_, out, _ := runRubi(t, append(args, "--root", root, "--no-refresh")...)
		if strings.Contains(out, "[[") || strings.Contains(out, "Obsidian") || out == "" {
			t.Errorf("%v shows the links:\n%s", args, out)
		}
	}
	// A note deleted takes its file page along.
	if err := os.Remove(filepath.Join(dir, "knowledge", "note-the-old-loader.md")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "files/store/loader.go.md")); !os.IsNotExist(err) {
		t.Errorf("the page of a file no note names is left: %v", err)
	}
	if v := readVault(t, dir); len(v.unresolved) > 0 {
		t.Errorf("unresolved links after a delete:\n%s", strings.Join(v.unresolved, "\n"))
	}
}

// rubi's own notes, in a copy with the files they name: every link
// resolves (a file in a folder Obsidian hides, such as .ci/, is named as
// code, not linked), and every note is tied to a module or file page.
func TestObsidianVaultOfRubisOwnNotes(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	notes, err := filepath.Glob(filepath.Join(repo, ".rubi", "knowledge", "*.md"))
	if err != nil || len(notes) < 100 {
		t.Fatalf("rubi's notes: %d, %v", len(notes), err)
	}
	files := map[string]string{"go.mod": "module github.com/rubi-dev/rubi\n\ngo 1.22\n"}
	fileLink := regexp.MustCompile(`(?m)^- [a-z-]+ \[\[([^\]]+)\]\]$`)
	for _, n := range notes {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[".rubi/knowledge/"+filepath.Base(n)] = string(data)
		// One links section, the one each write makes: a section the
		// reader did not know as its own stays in the body and gains
		// another at every write.
		if c := strings.Count(string(data), "\n## Links\n"); c > 1 {
			t.Errorf("%s has %d links sections", filepath.Base(n), c)
		}
		for _, m := range fileLink.FindAllStringSubmatch(string(data), -1) {
			if b, err := os.ReadFile(filepath.Join(repo, m[1])); err == nil && filepath.IsLocal(m[1]) {
				files[m[1]] = string(b)
			}
		}
	}
	root := rubitest.Project(t, files)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	v := readVault(t, filepath.Join(root, ".rubi"))
	for _, u := range v.unresolved {
		t.Errorf("unresolved: %s", u)
	}
	if u := v.unconnected(); len(u) > 0 {
		t.Errorf("notes tied to no module or file page: %q", u)
	}
}

// The vault follows the notes without costing a recall the project's
// size: a note registered is on its file's page as soon as register
// returns; a note moved to another file outside rubi (a git pull) is
// brought into the index by the next prompt's hook, which leaves the
// pages to the next index run, and that run, though no code changed,
// writes them; the pages are then those a full index writes, byte for
// byte, and stay so when the record of the last write is damaged.
func TestObsidianVaultFollowsTheNotes(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	dir := filepath.Join(root, ".rubi")
	page := func(p string) string {
		data, _ := os.ReadFile(filepath.Join(dir, p))
		return string(data)
	}
	note := "knowledge/gotcha-open-needs-a-dsn.md"
	if code, _, errOut := runRubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Open needs a DSN",
		"--file", "store/store.go", "--body", "Open fails without one."); code != 0 {
		t.Fatal(errOut)
	}
	if got := page("files/store/store.go.md"); !strings.Contains(got, "[[knowledge/gotcha-open-needs-a-dsn]]") {
		t.Fatalf("register left the file's page without the note: %q", got)
	}

	// Outside rubi, the note moves to another file (its files line and
	// its links section).
	text := page(note)
	moved := strings.ReplaceAll(text, "store/store.go", "store/migrate.go")
	if !strings.Contains(text, "files: [store/store.go]") {
		t.Fatalf("the note's files line is not as expected:\n%s", text)
	}
	if err := os.WriteFile(filepath.Join(dir, note), []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":%q,"prompt":"why does Open need a DSN?"}`, root)
	if code, _, errOut := runRubiIn(t, payload, "hook", "UserPromptSubmit"); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "files/store/migrate.go.md")); !os.IsNotExist(err) {
		t.Errorf("the recall wrote the vault's pages (%v): a hook leaves them to the next index", err)
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	if got := page("files/store/migrate.go.md"); !strings.Contains(got, "[[knowledge/gotcha-open-needs-a-dsn]]") {
		t.Errorf("the index after the recall left the new file's page out: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "files/store/store.go.md")); !os.IsNotExist(err) {
		t.Errorf("the page of the file the note no longer names is left: %v", err)
	}
	if got := page("modules/store.md"); !strings.Contains(got, "- file [[files/store/migrate.go|store/migrate.go]]") || !strings.Contains(got, "- note [[knowledge/gotcha-open-needs-a-dsn]]") || strings.Contains(got, "files/store/store.go") {
		t.Errorf("the module's links do not follow the note:\n%s", got)
	}

	incremental := vaultPages(t, dir)
	if code, _, errOut := runRubi(t, "index", "--root", root, "--full"); code != 0 {
		t.Fatal(errOut)
	}
	full := vaultPages(t, dir)
	if !maps.Equal(incremental, full) {
		t.Errorf("the pages written step by step differ from a full index's:\n%v\n----\n%v", incremental, full)
	}

	// A damaged record of the last write: the next write compares every
	// page, and a note removed still takes its page along.
	sum := filepath.Join(dir, "index", "vault.sum")
	if err := os.WriteFile(sum, []byte("rubi-vault 0\nnot a line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runRubi(t, "forget", "--root", root, "gotcha-open-needs-a-dsn", "--hard"); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "files/store/migrate.go.md")); !os.IsNotExist(err) {
		t.Errorf("the page of a forgotten note's file is left: %v", err)
	}
	if got := page("modules/store.md"); strings.Contains(got, "gotcha-open-needs-a-dsn") {
		t.Errorf("the module page still links the forgotten note:\n%s", got)
	}
}
