package messages

import (
	"bytes"
	"io"
	"strings"
)

// Table aligns tab-separated cells in columns, as text/tabwriter does with
// a padding of two spaces (tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)), but
// counts a wide character (Japanese) as the two columns it takes on a
// terminal. A cell ends with a tab; a line's last text is not aligned. A
// column is aligned over a run of consecutive lines that have it.
type Table struct {
	w   io.Writer
	buf bytes.Buffer
}

// NewTable returns a Table that writes to w on Flush.
func NewTable(w io.Writer) *Table { return &Table{w: w} }

// Write adds text to the table.
func (t *Table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the table, aligned, and empties it.
func (t *Table) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	if text == "" {
		return nil
	}
	raw := strings.SplitAfter(text, "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	lines := make([][]string, len(raw))
	for i, l := range raw {
		lines[i] = strings.Split(l, "\t")
	}
	widths := make([][]int, len(lines))
	for i, cells := range lines {
		widths[i] = make([]int, len(cells))
	}
	alignColumn(lines, widths, 0, 0, len(lines))
	var b strings.Builder
	for i, cells := range lines {
		for j, c := range cells {
			if j < len(cells)-1 {
				b.WriteString(Pad(c, widths[i][j]))
			} else {
				b.WriteString(c)
			}
		}
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// alignColumn sets the width of column col over each run of the lines
// lo..hi that have a cell ended by a tab there, then aligns the next
// column within the run.
func alignColumn(lines [][]string, widths [][]int, col, lo, hi int) {
	for i := lo; i < hi; {
		if len(lines[i])-1 <= col {
			i++
			continue
		}
		start, w := i, 0
		for ; i < hi && len(lines[i])-1 > col; i++ {
			w = max(w, Columns(lines[i][col]))
		}
		for j := start; j < i; j++ {
			widths[j][col] = w + 2
		}
		alignColumn(lines, widths, col+1, start, i)
	}
}
