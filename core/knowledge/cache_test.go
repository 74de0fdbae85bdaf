package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/codec"
)

// Every field of a cached node, problems included, comes back as it
// went in: times with their zone offsets, nil and empty lists alike.
func TestNodeCacheRoundTrip(t *testing.T) {
	until := time.Date(2026, 3, 1, 9, 30, 0, 5, time.FixedZone("", -3*3600))
	full := &Node{
		ID: "gotcha-coupon-applied-twice", Type: "gotcha", Status: "superseded", Importance: "critical",
		Title: "Coupon applied twice", Files: []string{"src/cupom.ts", "src/cart.ts"}, Symbols: []string{"applyCoupon"},
		Links:      []Link{{Rel: "about", Target: "file:src/cupom.ts"}, {Rel: "causes", Target: "bug-total"}},
		Supersedes: []string{"note-old"}, SupersededBy: "gotcha-coupon-v2", ValidUntil: &until,
		Tags: []string{"checkout"}, Created: time.Date(2025, 12, 31, 23, 59, 59, 0, time.UTC),
		Updated: time.Date(2026, 1, 2, 8, 0, 0, 0, time.FixedZone("", 5*3600+1800)), Commit: "abc1234",
		Anchors: map[string]string{"src/cupom.ts": "f00d", "symbol:applyCoupon": "beef"}, Body: "The discount ran twice.\n\nÚnico.",
		Personal: true,
	}
	bare := &Node{ID: "note-x", Type: "note", Status: "active", Importance: "medium", Title: "X"}
	s := &Store{cache: map[string]*entry{
		"/p/.rubi/knowledge/gotcha.md": {key: fileKey{mod: -5, size: 120, inode: 1 << 40}, node: full, problems: []Problem{{Path: "/p/a.md", Line: 3, Message: "link to nothing"}}},
		"/p/.rubi/knowledge/note-x.md": {key: fileKey{mod: 1, size: 2, inode: 3}, node: bare},
		"/p/.rubi/knowledge/broken.md": {key: fileKey{mod: 1, size: 2, inode: 4}, problems: []Problem{{Path: "/p/broken.md", Message: "bad"}}},
	}, cacheBehind: 1}
	data, changed, err := s.ExportCache()
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	back := &Store{cache: map[string]*entry{}}
	if err := back.ImportCache(data); err != nil {
		t.Fatal(err)
	}
	if len(back.cache) != 2 {
		t.Fatalf("%d files back, want the 2 with nodes", len(back.cache))
	}
	for path, e := range back.cache {
		// Records are decoded as their nodes are asked for.
		if e.raw == nil || e.node != nil || !back.decodeEntry(path, e) {
			t.Fatalf("%s: imported as %+v, want its record alone, which decodes", path, e)
		}
		want := *s.cache[path]
		want.node = &Node{}
		*want.node = *s.cache[path].node
		want.node.Path = path
		if !reflect.DeepEqual(e.key, want.key) || !reflect.DeepEqual(e.problems, want.problems) || !reflect.DeepEqual(e.node, want.node) {
			t.Errorf("%s:\ngot  %+v %+v %+v\nwant %+v %+v %+v", path, e.key, e.node, e.problems, want.key, want.node, want.problems)
		}
	}
	if got := back.cache["/p/.rubi/knowledge/gotcha.md"].node.Updated; got.String() != full.Updated.String() {
		t.Errorf("the zone offset was lost: %s, want %s", got, full.Updated)
	}

	// A damaged byte anywhere is refused and changes nothing.
	for i := range data {
		bad := bytes.Clone(data)
		bad[i] ^= 0x20
		fresh := &Store{cache: map[string]*entry{}}
		if fresh.ImportCache(bad) == nil || len(fresh.cache) != 0 {
			t.Fatalf("byte %d damaged: accepted", i)
		}
	}
	if (&Store{cache: map[string]*entry{}}).ImportCache(data[:len(data)-1]) == nil {
		t.Error("a truncated cache was accepted")
	}
}

// Scan finds the files Nodes read at the versions it read them, and a file
// rewritten since at another version; nothing else differs.
func TestScanAgreesWithVersions(t *testing.T) {
	root := t.TempDir()
	s := Open(Options{Root: root})
	var in []Input
	for i := range 300 { // past two stat batches: the parallel path
		in = append(in, Input{Type: TypeConcept, Title: fmt.Sprintf("Concept number %d", i), Body: "Some text."})
	}
	if _, err := s.Register(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if nodes, _ := s.Nodes(); len(nodes) != 300 {
		t.Fatalf("%d nodes", len(nodes))
	}
	read := s.Versions()
	scan, err := s.Scan()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(read, scan) {
		t.Fatalf("a scan of unchanged files differs from what Nodes read:\n%v\n%v", read[:3], scan[:3])
	}
	edited := read[42].Path
	data, _ := os.ReadFile(edited)
	if err := os.WriteFile(edited+".tmp", append(data, "More text.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(edited+".tmp", edited); err != nil {
		t.Fatal(err)
	}
	scan, _ = s.Scan()
	for i := range scan {
		if (scan[i] != read[i]) != (scan[i].Path == edited) {
			t.Errorf("%s: read at %s, scanned at %s", scan[i].Path, read[i].Version, scan[i].Version)
		}
	}
}

// The cache an older rubi wrote (version 2: records not delimited) is
// still read, every node decoded at once, so that an upgraded user's
// recall does not parse each note's file until an index run writes the
// current version.
func TestAnOlderNodeCacheIsStillRead(t *testing.T) {
	n := &Node{ID: "gotcha-x", Type: "gotcha", Status: "active", Importance: "high", Title: "X",
		Files: []string{"a.go"}, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Updated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Anchors: map[string]string{"a.go": "code:00"}, Body: "Body."}
	b := append([]byte(cacheMagic), eagerVersion)
	b = binary.AppendUvarint(b, 1)
	b = codec.AppendString(b, "/p/.rubi/knowledge/gotcha-x.md")
	b = binary.AppendVarint(b, 7)
	b = binary.AppendVarint(b, 8)
	b = binary.AppendUvarint(b, 9)
	b, err := appendNode(b, n)
	if err != nil {
		t.Fatal(err)
	}
	b = binary.AppendUvarint(b, 0) // no problems
	s := &Store{cache: map[string]*entry{}}
	if err := s.ImportCache(codec.Seal(b)); err != nil {
		t.Fatal(err)
	}
	e := s.cache["/p/.rubi/knowledge/gotcha-x.md"]
	if e == nil || e.node == nil || e.raw != nil || e.key != (fileKey{7, 8, 9}) {
		t.Fatalf("imported %+v, want the node decoded", e)
	}
	want := *n
	want.Path = "/p/.rubi/knowledge/gotcha-x.md"
	if !reflect.DeepEqual(*e.node, want) {
		t.Errorf("node %+v, want %+v", *e.node, want)
	}
	// Exported again, it is this version's.
	s.cacheBehind++
	data, _, err := s.ExportCache()
	if err != nil || !CacheCurrent(data[:CacheHead]) {
		t.Fatalf("exported as %q, %v", data[:CacheHead], err)
	}
}
