package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// setSlowIndex sets how long an index run goes before rubi says it is
// indexing, for one test.
func setSlowIndex(t *testing.T, d time.Duration) {
	old := slowIndex
	slowIndex = d
	t.Cleanup(func() { slowIndex = old })
}

// A command whose index run takes long (here: any time at all) says on
// stderr that rubi is indexing and when it is done; --json's stdout stays
// the JSON alone.
func TestSlowIndexSaysIndexing(t *testing.T) {
	root := rubitest.Project(t, goProject)
	setSlowIndex(t, 0)
	code, out, errOut := runRubi(t, "context", "open the database", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(errOut, "rubi: indexing "+root+"… (a first run reads every file; later runs only what changed)\n") ||
		!strings.Contains(errOut, "rubi: indexed 6 files in ") {
		t.Errorf("stderr should say rubi is indexing, then that it is done:\n%s", errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || strings.Contains(out, "indexing") {
		t.Errorf("stdout is not the JSON alone (%v):\n%s", err, out)
	}
	code, _, errOut = runRubi(t, "map", "--root", root)
	if code != 0 || !strings.Contains(errOut, "rubi: indexing") {
		t.Errorf("map, slow: exit %d, stderr %q", code, errOut)
	}
}

// A run quicker than the threshold says nothing.
func TestQuickIndexSaysNothing(t *testing.T) {
	root := rubitest.Project(t, goProject)
	setSlowIndex(t, time.Hour)
	code, out, errOut := runRubi(t, "context", "open the database", "--root", root)
	if code != 0 || errOut != "" || out == "" {
		t.Errorf("exit %d, stdout %q, stderr %q: a quick index should print nothing on stderr", code, out, errOut)
	}
}
