package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// arenaPackage is a Go package whose files all import the same packages
// (none), and whose other files lean on zarena.go: by name it would come
// last.
var arenaPackage = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"store/zarena.go": `package store

// Arena hands out memory in blocks.
type Arena struct{ used int }

// NewArena returns an empty arena.
func NewArena() *Arena { return &Arena{} }

// Alloc returns n bytes of the arena.
func (a *Arena) Alloc(n int) []byte { a.used += n; return make([]byte, n) }
`,
	"store/batch.go": `package store

// Batch writes a batch through an arena.
func Batch() []byte { return NewArena().Alloc(8) }
`,
	"store/cache.go": `package store

// Cache keeps entries in an arena.
func Cache(a *Arena) []byte { return a.Alloc(16) }
`,
	"store/disk.go": `package store

// Disk flushes an arena.
func Disk(a *Arena) int { return len(a.Alloc(1)) }
`,
}

// files lists the files of a module page, in order.
func files(page string) []string {
	var out []string
	for line := range strings.SplitSeq(page, "\n") {
		if strings.HasPrefix(line, "- `") {
			out = append(out, strings.Trim(strings.Fields(line)[1], "`"))
		}
	}
	return out
}

// The file every other file of a Go package uses leads the package's
// page, listed with the files that use it and its methods named with
// their receiver; without references the package's files are in the
// order of their names, each imported by the same files.
func TestMapOrdersAPackageByItsReferences(t *testing.T) {
	root := rubitest.Project(t, arenaPackage)
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
	index(t, e)
	page, err := e.MapText("store")
	if err != nil {
		t.Fatal(err)
	}
	if got := files(page); len(got) != 4 || got[0] != "store/zarena.go" {
		t.Fatalf("files %q, want store/zarena.go first:\n%s", got, page)
	}
	if !strings.Contains(page, "  - used by: batch.go, cache.go, disk.go\n") {
		t.Errorf("no line of zarena.go's users:\n%s", page)
	}
	if !strings.Contains(page, "  - exports: Arena, NewArena, Arena.Alloc\n") {
		t.Errorf("no method with its receiver:\n%s", page)
	}
	// An edit inside a function keeps the imports (their resolution is
	// reused) but not the references: the page follows.
	if err := os.WriteFile(filepath.Join(root, "store", "cache.go"), []byte("package store\n\n// Cache keeps nothing.\nfunc Cache() []byte { return nil }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	if page, _ = e.MapText("store"); !strings.Contains(page, "  - used by: batch.go, disk.go\n") {
		t.Errorf("after cache.go stopped using the arena:\n%s", page)
	}

	plain := engineWith(t, rubitest.Project(t, arenaPackage), Options{MaskComments: regex.MaskComments})
	index(t, plain)
	page, err = plain.MapText("store")
	if err != nil {
		t.Fatal(err)
	}
	if got := files(page); len(got) != 4 || got[0] != "store/batch.go" || strings.Contains(page, "used by:") {
		t.Errorf("without references, files %q:\n%s", got, page)
	}
}
