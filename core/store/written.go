package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// WrittenSuffix names the record WriteVerified keeps beside a file.
const WrittenSuffix = ".written"

// maxWrittenRecord bounds what is read of a record: five numbers on a
// line (describe), under 120 bytes. The record lives in the repository's
// .rubi/index/: a link there (to /dev/zero) is refused, not read.
const maxWrittenRecord = 256

// WriteVerified is WriteFile for an index file whose readers check a
// checksum of the whole file: it also records the version it wrote (its
// identity, size and times) beside it, so that a reader finding that same
// version may skip the check (Unchanged). Reading a whole file of
// megabytes only to check it costs a fresh process more than its query.
// The record is advisory and written without a sync: when it is missing
// or torn, readers check the whole file as before.
func WriteVerified(path string, data []byte, perm os.FileMode) error {
	if err := WriteFile(path, data, perm); err != nil {
		return err
	}
	RecordVerified(path)
	return nil
}

// WriteDerivedVerified is WriteVerified without waiting for the disk, as
// WriteDerived writes: for an index file a small delta rewrites (the
// notes' part), whose loss in a power cut its checksum reveals and a full
// index repairs.
func WriteDerivedVerified(path string, data []byte, perm os.FileMode) error {
	if err := WriteDerived(path, data, perm); err != nil {
		return err
	}
	RecordVerified(path)
	return nil
}

// RecordVerified records the version of the file at path as one whose
// whole checksum was found good: by WriteVerified, or by an index run that
// checked a file it kept. A failure only leaves readers checking it.
func RecordVerified(path string) {
	v, ok := versionOf(path)
	if !ok {
		return
	}
	if rec, err := ReadLeaf(path+WrittenSuffix, maxWrittenRecord); err == nil && string(rec) == v {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+WrittenSuffix+".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(v)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path+WrittenSuffix) != nil {
		os.Remove(tmp.Name())
	}
}

// Unchanged reports whether the file at path is the very version
// WriteVerified wrote: not replaced, rewritten, truncated or edited in
// place since (any of which changes its identity, size or change time).
// Damage that leaves all of them alone (a disk's own decay) is left to
// the index runs, which check whole files before they build on them.
func Unchanged(path string) bool {
	v, ok := versionOf(path)
	if !ok {
		return false
	}
	rec, err := ReadLeaf(path+WrittenSuffix, maxWrittenRecord)
	return err == nil && string(rec) == v
}

// describe renders a version: device, inode, size, modification and
// change times in nanoseconds.
func describe(dev, ino uint64, size, mtime, ctime int64) string {
	return fmt.Sprintf("%d %d %d %d %d\n", dev, ino, size, mtime, ctime)
}

// RecordWrittenAt is RecordVerified with the record kept in the file rec
// rather than beside path: for a file a repository may commit
// (.rubi/map.md), whose record belongs in a folder git ignores
// (.rubi/index/), where no clone brings one and none shows as a change.
func RecordWrittenAt(path, rec string) {
	v, ok := versionOf(path)
	if !ok || UnchangedAt(path, rec) {
		return
	}
	if err := os.MkdirAll(filepath.Dir(rec), 0o755); err != nil {
		return
	}
	WriteDerived(rec, []byte(v), 0o644)
}

// UnchangedAt is Unchanged with the record in the file rec: whether the
// file at path is the very version RecordWrittenAt recorded. A record
// that is not a small regular file is no record.
func UnchangedAt(path, rec string) bool {
	v, ok := versionOf(path)
	if !ok {
		return false
	}
	data, err := ReadRegular(rec, 256)
	return err == nil && string(data) == v
}
