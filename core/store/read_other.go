//go:build !unix

package store

import (
	"io"
	"os"
)

// ReadInto reads the file at path into buf, at most len(buf) bytes, and
// returns how many it read: fewer than len(buf) is the whole file.
func ReadInto(path string, buf []byte) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return n, err
}
