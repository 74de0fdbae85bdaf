package pipeline

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// A manifest of an older format, intact otherwise, is reported and
// rebuilt rather than misread.
func TestOldManifestIsRebuilt(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	path := filepath.Join(e.indexDir(), manifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := data[len(manifestMagic) : len(data)-4]
	_, n := binary.Uvarint(body)
	old := binary.AppendUvarint([]byte(manifestMagic), manifestVersion-1)
	old = codec.Seal(append(old, body[n:]...))
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	st := index(t, engine(t, root))
	if st.Parsed != 14 || len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], "has format 3") {
		t.Errorf("parsed %d, warnings %q", st.Parsed, st.Warnings)
	}
}

// A byte changed inside a record's imports, which a load steps over
// without reading, is still caught by the checksum.
func TestManifestImportsDamageDetected(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	data, err := os.ReadFile(filepath.Join(e.indexDir(), manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte("example.com/shop/internal/config"))
	if at < 0 {
		t.Fatal("no import spec in the manifest")
	}
	bad := bytes.Clone(data)
	bad[at] ^= 0x20
	if _, err := decodeManifest(bad); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("damaged imports: %v", err)
	}
}

// In a one-shot process the records slice the mapped manifest: an update
// that carries them into the next manifest writes the same imports and
// edges as one that copied them.
func TestOneShotManifestCarriesRecords(t *testing.T) {
	defer store.SetOneShot(false)
	var want []core.FileFacts
	var wantEdges []core.Edge
	for _, oneShot := range []bool{false, true} {
		store.SetOneShot(oneShot)
		root := shop(t)
		e := engine(t, root)
		index(t, e)
		if _, err := e.Retrieve(context.Background(), Query{Text: "coupon"}); err != nil {
			t.Fatal(err)
		}
		edit(t, root, "README.md", "", "\nmore words\n")
		if st := index(t, e); st.Parsed != 1 {
			t.Fatalf("one-shot %v: parsed %d", oneShot, st.Parsed)
		}
		m, err := loadManifest(e.indexDir())
		if err != nil {
			t.Fatal(err)
		}
		edges, err := m.importEdges()
		if err != nil || len(edges) == 0 {
			t.Fatalf("one-shot %v: edges %v, %v", oneShot, edges, err)
		}
		if want == nil {
			want, wantEdges = m.allFacts(), edges
			continue
		}
		if got := m.allFacts(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(edges, wantEdges) {
			t.Error("the one-shot update wrote other imports or edges")
		}
	}
}
