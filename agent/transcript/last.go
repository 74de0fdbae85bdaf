package transcript

import (
	"bytes"
	"fmt"
	"io"

	"github.com/rubi-dev/rubi/core/store"
)

// LastCall returns the last API call of the session's own context (not a
// subagent's) in the log at path: its Usage.Context() is the size of the
// context the session carries now. It reads the log from the end, a
// growing window at a time (16 KiB, 64 KiB, … 4 MiB), so a long log
// costs little (the hooks' meter reads it at every prompt and tool call);
// past that it streams the whole log like any Reader. ok is false when
// the log has no call yet. rec.Line is 0 when the call was found
// without reading the log from its start.
func LastCall(path string) (rec Record, ok bool, err error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return Record{}, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Record{}, false, err
	}
	size := st.Size()
	for window := int64(16 << 10); window <= 4<<20; window *= 4 {
		start := max(0, size-window)
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return Record{}, false, fmt.Errorf("read %s: %w", path, err)
		}
		if start > 0 {
			// The window starts mid-line: drop the partial line.
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				continue
			}
			buf = buf[i+1:]
		}
		rd := newReaderSize(bytes.NewReader(buf), path, min(len(buf)+1, 1<<20))
		for r := range rd.Records() {
			if r.Kind == KindCall && !r.Sidechain {
				rec, ok = r, true
			}
		}
		if ok || start == 0 {
			if start > 0 {
				rec.Line = 0 // counted from the window, not the file
			}
			return rec, ok, nil
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Record{}, false, err
	}
	rd := NewReader(f, path)
	for r := range rd.Records() {
		if r.Kind == KindCall && !r.Sidechain {
			rec, ok = r, true
		}
	}
	return rec, ok, rd.Err()
}
