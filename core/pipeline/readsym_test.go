package pipeline

import (
	"testing"

	"github.com/rubi-dev/rubi/core/manifest"
)

// What a qualifier names, as docs/cli.md says: the parent (its last name
// first), a run of the module's names (folders, the file's name but in
// Go, the Go package's name), or both.
func TestSymbolQualifiers(t *testing.T) {
	goRec := &manifest.Record{Path: "plugins/rank-names/rank.go", Language: "go", Package: "names"}
	pyRec := &manifest.Record{Path: "src/flask/helpers.py", Language: "python"}
	initRec := &manifest.Record{Path: "django/db/__init__.py", Language: "python"}
	method := Definition{Path: "src/flask/app.py", Name: "url_for", Parent: "Flask"}
	for _, c := range []struct {
		target string
		d      Definition
		rec    *manifest.Record
		want   int
	}{
		{"names.New", Definition{Path: goRec.Path, Name: "New"}, goRec, 1},
		{"rank-names.New", Definition{Path: goRec.Path, Name: "New"}, goRec, 1},
		{"plugins/rank-names.New", Definition{Path: goRec.Path, Name: "New"}, goRec, 1},
		{"rank.New", Definition{Path: goRec.Path, Name: "New"}, goRec, 0}, // a Go file's name is no module
		{"names.Ranker.Rank", Definition{Path: goRec.Path, Name: "Rank", Parent: "Ranker"}, goRec, 2},
		{"(*Ranker).Rank", Definition{Path: goRec.Path, Name: "Rank", Parent: "Ranker"}, goRec, 2},
		{"Index.Rank", Definition{Path: goRec.Path, Name: "Rank", Parent: "Ranker"}, goRec, 0},
		{"flask.url_for", Definition{Path: pyRec.Path, Name: "url_for"}, pyRec, 1},
		{"flask.helpers.url_for", Definition{Path: pyRec.Path, Name: "url_for"}, pyRec, 1},
		{"helpers.url_for", Definition{Path: pyRec.Path, Name: "url_for"}, pyRec, 1},
		{"Flask.url_for", Definition{Path: pyRec.Path, Name: "url_for"}, pyRec, 0},
		{"Flask.url_for", method, &manifest.Record{Path: method.Path, Language: "python"}, 2},
		{"flask.app.Flask.url_for", method, &manifest.Record{Path: method.Path, Language: "python"}, 2},
		{"helpers.Flask.url_for", method, &manifest.Record{Path: method.Path, Language: "python"}, 0},
		{"db.connection", Definition{Path: initRec.Path, Name: "connection"}, initRec, 1},
		{"__init__.connection", Definition{Path: initRec.Path, Name: "connection"}, initRec, 0},
	} {
		q, ok := parseSymbol(c.target, func(string) bool { return false })
		if !ok {
			t.Errorf("%s: not a symbol", c.target)
			continue
		}
		if got := qualifies(q.quals, &c.d, c.rec); got != c.want {
			t.Errorf("%s on %s %s: %d, want %d", c.target, c.d.Path, c.d.Qualified(), got, c.want)
		}
	}
	for _, notSymbol := range []string{"Coupon applied twice", "store/store.go:4-5", "", "a..b", "Type."} {
		if ParseSymbol(notSymbol) {
			t.Errorf("%q reads as a symbol", notSymbol)
		}
	}
}
