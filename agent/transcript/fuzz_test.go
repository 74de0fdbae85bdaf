package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// logSeeds are the real logs of Claude Code, Codex and Gemini CLI, cut at
// line ends into pieces of a few kilobytes (a fuzzer mutates small inputs
// faster), each piece a log of its own.
func logSeeds(tb testing.TB) [][]byte {
	files, _ := filepath.Glob("testdata/*.jsonl")
	files = append(files, filepath.Join("..", "hooks", "testdata", "gemini-cli", "transcript.jsonl"))
	var seeds [][]byte
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		for len(data) > 0 {
			n := min(len(data), 4<<10)
			if i := bytes.IndexByte(data[n-1:], '\n'); i >= 0 {
				n += i
			} else {
				n = len(data)
			}
			seeds = append(seeds, data[:n])
			data = data[n:]
		}
	}
	return seeds
}

// checkRecord is what every record of any log must be: a known kind on a
// line the reader read (0 for LastCall's, from a window of the log),
// counts never negative, a usage within bounds.
func checkRecord(t *testing.T, r Record, first int, lines int64) {
	if r.Kind < KindCall || r.Kind > KindCompaction || r.Line < first || int64(r.Line) > lines || r.Tokens < 0 {
		t.Fatalf("record %+v after %d lines", r, lines)
	}
	if err := r.Usage.check(); err != nil {
		t.Fatalf("record %+v: %v", r, err)
	}
	if r.Kind == KindCall && r.Usage.IsZero() {
		t.Fatalf("a call without tokens: %+v", r)
	}
}

// An agent's log is read as it lies on disk, whatever wrote it: reading
// it, with the default line limit and with a tiny one, never panics and
// ends, every record is well formed (usages never negative nor absurd),
// and what cannot be read is counted as problems, never an error of the
// reading itself. LastCall reads the same log from its end.
func FuzzRecords(f *testing.F) {
	for _, s := range logSeeds(f) {
		f.Add(s)
	}
	path := filepath.Join(f.TempDir(), "session.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzRecords")()
		for _, maxLine := range []int{DefaultMaxLine, 64} {
			rd := NewReader(bytes.NewReader(data), "session.jsonl")
			rd.SetMaxLine(maxLine)
			for r := range rd.Records() {
				checkRecord(t, r, 1, rd.Stats().Lines)
			}
			if err := rd.Err(); err != nil {
				t.Fatalf("reading from memory failed: %v", err)
			}
			if st := rd.Stats(); st.Bytes != int64(len(data)) || len(rd.Problems()) > maxProblems || rd.ProblemCount() < len(rd.Problems()) {
				t.Fatalf("stats %+v of %d bytes, %d problems of %d", st, len(data), len(rd.Problems()), rd.ProblemCount())
			}
			for _, p := range rd.Problems() {
				if p.Msg == "" || p.Line < 1 || int64(p.Line) > rd.Stats().Lines {
					t.Fatalf("problem %+v", p)
				}
			}
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, ok, err := LastCall(path)
		if err != nil {
			t.Fatalf("LastCall: %v", err)
		}
		if ok {
			checkRecord(t, r, 0, int64(bytes.Count(data, []byte("\n"))+1))
			if r.Kind != KindCall || r.Sidechain {
				t.Fatalf("last call %+v", r)
			}
		}
	})
}
