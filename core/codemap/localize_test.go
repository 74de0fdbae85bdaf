package codemap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/messages"
)

// richMap has every phrase the renderers write: the root module, a list
// cut short, files grouped by module, tests, modules left out.
func richMap() *Map {
	var exported []string
	for i := range 14 {
		exported = append(exported, fmt.Sprintf("F%d", i))
	}
	files := []*File{
		{Path: "lib/db.go", Language: "go", Module: "lib", Rank: 0.4, Doc: "Package lib talks to the database.", Exported: exported},
		{Path: "lib/db_test.go", Language: "go", Module: "lib", Rank: 0.1},
		{Path: "app/server.go", Language: "go", Module: "app", Rank: 0.2, Exported: []string{"Serve"}},
		{Path: "app/routes.go", Language: "go", Module: "app", Rank: 0.2},
		{Path: "main.go", Language: "go", Module: ".", Rank: 0.1},
	}
	edges := []core.Edge{
		{From: "file:app/server.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:app/routes.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:main.go", To: "file:app/server.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:main.go", To: "file:app/routes.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:lib/db_test.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
	}
	for i := range 5 {
		p := fmt.Sprintf("tool%d/main.go", i)
		files = append(files, &File{Path: p, Language: "go", Module: fmt.Sprintf("tool%d", i), Rank: 0.01})
		edges = append(edges, core.Edge{From: "file:" + p, To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1})
	}
	return Build(files, edges)
}

// The English phrases of the maps, none of which a translated map keeps.
var englishPhrases = []string{"# Map of", "# Module ", " files in ", "Languages:", "Central files:", "most central first", "used by", "depends on", " more", "Open a module", "exports:", "imports:", "imported by:", "Tests:", "(root)", " files)", "1 file", " modules"}

func TestLocalize(t *testing.T) {
	m := richMap()
	summary := "A shop backend. Central files: the user's words, kept."
	pages := []string{m.Level0("shop", 1000, summary), m.Level0("shop", 120, "")}
	for _, mod := range m.Modules {
		pages = append(pages, m.Level1(mod, ""))
	}
	for _, page := range pages {
		if got := Localize(page, summary, messages.English); got != page {
			t.Errorf("English changed the map:\n%s", got)
		}
		for _, l := range messages.Langs[1:] {
			got := strings.Replace(Localize(page, summary, l), summary, "", 1)
			for _, en := range englishPhrases {
				if strings.Contains(got, en) && (l != messages.French || en != " modules" && en != "# Module ") {
					t.Errorf("%s keeps %q:\n%s\nfrom\n%s", l, en, got, page)
				}
			}
			if strings.Count(got, "\n") != strings.Count(page, "\n") {
				t.Errorf("%s: %d lines, the map has %d", l, strings.Count(got, "\n"), strings.Count(page, "\n"))
			}
		}
	}
	fr := Localize(pages[0], summary, messages.French)
	for _, want := range []string{"# Carte de shop\n\n" + summary + "\n\n", "10 fichiers dans 8 modules. Langages : go 10.\n", "\n## Modules, les plus centraux d'abord\n", "- `. (racine)` (1) main.go\n", "utilisé par app, tool0, tool1 et 3 de plus\n", "Ouvrez un module avec `rubi map MODULE`"} {
		if !strings.Contains(fr, want) {
			t.Errorf("French map lacks %q:\n%s", want, fr)
		}
	}
	lib, _ := m.Module("lib")
	ja := Localize(m.Level1(lib, ""), "", messages.Japanese)
	for _, want := range []string{"# モジュール lib\n", "2ファイル · 使用元: app, tool0, tool1, tool2", "  - エクスポート: F0, ", " ほか2件\n", "\nテスト: `db_test.go`\n"} {
		if !strings.Contains(ja, want) {
			t.Errorf("Japanese page lacks %q:\n%s", want, ja)
		}
	}
	app, _ := m.Module("app")
	if pt := Localize(m.Level1(app, ""), "", messages.Portuguese); !strings.Contains(pt, "depende de lib") || !strings.Contains(pt, "  - importado por: main.go\n") {
		t.Errorf("Portuguese page:\n%s", pt)
	}
}
