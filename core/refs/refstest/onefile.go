package refstest

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// oneFile is a project of one file held in memory.
type oneFile struct {
	facts core.FileFacts
	src   []byte
}

func (m *oneFile) Files(lang string) []string {
	if lang != m.facts.Language {
		return nil
	}
	return []string{m.facts.Path}
}
func (m *oneFile) Facts(f string) (core.FileFacts, bool) { return m.facts, f == m.facts.Path }
func (m *oneFile) Imports(string) []string               { return nil }
func (m *oneFile) Importers(string) []string             { return nil }
func (m *oneFile) Read(f string) ([]byte, error) {
	if f != m.facts.Path {
		return nil, fs.ErrNotExist
	}
	return m.src, nil
}

// CheckOne is the property every resolver's fuzz target checks: src,
// parsed by parse as the one file path of language lang, is resolved by
// r without a panic or an error, and every reference points into the
// file (a line and a column it has) at a definition its facts hold.
func CheckOne(t *testing.T, r refs.Resolver, parse Parse, lang, path string, src []byte) {
	t.Helper()
	facts, err := parse(context.Background(), []core.SourceFile{{Path: path, Language: lang, Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Refs(context.Background(), &oneFile{facts: facts[0], src: src}, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	keys := map[string]bool{}
	for _, s := range facts[0].Symbols {
		keys[s.Parent+"."+s.Name] = true
	}
	for _, ref := range got[path] {
		name := ref.Name
		if !strings.Contains(name, ".") {
			name = "." + name
		}
		if ref.Path != path || !keys[name] || ref.Line < 1 || ref.Line > len(lines) || ref.Col < 1 || ref.Col > len(lines[ref.Line-1]) {
			t.Errorf("reference %+v out of the file or to no definition", ref)
		}
	}
}
