package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/manifest"
)

// readHead reads a file whole up to its limit, whatever its size against
// the buffer it starts with: empty, smaller than the limit, exactly the
// limit, and past it.
func TestReadHead(t *testing.T) {
	dir := t.TempDir()
	const limit = 1000
	for _, size := range []int{0, 1, 511, 999, 1000, 1001, 5000} {
		want := bytes.Repeat([]byte("abcdefghij"), size/10+1)[:size]
		name := filepath.Join(dir, "f")
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got := readHead(name, limit)
		if size > limit {
			want = want[:limit]
		}
		if !bytes.Equal(got, want) {
			t.Errorf("a file of %d bytes: read %d bytes, want %d", size, len(got), len(want))
		}
	}
	if got := readHead(filepath.Join(dir, "missing"), limit); got != nil {
		t.Errorf("a missing file reads %d bytes", len(got))
	}
	if got := readHead(dir, limit); got != nil {
		t.Errorf("a directory reads %d bytes", len(got))
	}
}

// A symbols file damaged since the index (here emptied) does not cost
// the answer: it comes without the symbols it cannot read, its files
// still there, and says what is wrong and what repairs it.
func TestDamagedSymbolsStillAnswer(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	q := answer.Query{Text: "finishing a purchase", Terms: []string{"checkout", "cart"}}
	whole, err := e.Retrieve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.folder.current()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest.SymbolsFile(e.folder.dir, m.Generation), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e.folder.set(nil) // the symbols are read again
	res, err := e.Retrieve(context.Background(), q)
	if err != nil {
		t.Fatalf("a damaged symbols file fails the query: %v", err)
	}
	if !slices.Equal(ids(res), ids(whole)) {
		t.Errorf("without symbols the answer is %v, with them %v", ids(res), ids(whole))
	}
	for _, it := range res.Items {
		if len(it.Units) > 0 {
			t.Errorf("%s lists units %v, which the damaged file cannot give", it.ID, it.Units)
		}
	}
	if !slices.ContainsFunc(res.Problems, func(p string) bool {
		return strings.Contains(p, "damaged") && strings.Contains(p, "`rubi index` repairs the file")
	}) {
		t.Errorf("the answer does not say its symbols are damaged: %q", res.Problems)
	}
	if !slices.ContainsFunc(whole.Items, func(it answer.Item) bool { return len(it.Units) > 0 }) {
		t.Error("the whole answer lists no units: the test shows nothing")
	}
}
