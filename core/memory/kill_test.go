//go:build unix

package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// killEnv makes the test binary a child that runs one retention operation
// and kills itself with SIGKILL at a step: "STEP OP ROOT UNIX-TIME".
const killEnv = "RUBI_MEMORY_KILL_AT"

func TestMain(m *testing.M) {
	if spec := os.Getenv(killEnv); spec != "" {
		os.Exit(killedChild(spec))
	}
	if spec := os.Getenv(saveEnv); spec != "" {
		os.Exit(savingChild(spec))
	}
	os.Exit(m.Run())
}

// killedChild runs OP (retain or read ID) on the store at ROOT with the
// clock at UNIX-TIME, and dies at STEP the way a killed process does: no
// deferred function, no unlock, no cleanup.
func killedChild(spec string) int {
	var step, op, root, id string
	var now int64
	if _, err := fmt.Sscan(spec, &step, &op, &root, &now, &id); err != nil {
		fmt.Fprintln(os.Stderr, "bad spec:", spec, err)
		return 2
	}
	s := Open(root)
	s.Now = func() time.Time { return time.Unix(now, 0) }
	s.crash = func(at, _ string) error {
		if at == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal arrives
		}
		return nil
	}
	var err error
	switch op {
	case "retain":
		_, err = s.Retain(context.Background(), policy)
	case "read":
		_, err = s.Read(context.Background(), id)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0 // the step never came
}

// runKilled runs a child that must die by SIGKILL at step.
func runKilled(t *testing.T, step, op, root string, now time.Time, id string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %s %d %s", killEnv, step, op, root, now.Unix(), id))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("%s %s: the child was not killed (%v): %s", op, step, err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("%s %s: the child ended with %v, not SIGKILL: %s", op, step, err, out)
	}
}

// A process killed (SIGKILL) in the middle of any move of the retention
// lifecycle loses nothing: the chunk still reads, and the next run leaves
// exactly one copy of it (none after a purge, which was asked for).
func TestRetentionSurvivesAKilledProcess(t *testing.T) {
	const text = "a line worth keeping"
	for _, at := range []string{"archive", "restore", "tidy", "purge"} {
		t.Run(at, func(t *testing.T) {
			s, later := aged(t)
			c := save(t, s, Input{Summary: "to move", Content: text})
			later(31)
			ctx := context.Background()
			switch at {
			case "archive":
				runKilled(t, "archive", "retain", s.root, s.Now(), "-")
			case "restore", "tidy":
				if _, err := s.Retain(ctx, policy); err != nil {
					t.Fatal(err)
				}
				runKilled(t, "restore", "read", s.root, s.Now(), c.ID)
				if at == "tidy" {
					// Both files are left; kill the run that tidies them.
					runKilled(t, "tidy", "retain", s.root, s.Now(), "-")
				}
			case "purge":
				if _, err := s.Retain(ctx, policy); err != nil {
					t.Fatal(err)
				}
				old := s.Now().Add(-200 * 24 * time.Hour)
				os.Chtimes(s.archivePath(c.ID), old, old)
				runKilled(t, "purge", "retain", s.root, s.Now(), "-")
			}
			if at != "purge" {
				got, err := s.Get(c.ID)
				if err != nil || got.Content != text {
					t.Fatalf("after a kill at %s, the chunk reads %+v, %v", at, got, err)
				}
			}
			// The lock a killed process held does not stop the next run
			// (flock dies with its process), which finishes the job.
			if _, err := s.Retain(ctx, policy); err != nil {
				t.Fatalf("the run after the kill: %v", err)
			}
			_, errActive := os.Stat(s.activePath(c.ID))
			_, errArchive := os.Stat(s.archivePath(c.ID))
			switch {
			case errActive == nil && errArchive == nil:
				t.Errorf("after a kill at %s and a run: both the chunk and its archive", at)
			case at != "purge" && errActive != nil && errArchive != nil:
				t.Errorf("after a kill at %s and a run: the chunk is gone", at)
			case at == "purge" && (errActive == nil || errArchive == nil):
				t.Errorf("after a kill while purging and a run: the chunk is still there")
			}
			if at != "purge" {
				if got, err := s.Read(ctx, c.ID); err != nil || got.Content != text {
					t.Errorf("after a kill at %s and a run, a read gives %+v, %v", at, got, err)
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(s.dir, "*.tmp*"))
			leftovers2, _ := filepath.Glob(filepath.Join(s.dir, archiveDir, "*.tmp*"))
			if len(leftovers)+len(leftovers2) > 0 {
				t.Errorf("temporary files left: %v %v", leftovers, leftovers2)
			}
		})
	}
}
