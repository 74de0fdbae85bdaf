package cli

import (
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// A handoff given as markdown comes back whole from `rubi handoff last`,
// prose under a list section included; the JSON `last --json` prints
// saves again as the same handoff.
func TestHandoffLastIsWhole(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	text := "## Goal\n\nAdd a second coupon type\n\n## Next\n\nWire the endpoint zebra-42\n\n## Risks\n- refunds share the total\n\n## Notes\nsomething else"
	if code, _, errOut := runRubiIn(t, `{"text": "`+strings.ReplaceAll(text, "\n", `\n`)+`"}`, "handoff", "save", "--root", root); code != 0 {
		t.Fatalf("save: exit %d: %s", code, errOut)
	}
	code, out, errOut := runRubi(t, "handoff", "last", "--root", root)
	if code != 0 || !strings.Contains(out, "\n\n"+text+"\n") {
		t.Fatalf("last: exit %d: %s\n%s", code, errOut, out)
	}
	_, js, _ := runRubi(t, "handoff", "last", "--root", root, "--json")
	if code, _, errOut := runRubiIn(t, js, "handoff", "save", "--root", root); code != 0 {
		t.Fatalf("saving what last --json printed: exit %d: %s", code, errOut)
	}
	if _, out, _ := runRubi(t, "handoff", "last", "--root", root); !strings.Contains(out, "\n\n"+text+"\n") {
		t.Errorf("the copy is not the same handoff:\n%s", out)
	}
	// Flags and text that disagree are refused, not one dropped.
	code, _, errOut = runRubiIn(t, `{"text": "## Goal\nA", "goal": "B"}`, "handoff", "save", "--root", root)
	if code != 1 || !strings.Contains(errOut, "goal is not what its text says") {
		t.Errorf("text and goal that disagree: exit %d: %s", code, errOut)
	}
}
