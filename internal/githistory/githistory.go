// Package githistory reads old versions of a project's files from its git
// repository, in process (go-git: no git program is run, so nothing a
// repository's git config names is executed, and no network is used). It
// backs the migration of the knowledge graph's whole-file anchors
// (knowledge.Store.Migrate), which needs a file as it was when a note was
// written. It is linked by the rubi command only (about 3 MB): the hooks
// and the MCP server never migrate.
package githistory

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/rubi-dev/rubi/core/knowledge"
)

// Bounds of a search: a note's file is looked for at the note's commit,
// then in the commits reachable from HEAD, newest first, up to
// maxCommits of them and maxBlobs distinct versions of the file (each
// read at most maxBlob bytes).
const (
	maxCommits = 5000
	maxBlobs   = 500
	maxBlob    = 8 << 20
)

// History finds old file contents in one project's repository. Only
// go-git's storage and object packages are linked (not its porcelain,
// which brings the network transports).
type History struct {
	root string
	once sync.Once
	st   *filesystem.Storage
	pre  string // the project's folder inside the work tree, "" or "dir/"
	err  error
	// seen remembers, per file, the versions already hashed.
	mu   sync.Mutex
	seen map[string]map[plumbing.Hash]string
}

// Open returns the history of the project at root; the repository is
// opened on first use (a project outside git finds nothing).
func Open(root string) *History {
	return &History{root: root, seen: map[string]map[plumbing.Hash]string{}}
}

func (h *History) open() error {
	h.once.Do(func() {
		work, gitDir, common, ok := knowledge.GitDirs(h.root)
		if !ok {
			h.err = errors.New("not in a git repository")
			return
		}
		// Bound (go-billy's recommended file system; its chroot refuses
		// the same): a link inside the repository's folders never leads
		// to a file elsewhere (TestNoLinkOutOfTheRepository).
		fs := dotgit.NewRepositoryFilesystem(osfs.New(gitDir, osfs.WithBoundOS()), osfs.New(common, osfs.WithBoundOS()))
		h.st = filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
		rel, err := filepath.Rel(work, h.root)
		if err != nil || strings.HasPrefix(rel, "..") {
			h.err = errors.New("the project is not inside its repository's work tree")
			return
		}
		if rel != "." {
			h.pre = filepath.ToSlash(rel) + "/"
		}
	})
	return h.err
}

// commit resolves a short hash to a commit.
func (h *History) commit(short string) (*object.Commit, bool) {
	even := short[:len(short)&^1]
	prefix, err := hex.DecodeString(even)
	if err != nil {
		return nil, false
	}
	ids, err := h.st.HashesWithPrefix(prefix)
	if err != nil {
		return nil, false
	}
	for _, id := range ids {
		if !strings.HasPrefix(id.String(), short) {
			continue
		}
		if c, err := object.GetCommit(h.st, id); err == nil {
			return c, true
		}
	}
	return nil, false
}

// Content is a knowledge.OldContent: the content of the project file rel
// whose SHA-256 is hash, at the note's commit (a short hash) or else in
// the history reachable from HEAD.
func (h *History) Content(rel, hash, commit string) ([]byte, bool) {
	if h.open() != nil || path.IsAbs(rel) || strings.HasPrefix(path.Clean(rel), "..") {
		return nil, false
	}
	p := h.pre + path.Clean(rel)
	if isHex(commit) {
		if c, ok := h.commit(commit); ok {
			if data, ok := h.at(c, p, hash); ok {
				return data, true
			}
		}
	}
	head, err := storer.ResolveReference(h.st, plumbing.HEAD)
	if err != nil {
		return nil, false
	}
	c, err := object.GetCommit(h.st, head.Hash())
	if err != nil {
		return nil, false
	}
	iter := object.NewCommitIterCTime(c, nil, nil)
	defer iter.Close()
	var found []byte
	commits := 0
	errStop := errors.New("stop")
	_ = iter.ForEach(func(c *object.Commit) error {
		if commits++; commits > maxCommits || h.blobs(p) > maxBlobs {
			return errStop
		}
		if data, ok := h.at(c, p, hash); ok {
			found = data
			return errStop
		}
		return nil
	})
	return found, found != nil
}

func (h *History) blobs(p string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.seen[p])
}

// at returns the file p of commit c when its content has the SHA-256
// hash. Each version of a file is read once.
func (h *History) at(c *object.Commit, p, hash string) ([]byte, bool) {
	tree, err := c.Tree()
	if err != nil {
		return nil, false
	}
	e, err := tree.FindEntry(p)
	if err != nil || !e.Mode.IsFile() {
		return nil, false
	}
	h.mu.Lock()
	sum, done := h.seen[p][e.Hash]
	h.mu.Unlock()
	if done && sum != hash {
		return nil, false
	}
	blob, err := object.GetBlob(h.st, e.Hash)
	if err != nil || blob.Size > maxBlob {
		h.remember(p, e.Hash, "")
		return nil, false
	}
	r, err := blob.Reader()
	if err != nil {
		return nil, false
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, maxBlob))
	if err != nil {
		return nil, false
	}
	s := sha256.Sum256(data)
	sum = hex.EncodeToString(s[:])
	h.remember(p, e.Hash, sum)
	return data, sum == hash
}

func (h *History) remember(p string, id plumbing.Hash, sum string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen[p] == nil {
		h.seen[p] = map[plumbing.Hash]string{}
	}
	h.seen[p][id] = sum
}

func isHex(s string) bool {
	return len(s) >= 4 && len(s) <= 40 && strings.Trim(s, "0123456789abcdef") == ""
}

var _ knowledge.OldContent = (*History)(nil).Content
