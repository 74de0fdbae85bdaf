package cli

import (
	"encoding/json"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/rubi-dev/rubi/internal/programs"
)

// writeJSON prints v as indented JSON, the form of every --json output.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// What rubi writes for people on a terminal: colour for the marks and
// headings, a progress display for a long index run. Neither goes to a
// pipe or a file, nor to a terminal that cannot take them (TERM=dumb),
// and colour not when NO_COLOR is set (https://no-color.org).

// isTerminal reports whether w is a terminal that takes escape sequences:
// a terminal device, and TERM is not "dumb".
func isTerminal(w io.Writer) bool {
	return terminalDevice(w) && os.Getenv("TERM") != "dumb"
}

// terminalDevice reports whether w is a terminal device
// (programs.IsTerminal, the check standard input's readers make too).
// Tests set it (forceTerminal) to see what a terminal would.
var terminalDevice = func(w io.Writer) bool { return programs.IsTerminal(w) }

// columns is the width of the terminal w, 0 when unknown.
func columns(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	n, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return n
}

// style colours the marks and headings of what is written to one stream,
// or leaves them as they are: its zero value writes plain text.
type style struct{ colour bool }

// styleFor is the style of text written to w: coloured on a terminal
// unless NO_COLOR has a value.
func styleFor(w io.Writer) style {
	return style{colour: isTerminal(w) && os.Getenv("NO_COLOR") == ""}
}

// The SGR codes rubi uses: a mark that passed, failed or warns, a heading.
const (
	sgrGreen  = "32"
	sgrRed    = "31"
	sgrYellow = "33"
	sgrBold   = "1"
)

func (s style) paint(sgr, text string) string {
	if !s.colour || text == "" {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}

// ok is a mark of what passed (✓), bad of what failed (✗), warn of what
// deserves a look (!), heading a heading.
func (s style) ok(text string) string      { return s.paint(sgrGreen, text) }
func (s style) bad(text string) string     { return s.paint(sgrRed, text) }
func (s style) warn(text string) string    { return s.paint(sgrYellow, text) }
func (s style) heading(text string) string { return s.paint(sgrBold, text) }
