package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// statusKeys are the keys of rubi status --json, two levels deep: what
// docs/cli.md documents and scripts may rely on.
var statusKeys = []string{
	"at", "index", "index.age_seconds", "index.files", "index.indexed_at", "index.nodes", "index.notes_changed", "index.rankers", "index.state",
	"knowledge", "knowledge.personal", "knowledge.project", "knowledge.stale", "knowledge.vault", "knowledge.whole_file_anchors", "last_written",
	"memory", "memory.active", "memory.archived", "memory.by_type", "memory.due", "memory.last_read", "memory.last_saved",
	"memory.next_archive", "memory.next_purge", "memory.policy", "memory.problems", "memory.reads",
	"problems", "root", "sizes", "sizes.index", "sizes.knowledge", "sizes.rubi", "sizes.sessions", "sizes.vault",
}

func TestStatusCommand(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	t.Setenv("RUBI_VAULT", filepath.Join(t.TempDir(), "vault"))
	// Before any index: exit 0, and the status says there is none.
	code, out, errOut := runRubi(t, "status", "--root", root)
	if code != 0 || !strings.Contains(out, "index: none yet") || errOut != "" {
		t.Fatalf("status before an index: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runRubiIn(t, "We chose cents for money.\n", "memory", "save", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	if err := os.MkdirAll(filepath.Join(root, ".rubi", "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".rubi", "knowledge", "gotcha-unreadable.md"), []byte("---\nid: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runRubi(t, "status", "--root", root)
	for _, want := range []string{"rubi status of " + root, "memory: 1 chunk active (1 session), 0 archived", "index: ", "problems (1):", "gotcha-unreadable.md"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("status lacks %q: exit %d\n%s%s", want, code, out, errOut)
		}
	}

	code, out, _ = runRubi(t, "status", "--root", root, "--json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("status --json: exit %d, %v\n%s", code, err, out)
	}
	var keys []string
	for k, v := range doc {
		keys = append(keys, k)
		if m, ok := v.(map[string]any); ok {
			for k2 := range m {
				keys = append(keys, k+"."+k2)
			}
		}
	}
	sort.Strings(keys)
	if !slices.Equal(keys, statusKeys) {
		t.Errorf("status --json keys changed (update docs/cli.md and statusKeys):\n got %q\nwant %q", keys, statusKeys)
	}
	doc2, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc2), "## `rubi status")
	section, _, _ = strings.Cut(section, "\n## ")
	for _, k := range statusKeys {
		if name := k[strings.LastIndex(k, ".")+1:]; !strings.Contains(section, "`"+name+"`") {
			t.Errorf("docs/cli.md's rubi status section does not document %s", k)
		}
	}
}
