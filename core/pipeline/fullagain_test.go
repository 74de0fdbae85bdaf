package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// fullAgain is the ranker "rank.fullagain" of these tests: it takes no
// incremental corpus (core.ErrFullIndexNeeded), and counts the import
// and reference edges of each full corpus it is given.
type fullAgain struct {
	mu      sync.Mutex
	imports []int
	refs    []int
}

var fullAgainRanker = &fullAgain{}

func init() {
	core.Register("rank.fullagain", core.KindRanker, func() core.Stage { return fullAgainRanker })
}

func (f *fullAgain) Info() core.Info {
	return core.Info{Name: "rank.fullagain", Kind: core.KindRanker, Version: "1"}
}

func (f *fullAgain) Configure(context.Context, core.Setup) error { return nil }

func (f *fullAgain) Index(_ context.Context, c *core.Corpus) error {
	if !c.Full {
		return core.ErrFullIndexNeeded
	}
	imports, refs := 0, 0
	for e := range c.EachEdge() {
		switch e.Kind {
		case core.EdgeImports:
			imports++
		case core.EdgeReferences:
			refs++
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.imports, f.refs = append(f.imports, imports), append(f.refs, refs)
	return nil
}

func (f *fullAgain) Rank(context.Context, core.Query) ([]core.Hit, error) { return nil, nil }

// A ranker that asks for the full corpus after an incremental one gets
// the import and the reference edges in it, as a full run's rankers do:
// the run has kept the imports numbered and let the references go by
// then, and reads both again for it.
func TestFullCorpusAfterIncrementalHasImports(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"app/main.py":     "from app import store\nfrom app import util\n\ndef run():\n    store.save(util.clean(1))\n",
		"app/store.py":    "from app import util\n\ndef save(x):\n    return util.clean(x)\n",
		"app/util.py":     "def clean(x):\n    return x\n",
		"app/__init__.py": "",
	}
	for p, s := range rubitest.Callers { // Go files that call each other
		files[p] = s
	}
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte("ranker \"rank.fullagain\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fullAgainRanker.mu.Lock()
	fullAgainRanker.imports, fullAgainRanker.refs = nil, nil
	fullAgainRanker.mu.Unlock()
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{rubitest.GoCalls{}}})
	if !hasStage(e.cfg, "rank.fullagain") {
		t.Fatal("rubi.hcl's ranker is not among the stages")
	}
	ctx := context.Background()
	if _, err := e.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "app", "util.py"), []byte("def clean(x):\n    return x + 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := e.Index(ctx, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fullAgainRanker.mu.Lock()
	imports, refs := slices.Clone(fullAgainRanker.imports), slices.Clone(fullAgainRanker.refs)
	fullAgainRanker.mu.Unlock()
	if len(imports) != 2 || imports[0] == 0 || imports[1] != imports[0] {
		t.Errorf("import edges in the full corpora: %v (rankers %v); want the first run's count twice", imports, st.Rankers)
	}
	if len(refs) != 2 || refs[0] == 0 || refs[1] != refs[0] {
		t.Errorf("reference edges in the full corpora: %v (references %+v); want the first run's count twice", refs, st.References)
	}
}

// hasStage reports whether cfg holds an enabled stage named name.
func hasStage(cfg *config.Config, name string) bool {
	for _, st := range cfg.Stages {
		if st.Name == name && st.Enabled {
			return true
		}
	}
	return false
}
