package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// KeepIgnored moves rubi's lines to the end once and then leaves the file
// alone; a file too large to read gets them appended once.
func TestKeepIgnored(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".rubi")
	gi := filepath.Join(dir, ".gitignore")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := "# Written by rubi. The knowledge in this folder is meant to be committed;\n# the derived index, automatic session records, the hooks' log and the\n# lock are not.\nindex/\nsessions/\nhooks.log*\n.lock\n!*\r\n"
	if err := os.WriteFile(gi, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := KeepIgnored(root, dir); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(gi); string(got) != "!*\n\n"+Ignored {
			t.Fatalf("got:\n%s", got)
		}
	}
	// The first rubi's header, as repositories have it committed.
	oldest := "# Written by rubi. The knowledge in this folder is meant to be committed;\n# the derived index, automatic session records and the lock are not.\nindex/\nsessions/\n.lock\n"
	if err := os.WriteFile(gi, []byte(oldest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := KeepIgnored(root, dir); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(gi); string(got) != Ignored {
		t.Fatalf("the first rubi's file became:\n%s", got)
	}

	big := strings.Repeat("# padding\n", maxIgnoreFile/10+1) + "!*\n"
	if err := os.WriteFile(gi, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := KeepIgnored(root, dir); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(gi); string(got) != big+"\n"+Ignored {
			t.Fatalf("got %d bytes ending:\n%s", len(got), got[max(0, len(got)-300):])
		}
	}
}
