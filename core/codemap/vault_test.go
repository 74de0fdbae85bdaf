package codemap

import (
	"fmt"
	"strings"
	"testing"
)

// A repository's notes may name any number of files: the vault gives a
// note's first MaxNoteFiles files pages and links, and the files the
// index does not hold MaxMissingPages pages in all, so that a note
// listing thousands of paths costs the vault no more than that.
func TestVaultBoundsWhatNotesName(t *testing.T) {
	m := Build([]*File{{Path: "store/store.go", Language: "go", Module: "store"}}, nil)
	var long []string
	for i := range 3 * MaxNoteFiles {
		long = append(long, fmt.Sprintf("gone/a%04d.go", i))
	}
	var notes []NoteRef
	notes = append(notes, NoteRef{Page: "knowledge/concept-long", Files: append([]string{"store/store.go"}, long...)})
	for i := range 2 * MaxMissingPages / MaxNoteFiles {
		var files []string
		for j := range MaxNoteFiles {
			files = append(files, fmt.Sprintf("old/n%02d/f%03d.go", i, j))
		}
		notes = append(notes, NoteRef{Page: fmt.Sprintf("knowledge/note-%02d", i), Files: files})
	}
	v := m.Vault(notes)
	if _, ok := v.Files["files/store/store.go.md"]; !ok {
		t.Fatalf("the indexed file a note names first has no page: %d pages", len(v.Files))
	}
	fromLong := 0
	for page := range v.Files {
		if strings.HasPrefix(page, "files/gone/") {
			fromLong++
		}
	}
	if fromLong != MaxNoteFiles-1 {
		t.Errorf("the long note's files got %d pages, want its first %d after the indexed one", fromLong, MaxNoteFiles-1)
	}
	if got := len(v.Files) - 1; got != MaxMissingPages {
		t.Errorf("files the index does not hold got %d pages, want %d", got, MaxMissingPages)
	}
	if !strings.Contains(v.Modules["store"], "- note [[knowledge/concept-long]]") {
		t.Errorf("the module's links lost the note:\n%s", v.Modules["store"])
	}
}
