package programs

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// Terminal is a stream that says whether it is a terminal. The programs'
// streams are files, which IsTerminal asks the system about; a test hands
// a command a Terminal to see what a user at one sees.
type Terminal interface {
	IsTerminal() bool
}

// IsTerminal reports whether stream is a terminal: a Terminal that says
// so, or a file open on one. A pipe, a regular file and /dev/null (a
// character device, but no terminal) are not.
func IsTerminal(stream any) bool {
	switch s := stream.(type) {
	case Terminal:
		return s.IsTerminal()
	case *os.File:
		return isatty.IsTerminal(s.Fd()) || isatty.IsCygwinTerminal(s.Fd())
	}
	return false
}

// NeedInput is the check every command that reads its input from standard
// input makes first. At a terminal nothing is piped in, and the read
// would wait, silently, for input the user does not know to type: in its
// place NeedInput writes on stderr what the command reads and how else to
// give it, and returns an ExitError with status 2 (a usage error). With
// piped or redirected input it returns nil and the command reads as
// before. who names the command ("rubi: register"), what it reads ("a
// JSON array of nodes"), how the other way to give it, with an example.
func NeedInput(stdin io.Reader, stderr io.Writer, who, what, how string) error {
	if !IsTerminal(stdin) {
		return nil
	}
	fmt.Fprintf(stderr, "%s reads %s on standard input, which is a terminal: %s\n", who, what, how)
	return &ExitError{Code: 2}
}
