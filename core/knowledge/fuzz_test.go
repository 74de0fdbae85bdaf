package knowledge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// nodeSeeds are real node files: this repository's notes, a node of
// every field rubi writes, and the hand-written and legacy shapes the
// tests read.
func nodeSeeds(tb testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("..", "..", ".rubi", "knowledge", "*.md"))
	var seeds [][]byte
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	full, err := encodeNode(cacheSample())
	if err != nil {
		tb.Fatal(err)
	}
	laughs := "---\nid: note-laughs\ntitle: Laughs\nl0: &l0 [ha, ha]\n"
	for i := 1; i < 40; i++ {
		laughs += fmt.Sprintf("l%d: &l%d [*l%d, *l%d]\n", i, i, i-1, i-1)
	}
	return append(seeds, full, []byte(laughs+"---\n"),
		[]byte("---\nid: bad-yaml\ntype: note\ntitle: [unclosed\nstatus: active\n---\nbody\n"),
		[]byte("---\nid: conceito-autenticacao\ntipo: conceito\narquivos: [\"src/auth/login.ts\", \"src/auth/jwt.ts\"]\nliga: [{\"rel\": \"sobre\", \"alvo\": \"x\"}]\n---\n# Autenticação\n"),
		[]byte("---\nid: note-odd\ntype: note\ntitle: Odd\nowner: &o team-a\nlead: *o\n---\nKept.\n\n## Links\n\n- about [[concept-x]]\n- file [[src/a.go]]\n"),
	)
}

// cacheSample is a node with every field set.
func cacheSample() *Node {
	n := &Node{
		ID: "gotcha-coupon-applied-twice", Type: "gotcha", Status: "superseded", Importance: "critical",
		Title: "Coupon applied twice", Files: []string{"src/cupom.ts"}, Symbols: []string{"applyCoupon"},
		Links:      []Link{{Rel: "about", Target: "file:src/cupom.ts"}, {Rel: "causes", Target: "bug-total"}},
		Supersedes: []string{"note-old"}, SupersededBy: "gotcha-coupon-v2", ValidUntil: &t0,
		Tags: []string{"checkout"}, Created: t0, Updated: t0, Commit: "abc1234",
		Anchors: map[string]string{"src/cupom.ts": "f00d"}, Body: "The discount ran twice.\n\nÚnico.",
	}
	return n
}

// validNode says what every node rubi reads must be: an id it can write
// the node under, a title, a known type, status and importance.
func validNode(n *Node) error {
	switch {
	case validateID(n.ID) != nil:
		return validateID(n.ID)
	case n.Title == "":
		return errors.New("no title")
	case !slices.Contains(Types, n.Type):
		return errors.New("type " + n.Type)
	case n.Status != StatusActive && n.Status != StatusSuperseded && n.Status != StatusRetracted:
		return errors.New("status " + n.Status)
	}
	if _, ok := canonicalImportance(n.Importance); !ok {
		return errors.New("importance " + n.Importance)
	}
	return nil
}

// A node file (.rubi/knowledge/*.md) is whatever the repository holds or
// a person wrote. Decoding it never panics: it gives a node rubi can use
// (validNode), or a problem with the line it is on. A node read is one
// rubi can write back, and the file it writes reads as the same node.
func FuzzDecodeNode(f *testing.F) {
	for _, s := range nodeSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzDecodeNode")()
		const path = "/p/.rubi/knowledge/note-fuzz.md"
		n, warnings, err := decodeNode(path, data)
		if err != nil {
			var fp *fileProblem
			if n != nil || !errors.As(err, &fp) || fp.msg == "" || fp.line < 0 {
				t.Fatalf("a failure that is no problem with a line: %v, %v", n, err)
			}
			return
		}
		if err := validNode(n); err != nil {
			t.Fatalf("decoded node %+v: %v", n, err)
		}
		for _, w := range warnings {
			if w.Path != path || w.Message == "" || w.Line < 0 {
				t.Fatalf("warning %+v", w)
			}
		}
		out, err := encodeNode(n)
		if err != nil {
			t.Fatalf("a decoded node does not encode: %v", err)
		}
		back, _, err := decodeNode(path, out)
		if err != nil {
			t.Fatalf("the node rubi writes back does not read: %v\n%s", err, out)
		}
		if back.ID != n.ID || back.Title != n.Title || back.Type != n.Type || back.Status != n.Status || back.Importance != n.Importance {
			t.Fatalf("written back, %q %q %s %s %s reads as %q %q %s %s %s\n%s", n.ID, n.Title, n.Type, n.Status, n.Importance,
				back.ID, back.Title, back.Type, back.Status, back.Importance, out)
		}
	})
}

// A handoff (.rubi/handoffs/*.md, or markdown an agent sends) is read
// without a panic: a frontmatter that does not read is an error, anything
// else is a handoff, which renders and saves.
func FuzzHandoff(f *testing.F) {
	h := Handoff{Goal: "Ship coupons", Done: []string{"fixed the bug", "two\nlines"}, Next: []string{"tests"},
		InProgress: []string{"refactor"}, Decisions: []string{"use JWT"}, Files: []string{"src/cart.ts"},
		Notes: "## Not a section\nfree text", Created: t0}
	saved, err := encodeHandoff(&h)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(saved)
	f.Add([]byte(h.Markdown()))
	f.Add([]byte("Context first.\n\n## Next\n- Wire the endpoint\n- Add a test\n  for refunds\n\n## Goal\nShip coupons\n\n## Files\n- web/api.js\n"))
	f.Add([]byte("---\ncreated: 2026-10-17T15:30:00Z\n---\n# Handoff\n"))
	for _, c := range realHandoffs {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzHandoff")()
		parsed := ParseHandoff(string(data))
		// Nothing written is lost: the text is what was sent, less at most
		// a handoff file's frontmatter and title line in front.
		if !strings.HasSuffix(normalizeHandoff(string(data)), parsed.Text) {
			t.Fatalf("the text %q is not the end of what was written", parsed.Text)
		}
		// Saved and read back, it is the same handoff, text and fields.
		enc, err := encodeHandoff(&parsed)
		if err != nil {
			t.Fatalf("a parsed handoff does not encode: %v", err)
		}
		back, err := decodeHandoff(enc)
		if err != nil {
			t.Fatalf("a saved handoff does not read back: %v\n%q", err, enc)
		}
		back.Created = parsed.Created
		if !reflect.DeepEqual(*back, parsed) {
			t.Fatalf("saved and read back:\n%#v\nwant\n%#v", *back, parsed)
		}
		if again := ParseHandoff(parsed.Markdown()); again.Text != parsed.Text {
			t.Fatalf("its markdown reads as\n%q\nwant\n%q", again.Text, parsed.Text)
		}
		if h, err := decodeHandoff(data); err == nil {
			h.Markdown()
		} else if h != nil {
			t.Fatalf("an error (%v) with a handoff", err)
		}
	})
}

// cacheSeed is a node cache as an engine exports it, of real node files.
func cacheSeed(tb testing.TB) []byte {
	s := newStore(tb)
	dir := filepath.Join(s.root, ".rubi", "knowledge")
	for i, data := range nodeSeeds(tb) {
		writeFile(tb, dir, filepath.Base(tb.TempDir())+string(rune('a'+i))+".md", string(data))
	}
	registerOne(tb, s, Input{Title: "Cached", Body: "one", Files: []string{"a.go"}, Tags: []string{"x"}})
	s.Nodes()
	data, changed, err := s.ExportCache()
	if err != nil || !changed {
		tb.Fatal(changed, err)
	}
	return data
}

// The node cache (.rubi/index/, beside the index) is as untrusted as the
// rest: importing it never panics, and what it accepts is only nodes rubi
// could have read from files (validNode), which export again into a cache
// that imports the same. Each input is also tried with its checksum
// recomputed, so that the fuzzer's changes reach the decoding past it.
func FuzzCache(f *testing.F) {
	f.Add(cacheSeed(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzCache")()
		ins := [][]byte{data}
		if len(data) >= 4 {
			ins = append(ins, codec.Seal(slices.Clone(data[:len(data)-4])))
		}
		for _, in := range ins {
			s := &Store{cache: map[string]*entry{}}
			if s.ImportCache(in) != nil {
				if len(s.cache) != 0 {
					t.Fatal("a refused cache changed the store")
				}
				continue
			}
			// A record is decoded as its node is asked for; one that does
			// not decode is dropped, and its file read (readEntry).
			decodeAll := func(s *Store) {
				for path, e := range s.cache {
					if e.raw != nil && !s.decodeEntry(path, e) {
						delete(s.cache, path)
						continue
					}
					if e.node == nil || e.node.Path != path {
						t.Fatalf("%s: entry %+v", path, e)
					}
					if err := validNode(e.node); err != nil {
						t.Fatalf("%s: cached node %+v: %v", path, e.node, err)
					}
				}
			}
			// Half the time the export writes the records as they were
			// read, the other half as decoded.
			if len(data)%2 == 0 {
				decodeAll(s)
			}
			s.cacheBehind++
			again, _, err := s.ExportCache()
			if err != nil {
				t.Fatalf("an imported cache does not export: %v", err)
			}
			decodeAll(s)
			back := &Store{cache: map[string]*entry{}}
			if err := back.ImportCache(again); err != nil {
				t.Fatalf("the export of an imported cache does not import: %v", err)
			}
			decodeAll(back)
			if len(back.cache) != len(s.cache) {
				t.Fatalf("the export of an imported cache imports as %d nodes; want %d", len(back.cache), len(s.cache))
			}
		}
	})
}
