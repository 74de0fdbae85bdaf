package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/bench/internal/sets/setstest"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/pipeline"
)

func TestProjectTreeSync(t *testing.T) {
	repo, commits := setstest.GitFixture(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "project")
	tree, err := sets.NewTree(ctx, repo, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()

	st, err := tree.Sync(ctx, commits[0])
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 4 || st.Written != 4 || st.Deleted != 0 || st.Links != 1 || st.Unsafe != 1 {
		t.Errorf("first sync: %+v", st)
	}
	if got := setstest.ReadTree(t, dir); len(got) != 4 || got["thing"] == "" || got["gone.txt"] == "" {
		t.Errorf("first tree: %v", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "link.py")); err == nil {
		t.Error("the symbolic link was materialized")
	}

	// rubi indexes the first tree, then follows the sync incrementally.
	h := &harness{logger: hclog.NewNullLogger()}
	eng, err := h.engine(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	beforeBeta, err := os.Stat(filepath.Join(dir, "pkg/beta.py"))
	if err != nil {
		t.Fatal(err)
	}

	st, err = tree.Sync(ctx, commits[1])
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 4 || st.Written != 4 || st.Deleted != 2 || st.Missing != 1 {
		t.Errorf("second sync: %+v", st)
	}
	want := map[string]string{
		"pkg/alpha.py":     "def alpha():\n    return 'aardvark'\n\ndef extra():\n    return 'porcupine'\n",
		"pkg/beta.py":      "def beta():\n    return 'zeppelin'\n",
		"pkg/new.py":       "class Fresh:\n    pass\n",
		"thing/inside.txt": "now a directory\n",
	}
	if got := setstest.ReadTree(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("second tree:\n got %v\nwant %v", got, want)
	}
	afterBeta, err := os.Stat(filepath.Join(dir, "pkg/beta.py"))
	if err != nil {
		t.Fatal(err)
	}
	if afterBeta.Size() != beforeBeta.Size() || !afterBeta.ModTime().After(beforeBeta.ModTime()) {
		t.Errorf("beta.py: size %d → %d, mtime %v → %v; want the same size, a later time", beforeBeta.Size(), afterBeta.Size(), beforeBeta.ModTime(), afterBeta.ModTime())
	}

	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	g, err := eng.Graph()
	if err != nil {
		t.Fatal(err)
	}
	var indexed []string
	for _, f := range g.Files {
		indexed = append(indexed, f.Path)
	}
	slices.Sort(indexed)
	if want := []string{"pkg/alpha.py", "pkg/beta.py", "pkg/new.py", "thing/inside.txt"}; !slices.Equal(indexed, want) {
		t.Errorf("indexed %v, want %v", indexed, want)
	}
	// The rewritten files are searched by their new content, the one of
	// the same size too.
	for word, file := range map[string]string{"zeppelin": "pkg/beta.py", "porcupine": "pkg/alpha.py"} {
		res, err := eng.Retrieve(ctx, answer.Query{Text: word, Kinds: []string{core.DocFile}, Limit: 5, Budget: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].Path != file {
			t.Errorf("%q found %v, want %s first", word, res.Items, file)
		}
	}
	res, err := eng.Retrieve(ctx, answer.Query{Text: "bbbbbbbb", Kinds: []string{core.DocFile}, Limit: 5, Budget: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) > 0 && res.Items[0].Path == "pkg/beta.py" {
		t.Error("beta.py is still found by its old content")
	}
}
