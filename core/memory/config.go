package memory

import (
	"bufio"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/store"
)

// Configured opens the store of the project at root with rubi.hcl's memory
// block: its size limit, and the retention policy it asks for.
func Configured(root string, c config.Memory) (*Store, Policy) {
	s := Open(root)
	if c.MaxChunkSize > 0 {
		s.MaxSize = c.MaxChunkSize
	}
	day := 24 * time.Hour
	return s, Policy{ArchiveAfter: time.Duration(c.ArchiveAfter) * day, PurgeAfter: time.Duration(c.PurgeAfter) * day,
		KeepTags: c.KeepTags, KeepReads: c.KeepReads, KeepKeywords: c.KeepKeywords}
}

// DetectProject names the project at root as its chunks record it: the
// repository name of git's origin remote (so a clone in a folder of another
// name, or a worktree, is still the same project), else the folder's name.
// It reads git's files; it does not run git.
func DetectProject(root string) string {
	if name := originName(root); ValidName("project", name) == nil {
		return name
	}
	return filepath.Base(root)
}

// maxGitFile bounds what is read of git's own files (.git, commondir,
// config), which git writes and the user's git follows as it does; read
// without blocking, up to 1 MiB (a config is some KB).
const maxGitFile = 1 << 20

// originName is the last path element of the origin remote's URL, without
// .git, or "" when there is none.
func originName(root string) string {
	gitDir := filepath.Join(root, ".git")
	info, err := os.Stat(gitDir)
	if err != nil {
		return ""
	}
	if !info.IsDir() {
		// A worktree or submodule: .git is a file "gitdir: DIR", and a
		// worktree's DIR names the shared one in its commondir file.
		data, err := store.ReadRegular(gitDir, maxGitFile)
		if err != nil {
			return ""
		}
		dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return ""
		}
		gitDir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
		if common, err := store.ReadRegular(filepath.Join(gitDir, "commondir"), maxGitFile); err == nil {
			c := strings.TrimSpace(string(common))
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			gitDir = c
		}
	}
	f, err := store.OpenRegular(filepath.Join(gitDir, "config"))
	if err != nil {
		return ""
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(io.LimitReader(f, maxGitFile))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			in = strings.EqualFold(strings.Join(strings.Fields(l), " "), `[remote "origin"]`)
			continue
		}
		key, val, ok := strings.Cut(l, "=")
		if !in || !ok || !strings.EqualFold(strings.TrimSpace(key), "url") {
			continue
		}
		u := strings.TrimSuffix(strings.TrimRight(strings.Trim(strings.TrimSpace(val), `"`), "/"), ".git")
		// git@host:owner/name, https://host/owner/name and /local/path/name
		// all end in the name.
		if i := strings.LastIndexAny(u, ":/"); i >= 0 {
			u = u[i+1:]
		}
		return path.Base(u)
	}
	return ""
}
