//go:build unix

package memory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// saveEnv makes the test binary a child that saves N turns into one
// session, a Save each, all in the same second: "ROOT WHO N".
const saveEnv = "RUBI_MEMORY_SAVE_TURNS"

func savingChild(spec string) int {
	var root, who string
	var n int
	if _, err := fmt.Sscan(spec, &root, &who, &n); err != nil {
		fmt.Fprintln(os.Stderr, "bad spec:", spec, err)
		return 2
	}
	s := Open(root)
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	for k := range n {
		if _, err := s.Save(context.Background(), Input{Session: "call", Content: fmt.Sprintf("%s says line %d", who, k), Created: at}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// Two processes saving into one session at once lose nothing: every turn
// is there, each in its own place of the session, and each process's
// turns in the order it saved them.
func TestTwoProcessesSaveIntoOneSession(t *testing.T) {
	root := t.TempDir()
	const n = 25
	var cmds []*exec.Cmd
	for _, who := range []string{"ana", "bo"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %d", saveEnv, root, who, n))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	list, err := Open(root).List(Filter{Session: "call"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2*n {
		t.Fatalf("%d chunks, want %d", len(list), 2*n)
	}
	slices.Reverse(list) // oldest first
	next := map[string]int{}
	for i, c := range list {
		if c.Seq != i+1 {
			t.Errorf("%s (%q) is at place %d, want %d: places are given once each, in order", c.ID, c.Summary, c.Seq, i+1)
		}
		who, line, _ := strings.Cut(c.Summary, " says line ")
		if want := fmt.Sprint(next[who]); line != want {
			t.Errorf("%s's line %s comes where line %s should", who, line, want)
		}
		next[who]++
	}
}
