package store

import (
	"os"
	"runtime"
)

// Mapped is a read-only view of a whole file: memory-mapped where the
// system allows it, else read into memory. A query process reads index
// files of megabytes once; mapping them (with the pages populated in one
// call on Linux, but in a one-shot process, see Map) avoids copying them
// and taking a page fault per 4 KiB of fresh memory, which on virtual
// machines costs more than the read.
//
// The data is valid until Close. rubi's index files are only ever
// replaced by rename, never written in place, so a mapping always shows
// the version it opened.
//
// A one-shot process (core.Setup.OneShot: it runs one command and exits,
// as a hook and rubi context do) may keep slicing a Mapped's Data for as
// long as it likes and never Close it, instead of copying what it keeps:
// the mappings are released when the process exits. This is safe because
// the files are only ever replaced by rename (a mapping keeps showing the
// version it opened) and costs no more than the mapped files' size, which
// a one-shot command reads a handful of. A long-running process (the MCP
// server) must not: it loads new versions of the same files for as long
// as it runs, and would keep every old version mapped. Whether a process
// is one-shot is its command's choice, passed down to whatever opens an
// index file (pipeline.Options.OneShot, core.Setup.OneShot): the store
// keeps no switch of its own.
type Mapped struct {
	Data   []byte
	unmap  func() error
	closed bool
}

// Map opens path read-only. An empty file gives empty Data. In a one-shot
// process (oneShot: a hook, rubi context) the pages are not populated
// ahead: its one query reads a fraction of indexes of megabytes, and
// populating them cost a hook's recall 2-3 ms and rubi context 2-6 % more
// CPU on kubernetes. The file is an index's, in a folder a repository
// supplies: a link at path is refused, and so is anything but a regular
// file (OpenLeaf), so a committed link cannot map a secret or a device.
func Map(path string, oneShot bool) (*Mapped, error) {
	f, err := OpenLeaf(path)
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
	return mapOpened(f, fi.Size(), !oneShot)
}

// MapWhole maps the whole of f, a regular file of size bytes the caller
// opened and will read all of: its pages are populated ahead where the
// system can. It reads the file instead where mapping fails.
func MapWhole(f *os.File, size int64) (*Mapped, error) {
	if size == 0 {
		return &Mapped{Data: []byte{}}, nil
	}
	return mapOpened(f, size, true)
}

func mapOpened(f *os.File, size int64, populate bool) (*Mapped, error) {
	if data, unmap, err := mapFile(f, size, populate); err == nil {
		return &Mapped{Data: data, unmap: unmap}, nil
	}
	// Mapping failed (an unusual filesystem): read it instead.
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil {
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

// ReadWithinKept is ReadWithin for bytes the caller keeps views of (a
// decoder that slices strings and tables out of them): in a one-shot
// process (oneShot: a hook, rubi context) the file is mapped and never
// released, which spares it the fresh memory a read takes, a page fault
// per 4 KiB; in any other it is read, into memory the collector keeps as
// long as a view does. The same checks either way: inside base, no link,
// a regular file, at most limit bytes.
func ReadWithinKept(base, path string, limit int64, oneShot bool) ([]byte, error) {
	if !oneShot {
		return ReadWithin(base, path, limit)
	}
	f, err := OpenWithin(base, path)
	if err != nil {
		return nil, err
	}
	return mapKept(f, path, limit)
}

// ReadLeafKept is ReadWithinKept for a file of a folder the caller has
// checked already, as ReadLeaf reads it.
func ReadLeafKept(path string, limit int64, oneShot bool) ([]byte, error) {
	if !oneShot {
		return ReadLeaf(path, limit)
	}
	f, err := OpenLeaf(path)
	if err != nil {
		return nil, err
	}
	return mapKept(f, path, limit)
}

// mapKept maps f, opened at path, for a one-shot process's kept views.
func mapKept(f *os.File, path string, limit int64) ([]byte, error) {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, tooLarge(path, limit)
	}
	if fi.Size() == 0 {
		return []byte{}, nil
	}
	m, err := mapOpened(f, fi.Size(), false)
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}
