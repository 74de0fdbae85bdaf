package core

import (
	"strings"
	"testing"
)

// A file handed to a parser without a language is read in the one its
// path names; a language given is kept, known or not.
func TestEmptyFacts(t *testing.T) {
	for _, c := range []struct{ path, lang, want string }{
		{"pkg/a.py", "", LangPython},
		{"a.py", "cobol", "cobol"},
		{"README", "", ""},
	} {
		ff := SourceFile{Path: c.path, Language: c.lang, Content: []byte("x")}.EmptyFacts()
		if ff.Path != c.path || ff.Language != c.want || ff.Imports != nil || ff.Symbols != nil || ff.Error != "" {
			t.Errorf("%s (%q): %+v, want language %q and nothing else", c.path, c.lang, ff, c.want)
		}
	}
}

// A panic in a parser costs the file's facts, not the process: Recover
// drops what was found and says why in Error; without a panic it changes
// nothing.
func TestFileFactsRecover(t *testing.T) {
	parse := func(fail bool) (ff FileFacts) {
		ff = FileFacts{Path: "a.go", Language: LangGo}
		defer ff.Recover("lang.test")
		ff.Imports = append(ff.Imports, Import{Spec: "fmt", Line: 1})
		ff.Symbols = append(ff.Symbols, Symbol{Name: "A", Line: 2})
		if fail {
			var s []int
			_ = s[len(ff.Symbols)] // out of range
		}
		return ff
	}
	if ff := parse(true); ff.Path != "a.go" || ff.Imports != nil || ff.Symbols != nil || !strings.HasPrefix(ff.Error, "lang.test: internal error: ") {
		t.Errorf("after a panic: %+v", ff)
	}
	if ff := parse(false); len(ff.Imports) != 1 || len(ff.Symbols) != 1 || ff.Error != "" {
		t.Errorf("without a panic: %+v", ff)
	}
}
