package memory

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// yamlChunk is what the YAML decoder reads of a frontmatter.
func yamlChunk(front []byte) (*Chunk, error) {
	c := &Chunk{}
	return c, yaml.Unmarshal(front, c)
}

// sameChunk compares two decoded chunks, times by instant and zone.
func sameChunk(a, b *Chunk) bool {
	if !a.Created.Equal(b.Created) || a.Created.Location().String() != b.Created.Location().String() {
		return false
	}
	x, y := *a, *b
	x.Created, y.Created = time.Time{}, time.Time{}
	return reflect.DeepEqual(x, y)
}

// frontOf is the frontmatter encode writes for c, without its fences.
func frontOf(t testing.TB, c *Chunk) []byte {
	data, err := encode(c)
	if err != nil {
		t.Fatal(err)
	}
	rest := bytes.TrimPrefix(data, []byte("---\n"))
	return rest[:bytes.Index(rest, []byte("\n---\n"))+1]
}

// words are values that YAML writes and reads in every way it can: plain,
// quoted, numbers, booleans, nulls, indicators, unicode, line breaks.
var words = []string{"plain", "two words", "it's", "a: b", "a #b", "#x", "- x", "x:", "'q'", `"dq"`, "123", "0x1F", "1e3", ".inf", "true", "yes",
	"null", "~", "", " lead", "trail ", "tab\there", "line\nbreak", "é ü 日本", "\u0085", "\u2028", "{a}", "[b]", "&a", "*b", "!t", "|", ">", "%", "@", "`", "x\u00a0y", "\ufeffbom"}

// A chunk as rubi writes it is read by quickChunk as the YAML decoder
// reads it, or left to the decoder: never read otherwise. Ordinary
// chunks are read by quickChunk (what the recall's speed rests on).
func TestQuickChunkReadsWhatYAMLReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Mostly what conversations hold, now and then anything.
	ordinary := []string{"plain", "two words", "it's", "a: b", "a #b", "é ü 日本", "123", "x:", "'q'", "- x"}
	pick := func() string {
		if rng.IntN(40) == 0 {
			return words[rng.IntN(len(words))]
		}
		return ordinary[rng.IntN(len(ordinary))]
	}
	some := func() []string {
		var out []string
		for range rng.IntN(3) {
			out = append(out, pick())
		}
		return out
	}
	quick := 0
	for range 3000 {
		c := &Chunk{ID: pick(), Type: pick(), Summary: pick() + " " + pick(), Tags: some(), Project: pick(), Domain: pick(), Ticket: pick(), Session: pick(),
			Seq: rng.IntN(3) * rng.IntN(1000), Created: time.Date(2026, 3, 24, 9, 11, rng.IntN(60), rng.IntN(3)*rng.IntN(1e9), []*time.Location{time.UTC, time.FixedZone("", 7200)}[rng.IntN(2)]),
			Entities: Entities{Files: some(), Versions: some(), Modules: some(), Tickets: some(), Functions: some()}, Hash: pick(), Lines: rng.IntN(50)}
		front := frontOf(t, c)
		want, err := yamlChunk(front)
		got, ok := quickChunk(front)
		if !ok {
			continue
		}
		quick++
		if err != nil || !sameChunk(got, want) {
			t.Fatalf("quickChunk read\n%s\nas %+v; YAML reads %+v (%v)", front, got, want, err)
		}
	}
	if quick < 1000 {
		t.Errorf("quickChunk read %d of 3000 frontmatters", quick)
	}
	// An ordinary chunk, as a conversation's turn is saved.
	c := &Chunk{ID: "20260324-091100-4832ae7c", Type: "session", Summary: "assistant: looking at bench/payload/e2e_test.go (turn 1571): it's the bench step…",
		Project: "main", Session: "bench-78", Seq: 12, Created: time.Date(2026, 3, 24, 9, 11, 0, 0, time.UTC),
		Entities: Entities{Files: []string{"bench/payload/e2e_test.go"}}, Tags: []string{"decision"}, Hash: strings.Repeat("4832ae7c", 8), Lines: 1}
	if got, ok := quickChunk(frontOf(t, c)); !ok || !sameChunk(got, c) {
		t.Fatalf("an ordinary chunk: %v, %+v", ok, got)
	}
}

// Whatever a frontmatter holds (a file edited by hand, or a repository's),
// quickChunk never reads it otherwise than the YAML decoder: it reads the
// same chunk, or leaves it to the decoder.
func FuzzQuickChunk(f *testing.F) {
	for i, w := range words {
		c := &Chunk{ID: "id" + w, Type: "session", Summary: w, Tags: []string{w}, Project: "p", Session: fmt.Sprint(i), Seq: i,
			Created: time.Date(2026, 1, 2, 3, 4, 5, i, time.UTC), Entities: Entities{Files: []string{w, "a.go"}}, Hash: "h", Lines: i}
		f.Add(frontOf(f, c))
	}
	f.Add([]byte("id: a\nhash: b\nsummary: x\n  y\n"))
	f.Add([]byte("id: a\nentities:\n  files:\n    - x\ntags:\n  - t\n  modules:\n    - m\nhash: h\n"))
	f.Fuzz(func(t *testing.T, front []byte) {
		got, ok := quickChunk(front)
		if !ok {
			return
		}
		want, err := yamlChunk(front)
		if err != nil || !sameChunk(got, want) {
			t.Fatalf("quickChunk read %q as %+v; YAML reads %+v (%v)", front, got, want, err)
		}
	})
}
