package pipeline

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/manifest"
)

// A manifest of an older format, intact otherwise, is reported and
// rebuilt rather than misread.
func TestOldManifestIsRebuilt(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	path := filepath.Join(e.folder.dir, manifest.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := data[len(manifest.Magic) : len(data)-4]
	_, n := binary.Uvarint(body)
	old := binary.AppendUvarint([]byte(manifest.Magic), manifest.Version-1)
	old = codec.Seal(append(old, body[n:]...))
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	st := index(t, engine(t, root))
	if st.Parsed != 14 || len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], fmt.Sprintf("has format %d", manifest.Version-1)) {
		t.Errorf("parsed %d, warnings %q", st.Parsed, st.Warnings)
	}
}

// In a one-shot process the records slice the mapped manifest: an update
// that carries them into the next manifest writes the same imports and
// edges as one that copied them.
func TestOneShotManifestCarriesRecords(t *testing.T) {
	var want []core.FileFacts
	var wantEdges []core.Edge
	for _, oneShot := range []bool{false, true} {
		root := shop(t)
		e := engineWith(t, root, Options{OneShot: oneShot})
		index(t, e)
		if _, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon"}); err != nil {
			t.Fatal(err)
		}
		edit(t, root, "README.md", "", "\nmore words\n")
		if st := index(t, e); st.Parsed != 1 {
			t.Fatalf("one-shot %v: parsed %d", oneShot, st.Parsed)
		}
		m, err := manifest.Load(e.folder.dir, true, false)
		if err != nil {
			t.Fatal(err)
		}
		edges, err := m.ImportEdges()
		if err != nil || len(edges) == 0 {
			t.Fatalf("one-shot %v: edges %v, %v", oneShot, edges, err)
		}
		if want == nil {
			want, wantEdges = m.AllFacts(), edges
			continue
		}
		if got := m.AllFacts(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(edges, wantEdges) {
			t.Error("the one-shot update wrote other imports or edges")
		}
	}
}
