//go:build unix

package knowledge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cloned repository's .rubi/knowledge that is a link to a folder
// elsewhere: registering a note refuses, and writes nothing there.
func TestNoWritesThroughALinkedKnowledgeFolder(t *testing.T) {
	s := newStore(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(s.root, ".rubi"), 0o755)
	if err := os.Symlink(outside, filepath.Join(s.root, ".rubi", "knowledge")); err != nil {
		t.Fatal(err)
	}
	res, err := s.Register(t.Context(), []Input{{Type: "gotcha", Title: "Coupon applied twice", Body: "The discount runs in two places."}})
	if err == nil && (len(res) != 1 || res[0].Action != ActionError) {
		t.Fatalf("registered through a link: %+v", res)
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	} else {
		msg = res[0].Error
	}
	if !strings.Contains(msg, "leads out of") {
		t.Errorf("the refusal does not say why: %q", msg)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %v", entries)
	}
	if _, err := s.SaveHandoff(Handoff{Goal: "g"}); err != nil {
		// handoffs live in .rubi/handoffs, which is no link: allowed
		t.Errorf("a handoff in a real folder: %v", err)
	}
}
