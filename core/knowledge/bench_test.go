package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/store"
)

// BenchmarkRegister2000 registers one batch of 2,000 nodes into an empty
// project: validation, near-duplicate search, link resolution and 2,000
// atomic (fsynced) file writes.
func BenchmarkRegister2000(b *testing.B) {
	const n = 2000
	in := make([]Input, n)
	for i := range in {
		in[i] = Input{
			Type:  Types[i%len(Types)],
			Title: fmt.Sprintf("Fact %d about %s", i, words(uint64(i), 3)),
			Body:  words(uint64(i)+1<<40, 40),
			Tags:  []string{"bench"},
		}
		if i > 0 {
			in[i].Links = []Link{{Rel: "related", Target: in[i-1].Title}}
		}
	}
	parent := b.TempDir()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		root, err := os.MkdirTemp(parent, "p")
		if err != nil {
			b.Fatal(err)
		}
		s := Open(Options{Root: root})
		b.StartTimer()
		res, err := s.Register(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for _, r := range res {
			if r.Action != ActionCreated {
				b.Fatalf("%+v", r)
			}
		}
		os.RemoveAll(root)
		b.StartTimer()
	}
}

// BenchmarkRegisterSmallBatch is the common case: an agent registers a few
// nodes into a graph of 4,000. Cost is dominated by reloading the graph
// (a stat per file; parsing only what changed) and indexing it for
// near-duplicates.
func BenchmarkRegisterSmallBatch(b *testing.B) {
	root := b.TempDir()
	s := Open(Options{Root: root})
	var in []Input
	for i := range 4000 {
		in = append(in, workerInput("9", i))
	}
	if _, err := s.Register(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		var batch []Input
		for j := range 5 {
			batch = append(batch, workerInput("8", i*5+j))
		}
		if _, err := s.Register(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNodes reads a graph of 4,000 nodes: cold (a new process: every
// file parsed) and warm (the cache: a listing and a stat per file).
func BenchmarkNodes(b *testing.B) {
	root := b.TempDir()
	s := Open(Options{Root: root})
	var in []Input
	for i := range 4000 {
		in = append(in, workerInput("7", i))
	}
	if _, err := s.Register(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			if nodes, _ := Open(Options{Root: root}).Nodes(); len(nodes) != 4000 {
				b.Fatal(len(nodes))
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		for range b.N {
			if nodes, _ := s.Nodes(); len(nodes) != 4000 {
				b.Fatal(len(nodes))
			}
		}
	})
	// A new process with the cache an earlier one exported: what a hook
	// pays to list the notes.
	data, _, err := s.ExportCache()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		for range b.N {
			fresh := Open(Options{Root: root})
			if err := fresh.ImportCache(data); err != nil {
				b.Fatal(err)
			}
			if nodes, _ := fresh.Nodes(); len(nodes) != 4000 {
				b.Fatal(len(nodes))
			}
		}
	})
}

// BenchmarkFileFloor2000 is the floor under BenchmarkRegister2000 on the
// same disk: creating 2,000 files of a node's size, each written to a
// temporary and renamed (what any atomic one-file-per-node store must
// do), with one filesystem sync, and nothing else.
func BenchmarkFileFloor2000(b *testing.B) {
	data := make([]byte, 1200)
	parent := b.TempDir()
	for range b.N {
		b.StopTimer()
		dir, err := os.MkdirTemp(parent, "p")
		if err != nil {
			b.Fatal(err)
		}
		files := make([]store.File, 2000)
		for i := range files {
			files[i] = store.File{Path: filepath.Join(dir, fmt.Sprintf("note-fact-%d.md", i)), Data: data, Perm: 0o644}
		}
		b.StartTimer()
		for _, err := range store.WriteFiles(files) {
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// longListNode is a node file whose frontmatter lists n files and whose
// links section lists them again, as rubi writes them.
func longListNode(n int) []byte {
	var b strings.Builder
	b.WriteString("---\nid: long\ntype: note\ntitle: Long\nfiles: [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "src/f%d.go", i)
	}
	b.WriteString("]\ncreated: 2026-01-01T00:00:00Z\n---\n# Long\n\nbody\n\n## Links\n\n")
	for i := range n {
		fmt.Fprintf(&b, "- file [[src/f%d.go]]\n", i)
	}
	return []byte(b.String())
}

// BenchmarkDecodeLongList reads a node listing 100,000 files (twice: the
// frontmatter and the links section). Each value used to be checked
// against the list it was growing, 8 s for this one file.
func BenchmarkDecodeLongList(b *testing.B) {
	data := longListNode(100000)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, _, err := decodeNode("long.md", data); err != nil {
			b.Fatal(err)
		}
	}
}
