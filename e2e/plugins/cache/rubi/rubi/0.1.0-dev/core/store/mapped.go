package store

import (
	"os"
	"runtime"
)

// Mapped is a read-only view of a whole file: memory-mapped where the
// system allows it, else read into memory. A query process reads index
// files of megabytes once; mapping them (with the pages populated in one
// call on Linux) avoids copying them and taking a page fault per 4 KiB of
// fresh memory, which on virtual machines costs more than the read.
//
// The data is valid until Close. rubi's index files are only ever
// replaced by rename, never written in place, so a mapping always shows
// the version it opened.
type Mapped struct {
	Data   []byte
	unmap  func() error
	closed bool
}

// Map opens path read-only. An empty file gives empty Data.
func Map(path string) (*Mapped, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return &Mapped{Data: []byte{}}, nil
	}
	if data, unmap, err := mapFile(f, fi.Size()); err == nil {
		return &Mapped{Data: data, unmap: unmap}, nil
	}
	// Mapping failed (an unusual filesystem): read it instead.
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Mapped{Data: data}, nil
}

// Close releases the mapping; Data must not be used after.
func (m *Mapped) Close() error {
	if m.closed {
		return nil
	}
	m.closed = true
	m.Data = nil
	if m.unmap != nil {
		return m.unmap()
	}
	return nil
}

// CloseWith ties the mapping's life to owner: it is released once owner
// is unreachable. Everything that slices Data must be reachable only
// through owner.
func CloseWith[T any](owner *T, m *Mapped) {
	runtime.AddCleanup(owner, func(m *Mapped) { m.Close() }, m)
}
