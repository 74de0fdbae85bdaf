package rubitest

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// PTY opens a pseudo-terminal and returns its terminal end, a file on a
// real terminal (/dev/pts/N), for a test that hands it to a command as
// standard input, and its other end, where the test types; both close when
// the test ends. A test that expects the command not to read types Ctrl-D
// first: a command that reads anyway gets an end of input instead of
// waiting for ever.
func PTY(t testing.TB) (tty, typed *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pseudo-terminal's number: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("the pseudo-terminal's terminal end: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts, ptmx
}
