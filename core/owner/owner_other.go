//go:build !unix

package owner

import "os"

// owned says every file is the user's: Windows keeps its owners in ACLs
// rubi does not read, and its folders have no sticky bit; the checks keep
// today's behaviour there.
func owned(os.FileInfo) (int, bool) { return -1, true }

// ownersApply is false: the permission bits Go reports on Windows do not
// say who may write a folder.
func ownersApply() bool { return false }

func userName(int) string { return "" }
