package knowledge

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core/store"
)

// hashEntry caches the hash of a file on disk by its version.
type hashEntry struct {
	key  fileKey
	hash string
}

func hashString(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// fileHash returns the SHA-256 of a project file's content: the code map's
// when it knows the file, else the file's on disk. ok is false when the
// file is in neither.
func (s *Store) fileHash(rel string) (hash string, ok bool) {
	if s.opts.Code != nil {
		if h, ok := s.opts.Code.FileHash(rel); ok {
			return h, true
		}
	}
	p := filepath.Join(s.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	key := keyOf(fi)
	s.hashMu.Lock()
	he, hit := s.hashes[p]
	s.hashMu.Unlock()
	if hit && he.key == key {
		return he.hash, true
	}
	f, err := store.OpenWithin(s.root, p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	sum := hex.EncodeToString(h.Sum(nil))
	s.hashMu.Lock()
	s.hashes[p] = hashEntry{key: key, hash: sum}
	s.hashMu.Unlock()
	return sum, true
}

// symbolHash returns the hash of a symbol's signature line.
func (s *Store) symbolHash(name string) (string, bool) {
	if s.opts.Code == nil {
		return "", false
	}
	_, sig, ok := s.opts.Code.Symbol(name)
	if !ok {
		return "", false
	}
	return hashString(strings.TrimSpace(sig)), true
}

// readNow reads a project file as it is now, as ReadWithin reads what the
// repository supplies (inside the project, no link, capped).
func (s *Store) readNow(rel string) ([]byte, bool) {
	data, err := store.ReadWithin(s.root, filepath.Join(s.root, filepath.FromSlash(rel)), maxAnchorFile)
	return data, err == nil
}

// now is the code as it is now, for anchors and their checks.
func (s *Store) codeNow() anchorInput {
	in := anchorInput{read: s.readNow, mask: s.opts.MaskComments}
	if s.opts.Code != nil {
		if src, ok := s.opts.Code.(SymbolSource); ok {
			in.syms = src.Symbols
		}
		in.where = func(name string) (string, bool) {
			f, _, ok := s.opts.Code.Symbol(name)
			return f, ok
		}
	}
	return in
}

// codeEntry caches a file's code, read now, by the file's version.
type codeEntry struct {
	key fileKey
	fc  *fileCode
}

// fileNow returns a project file's code and symbols as they are now,
// cached by its version on disk.
// read, when not nil, is told the version of the file (see CheckedFile).
func (s *Store) fileNow(rel string, read func(CheckedFile)) *fileCode {
	p := filepath.Join(s.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		if read != nil {
			read(CheckedFile{Path: rel})
		}
		return &fileCode{}
	}
	key := keyOf(fi)
	if read != nil {
		read(CheckedFile{Path: rel, Exists: true, key: key})
	}
	s.hashMu.Lock()
	ce, hit := s.codes[p]
	s.hashMu.Unlock()
	if hit && ce.key == key {
		return ce.fc
	}
	fc := s.codeNow().file(map[string]*fileCode{}, rel)
	s.hashMu.Lock()
	s.codes[p] = codeEntry{key: key, fc: fc}
	s.hashMu.Unlock()
	return fc
}

// Stale says, in one short line each, what changed in the code n is about
// since it was anchored: "Engine.Load changed (core/x.go L40-62)",
// "Engine.Load no longer in core/x.go", "core/x.go: code changed" (a
// file-level note: its code, not a comment or whitespace), "core/x.go no
// longer exists". Anchors of the old kind (whole files, signatures; see
// anchor.go) say "core/x.go changed since this note" and "symbol Login
// changed". It is empty for a node that is current or has no anchors.
// Personal nodes, which are not tied to one project, are never stale;
// symbols are only checked with a code map.
func (s *Store) Stale(n *Node) []string {
	if n == nil || n.Personal || len(n.Anchors) == 0 {
		return nil
	}
	if c, ok := s.checked(n); ok {
		return c
	}
	out, _ := s.check(n)
	return out
}

// check is Stale's reading of the code now, and the check it makes: nil
// when it read more than files (anchors of the old kind, looked up in the
// code map).
func (s *Store) check(n *Node) ([]string, *Check) {
	c := &Check{ID: n.ID, Anchors: anchorsSum(n.Anchors)}
	seen := map[string]bool{}
	read := func(f CheckedFile) {
		if c != nil && !seen[f.Path] {
			seen[f.Path] = true
			c.Files = append(c.Files, f)
		}
	}
	keys := make([]string, 0, len(n.Anchors))
	for k := range n.Anchors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	gone := map[string]bool{}
	missing := func(rel string) {
		if !gone[rel] {
			gone[rel] = true
			out = append(out, rel+" no longer exists")
		}
	}
	for _, k := range keys {
		want := n.Anchors[k]
		if h, ok := strings.CutPrefix(want, bodyPrefix); ok {
			i := strings.LastIndexByte(k, '#')
			if i <= 0 || s.opts.Code == nil {
				continue
			}
			rel, name := k[:i], k[i+1:]
			if _, err := cleanFile(s.root, rel); err != nil {
				continue
			}
			fc := s.fileNow(rel, read)
			switch decls := declsOf(fc.spans, name); {
			case !fc.ok:
				missing(rel)
			case !fc.syms:
				// The code map cannot say where the symbol is: unchecked.
			case len(decls) == 0:
				out = append(out, name+" no longer in "+rel)
			case bodyHash(fc.code, decls) != h:
				out = append(out, name+" changed ("+rel+" "+linesOf(decls)+")")
			}
			continue
		}
		if h, ok := strings.CutPrefix(want, codePrefix); ok {
			rel, err := cleanFile(s.root, k)
			if err != nil {
				continue
			}
			if fc := s.fileNow(rel, read); !fc.ok {
				missing(rel)
			} else if fc.code.hash(1, len(fc.code.lines)) != h {
				out = append(out, rel+": code changed")
			}
			continue
		}
		if name, ok := strings.CutPrefix(k, "symbol:"); ok {
			if s.opts.Code == nil {
				continue
			}
			c = nil
			if h, ok := s.symbolHash(name); !ok {
				out = append(out, "symbol "+name+" no longer exists")
			} else if h != want {
				out = append(out, "symbol "+name+" changed")
			}
			continue
		}
		rel, err := cleanFile(s.root, k)
		if err != nil {
			continue
		}
		want = strings.TrimPrefix(want, wholePrefix)
		c = nil
		if h, ok := s.fileHash(rel); !ok {
			missing(rel)
		} else if h != want {
			out = append(out, rel+" changed since this note")
		}
	}
	if c != nil {
		c.Stale = out
	}
	return out, c
}

// git's files are git's, written by the user's git, and followed as git
// follows them (a worktree's .git names its folder elsewhere); still they
// are read without blocking and capped: .git, HEAD, commondir and a loose
// ref are a line, packed-refs a line a ref (100,000 refs are 6 MiB).
const (
	maxGitFile    = 64 << 10
	maxPackedRefs = 64 << 20
)

// GitDirs finds the git repository of the project at root as git does:
// the nearest .git up from it, a folder or a file "gitdir: PATH" (a
// linked worktree or a submodule), and its common folder (commondir, the
// main repository's for a linked worktree; else the git folder itself).
// It returns the work tree, the git folder and the common folder; ok is
// false outside a repository.
func GitDirs(root string) (work, gitDir, common string, ok bool) {
	for dir := root; ; {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			work = dir
			if fi.IsDir() {
				gitDir = p
			} else if data, err := store.ReadRegular(p, maxGitFile); err == nil {
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
					gitDir = strings.TrimSpace(g)
					if !filepath.IsAbs(gitDir) {
						gitDir = filepath.Join(dir, gitDir)
					}
				}
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", "", false
		}
		dir = parent
	}
	if gitDir == "" {
		return "", "", "", false
	}
	common = gitDir
	if c, err := store.ReadRegular(filepath.Join(gitDir, "commondir"), maxGitFile); err == nil {
		common = strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	return work, gitDir, common, true
}

// headCommit returns the short hash of the project's git HEAD, read from
// .git directly (no git process, no network); "" outside a repository.
func headCommit(root string) string {
	_, gitDir, common, ok := GitDirs(root)
	if !ok {
		return ""
	}
	head, err := store.ReadRegular(filepath.Join(gitDir, "HEAD"), maxGitFile)
	if err != nil {
		return ""
	}
	h := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(h, "ref:"); ok {
		h = resolveRef(gitDir, common, strings.TrimSpace(ref))
	}
	if len(h) < 7 || strings.Trim(h, "0123456789abcdef") != "" {
		return ""
	}
	return h[:7]
}

// resolveRef reads a ref from the loose refs or packed-refs, looking in
// the common directory of a linked worktree too.
func resolveRef(gitDir, common, ref string) string {
	if strings.Contains(ref, "..") {
		return ""
	}
	dirs := []string{gitDir}
	if common != gitDir {
		dirs = append(dirs, common)
	}
	for _, d := range dirs {
		if data, err := store.ReadRegular(filepath.Join(d, filepath.FromSlash(ref)), maxGitFile); err == nil {
			return strings.TrimSpace(string(data))
		}
	}
	for _, d := range dirs {
		f, err := store.OpenRegular(filepath.Join(d, "packed-refs"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(io.LimitReader(f, maxPackedRefs))
		for sc.Scan() {
			if hash, name, ok := strings.Cut(sc.Text(), " "); ok && name == ref {
				f.Close()
				return hash
			}
		}
		f.Close()
	}
	return ""
}
