package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// freshProject is rubitest.GoProject indexed, as a user's project is after the
// first session.
func freshProject(t *testing.T) string {
	t.Helper()
	root := rubitest.Project(t, rubitest.GoProject)
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	return root
}

// contextNoRefresh answers from the index as it stands, refreshing
// nothing: what a write left in it.
func contextNoRefresh(t *testing.T, root, query, kinds string) string {
	t.Helper()
	code, out, errOut := runRubi(t, "context", query, "--root", root, "--kinds", kinds, "--no-refresh")
	if code != 0 {
		t.Fatalf("context: exit %d: %s", code, errOut)
	}
	return out
}

// Issue 21: `rubi register` a gotcha, then a Claude Code UserPromptSubmit
// payload about it: the hook injects it, without any `rubi context` in
// between.
func TestRegisteredNoteIsRecalledByTheNextPrompt(t *testing.T) {
	root := freshProject(t)
	code, _, errOut := runRubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Coupon applied twice",
		"--file", "store/store.go", "--body", "The discount ran before the total was recomputed.")
	if code != 0 || errOut != "" {
		t.Fatalf("register: exit %d: %s", code, errOut)
	}
	payload := fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":%q,"prompt":"why is the coupon discount applied twice at checkout?"}`, root)
	code, out, errOut := runRubiIn(t, payload, "hook", "UserPromptSubmit")
	var a struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || !strings.Contains(a.Specific.Context, "Coupon applied twice") {
		log, _ := os.ReadFile(filepath.Join(root, ".rubi", "hooks.log"))
		t.Errorf("the hook did not recall the registered note: exit %d, stdout %q, stderr %q, hooks.log %q", code, out, errOut, log)
	}
}

// Every command that writes notes, chunks or summaries leaves the index
// up to date before it returns: a query that refreshes nothing finds what
// it wrote, and no longer finds what it removed.
func TestWritesUpdateTheIndexBeforeReturning(t *testing.T) {
	root := freshProject(t)
	run := func(stdin string, args ...string) {
		t.Helper()
		if code, _, errOut := runRubiIn(t, stdin, append(args, "--root", root)...); code != 0 || errOut != "" {
			t.Fatalf("%s: exit %d: %s", args, code, errOut)
		}
	}
	run("", "register", "--type", "gotcha", "--title", "Zebra orders vanish on retry", "--body", "The retry dropped the order id.")
	if out := contextNoRefresh(t, root, "zebra orders vanish", "node"); !strings.Contains(out, "Zebra orders vanish on retry") {
		t.Errorf("register: not in the index:\n%s", out)
	}
	run("", "forget", "--hard", "gotcha-zebra-orders-vanish-on-retry")
	if out := contextNoRefresh(t, root, "zebra orders vanish", "node"); strings.Contains(out, "Zebra orders vanish") {
		t.Errorf("forget: still in the index:\n%s", out)
	}
	run("The quokka migration stalls on the third batch.", "memory", "save", "--summary", "quokka migration log")
	if out := contextNoRefresh(t, root, "quokka migration stalls", "chunk"); !strings.Contains(out, "quokka migration log") {
		t.Errorf("memory save: not in the index:\n%s", out)
	}
	run(`{"text": "## Goal\nShip the okapi importer\n\n## Next\nWire the okapi endpoint"}`, "handoff", "save")
	if out := contextNoRefresh(t, root, "okapi importer endpoint", "chunk"); !strings.Contains(out, "Handoff: Ship the okapi importer") {
		t.Errorf("handoff save: not in the index:\n%s", out)
	}
	run("", "summary", "map", "An order store with a web front end, for the capybara shop.")
	if data, _ := os.ReadFile(filepath.Join(root, ".rubi", "map.md")); !strings.Contains(string(data), "capybara shop") {
		t.Errorf("summary: the map does not show it:\n%s", data)
	}
	legacy := t.TempDir()
	os.MkdirAll(filepath.Join(legacy, "conhecimento"), 0o755)
	os.WriteFile(filepath.Join(legacy, "conhecimento", "gnu.md"), []byte("---\ntipo: gotcha\ntitulo: Gnu invoices round twice\n---\nRounding ran per line and on the total.\n"), 0o644)
	run("", "import", "rubi-js", legacy)
	if out := contextNoRefresh(t, root, "gnu invoices round", "node"); !strings.Contains(out, "Gnu invoices round twice") {
		t.Errorf("import: not in the index:\n%s", out)
	}
}
