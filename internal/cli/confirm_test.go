package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

const calcGo = `package calc

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Sub subtracts.
func Sub(a, b int) int {
	return a - b
}
`

func writeCalc(t *testing.T, root, content string) {
	t.Helper()
	time.Sleep(5 * time.Millisecond)
	if err := os.WriteFile(filepath.Join(root, "calc", "calc.go"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A note is stale when the function it names changed, not when a comment
// or another function did; rubi status counts it, rubi read says what
// changed, rubi confirm re-anchors it.
func TestConfirmCommand(t *testing.T) {
	root := rubitest.Project(t, map[string]string{"go.mod": "module example.com/calc\n", "calc/calc.go": calcGo})
	t.Setenv("RUBI_VAULT", filepath.Join(t.TempDir(), "vault"))
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	notes := `[{"id": "note-add", "title": "Add sums", "body": "Add(a, b) returns the sum.", "files": ["calc/calc.go"]},
	{"id": "note-sub", "title": "Sub takes away", "body": "Sub(a, b) returns a minus b.", "files": ["calc/calc.go"]}]`
	if code, _, errOut := runRubiIn(t, notes, "register", "--json", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	status := func() string {
		t.Helper()
		code, out, errOut := runRubi(t, "status", "--root", root)
		if code != 0 {
			t.Fatal(errOut)
		}
		return out
	}
	if out := status(); strings.Contains(out, "stale") {
		t.Errorf("fresh notes counted stale:\n%s", out)
	}
	// A comment edit and another function's edit.
	writeCalc(t, root, strings.NewReplacer("// Add adds.", "// Add adds a and b.", "return a - b", "return b - a").Replace(calcGo))
	if out := status(); !strings.Contains(out, "), 1 stale (") {
		t.Errorf("status does not count the one stale note:\n%s", out)
	}
	if _, out, _ := runRubi(t, "read", "note-sub", "--root", root); !strings.HasPrefix(out, "⚠ Sub changed (calc/calc.go L9-11)\n") {
		t.Errorf("read note-sub:\n%s", out)
	}
	if _, out, _ := runRubi(t, "read", "note-add", "--root", root); strings.Contains(out, "⚠") {
		t.Errorf("read note-add warns:\n%s", out)
	}
	before, _ := os.ReadFile(filepath.Join(root, ".rubi", "knowledge", "note-sub.md"))
	code, out, errOut := runRubi(t, "confirm", "note-sub", "--root", root)
	if code != 0 || !strings.Contains(out, "confirmed: note-sub (anchored to calc/calc.go#Sub)") {
		t.Fatalf("confirm: exit %d\n%s%s", code, out, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(root, ".rubi", "knowledge", "note-sub.md"))
	if body := func(b []byte) string { return string(b[strings.Index(string(b), "\n---\n"):]) }; body(before) != body(after) {
		t.Errorf("confirm rewrote the note's text:\n%s\n---\n%s", before, after)
	}
	if out := status(); strings.Contains(out, "stale") {
		t.Errorf("confirmed note still stale:\n%s", out)
	}
	if code, _, errOut := runRubi(t, "confirm", "no-such-note", "--root", root); code == 0 || !strings.Contains(errOut, "no-such-note") {
		t.Errorf("confirm of an unknown note: exit %d, %s", code, errOut)
	}
}

// rubi index migrates the notes an older rubi anchored to whole files,
// from the file as it was (found in git), and says so.
func TestIndexMigratesAnchors(t *testing.T) {
	root := rubitest.Project(t, map[string]string{"go.mod": "module example.com/calc\n", "calc/calc.go": calcGo})
	t.Setenv("RUBI_VAULT", filepath.Join(t.TempDir(), "vault"))
	g, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := g.Worktree()
	commit := func() string {
		if err := wt.AddGlob("calc"); err != nil {
			t.Fatal(err)
		}
		h, err := wt.Commit("c", &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Now()}})
		if err != nil {
			t.Fatal(err)
		}
		return h.String()[:7]
	}
	c1 := commit()
	sum := sha256.Sum256([]byte(calcGo))
	for _, n := range []struct{ id, body string }{{"note-add", "Add(a, b) sums."}, {"note-sub", "Sub(a, b) takes away."}} {
		p := filepath.Join(root, ".rubi", "knowledge", n.id+".md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		doc := "---\nid: " + n.id + "\ntype: note\nstatus: active\ntitle: " + n.id + "\nfiles: [calc/calc.go]\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\ncommit: \"" + c1 + "\"\nanchors:\n    calc/calc.go: " + hex.EncodeToString(sum[:]) + "\n---\n# " + n.id + "\n\n" + n.body + "\n"
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeCalc(t, root, strings.NewReplacer("// Add adds.", "// Add adds a and b.", "return a - b", "return b - a").Replace(calcGo))
	commit()
	if _, out, _ := runRubi(t, "status", "--root", root); !strings.Contains(out, "2 stale") || !strings.Contains(out, "2 still on whole-file anchors") {
		t.Errorf("before the migration:\n%s", out)
	}
	code, out, errOut := runRubi(t, "index", "--root", root)
	if code != 0 || !strings.Contains(out, "anchors migrated: note-add, to the code of calc/calc.go") || !strings.Contains(out, "anchors migrated: note-sub") {
		t.Fatalf("index: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := runRubi(t, "status", "--root", root); !strings.Contains(out, "1 stale") || strings.Contains(out, "whole-file") {
		t.Errorf("after the migration:\n%s", out)
	}
	if _, out, _ := runRubi(t, "read", "note-sub", "--root", root); !strings.HasPrefix(out, "⚠ Sub changed (calc/calc.go L9-11)\n") {
		t.Errorf("read note-sub:\n%s", out)
	}
	// Again: nothing to migrate.
	if _, out, _ := runRubi(t, "index", "--root", root); strings.Contains(out, "migrated") {
		t.Errorf("second index migrated again:\n%s", out)
	}
}
