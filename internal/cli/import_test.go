package cli

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rlmFolder writes a context folder of the RLM memory server: insights, an
// active chunk, an archived one, and one whose file escapes the folder.
func rlmFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("session_memory.json", `{"version": "1.0.0", "insights": [
  {"id": "a1b2c3d4", "content": "Always deploy LOCAL then VPS, never direct", "category": "decision", "importance": "critical", "tags": ["deploy"], "created_at": "2026-01-10T09:30:00.123456"},
  {"id": "b2c3d4e5", "content": "WeasyPrint requires inline CSS for PDF rendering", "category": "finding", "importance": "high", "tags": ["pdf"], "created_at": "2026-01-11T10:00:00"},
  {"id": "c3d4e5f6", "content": "   ", "category": "todo", "importance": "low", "tags": [], "created_at": "2026-01-12T10:00:00"}
], "metadata": {"total_insights": 3}}`)
	write("index.json", `{"version": "2.0.0", "chunks": [
  {"id": "2026-01-18_shop_001", "file": "chunks/2026-01-18_shop_001.md", "summary": "Coupon debugging", "tags": ["coupon"], "chunk_type": "debug", "project": "shop", "ticket": "SHOP-12", "domain": "payments", "created_at": "2026-01-18T14:03:22.5"},
  {"id": "2026-01-19_shop_001", "file": "chunks/2026-01-19_shop_001.md", "summary": "Old session", "tags": [], "chunk_type": "session", "project": "shop", "created_at": "2026-01-19T08:00:00"},
  {"id": "2026-01-20_shop_001", "file": "../../etc/passwd", "summary": "escapes", "chunk_type": "session", "project": "shop", "created_at": "2026-01-20T08:00:00"}
]}`)
	write("chunks/2026-01-18_shop_001.md", "---\nid: 2026-01-18_shop_001\nsummary: Coupon debugging\ntags: coupon\nchunk_type: debug\nentities:\n  files: cart.py\nproject: shop\n---\n\nThe coupon was applied twice in cart.py\nbecause apply_coupon() ran before the total.\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("---\nid: 2026-01-19_shop_001\nsummary: Old session\n---\n\nWe moved the queue to Redis.\n"))
	zw.Close()
	write("archive/2026-01-19_shop_001.md.gz", gz.String())
	return dir
}

func TestImportRLM(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	dir := rlmFolder(t)
	code, out, errOut := runRubi(t, "import", "rlm", dir, "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"insights: 2 created, 0 merged into existing nodes",
		"chunks: 2 saved (1 of them archived), 0 already stored",
		"skipped chunk 2026-01-20_shop_001: its file \"../../etc/passwd\" is outside the folder",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runRubi(t, "nodes", "--root", root)
	if !strings.Contains(out, "Always deploy LOCAL then VPS, never direct (critical)") || !strings.Contains(out, "note               WeasyPrint requires inline CSS for PDF rendering (high)") {
		t.Errorf("nodes:\n%s", out)
	}
	_, out, _ = runRubi(t, "memory", "list", "--root", root)
	if !strings.Contains(out, "debug    2026-01-18") || !strings.Contains(out, "Coupon debugging (2 lines)") || !strings.Contains(out, "Old session (1 lines, archived)") {
		t.Errorf("memory list:\n%s", out)
	}
	_, out, _ = runRubi(t, "memory", "grep", "applied twice", "--root", root, "--entity", "SHOP-12")
	if !strings.Contains(out, ":1: The coupon was applied twice in cart.py") {
		t.Errorf("the imported text is not the chunk's (header left in?):\n%s", out)
	}
	// A second import adds nothing.
	_, out, _ = runRubi(t, "import", "rlm", dir, "--root", root)
	if !strings.Contains(out, "insights: 0 created, 2 merged") || !strings.Contains(out, "chunks: 0 saved (0 of them archived), 2 already stored") {
		t.Errorf("second import:\n%s", out)
	}
	if code, _, errOut := runRubi(t, "import", "rlm", filepath.Join(dir, "nope"), "--root", root); code != 1 || !strings.Contains(errOut, "not a folder") {
		t.Errorf("missing folder: %d %q", code, errOut)
	}
}
