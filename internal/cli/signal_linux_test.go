//go:build linux

package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi ends on SIGTERM, with the shell's status for it (143), even while
// its command is blocked where it does not watch its context: here a
// hook reading an input that never ends (as rubi install was, reading a
// FIFO settings.json). rubi caught the signal and ignored it for ever.
func TestSIGTERMEndsRubi(t *testing.T) {
	bin := rubitest.Binary(t)
	root := rubitest.Project(t, rubitest.GoProject)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cmd := exec.Command(bin, "hook", "SessionStart")
	cmd.Dir = root
	cmd.Stdin = r
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "RUBI_VAULT="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	// Once rubi has read the start of its input, it is past setting up
	// its signal handling, and blocked reading the rest.
	io.WriteString(w, `{"hook_event_name":"SessionStart",`)
	hang := time.After(time.Minute)
	for {
		n, err := unix.IoctlGetInt(int(w.Fd()), unix.TIOCINQ) // FIONREAD: what is left in the pipe
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("rubi ended before the signal: %v", err)
		case <-hang:
			t.Fatal("rubi did not read its input")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGTERM) {
			t.Errorf("rubi ended on SIGTERM with %v, want exit status 143", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("rubi ignored SIGTERM")
	}
}
