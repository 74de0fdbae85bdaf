package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/manifest"
)

// The heads of the documents' bodies read back the same from memory and
// from a spill, and a path without one has none.
func TestBodyHeadsSpilled(t *testing.T) {
	dir := t.TempDir()
	paths := []string{"a.go", "b/c.go", "b/d.go", "e.md", "f/g.py"}
	heads := []string{"package a\nA does a.\n", "", "package b\n", strings.Repeat("x", 5000), "g\n"}
	var files []*os.File
	fill := func(limit int) *bodyHeads {
		saved := headsInMemory
		headsInMemory = limit
		defer func() { headsInMemory = saved }()
		h := &bodyHeads{buf: spillBuffer{spill: func() (*os.File, error) {
			f, _, err := spillFile(dir)
			files = append(files, f)
			return f, err
		}}}
		for i, p := range paths {
			if err := h.add(p, heads[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.done(); err != nil {
			t.Fatal(err)
		}
		return h
	}
	inMemory, spilled := fill(1<<20), fill(10)
	if inMemory.buf.f != nil || spilled.buf.f == nil {
		t.Fatalf("spilled: %v in memory, %v past 10 bytes; want false, true", inMemory.buf.f != nil, spilled.buf.f != nil)
	}
	for i, p := range paths {
		for _, h := range []*bodyHeads{inMemory, spilled} {
			if got, ok := h.get(p); !ok || string(got) != heads[i] {
				t.Errorf("head of %s (spilled %v) = %q, %v; want %q", p, h.buf.f != nil, got, ok, heads[i])
			}
		}
	}
	for _, h := range []*bodyHeads{inMemory, spilled} {
		if _, ok := h.get("b/cc.go"); ok {
			t.Error("a path never added has a head")
		}
	}
	if err := spilled.add("a.go", "again"); err == nil {
		t.Error("a path out of order was taken")
	}
	for _, f := range files {
		f.Close()
	}
	if left, _ := filepath.Glob(filepath.Join(dir, spillPattern)); len(left) != 0 {
		t.Errorf("spills left in the folder: %v", left)
	}
}

// A full index whose heads go to a spill writes the same text index as
// one that keeps them in memory, and leaves no spill behind.
func TestSpilledHeadsIndexTheSame(t *testing.T) {
	segment := func(limit int) []byte {
		saved := headsInMemory
		headsInMemory = limit
		defer func() { headsInMemory = saved }()
		e := engine(t, shop(t))
		if _, err := e.Index(context.Background(), IndexOptions{Full: true}); err != nil {
			t.Fatal(err)
		}
		segs, _ := filepath.Glob(filepath.Join(e.folder.dir, "rank.bm25", "seg-*.bm25"))
		if len(segs) != 1 {
			t.Fatalf("%d segments, want 1", len(segs))
		}
		data, err := os.ReadFile(segs[0])
		if err != nil {
			t.Fatal(err)
		}
		if left, _ := filepath.Glob(filepath.Join(e.folder.dir, spillPattern)); len(left) != 0 {
			t.Errorf("spills left in the index folder: %v", left)
		}
		return data
	}
	kept, spilled := segment(1<<30), segment(0)
	if !bytes.Equal(kept, spilled) {
		t.Errorf("the text index differs when the heads are spilled (%d bytes against %d)", len(spilled), len(kept))
	}
}

// A full run keeps the files' imports and the import edges on disk from
// the references' step to the save (manifest.Spill); the manifest it
// leaves in hand, which the engine's next run builds on, holds them again:
// the same as the manifest written.
func TestAFullRunsManifestHoldsItsImportsAgain(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	e.folder.mu.Lock()
	inHand := e.folder.manifest
	e.folder.mu.Unlock()
	written, err := manifest.Load(e.folder.dir, false, false)
	if err != nil {
		t.Fatal(err)
	}
	imports := 0
	for _, p := range written.SortedPaths() {
		rec, ok := inHand.File(p)
		if !ok {
			t.Fatalf("%s: not in the manifest in hand", p)
		}
		want := written.Records()[p].DecodedImports()
		if got := rec.DecodedImports(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: imports %v in hand, %v written", p, got, want)
		}
		imports += len(want)
	}
	if imports == 0 {
		t.Fatal("the shop's files import nothing: the test shows nothing")
	}
	got, err := inHand.ImportEdges()
	if err != nil {
		t.Fatal(err)
	}
	want, err := written.ImportEdges()
	if err != nil || len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("edges: %d in hand, %d written (%v)", len(got), len(want), err)
	}
	if left, _ := filepath.Glob(filepath.Join(e.folder.dir, spillPattern)); len(left) != 0 {
		t.Errorf("spills left: %v", left)
	}
}
