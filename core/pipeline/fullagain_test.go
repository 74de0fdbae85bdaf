package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/plugins/lang-regex"
)

// fullAgain is the ranker "rank.fullagain" of these tests: it takes no
// incremental corpus (core.ErrFullIndexNeeded), and counts the import
// edges of each full corpus it is given.
type fullAgain struct {
	mu      sync.Mutex
	imports []int
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
	n := 0
	for _, e := range c.Edges {
		if e.Kind == core.EdgeImports {
			n++
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.imports = append(f.imports, n)
	return nil
}

func (f *fullAgain) Rank(context.Context, core.Query) ([]core.Hit, error) { return nil, nil }

// A ranker that asks for the full corpus after an incremental one gets
// the import edges in it, as a full run's rankers do: the run has kept
// them numbered by then, and decodes them again for it.
func TestFullCorpusAfterIncrementalHasImports(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"app/main.py":     "from app import store\nfrom app import util\n\ndef run():\n    store.save(util.clean(1))\n",
		"app/store.py":    "from app import util\n\ndef save(x):\n    return util.clean(x)\n",
		"app/util.py":     "def clean(x):\n    return x\n",
		"app/__init__.py": "",
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
	fullAgainRanker.imports = nil
	fullAgainRanker.mu.Unlock()
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments})
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
	got := append([]int(nil), fullAgainRanker.imports...)
	fullAgainRanker.mu.Unlock()
	if len(got) != 2 || got[0] == 0 || got[1] != got[0] {
		t.Errorf("import edges in the full corpora: %v (rankers %v); want the first run's count twice", got, st.Rankers)
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
