package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// register's confirm re-anchors a stale note to the code as it is now.
func TestRegisterConfirm(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)
	ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "gotcha", "title": "Open never fails", "body": "Open(dsn) returns nil even for a bad DSN.", "files": []string{"store/store.go"}}}})

	// A comment edit flags nothing; an edit to Open does.
	time.Sleep(5 * time.Millisecond)
	writeFile(t, filepath.Join(root, "store", "store.go"), "// Package store keeps orders.\npackage store\n\n// Open connects.\nfunc Open(dsn string) error { return nil }\n")
	if out, _ := ok(t, c, "read", map[string]any{"target": "Open never fails"}); strings.Contains(out, "⚠") {
		t.Errorf("a comment edit made the note stale:\n%s", out)
	}
	time.Sleep(5 * time.Millisecond)
	writeFile(t, filepath.Join(root, "store", "store.go"), "// Package store keeps orders.\npackage store\n\n// Open connects.\nfunc Open(dsn string) error { return check(dsn) }\n")
	if out, _ := ok(t, c, "read", map[string]any{"target": "Open never fails"}); !strings.Contains(out, "⚠ Open changed (store/store.go L5)\n") {
		t.Errorf("read does not say what changed:\n%s", out)
	}

	out, res := ok(t, c, "register", map[string]any{"confirm": []string{"Open never fails"}})
	if out != "confirmed: gotcha-open-never-fails\n" {
		t.Errorf("confirm:\n%s", out)
	}
	var got registerOutput
	structured(t, res, &got)
	if len(got.Confirmed) != 1 || got.Confirmed[0] != "gotcha-open-never-fails" {
		t.Errorf("structured: %+v", got)
	}
	if out, _ := ok(t, c, "read", map[string]any{"target": "Open never fails"}); strings.Contains(out, "⚠") || !strings.Contains(out, "returns nil even for a bad DSN") {
		t.Errorf("after confirm:\n%s", out)
	}
	fails(t, c, "register", map[string]any{"confirm": []string{"no such note"}}, "error: confirm no such note")
}
