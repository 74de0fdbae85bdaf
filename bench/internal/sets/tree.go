package sets

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MaxBlob is the size from which a blob is left out of a tree: the
// mirrors' snapshots lack them (data, never the gold).
const MaxBlob = 4 << 20

// MirrorForks are the repositories whose mirror is a fork holding the
// same commits in a smaller snapshot.
var MirrorForks = map[string]string{
	"django/django":             "JaeHyuckSa/django",
	"scikit-learn/scikit-learn": "betatim/scikit-learn",
	"matplotlib/matplotlib":     "rcomer/matplotlib",
}

// FindMirror returns the bare git directory of repo ("owner/name") under
// dir, as the fetch tool lays them out (DIR/OWNER+NAME/repo, or
// DIR/OWNER+NAME itself), trying the repository and then its fork; ""
// when there is none.
func FindMirror(dir, repo string) string {
	names := []string{repo}
	if f, ok := MirrorForks[repo]; ok {
		names = append(names, f)
	}
	for _, n := range names {
		base := filepath.Join(dir, strings.ReplaceAll(n, "/", "+"))
		for _, p := range []string{filepath.Join(base, "repo"), base} {
			if isGitDir(p) {
				return p
			}
		}
	}
	return ""
}

func isGitDir(p string) bool {
	for _, f := range []string{"HEAD", "objects"} {
		if _, err := os.Stat(filepath.Join(p, f)); err != nil {
			return false
		}
	}
	return true
}

// TreeEntry is a regular file of a commit's tree.
type TreeEntry struct {
	Path string
	Blob string
	Size int64
}

// TreeSkips counts what a tree listing left out.
type TreeSkips struct {
	// Large are blobs of MaxBlob bytes or more; Missing are blobs the
	// snapshot lacks; Links are symbolic links and submodules; Unsafe are
	// paths that would land outside the project or in its .rubi/.
	Large, Missing, Links, Unsafe int
}

// ListTree lists the regular files of commit in the bare repository git,
// without the ones of MaxBlob bytes or more, symbolic links and
// submodules.
func ListTree(ctx context.Context, git, commit string) ([]TreeEntry, TreeSkips, error) {
	var sk TreeSkips
	out, err := exec.CommandContext(ctx, "git", "-C", git, "ls-tree", "-r", "-l", "-z", commit).Output()
	if err != nil {
		return nil, sk, fmt.Errorf("git ls-tree %s: %w%s", commit, err, StderrOf(err))
	}
	var files []TreeEntry
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// <mode> SP <type> SP <object> SP+ <size> TAB <path>
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			return nil, sk, fmt.Errorf("git ls-tree %s: unexpected line %q", commit, rec)
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 {
			return nil, sk, fmt.Errorf("git ls-tree %s: unexpected line %q", commit, rec)
		}
		mode, typ, oid := f[0], f[1], f[2]
		if typ != "blob" || mode == "120000" {
			sk.Links++
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			// A blob the snapshot lacks has the size "BAD".
			sk.Missing++
			continue
		}
		if size >= MaxBlob {
			sk.Large++
			continue
		}
		if !safePath(string(p)) {
			sk.Unsafe++
			continue
		}
		files = append(files, TreeEntry{Path: string(p), Blob: oid, Size: size})
	}
	return files, sk, nil
}

// safePath reports whether a tree path stays inside the project and out
// of rubi's own .rubi/ directory.
func safePath(p string) bool {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || strings.HasPrefix(p, "../") || p == ".." {
		return false
	}
	first, _, _ := strings.Cut(p, "/")
	return first != ".rubi" && first != ".git"
}

func StderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

// catFile is one `git cat-file --batch` process serving a repository's
// blobs.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startCatFile(ctx context.Context, git string) (*catFile, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", git, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// errMissing is a blob the snapshot lacks.
var errMissing = errors.New("missing in the snapshot")

// read returns the content of the object oid.
func (c *catFile) read(oid string) ([]byte, error) {
	if _, err := io.WriteString(c.in, oid+"\n"); err != nil {
		return nil, err
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(head)
	if len(f) == 2 && f[1] == "missing" {
		return nil, errMissing
	}
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", head)
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", head)
	}
	data := make([]byte, n+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file %s: %w", oid, err)
	}
	return data[:n], nil
}

// has reports whether the repository holds the object name (a commit,
// say) without reading it all.
func (c *catFile) has(name string) (bool, error) {
	_, err := c.read(name)
	if errors.Is(err, errMissing) {
		return false, nil
	}
	return err == nil, err
}

func (c *catFile) close() error {
	c.in.Close()
	return c.cmd.Wait()
}

// Tree is one project directory that follows a repository from
// commit to commit: each sync deletes the files gone and rewrites the
// files whose blob changed, so rubi's incremental index sees just the
// difference.
type Tree struct {
	git, dir string
	cat      *catFile
	// Files are the files on disk, path to blob id.
	Files map[string]string
	// stamp is the modification time given to the files of the last
	// sync; each sync's is a second later at least, so a rewritten file
	// never keeps the size and time rubi recorded for its previous
	// content.
	stamp time.Time
}

func NewTree(ctx context.Context, git, dir string) (*Tree, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	cat, err := startCatFile(ctx, git)
	if err != nil {
		return nil, err
	}
	return &Tree{git: git, dir: dir, cat: cat, Files: map[string]string{}}, nil
}

// Close ends the tree's git process and removes its directory.
func (t *Tree) Close() error {
	err := t.cat.close()
	if rerr := os.RemoveAll(t.dir); err == nil {
		err = rerr
	}
	return err
}

// Mirror names the mirror the tree follows: OWNER+NAME, its folder.
func (t *Tree) Mirror() string {
	return filepath.Base(strings.TrimSuffix(t.git, string(filepath.Separator)+"repo"))
}

// Has reports whether the repository holds commit.
func (t *Tree) Has(commit string) (bool, error) { return t.cat.has(commit + "^{commit}") }

// Dir is the project directory the tree keeps.
func (t *Tree) Dir() string { return t.dir }

// SyncStats says what a sync did.
type SyncStats struct {
	TreeSkips
	Files, Written, Deleted int
}

// Sync brings the directory to commit.
func (t *Tree) Sync(ctx context.Context, commit string) (SyncStats, error) {
	var st SyncStats
	entries, sk, err := ListTree(ctx, t.git, commit)
	if err != nil {
		return st, err
	}
	st.TreeSkips = sk
	want := make(map[string]string, len(entries))
	for _, e := range entries {
		want[e.Path] = e.Blob
	}
	for p, blob := range t.Files {
		if w, ok := want[p]; ok && w == blob {
			continue
		}
		if err := os.Remove(t.Abs(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return st, err
		}
		delete(t.Files, p)
		if _, ok := want[p]; !ok {
			st.Deleted++
		}
	}
	// Whole seconds, so that even a file system that keeps seconds only
	// tells two syncs apart.
	prev := t.stamp
	if t.stamp = time.Now().Truncate(time.Second); !t.stamp.After(prev) {
		t.stamp = prev.Add(time.Second)
	}
	for _, e := range entries {
		if _, ok := t.Files[e.Path]; ok {
			continue
		}
		data, err := t.cat.read(e.Blob)
		if errors.Is(err, errMissing) {
			st.Missing++
			continue
		}
		if err != nil {
			return st, err
		}
		if err := t.write(e.Path, data); err != nil {
			return st, err
		}
		t.Files[e.Path] = e.Blob
		st.Written++
	}
	st.Files = len(t.Files)
	return st, ctx.Err()
}

func (t *Tree) Abs(p string) string { return filepath.Join(t.dir, filepath.FromSlash(p)) }

// write writes a file with the sync's modification time. A directory
// where the file goes is what is left of files deleted before (a tree
// never holds both), so it goes.
func (t *Tree) write(p string, data []byte) error {
	name := t.Abs(p)
	if fi, err := os.Lstat(name); err == nil && fi.IsDir() {
		if err := os.RemoveAll(name); err != nil {
			return err
		}
	}
	// A file where the directory goes was deleted before: a tree never
	// holds both.
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return err
	}
	return os.Chtimes(name, t.stamp, t.stamp)
}
