//go:build unix

package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A reference store whose chunk file is a link out of its folder (to the
// user's SSH key, say): the chunk is skipped with its reason, and its
// target's text never becomes a chunk.
func TestImportRLMFollowsNoLinkOutOfItsFolder(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secret, []byte("-----BEGIN PRIVATE KEY-----\nsecret\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, "chunks"), 0o755)
	os.WriteFile(filepath.Join(dir, "chunks", "good.md"), []byte("the coupon runs twice at checkout\n"), 0o644)
	os.Symlink(secret, filepath.Join(dir, "chunks", "evil.md"))
	os.WriteFile(filepath.Join(dir, "index.json"), []byte(`{"chunks":[{"id":"good","type":"session"},{"id":"evil","type":"session"}]}`), 0o644)

	root := t.TempDir()
	st := Open(root)
	rep, err := st.ImportRLM(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chunks != 1 || len(rep.Skipped) != 1 || rep.Skipped[0].ID != "evil" || !strings.Contains(rep.Skipped[0].Why, "leads out of the folder") {
		t.Errorf("imported %d, skipped %+v", rep.Chunks, rep.Skipped)
	}
	err = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "PRIVATE KEY") {
				t.Errorf("%s holds the link's target", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
