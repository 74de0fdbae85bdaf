package transcript

import (
	"context"
	"io"
)

// ContextReader reads r until ctx is done, then fails with ctx's error. A
// Reader over it stops at its next read (a buffer of 1 MiB at most) once
// its caller is cancelled, whatever the log holds: a log may be gigabytes,
// and one whose lines give no record (an endless line, a sparse file of
// zeros, blank or broken lines) would otherwise be read to its end before
// the caller looks at its context between records.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return &contextReader{ctx: ctx, r: r}
}

type contextReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *contextReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
