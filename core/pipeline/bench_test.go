package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
)

// BenchmarkRetrieve is a query of the indexed shop: warm, with the
// engine's manifest in hand, and cold, reading it again.
func BenchmarkRetrieve(b *testing.B) {
	e := engine(b, shop(b))
	index(b, e)
	q := answer.Query{Text: "how is a coupon applied at checkout"}
	for _, cold := range []bool{false, true} {
		b.Run(map[bool]string{false: "warm", true: "cold"}[cold], func(b *testing.B) {
			for b.Loop() {
				if cold {
					e.folder.set(nil)
				}
				if _, err := e.Retrieve(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkIndex is an index run over the shop's sources copied forty
// times (about 500 files): in full, after one file's edit, and with
// nothing changed (a session start's refresh).
func BenchmarkIndex(b *testing.B) {
	root := b.TempDir()
	for i := range 40 {
		dst := filepath.Join(root, fmt.Sprintf("s%02d", i))
		err := filepath.WalkDir("testdata/shop", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel("testdata/shop", p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			write(b, dst, filepath.ToSlash(rel), string(data))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	e := engine(b, root)
	index(b, e)
	ctx := context.Background()
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Index(ctx, IndexOptions{Full: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("edit", func(b *testing.B) {
		for b.Loop() {
			edit(b, root, "s07/internal/discount/rules.go", "", "\n// edited\n")
			if _, err := e.Index(ctx, IndexOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Index(ctx, IndexOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
