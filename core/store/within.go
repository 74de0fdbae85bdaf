package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrTooLarge is returned by ReadWithin and ReadRegular for a file past
// the cap its caller states.
var ErrTooLarge = errors.New("larger than rubi reads")

// ReadWithin reads the file at path, which must lie inside base (a
// project root, .rubi/, the vault), the way rubi reads every file a
// repository supplies: no link on the way may lead out of base, the file
// itself is opened without following a link (a committed .rubi/map.md ->
// ~/.aws/credentials is refused, not read), it must be a regular file
// (a FIFO or /dev/zero is refused at once, without blocking), and at most
// limit bytes are read: a larger file is ErrTooLarge, naming the path and
// the cap. A missing file is an error that satisfies os.IsNotExist.
func ReadWithin(base, path string, limit int64) ([]byte, error) {
	f, err := OpenWithin(base, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, limit)
}

// OpenWithin opens the file at path as ReadWithin reads it (inside base,
// never through a link, a regular file, opened without blocking), for a
// reader that streams it and bounds what it reads itself.
func OpenWithin(base, path string) (*os.File, error) {
	if !Inside(base, filepath.Dir(path)) {
		return nil, fmt.Errorf("refusing to read %s: it leads out of %s through a symbolic link: %w", path, base, ErrNotOwned)
	}
	return OpenLeaf(path)
}

// OpenLeaf opens path for reading without following a link at its last
// element, without blocking, and refuses anything but a regular file: what
// a reader of a folder it has already checked (with Inside, or by walking
// it without following links) opens, one file after another, without
// resolving the folders again for each.
func OpenLeaf(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		if isLoop(err) {
			return nil, fmt.Errorf("refusing to read %s: it is a symbolic link: %w", path, ErrNotOwned)
		}
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		f.Close() // where O_NOFOLLOW does not exist
		return nil, fmt.Errorf("refusing to read %s: it is a symbolic link: %w", path, ErrNotOwned)
	}
	return regularOnly(f, path, notRegular)
}

// ReadLeaf reads at most limit bytes of the file OpenLeaf opens.
func ReadLeaf(path string, limit int64) ([]byte, error) {
	f, err := OpenLeaf(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, limit)
}

// ReadRegular reads at most limit bytes of the regular file at path,
// following a link as a reader may (the user's own files: a transcript,
// the user's config): a FIFO or a device is refused without blocking, a
// larger file is ErrTooLarge.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, limit)
}

// readCapped reads f whole when it holds at most limit bytes, into one
// buffer of the size the file states (and room to see it grew while
// read): io.ReadAll's doubling from 512 bytes allocates about twice a
// file, and reading every file of a large tree is where that adds up.
func readCapped(f *os.File, path string, limit int64) ([]byte, error) {
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		if fi.Size() > limit {
			return nil, tooLarge(path, limit)
		}
		size = fi.Size()
	}
	data := make([]byte, 0, max(size, 512)+1)
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew since: let append find room
		}
		room := data[len(data):min(int64(cap(data)), limit+1)]
		n, err := f.Read(room)
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, tooLarge(path, limit) // it grew while read
}

func tooLarge(path string, limit int64) error {
	return fmt.Errorf("refusing to read %s: it is over %d bytes: %w", path, limit, ErrTooLarge)
}
