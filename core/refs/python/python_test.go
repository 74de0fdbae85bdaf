package python_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/python"
	"github.com/rubi-dev/rubi/core/resolve"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// dirProject is a refs.Project over a folder: facts from the regex
// parser, imports from core/resolve, as an index run would give them.
type dirProject struct {
	root      string
	files     []string
	src       map[string][]byte
	facts     map[string]core.FileFacts
	imports   map[string][]string
	importers map[string][]string
}

func loadProject(t testing.TB, root string) *dirProject {
	t.Helper()
	p := &dirProject{root: root, src: map[string][]byte{}, facts: map[string]core.FileFacts{}, imports: map[string][]string{}, importers: map[string][]string{}}
	var srcs []core.SourceFile
	err := filepath.WalkDir(root, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && f != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || core.DetectLanguage(f) != core.LangPython {
			return nil
		}
		rel, _ := filepath.Rel(root, f)
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		p.src[rel] = b
		srcs = append(srcs, core.SourceFile{Path: rel, Language: core.LangPython, Content: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := regex.New().Parse(context.Background(), srcs)
	if err != nil {
		t.Fatal(err)
	}
	for _, ff := range facts {
		p.files = append(p.files, ff.Path)
		p.facts[ff.Path] = ff
	}
	sort.Strings(p.files)
	rp, err := resolve.NewProject(root, p.files)
	if err != nil {
		t.Fatal(err)
	}
	for _, ff := range facts {
		for _, imp := range ff.Imports {
			ts, _ := rp.Resolve(ff.Path, ff.Language, imp)
			for _, to := range ts {
				if to != ff.Path && !slices.Contains(p.imports[ff.Path], to) {
					p.imports[ff.Path] = append(p.imports[ff.Path], to)
					p.importers[to] = append(p.importers[to], ff.Path)
				}
			}
		}
	}
	return p
}

func (p *dirProject) Files(lang string) []string {
	if lang != core.LangPython {
		return nil
	}
	return p.files
}
func (p *dirProject) Facts(f string) (core.FileFacts, bool) { ff, ok := p.facts[f]; return ff, ok }
func (p *dirProject) Imports(f string) []string             { return p.imports[f] }
func (p *dirProject) Importers(f string) []string           { return p.importers[f] }
func (p *dirProject) Read(f string) ([]byte, error) {
	if b, ok := p.src[f]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

var refLabel = regexp.MustCompile(`# @ref (.*)$`)

// labels reads the hand-written expected references of a fixture: each
// `# @ref PATH::NAME ...` comment names the definitions its line uses,
// one entry per use.
func labels(t *testing.T, p *dirProject) map[string]int {
	t.Helper()
	want := map[string]int{}
	for _, f := range p.files {
		b, err := p.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := refLabel.FindStringSubmatch(line); m != nil {
				for _, target := range strings.Fields(m[1]) {
					want[fmt.Sprintf("%s:%d %s", f, i+1, target)]++
				}
			}
		}
	}
	return want
}

func resolveAll(t *testing.T, p *dirProject) map[string][]refs.Ref {
	t.Helper()
	got, err := python.New(regex.MaskCode).Refs(context.Background(), p, p.files)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The fixture's references are labelled by hand, decoys included (a
// same-named method of another class in the same module and in others,
// a name shadowed locally, aliases, names in strings and comments, an
// untyped parameter's method): every reference found is a labelled one,
// and the labelled ones the resolver cannot tell (a type only inference
// would give, a quoted union) are the only ones missed.
func TestFixturePrecisionRecall(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	want := labels(t, p)
	got := map[string]int{}
	for f, rs := range resolveAll(t, p) {
		for _, r := range rs {
			got[fmt.Sprintf("%s:%d %s::%s", f, r.Line, r.Path, r.Name)]++
		}
	}
	tp, nGot, nWant := 0, 0, 0
	for k, n := range got {
		nGot += n
		tp += min(n, want[k])
		if n > want[k] {
			t.Errorf("not a reference: %s", k)
		}
	}
	var missed []string
	for k, n := range want {
		nWant += n
		if n > got[k] {
			missed = append(missed, k)
		}
	}
	sort.Strings(missed)
	precision, recall := float64(tp)/float64(nGot), float64(tp)/float64(nWant)
	t.Logf("precision %.3f (%d/%d), recall %.3f (%d/%d); missed:\n%s", precision, tp, nGot, recall, tp, nWant, strings.Join(missed, "\n"))
	if precision != 1 {
		t.Errorf("precision %.3f, want 1", precision)
	}
	if recall < minRecall {
		t.Errorf("recall %.3f, want at least %.2f", recall, minRecall)
	}
}

// minRecall is the fixture's recall: what it misses needs inference
// rubi does not do (a list's element type, an unannotated function's
// return) or a quoted union.
const minRecall = 0.90

// BenchmarkRefs resolves every Python file of the tree RUBI_REFS_TREE
// names (a real project: django for the cost an index run pays), or of
// the fixture, from a cold start each time; the files are in memory, as
// the index has them.
func BenchmarkRefs(b *testing.B) {
	root := os.Getenv("RUBI_REFS_TREE")
	if root == "" {
		root = "testdata/shop"
	}
	p := loadProject(b, root)
	r := python.New(regex.MaskCode)
	n := 0
	for b.Loop() {
		got, err := r.Refs(context.Background(), p, p.files)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, rs := range got {
			n += len(rs)
		}
	}
	b.ReportMetric(float64(len(p.files)), "files")
	b.ReportMetric(float64(n), "refs")
}
