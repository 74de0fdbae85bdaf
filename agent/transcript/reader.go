package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/valyala/fastjson"

	"github.com/rubi-dev/rubi/core/store"
)

// DefaultMaxLine is the longest line a Reader keeps. Longer lines (a huge
// pasted image, say) are skipped and reported; memory stays bounded by it.
const DefaultMaxLine = 32 << 20

// maxProblems is how many problems a Reader keeps word for word; the rest
// are only counted.
const maxProblems = 20

// Stats counts what a Reader went through.
type Stats struct {
	Lines int64 `json:"lines"`
	Bytes int64 `json:"bytes"`
	// Duplicates counts lines of an API response already read (the same
	// response written again, or replayed).
	Duplicates int64 `json:"duplicates"`
}

// Reader streams the records of one log. It detects the agent from the
// first line: Codex rollout lines wrap everything in a "payload".
type Reader struct {
	path    string
	br      *bufio.Reader
	maxLine int
	parser  fastjson.Parser

	meta      Meta
	stats     Stats
	problems  []Problem
	nProblems int
	err       error

	// tools maps a tool call's id to the tool's name, to name its output.
	tools map[string]string
	// seen holds the ids of the calls already emitted: one API response
	// written as several lines comes out once.
	seen map[string]struct{}
	// pending is the call being assembled from consecutive lines.
	pending *Record

	// Codex: the model of the current turn and the cumulative usage last
	// seen; Codex reports each response twice (a usage record and a
	// token_count event), both with the thread's running total.
	model      string
	cumulative int64

	out []Record
}

// NewReader returns a Reader of the log r; path names it in problems.
func NewReader(r io.Reader, path string) *Reader {
	return newReaderSize(r, path, 1<<20)
}

// newReaderSize is NewReader reading through a buffer of size bytes: a
// log held in memory needs no more than its size, and a megabyte of fresh
// memory costs a fresh process (a hook) more than reading a tail.
func newReaderSize(r io.Reader, path string, size int) *Reader {
	return &Reader{
		path:    path,
		br:      bufio.NewReaderSize(r, size),
		maxLine: DefaultMaxLine,
		tools:   map[string]string{},
		seen:    map[string]struct{}{},
	}
}

// SetMaxLine changes the longest line kept (DefaultMaxLine).
func (r *Reader) SetMaxLine(n int) { r.maxLine = n }

// Meta returns what the lines read so far said about the session.
func (r *Reader) Meta() Meta { return r.meta }

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Problems returns the first lines that could not be read, in order.
func (r *Reader) Problems() []Problem { return r.problems }

// ProblemCount counts every line that could not be read.
func (r *Reader) ProblemCount() int { return r.nProblems }

// Err returns the I/O error that stopped the reading, if any.
func (r *Reader) Err() error { return r.err }

// Records yields the log's records in file order. It stops at the end of
// the input or on an I/O error (see Err); malformed lines are skipped (see
// Problems).
func (r *Reader) Records() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		for {
			b, complete, err := r.nextLine()
			if len(b) > 0 || complete {
				r.stats.Lines++
				r.line(b, int(r.stats.Lines), complete)
				for _, rec := range r.out {
					if !yield(rec) {
						return
					}
				}
				r.out = r.out[:0]
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					if errors.Is(err, errTooLong) {
						continue
					}
					r.err = fmt.Errorf("read %s: %w", r.path, err)
				}
				break
			}
		}
		if r.pending != nil {
			rec := r.flush()
			yield(rec)
		}
	}
}

var errTooLong = errors.New("line too long")

// nextLine returns the next line without its newline. complete is false
// for a last line with no newline. A line longer than maxLine is drained,
// reported, and returned as errTooLong with no content.
func (r *Reader) nextLine() (line []byte, complete bool, err error) {
	var buf []byte
	for {
		frag, err := r.br.ReadSlice('\n')
		r.stats.Bytes += int64(len(frag))
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(buf)+len(frag) > r.maxLine {
				return nil, false, r.drain(len(buf) + len(frag))
			}
			buf = append(buf, frag...)
			continue
		}
		if buf != nil {
			frag = append(buf, frag...)
		}
		if len(frag) > r.maxLine {
			r.stats.Lines++
			r.problem(int(r.stats.Lines), fmt.Sprintf("line of %d bytes is longer than the %d-byte limit; skipped", len(frag), r.maxLine), false)
			if err == nil {
				err = errTooLong
			}
			return nil, false, err
		}
		if err == nil {
			return bytes.TrimRight(frag, "\r\n"), true, nil
		}
		return frag, false, err
	}
}

// drain skips the rest of an overlong line and reports it.
func (r *Reader) drain(n int) error {
	for {
		frag, err := r.br.ReadSlice('\n')
		r.stats.Bytes += int64(len(frag))
		n += len(frag)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		r.stats.Lines++
		r.problem(int(r.stats.Lines), fmt.Sprintf("line of %d bytes is longer than the %d-byte limit; skipped", n, r.maxLine), false)
		if err != nil {
			return err
		}
		return errTooLong
	}
}

func (r *Reader) problem(line int, msg string, truncated bool) {
	r.nProblems++
	if len(r.problems) < maxProblems {
		r.problems = append(r.problems, Problem{Path: r.path, Line: line, Msg: msg, Truncated: truncated})
	}
}

// line decodes one line into r.out.
func (r *Reader) line(b []byte, n int, complete bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	var err error
	if r.meta.Agent == "" {
		// The first valid line tells the agent.
		if err = fastjson.ValidateBytes(b); err == nil {
			r.meta.Agent = detect(b)
		} else {
			err = invalid(err)
		}
	}
	switch {
	case err != nil:
	case r.meta.Agent == Codex:
		err = r.codexLine(b, n)
	case r.meta.Agent == GeminiCLI:
		err = r.geminiLine(b, n)
	default:
		err = r.claudeLine(b, n)
	}
	if err != nil {
		if !complete {
			r.problem(n, "truncated last line (the agent may still be writing it): "+err.Error(), true)
			return
		}
		r.problem(n, err.Error(), false)
	}
}

// detect tells a Codex rollout line or a Gemini CLI chat line from a
// Claude Code line.
func detect(b []byte) Agent {
	switch {
	case fastjson.Exists(b, "payload"):
		return Codex
	case fastjson.Exists(b, "$set") || fastjson.Exists(b, "projectHash") || fastjson.GetString(b, "type") == "gemini":
		return GeminiCLI
	}
	return ClaudeCode
}

// call queues a call record, merging the lines of one response.
func (r *Reader) call(rec Record) {
	if r.pending != nil && rec.ID != "" && r.pending.ID == rec.ID {
		r.pending.Usage = r.pending.Usage.merge(rec.Usage)
		r.stats.Duplicates++
		return
	}
	r.flushInto()
	if rec.ID != "" {
		if _, dup := r.seen[rec.ID]; dup {
			r.stats.Duplicates++
			return
		}
	}
	r.pending = &rec
}

// emit queues a record of another kind, after the call being assembled.
func (r *Reader) emit(rec Record) {
	r.flushInto()
	r.out = append(r.out, rec)
}

func (r *Reader) flushInto() {
	if r.pending != nil {
		r.out = append(r.out, r.flush())
	}
}

func (r *Reader) flush() Record {
	rec := *r.pending
	r.pending = nil
	if rec.ID != "" {
		r.seen[rec.ID] = struct{}{}
	}
	return rec
}

// parseTime reads an RFC 3339 timestamp; a bad or missing one is zero.
func parseTime(b []byte) time.Time {
	if len(b) == 0 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}
	}
	return t
}

// timeStamp parses a line's timestamp once, when a record needs it.
type timeStamp struct {
	t    time.Time
	done bool
}

func (s *timeStamp) once(v *fastjson.Value) {
	if !s.done {
		s.t, s.done = parseTime(v.GetStringBytes("timestamp")), true
	}
}

// ReadFile reads the log at path, calling fn for each record until fn
// returns false. It returns what the log said about its session and the
// lines it could not read.
func ReadFile(path string, fn func(Record) bool) (Meta, []Problem, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return Meta{}, nil, err
	}
	defer f.Close()
	rd := NewReader(f, path)
	for rec := range rd.Records() {
		if !fn(rec) {
			break
		}
	}
	return rd.Meta(), rd.Problems(), rd.Err()
}
