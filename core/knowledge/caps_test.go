package knowledge

import (
	"strings"
	"testing"
)

// A node file that lists more than MaxReadList values is read with the
// first MaxReadList, and a warning names the file and the line of the
// first value left out.
func TestLongListCapped(t *testing.T) {
	n, warnings, err := decodeNode("long.md", longListNode(MaxReadList+500))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Files) != MaxReadList || n.Files[0] != "src/f0.go" || n.Files[MaxReadList-1] != "src/f9999.go" {
		t.Fatalf("read %d files (%q … %q), want the first %d", len(n.Files), n.Files[0], n.Files[len(n.Files)-1], MaxReadList)
	}
	var got []string
	for _, w := range warnings {
		got = append(got, w.String())
	}
	want := []string{
		"long.md:5: files lists more than 10000 values; the rest are left out",
		"long.md:12: the links section lists more than 10000 files, supersedes or links; 500 are left out",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Every list field is capped, links and anchors included.
func TestEveryListCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nid: many\ntype: note\ntitle: Many\n")
	for _, field := range []string{"symbols", "supersedes", "tags", "links"} {
		b.WriteString(field + ":\n")
		for i := range MaxReadList + 1 {
			b.WriteString("  - v" + itoa(i) + "\n")
		}
	}
	b.WriteString("anchors:\n")
	for i := range MaxReadList + 1 {
		b.WriteString("  f" + itoa(i) + ": h\n")
	}
	b.WriteString("---\n# Many\n")
	n, warnings, err := decodeNode("many.md", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Symbols) != MaxReadList || len(n.Supersedes) != MaxReadList || len(n.Tags) != MaxReadList || len(n.Links) != MaxReadList || len(n.Anchors) != MaxReadList {
		t.Fatalf("read %d symbols, %d supersedes, %d tags, %d links, %d anchors; want %d each",
			len(n.Symbols), len(n.Supersedes), len(n.Tags), len(n.Links), len(n.Anchors), MaxReadList)
	}
	if len(warnings) != 5 {
		t.Fatalf("%d warnings, want 5: %v", len(warnings), warnings)
	}
	for _, w := range warnings {
		if w.Path != "many.md" || w.Line == 0 || !strings.Contains(w.Message, "lists more than 10000 values") {
			t.Errorf("warning %v: want the file, the line and the cap", w)
		}
	}
}
