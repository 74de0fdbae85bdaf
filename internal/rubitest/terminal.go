package rubitest

import "io"

// Terminal is standard input as a terminal: programs.IsTerminal says it
// is one, so a command run in-process with it behaves as at a terminal
// with nothing piped in. Reading it reads Reader (an empty one when nil),
// which the commands that check must not do.
type Terminal struct{ io.Reader }

// IsTerminal says the stream is a terminal (programs.Terminal).
func (Terminal) IsTerminal() bool { return true }

// Read reads Reader.
func (t Terminal) Read(p []byte) (int, error) {
	if t.Reader == nil {
		return 0, io.EOF
	}
	return t.Reader.Read(p)
}
