package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notesindex"
)

// The lookups of a no-change run by path order find what the maps find:
// the removed paths, and each file's last record, asked in order, out of
// order, or absent.
func TestInOrderLookups(t *testing.T) {
	if got, want := missing([]string{"a", "b/c", "b/d", "e", "z"}, []string{"a0", "b/d", "e", "f"}), []string{"a", "b/c", "z"}; !slices.Equal(got, want) {
		t.Errorf("missing = %q, want %q", got, want)
	}
	if got := missing(nil, []string{"a"}); got != nil {
		t.Errorf("missing from nothing = %q", got)
	}

	dir := t.TempDir()
	m := manifest.New()
	paths := []string{"a.go", "b/c.go", "b/d.go", "e.md"}
	for _, p := range paths {
		m.Records()[p] = &manifest.Record{Path: p, Language: "go"}
	}
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, whole := range []bool{true, false} {
		prev, err := manifest.Load(dir, whole, false)
		if err != nil {
			t.Fatal(err)
		}
		if (prev.ReadInOrder() != nil) != whole {
			t.Fatalf("whole %v: records in order %v", whole, prev.ReadInOrder() != nil)
		}
		lookup := recordsInOrder(prev)
		for _, p := range []string{"0.go", "a.go", "b/d.go", "b/c.go", "b/e.go", "e.md", "a.go", "z"} {
			got, want := lookup(p), prev.Records()[p]
			if got != want {
				t.Errorf("whole %v: %q gives %v, the map %v", whole, p, got, want)
			}
		}
	}
}

// IndexOptions.Working is called once by a run with files to read or an
// index to build, and never by a run that finds nothing changed.
func TestIndexWorking(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	calls := 0
	run := func() *IndexStats {
		t.Helper()
		stats, err := e.Index(context.Background(), IndexOptions{Working: func() { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		return stats
	}
	if run(); calls != 1 {
		t.Errorf("the first index: Working called %d times, want once", calls)
	}
	calls = 0
	if stats := run(); calls != 0 || stats.Parsed != 0 {
		t.Errorf("nothing changed: Working called %d times (%d parsed), want never", calls, stats.Parsed)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "internal", "discount", "rules.go"), later, later); err != nil {
		t.Fatal(err)
	}
	if stats := run(); calls != 1 || stats.Parsed != 0 {
		t.Errorf("a file touched: Working called %d times (%d parsed), want once, nothing parsed", calls, stats.Parsed)
	}
	calls = 0
	edit(t, root, "internal/discount/rules.go", "", "\n// An edit.\n")
	if stats := run(); calls != 1 || stats.Parsed != 1 {
		t.Errorf("a file edited: Working called %d times (%d parsed), want once", calls, stats.Parsed)
	}
}

// A refresh that finds the notes' folders as the last run left them,
// settled since, writes no new notes' stamp: a hook's check of the folders
// answers the same by the one in place. One whose folders changed writes
// it again.
func TestNoChangeRefreshKeepsTheNotesStamp(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	settled := time.Now().Add(-time.Hour)
	dirs := append(e.nodes.Dirs(), e.chunks.Dir())
	for _, d := range dirs {
		os.MkdirAll(d, 0o755)
		if err := os.Chtimes(d, settled, settled); err != nil {
			t.Fatal(err)
		}
	}
	stampFile := filepath.Join(root, ".rubi", "index", notesindex.StampFile)
	stamp := func() os.FileInfo {
		t.Helper()
		fi, err := os.Lstat(stampFile)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	index(t, e) // the folders' times moved: a new stamp
	before := stamp()
	if e.notes.MayHaveChanged() {
		t.Fatal("the notes may have changed right after an index run")
	}
	for range 2 {
		index(t, e)
		if after := stamp(); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Fatal("a refresh that found nothing changed wrote the notes' stamp again")
		}
	}
	if e.notes.MayHaveChanged() {
		t.Error("the notes may have changed by the stamp kept")
	}
	later := time.Now().Add(-time.Minute)
	if err := os.Chtimes(dirs[0], later, later); err != nil {
		t.Fatal(err)
	}
	if !e.notes.MayHaveChanged() {
		t.Error("a notes' folder changed, and the stamp kept does not say so")
	}
	index(t, e)
	if os.SameFile(before, stamp()) {
		t.Error("a refresh after a notes' folder changed kept the old stamp")
	}
}
