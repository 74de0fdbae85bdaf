// Package owner says whose a folder or a file is. rubi takes a project,
// its rubi.hcl and its .rubi/ only from what the user owns, as git takes a
// repository (safe.directory): another user who writes rubi.hcl, a plugin
// and a critical note into a shared folder such as /tmp must not have them
// run and injected as the user who opens an agent below it. The user names
// the folders of others they do use (a checkout bind-mounted into a
// container, CI running as root over another uid's files) in their own
// configuration: safe_directories.
//
// The checks are Unix's (owner uid, world-writable and sticky bits); on
// Windows every folder and file passes, as before.
package owner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Problem says why a folder or file is not the user's to use.
type Problem struct {
	// Path is the folder or file.
	Path string
	// UID is its owner, another user's (-1 when Shared alone says why).
	UID int
	// Shared says the folder is writable by every user (world-writable or
	// sticky, as /tmp is): anyone may have put what is in it there.
	Shared bool
	// Dir is the folder safe_directories would have to name.
	Dir string
}

// Owner names the owner: "nobody (uid 65534)", or "uid 65534" when the
// system has no name for it.
func (p *Problem) Owner() string {
	if name := userName(p.UID); name != "" {
		return fmt.Sprintf("%s (uid %d)", name, p.UID)
	}
	return fmt.Sprintf("uid %d", p.UID)
}

// Error says it in one English line, for logs and errors.
func (p *Problem) Error() string {
	if p.Shared {
		return fmt.Sprintf("%s is writable by every user", p.Path)
	}
	return fmt.Sprintf("%s belongs to %s, not to you", p.Path, p.Owner())
}

// Safe lists the folders the user uses although others own them (or
// everyone may write them): each entry covers its folder and every folder
// below it; "*" covers every folder. Entries are absolute paths, or ~/...
type Safe []string

// Covers reports whether dir is a safe folder or lies below one.
func (s Safe) Covers(dir string) bool {
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	for _, e := range s {
		e = strings.TrimSpace(e)
		if e == "*" {
			return true
		}
		if rest, ok := strings.CutPrefix(e, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				continue
			}
			e = filepath.Join(home, rest)
		}
		e = strings.TrimSuffix(e, "/*") // git's spelling of "and below"
		if !filepath.IsAbs(e) {
			continue
		}
		e = filepath.Clean(e)
		for _, d := range []string{dir, real} {
			if d == e || strings.HasPrefix(d, strings.TrimSuffix(e, string(filepath.Separator))+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// Folder returns why dir is not a folder of the user's, or nil when it is:
// owned by the user, not writable by every user, nor sticky; or covered by
// safe. A folder that cannot be read about (missing) passes: nothing in it
// can be used either.
func Folder(dir string, safe Safe) *Problem {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	uid, mine := owned(fi)
	shared := fi.IsDir() && (fi.Mode().Perm()&0o002 != 0 || fi.Mode()&os.ModeSticky != 0) && ownersApply()
	if mine && !shared {
		return nil
	}
	if safe.Covers(dir) {
		return nil
	}
	p := &Problem{Path: dir, UID: uid, Dir: dir}
	if mine {
		p.UID, p.Shared = -1, true
	}
	return p
}

// File returns why path (a rubi.hcl, a .rubi/ folder) is another user's,
// or nil when it is the user's or the folder holding it is covered by
// safe. A missing path passes.
func File(path string, safe Safe) *Problem {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	uid, mine := owned(fi)
	if mine || safe.Covers(filepath.Dir(path)) {
		return nil
	}
	return &Problem{Path: path, UID: uid, Dir: filepath.Dir(path)}
}
