package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
)

// Every file of the index, truncated or with a byte flipped, is repaired
// by the next plain index run (no --full): the ranker that owns it is
// rebuilt, and a query answers as before with no problem reported.
func TestEveryDamagedIndexFileIsRepaired(t *testing.T) {
	want := func(t *testing.T, e *Engine) []string {
		t.Helper()
		res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon applied twice"})
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, it := range res.Items {
			paths = append(paths, it.Path)
		}
		if len(res.Problems) > 0 {
			t.Errorf("problems: %q", res.Problems)
		}
		return paths
	}
	root := shop(t)
	index(t, engine(t, root))
	good := want(t, engine(t, root))
	files, err := filepath.Glob(filepath.Join(root, ".rubi", "index", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "symbols-*.jsonl"))
	files = append(files, syms...)
	var targets []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".written") {
			targets = append(targets, f)
		}
	}
	if len(targets) < 5 {
		t.Fatalf("the index has only %q", targets)
	}
	for _, damage := range []string{"truncated", "flipped"} {
		for _, target := range targets {
			rel, _ := filepath.Rel(root, target)
			t.Run(damage+" "+rel, func(t *testing.T) {
				root := shop(t)
				index(t, engine(t, root))
				f := filepath.Join(root, rel)
				if strings.HasPrefix(filepath.Base(rel), "symbols-") || strings.HasPrefix(filepath.Base(rel), "seg-") {
					// Named by generation: this run's own.
					m, _ := filepath.Glob(filepath.Join(root, filepath.Dir(rel), strings.SplitN(filepath.Base(rel), "-", 2)[0]+"-*"))
					for _, x := range m {
						if !strings.HasSuffix(x, ".written") {
							f = x
						}
					}
				}
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				switch damage {
				case "truncated":
					data = data[:len(data)/2]
				case "flipped":
					data[len(data)/2] ^= 0x5a
				}
				if err := os.WriteFile(f, data, 0o644); err != nil {
					t.Fatal(err)
				}
				// A query before the repair answers, and says what is
				// missing, or is unaffected.
				res, err := engine(t, root).Retrieve(context.Background(), answer.Query{Text: "coupon applied twice"})
				switch {
				case err != nil:
					t.Errorf("a query on the damaged index failed: %v", err)
				case len(res.Items) == 0:
					t.Error("a query on the damaged index found nothing")
				case damage == "truncated" && !strings.Contains(strings.Join(res.Problems, "\n"), "rubi index"):
					t.Errorf("a query on the damaged index does not say what to do: %q", res.Problems)
				}
				st := index(t, engine(t, root))
				if got := want(t, engine(t, root)); strings.Join(got, " ") != strings.Join(good, " ") {
					t.Errorf("after the repair (%v, warnings %q):\n got %v\nwant %v", st.Rankers, st.Warnings, got, good)
				}
			})
		}
	}
}

// A cloned repository's .rubi/index that is a link to a folder elsewhere:
// indexing refuses with a message naming it, and writes nothing there.
func TestNoIndexThroughALinkedFolder(t *testing.T) {
	root := shop(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".rubi"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, ".rubi", "index")); err != nil {
		t.Fatal(err)
	}
	_, err := engine(t, root).Index(context.Background(), IndexOptions{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, ".rubi", "index")) || !strings.Contains(err.Error(), "leads out of") {
		t.Errorf("index through a link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %v", entries)
	}
}
