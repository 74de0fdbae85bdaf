package store

import (
	"bytes"
	"encoding/binary"
	"os"

	"golang.org/x/sys/unix"
)

// listBuffer is the buffer a listing reads entries into: a folder of
// thousands of notes in a few system calls, where os.ReadDir's 8 KiB take
// dozens (each costs microseconds on a virtual machine, as a stat does).
const listBuffer = 64 << 10

// listNames lists the entries of dir that keep accepts and that are
// regular files or may be (maybe[k] when the system did not say their
// type, for the caller's stat to decide), in no order.
func listNames(dir string, keep func(name string) bool) (names []string, maybe []bool, err error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	buf := make([]byte, listBuffer)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, &os.PathError{Op: "getdents", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, maybe, nil
		}
		if names, maybe, err = appendDirents(buf[:n], keep, names, maybe); err != nil {
			return nil, nil, &os.PathError{Op: "getdents", Path: dir, Err: err}
		}
	}
}

// appendDirents appends the entries of buf, as getdents64 fills it, that
// keep accepts and are regular files or of a type not given.
func appendDirents(buf []byte, keep func(name string) bool, names []string, maybe []bool) ([]string, []bool, error) {
	// struct linux_dirent64: ino (8 bytes), off (8), reclen (2), type (1),
	// then the name, NUL-terminated, padded to 8 bytes.
	for len(buf) > 0 {
		if len(buf) < 19 {
			return names, maybe, unix.EIO
		}
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			return names, maybe, unix.EIO
		}
		ino, typ, name := binary.NativeEndian.Uint64(buf[0:8]), buf[18], buf[19:reclen]
		buf = buf[reclen:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if ino == 0 || typ != unix.DT_REG && typ != unix.DT_UNKNOWN {
			continue
		}
		if s := string(name); s != "." && s != ".." && keep(s) {
			names = append(names, s)
			maybe = append(maybe, typ == unix.DT_UNKNOWN)
		}
	}
	return names, maybe, nil
}
