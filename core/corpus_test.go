package core

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A file handed to a parser without a language is read in the one its
// path names; a language given is kept, known or not.
func TestEmptyFacts(t *testing.T) {
	for _, c := range []struct{ path, lang, want string }{
		{"pkg/a.py", "", LangPython},
		{"a.py", "cobol", "cobol"},
		{"README", "", ""},
	} {
		ff := SourceFile{Path: c.path, Language: c.lang, Content: []byte("x")}.EmptyFacts()
		if ff.Path != c.path || ff.Language != c.want || ff.Imports != nil || ff.Symbols != nil || ff.Error != "" {
			t.Errorf("%s (%q): %+v, want language %q and nothing else", c.path, c.lang, ff, c.want)
		}
	}
}

// A panic in a parser costs the file's facts, not the process: Recover
// drops what was found and says why in Error; without a panic it changes
// nothing.
func TestFileFactsRecover(t *testing.T) {
	parse := func(fail bool) (ff FileFacts) {
		ff = FileFacts{Path: "a.go", Language: LangGo}
		defer ff.Recover("lang.test")
		ff.Imports = append(ff.Imports, Import{Spec: "fmt", Line: 1})
		ff.Symbols = append(ff.Symbols, Symbol{Name: "A", Line: 2})
		if fail {
			var s []int
			_ = s[len(ff.Symbols)] // out of range
		}
		return ff
	}
	if ff := parse(true); ff.Path != "a.go" || ff.Imports != nil || ff.Symbols != nil || !strings.HasPrefix(ff.Error, "lang.test: internal error: ") {
		t.Errorf("after a panic: %+v", ff)
	}
	if ff := parse(false); len(ff.Imports) != 1 || len(ff.Symbols) != 1 || ff.Error != "" {
		t.Errorf("without a panic: %+v", ff)
	}
}

// Edges added by number (Link) come back from EachEdge as the Edges they
// were, ahead of the corpus's Edges and in the order added, whether their
// ends are documents or not, with their kinds, labels and weights.
func TestLinkedEdgesComeBackAsAdded(t *testing.T) {
	c := &Corpus{Documents: []Document{{ID: "module:a"}, {ID: "file:a/x.go"}, {ID: "file:a/y.go"}}}
	linked := []Edge{
		{From: "module:a", To: "file:a/x.go", Kind: EdgeContains, Weight: 0.5},
		{From: "file:a/x.go", To: "file:a/y.go", Kind: EdgeImports, Weight: 1},
		{From: "file:a/y.go", To: "file:gone.go", Kind: EdgeReferences, Weight: 3.25},
		{From: "node:n", To: "file:a/x.go", Kind: "about", Label: "says of"},
		{From: "file:a/x.go", To: "file:a/y.go", Kind: EdgeImports},
	}
	places := [][2]int{{0, 1}, {1, 2}, {2, -1}, {-1, 1}, {2, 1}} // the last one's places are wrong: kept by id
	c.GrowLinks(len(linked))
	for k := range linked {
		c.Link(&linked[k], places[k][0], places[k][1])
	}
	c.Edges = []Edge{{From: "node:n", To: "node:m", Kind: EdgeMentions, Label: `both mention "x" with`}}
	want := append(slices.Clone(linked), c.Edges...)
	if got := slices.Collect(c.EachEdge()); !slices.Equal(got, want) {
		t.Errorf("EachEdge:\n got %+v\nwant %+v", got, want)
	}
	if c.EdgeCount() != len(want) {
		t.Errorf("EdgeCount = %d, want %d", c.EdgeCount(), len(want))
	}
	stopsEarly(t, c)
	// A corpus of Edges alone reads as before.
	plain := &Corpus{Edges: c.Edges}
	if got := slices.Collect(plain.EachEdge()); !slices.Equal(got, c.Edges) || plain.EdgeCount() != 1 {
		t.Errorf("plain corpus: %+v (%d)", got, plain.EdgeCount())
	}
}

// stopsEarly checks that a reader of c's edges that stops after two gets
// those and no more.
func stopsEarly(t *testing.T, c *Corpus) {
	t.Helper()
	n := 0
	for range c.EachEdge() {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopped after %d edges", n)
	}
}

// spillFile is a file a corpus spills its links to, whose writes or
// reads fail when told to.
type spillFile struct {
	data                  []byte
	failWrite, failReadAt bool
}

func (f *spillFile) Write(b []byte) (int, error) {
	if f.failWrite {
		return 0, errors.New("disk full")
	}
	f.data = append(f.data, b...)
	return len(b), nil
}

func (f *spillFile) ReadAt(b []byte, off int64) (int, error) {
	if f.failReadAt {
		return 0, errors.New("I/O error")
	}
	return bytes.NewReader(f.data).ReadAt(b, off)
}

// Links kept in a file (SpillLinks) come back from EachEdge as those kept
// in memory do, as often as asked, and none is held in memory; an error
// writing or reading them ends the edges and is the corpus's Err.
func TestSpilledLinksComeBackAsAdded(t *testing.T) {
	linked := []Edge{
		{From: "module:a", To: "file:a/x.go", Kind: EdgeContains, Weight: 0.5},
		{From: "file:a/x.go", To: "file:a/y.go", Kind: EdgeImports, Weight: 1},
		{From: "file:a/y.go", To: "file:gone.go", Kind: EdgeReferences, Weight: 3.25},
		{From: "node:n", To: "file:a/x.go", Kind: "about", Label: "says of", Weight: -2},
	}
	places := [][2]int{{0, 1}, {1, 2}, {2, -1}, {-1, 1}}
	corpus := func(f *spillFile) *Corpus {
		c := &Corpus{Documents: []Document{{ID: "module:a"}, {ID: "file:a/x.go"}, {ID: "file:a/y.go"}}}
		c.SpillLinks(f)
		c.GrowLinks(len(linked))
		for k := range linked {
			c.Link(&linked[k], places[k][0], places[k][1])
		}
		c.Edges = []Edge{{From: "node:n", To: "node:m", Kind: EdgeMentions}}
		return c
	}
	f := &spillFile{}
	c := corpus(f)
	if len(c.links) != 0 || cap(c.links) != 0 {
		t.Errorf("%d links held in memory", cap(c.links))
	}
	want := append(slices.Clone(linked), c.Edges...)
	for round := range 2 {
		if got := slices.Collect(c.EachEdge()); !slices.Equal(got, want) {
			t.Errorf("round %d, EachEdge:\n got %+v\nwant %+v", round, got, want)
		}
	}
	if c.EdgeCount() != len(want) || c.Err() != nil || len(f.data) != len(linked)*linkSize {
		t.Errorf("EdgeCount %d, want %d; Err %v; %d bytes spilled", c.EdgeCount(), len(want), c.Err(), len(f.data))
	}
	stopsEarly(t, c)
	for _, bad := range []*spillFile{{failWrite: true}, {failReadAt: true}} {
		c := corpus(bad)
		if got := slices.Collect(c.EachEdge()); len(got) != 0 || c.Err() == nil {
			t.Errorf("write fails %v, read fails %v: %d edges, Err %v", bad.failWrite, bad.failReadAt, len(got), c.Err())
		}
	}
	if (&Corpus{}).Err() != nil {
		t.Error("a corpus that spills nothing has an error")
	}
}

// A corpus handed out before its links are in (LinksLater): a reader of
// its edges waits for them and then sees every one, links first, as if
// they had been there from the start; links that never come leave it no
// edge, and Err says why.
func TestLinksLaterAreWaitedFor(t *testing.T) {
	link := Edge{From: "file:a.go", To: "file:b.go", Kind: EdgeImports, Weight: 1}
	note := Edge{From: "node:n", To: "file:a.go", Kind: "about", Weight: 1}
	for _, spill := range []bool{false, true} {
		c := &Corpus{Documents: []Document{{ID: "file:a.go"}, {ID: "file:b.go"}}}
		if spill {
			c.SpillLinks(&spillFile{})
		}
		done := c.LinksLater()
		c.Edges = append(c.Edges, note)
		got := make(chan []Edge)
		count := make(chan int)
		go func() { got <- slices.Collect(c.EachEdge()) }()
		go func() { count <- c.EdgeCount() }()
		select {
		case e := <-got:
			t.Fatalf("spill %v: EachEdge gave %v before the links were in", spill, e)
		case n := <-count:
			t.Fatalf("spill %v: EdgeCount gave %d before the links were in", spill, n)
		case <-time.After(50 * time.Millisecond):
		}
		c.Link(&link, 0, 1)
		done(nil)
		if e := <-got; !slices.Equal(e, []Edge{link, note}) {
			t.Errorf("spill %v: edges %v, want the link then the note's", spill, e)
		}
		if n := <-count; n != 2 || c.Err() != nil {
			t.Errorf("spill %v: EdgeCount %d, Err %v", spill, n, c.Err())
		}
		done(errors.New("too late")) // the first call counts
		if c.Err() != nil {
			t.Errorf("spill %v: a second call changed Err to %v", spill, c.Err())
		}
	}
	c := &Corpus{Documents: []Document{{ID: "file:a.go"}}, Edges: []Edge{note}}
	done := c.LinksLater()
	done(errors.New("the run ended"))
	if e := slices.Collect(c.EachEdge()); len(e) != 0 || c.Err() == nil || c.Err().Error() != "the run ended" {
		t.Errorf("links that never came: edges %v, Err %v", e, c.Err())
	}
}
