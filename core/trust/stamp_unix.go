//go:build unix

package trust

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// stampOf identifies the version of the file at path without reading it:
// device, inode, size, and the modification and change times to the
// nanosecond. Any write, chmod or rename changes the change time, which
// no unprivileged program can set back, so an equal stamp is the same
// content (git's index trusts the same). "" when the file cannot be
// statted, or when it changed in the last two seconds: a write in the
// same clock tick as the trust could leave the stamp equal (git's "racy"
// case), so such a file is hashed every time until it settles.
func stampOf(path string, now time.Time) string {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return ""
	}
	ctime := time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	if now.Sub(ctime) < racyWindow {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d.%09d:%d.%09d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}
