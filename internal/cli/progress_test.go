package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
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
	root := rubitest.Project(t, rubitest.GoProject)
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
	root := rubitest.Project(t, rubitest.GoProject)
	setSlowIndex(t, time.Hour)
	code, out, errOut := runRubi(t, "context", "open the database", "--root", root)
	if code != 0 || errOut != "" || out == "" {
		t.Errorf("exit %d, stdout %q, stderr %q: a quick index should print nothing on stderr", code, out, errOut)
	}
}

// forceTerminal has rubi take every stream for a terminal, for one test,
// as TERM=xterm with colour allowed.
func forceTerminal(t *testing.T) {
	t.Helper()
	old := terminalDevice
	terminalDevice = func(io.Writer) bool { return true }
	t.Cleanup(func() { terminalDevice = old })
	t.Setenv("TERM", "xterm")
	t.Setenv("NO_COLOR", "")
}

// drawEveryEvent has a progress display draw a frame at each event of the
// run, from its start, for one test.
func drawEveryEvent(t *testing.T) {
	old := progressTiming
	progressTiming.delay, progressTiming.every = 0, 0
	t.Cleanup(func() { progressTiming = old })
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// frames splits what a progress display wrote into its frames, each
// without its escapes, and the lines after the last.
func frames(t *testing.T, out string) (drawn []string, after string) {
	t.Helper()
	out = sgr.ReplaceAllString(out, "")
	parts := strings.Split(out, "\r")
	for _, p := range parts[1:] {
		if f, ok := strings.CutSuffix(p, "\x1b[K"); ok {
			drawn = append(drawn, f)
			continue
		}
		if rest, ok := strings.CutPrefix(p, "\x1b[K"); ok {
			after += rest
			continue
		}
		t.Errorf("a part of the display is neither a frame nor a clearing: %q", p)
	}
	return drawn, after
}

// A fake run of every phase: the display names each step in turn, counts
// the files indexed of the files to index (a binary file found on reading
// leaves the count), the rankers through, shows the time that went, and
// ends with the files indexed and the run's time.
func TestProgressDisplay(t *testing.T) {
	drawEveryEvent(t)
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return clock }
	var out strings.Builder
	d := newProgressDisplay(&out, messages.English, now)
	for _, p := range []pipeline.Progress{
		{Phase: pipeline.PhaseWalk}, {Phase: pipeline.PhaseWalk, Done: 1800}, {Phase: pipeline.PhaseWalk, Done: 5700},
		{Phase: pipeline.PhaseRead, Done: 0, Total: 5700}, {Phase: pipeline.PhaseRead, Done: 2596, Total: 5614},
		{Phase: pipeline.PhaseParse, Done: 2596, Total: 5614}, {Phase: pipeline.PhaseParse, Done: 5614, Total: 5614},
		{Phase: pipeline.PhaseNotes}, {Phase: pipeline.PhaseImports}, {Phase: pipeline.PhaseReferences},
		{Phase: pipeline.PhaseRank}, {Phase: pipeline.PhaseRankers, Total: 3}, {Phase: pipeline.PhaseRankers, Done: 3, Total: 3},
		{Phase: pipeline.PhaseWrite},
	} {
		clock = clock.Add(500 * time.Millisecond)
		d.update(p)
	}
	d.finish(&pipeline.IndexStats{Files: pipeline.FileCounts{Indexed: 5614}, DurationMS: 7012}, nil)
	drawn, after := frames(t, out.String())
	want := []string{
		"rubi: [step 1/9] walking the project · 0 files · 0.5 s",
		"rubi: [step 1/9] walking the project · 1,800 files · 1.0 s",
		"rubi: [step 1/9] walking the project · 5,700 files · 1.5 s",
		"rubi: [step 2/9] reading  ░░░░░░░░░░░░░░░░░░░░  0/5,700 files 0% · 2.0 s",
		"rubi: [step 2/9] reading  █████████░░░░░░░░░░░  2,596/5,614 files 46% · 2.5 s",
		"rubi: [step 3/9] parsing  █████████░░░░░░░░░░░  2,596/5,614 files 46% · 3.0 s",
		"rubi: [step 3/9] parsing  ████████████████████  5,614/5,614 files 100% · 3.5 s",
		"rubi: [step 4/9] reading the notes and sources · 5,614 files · 4.0 s",
		"rubi: [step 5/9] resolving imports · 5,614 files · 4.5 s",
		"rubi: [step 6/9] finding references · 5,614 files · 5.0 s",
		"rubi: [step 7/9] ranking the files · 5,614 files · 5.5 s",
		"rubi: [step 8/9] indexing the rankers 0/3 · 5,614 files · 6.0 s",
		"rubi: [step 8/9] indexing the rankers 3/3 · 5,614 files · 6.5 s",
		"rubi: [step 9/9] writing the index · 5,614 files · 7.0 s",
	}
	if strings.Join(drawn, "\n") != strings.Join(want, "\n") {
		t.Errorf("frames:\n%s\nwant:\n%s", strings.Join(drawn, "\n"), strings.Join(want, "\n"))
	}
	if after != "rubi: indexed 5,614 files in 7.0 s\n" {
		t.Errorf("the display ended with %q", after)
	}
}

// A run quicker than the delay draws nothing, and ends saying nothing.
func TestProgressDisplayQuickRun(t *testing.T) {
	drawEveryEvent(t)
	progressTiming.delay = time.Second
	clock := time.Now()
	var out strings.Builder
	d := newProgressDisplay(&out, messages.English, func() time.Time { return clock })
	d.update(pipeline.Progress{Phase: pipeline.PhaseWalk, Done: 10})
	d.update(pipeline.Progress{Phase: pipeline.PhaseRead, Done: 10, Total: 10})
	d.finish(&pipeline.IndexStats{Files: pipeline.FileCounts{Indexed: 10}}, nil)
	if out.Len() != 0 {
		t.Errorf("a quick run drew %q", out.String())
	}
}

// A narrow terminal loses the bar, then the end of the line: a frame
// never wraps, which would break drawing it again in place.
func TestProgressFrameWidth(t *testing.T) {
	p := pipeline.Progress{Phase: pipeline.PhaseParse, Done: 2596, Total: 5614}
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, "rubi: [step 3/9] parsing  █████████░░░░░░░░░░░  2,596/5,614 files 46% · 3.0 s"},
		{80, "rubi: [step 3/9] parsing  █████████░░░░░░░░░░░  2,596/5,614 files 46% · 3.0 s"},
		{60, "rubi: [step 3/9] parsing · 2,596/5,614 files 46% · 3.0 s"},
		{30, "rubi: [step 3/9] parsing · 2,"},
	} {
		got := progressFrame(messages.English, style{}, p, -1, 3*time.Second, c.width)
		if got != c.want || c.width > 0 && messages.Columns(got) >= c.width {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

// rubi index on a terminal shows every step of the run in order, counts
// the files it indexes up to all of them, and ends with the count the
// summary gives; with --json, or piped, it draws nothing.
func TestIndexProgressOnTerminal(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	forceTerminal(t)
	drawEveryEvent(t)
	code, out, errOut := runRubi(t, "index", "--full", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "indexed 6 files in ") {
		t.Fatalf("the summary should count 6 files:\n%s", out)
	}
	drawn, after := frames(t, errOut)
	step := regexp.MustCompile(`^rubi: \[step (\d)/9\] `)
	var steps []string
	lastFiles := ""
	for _, f := range drawn {
		m := step.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("a frame without its step: %q", f)
		}
		if len(steps) == 0 || steps[len(steps)-1] != m[1] {
			steps = append(steps, m[1])
		}
		if strings.Contains(f, "/6 files") || strings.Contains(f, "/7 files") {
			lastFiles = f
		}
		if m[1] > "3" && !strings.Contains(f, " · 6 files · ") {
			t.Errorf("a frame after the parsing without the 6 files: %q", f)
		}
	}
	if got := strings.Join(steps, " "); got != "1 2 3 4 5 6 7 8 9" {
		t.Errorf("steps %s, want each of 1 to 9 in order:\n%s", got, strings.Join(drawn, "\n"))
	}
	if !strings.Contains(lastFiles, "parsing  ████████████████████  6/6 files 100% ·") {
		t.Errorf("the files' count ended at %q, want all 6 indexed", lastFiles)
	}
	if !strings.HasPrefix(after, "rubi: indexed 6 files in ") || strings.Count(after, "\n") != 1 {
		t.Errorf("the display should end with the files indexed: %q", after)
	}

	code, out, errOut = runRubi(t, "index", "--full", "--root", root, "--json")
	if code != 0 || strings.Contains(errOut, "\r") || strings.Contains(errOut, "[step") || !strings.HasPrefix(out, "{") {
		t.Errorf("--json on a terminal: exit %d, stderr %q, stdout %.40q", code, errOut, out)
	}
	terminalDevice = func(io.Writer) bool { return false }
	code, _, errOut = runRubi(t, "index", "--full", "--root", root)
	if code != 0 || strings.Contains(errOut, "\r") || strings.Contains(errOut, "[step") {
		t.Errorf("piped: exit %d, stderr %q", code, errOut)
	}
	terminalDevice = func(io.Writer) bool { return true }
	t.Setenv("TERM", "dumb")
	code, _, errOut = runRubi(t, "index", "--full", "--root", root)
	if code != 0 || strings.Contains(errOut, "\r") || strings.Contains(errOut, "[step") {
		t.Errorf("TERM=dumb: exit %d, stderr %q", code, errOut)
	}
}

// A log line written while the display shows goes on a line of its own,
// the frame cleared before it and drawn again after.
func TestProgressDisplayLogLine(t *testing.T) {
	drawEveryEvent(t)
	var out strings.Builder
	d := newProgressDisplay(&out, messages.English, time.Now)
	lo := &logOutput{w: &out}
	lo.hold(d)
	d.update(pipeline.Progress{Phase: pipeline.PhaseImports})
	fmt.Fprintln(lo, "[WARN] rubi: parse failed")
	lo.hold(nil)
	d.finish(&pipeline.IndexStats{}, errors.New("failed"))
	got := sgr.ReplaceAllString(out.String(), "")
	re := regexp.MustCompile(`^\rrubi: \[step 5/9\] resolving imports · [0-9.]+ s\x1b\[K\r\x1b\[K\[WARN\] rubi: parse failed\n\rrubi: \[step 5/9\] resolving imports · [0-9.]+ s\x1b\[K\r\x1b\[K$`)
	if !re.MatchString(got) {
		t.Errorf("display with a log line: %q", got)
	}
}
