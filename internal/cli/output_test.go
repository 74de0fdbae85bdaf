package cli

import (
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// On a terminal, doctor's marks and headings, status's headings and an
// error's rubi: are in colour; with NO_COLOR set, TERM=dumb or the output
// piped, nothing is, and the text is the same.
func TestColour(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	report := &doctorReport{Version: "1.2.3", Root: root}
	report.ok("programs", "rubi", raw("1.2.3"))
	report.problem("agents", "cursor", raw("rubi-mcp is missing"), raw("rubi connect cursor"))
	run := func() (doctor, status, failed string) {
		var b strings.Builder
		writeDoctor(&b, messages.English, report)
		_, status, _ = runRubi(t, "status", "--root", root)
		_, _, failed = runRubi(t, "status", "--root", filepath.Join(root, "missing"))
		return b.String(), status, failed
	}
	forceTerminal(t)
	doctor, status, failed := run()
	for _, want := range []string{"\x1b[32m✓\x1b[0m rubi: 1.2.3", "\x1b[31m✗\x1b[0m cursor: rubi-mcp is missing", "\n\x1b[1mprograms\x1b[0m\n", "\x1b[1mrubi doctor 1.2.3, project " + root + "\x1b[0m\n"} {
		if !strings.Contains(doctor, want) {
			t.Errorf("doctor on a terminal lacks %q:\n%q", want, doctor)
		}
	}
	for _, want := range []string{"\x1b[1mrubi status of " + root + "\x1b[0m\n", "\n\x1b[1mindex:\x1b[0m ", "\n\x1b[1mknowledge:\x1b[0m "} {
		if !strings.Contains(status, want) {
			t.Errorf("status on a terminal lacks %q:\n%q", want, status)
		}
	}
	if !strings.HasPrefix(failed, "\x1b[31mrubi\x1b[0m: ") {
		t.Errorf("an error on a terminal: %q", failed)
	}
	// The status says when the index was made, to the minute, which may
	// turn between two runs, and how long ago: "seconds ago", or "just
	// now" when the index was made in the second the status is dated
	// (Status.At is to the second).
	minute := regexp.MustCompile(`indexed [^(,]*\(\d{4}-\d\d-\d\d \d\d:\d\d\)`)
	plainDoctor, plainStatus, plainFailed := sgr.ReplaceAllString(doctor, ""), minute.ReplaceAllString(sgr.ReplaceAllString(status, ""), ""), sgr.ReplaceAllString(failed, "")

	for _, c := range []struct {
		name string
		set  func()
	}{
		{"NO_COLOR", func() { t.Setenv("NO_COLOR", "1") }},
		{"TERM=dumb", func() { t.Setenv("TERM", "dumb") }},
		{"piped", func() { terminalDevice = func(io.Writer) bool { return false } }},
	} {
		t.Run(c.name, func(t *testing.T) {
			forceTerminal(t)
			c.set()
			doctor, status, failed := run()
			if doctor != plainDoctor || minute.ReplaceAllString(status, "") != plainStatus || failed != plainFailed {
				t.Errorf("with %s, the output is not the terminal's without colour:\n%q\n%q\n%q\nthe terminal's without colour:\n%q\n%q\n%q", c.name, doctor, status, failed, plainDoctor, plainStatus, plainFailed)
			}
		})
	}
}
