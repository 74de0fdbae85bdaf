package knowledge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/core/store"
)

// Region limits: an agent asking for a region gets at most this much, so
// one call cannot flood its context.
const (
	MaxRegionLines = 400
	maxLineBytes   = 2000
)

// ReadRegion reads part of a project file for an agent. spec is
// "path:START-END", "path:N" (MaxRegionLines lines from N) or "path" (from
// the top); lines are 1-based and come prefixed with their numbers, like
// "  42\t<text>". At most MaxRegionLines lines are returned, each cut at
// 2,000 bytes; a last line says when more was left out. path is relative
// to root and may not leave it, symlinks included; binary files are
// refused.
func ReadRegion(root, spec string) (string, error) {
	p, start, end, err := parseRegion(spec)
	if err != nil {
		return "", err
	}
	full, err := confine(root, p)
	if err != nil {
		return "", err
	}
	f, err := store.OpenRegular(full) // a FIFO would block the call
	if errors.Is(err, store.ErrNotOwned) {
		return "", fmt.Errorf("read %s: not a regular file", p)
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if head, _ := r.Peek(8000); bytes.IndexByte(head, 0) >= 0 {
		return "", fmt.Errorf("read %s: binary file", p)
	}
	if end == 0 {
		end = start + MaxRegionLines - 1
	}
	last := min(end, start+MaxRegionLines-1)
	var shown []string
	line, total := 0, 0
	for {
		text, err := readLine(r)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("read %s: %w", p, err)
		}
		line++
		total = line
		if line >= start && line <= last {
			shown = append(shown, text)
		}
		if line > end {
			// Keep counting, cheaply, to say how long the file is.
			n, err := countLines(r)
			if err != nil {
				return "", fmt.Errorf("read %s: %w", p, err)
			}
			total += n
			break
		}
	}
	if total == 0 && start == 1 {
		return "", nil
	}
	if start > total {
		return "", fmt.Errorf("read %s: line %d is past the end (the file has %d lines)", p, start, total)
	}
	var b strings.Builder
	width := len(strconv.Itoa(start + len(shown) - 1))
	for i, text := range shown {
		fmt.Fprintf(&b, "%*d\t%s\n", width, start+i, text)
	}
	if stop := min(end, total); last < stop {
		fmt.Fprintf(&b, "… %d more lines (at most %d per read): ask for %s:%d-%d\n", stop-last, MaxRegionLines, p, last+1, stop)
	}
	return b.String(), nil
}

// readLine returns the next line without its end of line, cut to
// maxLineBytes.
func readLine(r *bufio.Reader) (string, error) {
	var buf []byte
	cut := false
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			if err == io.EOF && (len(buf) > 0 || cut) {
				break
			}
			return "", err
		}
		if !cut {
			room := maxLineBytes - len(buf)
			if len(chunk) > room {
				buf = append(buf, chunk[:room]...)
				cut = true
			} else {
				buf = append(buf, chunk...)
			}
		}
		if !isPrefix {
			break
		}
	}
	s := strings.TrimSuffix(string(buf), "\r")
	if cut {
		s += " …"
	}
	return s, nil
}

func countLines(r *bufio.Reader) (int, error) {
	n := 0
	buf := make([]byte, 64<<10)
	lastNL := true
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			lastNL = buf[k-1] == '\n'
		}
		if err == io.EOF {
			if !lastNL {
				n++
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// parseRegion splits "path:START-END". A suffix that is not a line range
// is part of the path.
func parseRegion(spec string) (path string, start, end int, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return "", 0, 0, errors.New("empty region: use path, path:N or path:START-END")
	}
	i := strings.LastIndexByte(spec, ':')
	if i < 0 {
		return spec, 1, 0, nil
	}
	p, r := spec[:i], spec[i+1:]
	a, b, isRange := strings.Cut(r, "-")
	s, err1 := strconv.Atoi(a)
	if err1 != nil || p == "" {
		return spec, 1, 0, nil
	}
	if !isRange {
		if s < 1 {
			return "", 0, 0, fmt.Errorf("region %q: lines start at 1", spec)
		}
		return p, s, 0, nil
	}
	e, err2 := strconv.Atoi(b)
	if err2 != nil {
		return "", 0, 0, fmt.Errorf("region %q: use path:START-END with line numbers", spec)
	}
	if s < 1 || e < s {
		return "", 0, 0, fmt.Errorf("region %q: need 1 <= START <= END", spec)
	}
	return p, s, e, nil
}

// confine resolves a project-relative path, refusing anything that
// leaves root, through ".." or a symlink.
func confine(root, p string) (string, error) {
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	rel, err := cleanFile(rootAbs, p)
	if err != nil {
		return "", err
	}
	realRoot, err := filepath.EvalSymlinks(rootAbs)
	if err != nil {
		return "", fmt.Errorf("project root %s: %w", root, err)
	}
	full := filepath.Join(rootAbs, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", rel, err)
	}
	if r, err := filepath.Rel(realRoot, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("file %q: must be a path inside the project", p)
	}
	return real, nil
}
