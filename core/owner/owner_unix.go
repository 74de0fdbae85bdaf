//go:build unix

package owner

import (
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// owned returns fi's owner and whether it is the user running rubi. root
// owns nothing of another uid either: as git does, rubi running as root
// over another user's folder needs safe_directories.
func owned(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, true
	}
	return int(st.Uid), int(st.Uid) == os.Geteuid()
}

// ownersApply says the world-writable and sticky bits mean what they mean
// on Unix.
func ownersApply() bool { return true }

// userName is uid's login name, "" when the system has none.
func userName(uid int) string {
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		return ""
	}
	return u.Username
}
