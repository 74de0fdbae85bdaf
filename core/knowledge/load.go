package knowledge

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core/store"
)

// fileKey identifies one version of a file.
type fileKey struct {
	mod   int64
	size  int64
	inode uint64
}

func keyOf(fi fs.FileInfo) fileKey {
	return fileKey{mod: fi.ModTime().UnixNano(), size: fi.Size(), inode: store.Inode(fi)}
}

// entry is the cached reading of one node file.
type entry struct {
	key      fileKey
	node     *Node     // nil when the file could not be read
	problems []Problem // the failure, or warnings
	terms    *nodeTerms
	// raw is the entry's record in an imported node cache, not decoded
	// yet (cache.go): node and problems are read from it when the entry
	// is first asked for, under the store's lock.
	raw []byte
}

// loaded is the state of one scope at one moment.
type loaded struct {
	sc    *scope
	nodes []*Node          // one per id, in file-name order
	byID  map[string]*Node // the node that wins for each id
	// paths lists every file holding each id, the shadowed ones too, so
	// that a hard Forget removes them all.
	paths map[string][]string
	// stems maps the name (without .md) of every file in the writable
	// directory to the id it holds, or "" when it could not be read: a new
	// node must not be written over any of them.
	stems    map[string]string
	problems []Problem
	entries  map[*Node]*entry
	// temps are store.WriteFile temporaries found in the writable
	// directory.
	temps []string
}

// Nodes returns every node of the project and of the personal vault, and
// the files it had to skip (or read with a fallback). Files are parsed
// once and cached by modification time, size and inode, so repeated calls
// cost a directory listing and a stat per file.
func (s *Store) Nodes() ([]*Node, []Problem) {
	l := s.load(&s.project)
	nodes, probs := l.nodes, l.problems
	if s.vault != nil {
		v := s.load(s.vault)
		nodes = append(append([]*Node(nil), nodes...), v.nodes...)
		probs = append(probs, v.problems...)
	}
	return nodes, probs
}

// Get returns the node with the id, or else the active node with the
// title (normalized as for merging). Without the "personal:" prefix the
// project is searched first, then the vault; with it, only the vault.
func (s *Store) Get(idOrTitle string) (*Node, error) {
	q := strings.TrimSpace(idOrTitle)
	scopes := []*scope{&s.project}
	if s.vault != nil {
		scopes = append(scopes, s.vault)
	}
	if rest, ok := strings.CutPrefix(q, "personal:"); ok {
		if s.vault == nil {
			return nil, fmt.Errorf("%q: no personal vault is configured", idOrTitle)
		}
		q, scopes = strings.TrimSpace(rest), []*scope{s.vault}
	}
	if q == "" {
		return nil, fmt.Errorf("empty node id: %w", ErrNotFound)
	}
	ls := make([]*loaded, len(scopes))
	for i, sc := range scopes {
		if n := s.direct(sc, q); n != nil {
			return n, nil
		}
		ls[i] = s.load(sc)
		if n := ls[i].byID[q]; n != nil {
			return n, nil
		}
	}
	for _, l := range ls {
		if n := l.byTitle(q); n != nil {
			return n, nil
		}
	}
	return nil, fmt.Errorf("%q: %w", idOrTitle, ErrNotFound)
}

// direct reads the node whose file is named after id, without reading
// the rest of the scope: a query showing a few nodes of thousands must not
// parse them all. Only a file holding that id counts; an id kept in a
// file of another name, or a damaged file, is left to the full load.
// (When two files hold one id, the full load keeps the first by name and
// reports the other; the file named after the id is the one rubi writes.)
func (s *Store) direct(sc *scope, id string) *Node {
	if id == "" || strings.ContainsAny(id, `/\`) || strings.HasPrefix(id, ".") {
		return nil
	}
	path := filepath.Join(sc.dir, id+".md")
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	s.mu.Lock()
	e := s.readEntry(sc, path, statResult{fi: fi})
	s.mu.Unlock()
	if e.node == nil || e.node.ID != id {
		return nil
	}
	return e.node
}

// byTitle finds a node by normalized title: an active one if any, else
// the most recently updated.
func (l *loaded) byTitle(title string) *Node {
	nt := normTitle(title)
	if nt == "" {
		return nil
	}
	var best *Node
	for _, n := range l.nodes {
		if normTitle(n.Title) != nt {
			continue
		}
		if best == nil || (n.Status == StatusActive) != (best.Status == StatusActive) && n.Status == StatusActive ||
			(n.Status == StatusActive) == (best.Status == StatusActive) && n.Updated.After(best.Updated) {
			best = n
		}
	}
	return best
}

// load reads a scope's directories, reusing the cache for unchanged files.
func (s *Store) load(sc *scope) *loaded {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Sized for the files read before: thousands of notes would otherwise
	// grow each map a dozen times.
	n := len(s.cache)
	l := &loaded{
		sc:      sc,
		byID:    make(map[string]*Node, n),
		paths:   make(map[string][]string, n),
		stems:   make(map[string]string, n),
		entries: make(map[*Node]*entry, n),
	}
	for _, dir := range []string{sc.dir, sc.legacy} {
		des, err := os.ReadDir(dir)
		if err != nil {
			if !os.IsNotExist(err) {
				l.problems = append(l.problems, Problem{Path: dir, Message: err.Error()})
			}
			continue
		}
		prefix := dir + string(filepath.Separator)
		seen := map[string]bool{}
		infos := statEntries(des)
		for k, de := range des {
			name := de.Name()
			// Dotfiles are the lock and store.WriteFile's temporaries
			// (".<name>.tmp-…"), which a crash may leave behind.
			if strings.HasPrefix(name, ".") && strings.Contains(name, ".md.tmp-") && dir == sc.dir {
				l.temps = append(l.temps, prefix+name)
			}
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || !de.Type().IsRegular() {
				continue
			}
			path := prefix + name
			seen[path] = true
			e := s.readEntry(sc, path, infos[k])
			stem := strings.TrimSuffix(name, ".md")
			if e.node == nil {
				l.problems = append(l.problems, e.problems...)
				if dir == sc.dir {
					l.stems[stem] = ""
				}
				continue
			}
			l.problems = append(l.problems, e.problems...)
			n := e.node
			if dir == sc.dir {
				l.stems[stem] = n.ID
			}
			l.paths[n.ID] = append(l.paths[n.ID], path)
			if prev := l.byID[n.ID]; prev != nil {
				if filepath.Dir(prev.Path) == dir {
					l.problems = append(l.problems, Problem{Path: path, Message: fmt.Sprintf("duplicate id %s (also in %s); this file is ignored", n.ID, filepath.Base(prev.Path))})
				}
				continue
			}
			l.byID[n.ID] = n
			l.nodes = append(l.nodes, n)
			l.entries[n] = e
		}
		for p := range s.cache {
			if strings.HasPrefix(p, prefix) && !seen[p] && !strings.ContainsRune(p[len(prefix):], filepath.Separator) {
				delete(s.cache, p)
				s.cacheBehind++
			}
		}
	}
	return l
}

// statResult is one entry's file information, or why there is none.
type statResult struct {
	fi  fs.FileInfo
	err error
}

// statEntries asks for the information of the node files of a listing,
// several at a time: a stat is a system call per note, the most of what
// finding the notes that changed costs, and on a virtual machine a slow
// one.
func statEntries(des []fs.DirEntry) []statResult {
	out := make([]statResult, len(des))
	store.Each(len(des), func(k int) {
		de := des[k]
		if !isNodeFile(de.Name()) || !de.Type().IsRegular() {
			return
		}
		out[k].fi, out[k].err = de.Info()
	})
	return out
}

// readEntry returns the cached entry of path, or reads the file.
// s.mu is held.
func (s *Store) readEntry(sc *scope, path string, st statResult) *entry {
	fi, err := st.fi, st.err
	if err != nil {
		return &entry{problems: []Problem{{Path: path, Message: err.Error()}}}
	}
	key := keyOf(fi)
	if e := s.cache[path]; e != nil && e.key == key {
		if e.raw == nil || s.decodeEntry(path, e) {
			return e
		}
		// A record the cache holds but that does not decode: the file
		// is read.
		delete(s.cache, path)
	}
	e := &entry{key: key}
	s.cacheBehind++
	data, err := store.ReadWithin(sc.base, path, maxNoteFile)
	if err != nil {
		e.problems = []Problem{{Path: path, Message: err.Error()}}
		return e
	}
	n, warnings, err := decodeNode(path, data)
	if err != nil {
		e.problems = []Problem{errProblem(path, err)}
	} else {
		n.Path, n.Personal = path, sc.personal
		if n.Created.IsZero() {
			n.Created = fi.ModTime().UTC().Truncate(1e9)
			if n.Updated.IsZero() {
				n.Updated = n.Created
			}
		}
		e.node, e.problems = n, warnings
	}
	s.cache[path] = e
	return e
}

// remember caches a node file just written, so the next load need not
// parse it again.
func (s *Store) remember(n *Node) {
	fi, err := os.Stat(n.Path)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.cache[n.Path] = &entry{key: keyOf(fi), node: n}
	s.cacheBehind++
	s.mu.Unlock()
}

// FileVersion is a node file and the version of it a listing found.
type FileVersion = store.FileVersion

func (k fileKey) String() string { return store.Version(k.mod, k.size, k.inode) }

// Versions lists the node files the last Nodes call found, in every
// folder the store reads, with the version each was read at, sorted by
// path: what a later Scan is compared with.
func (s *Store) Versions() []FileVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]FileVersion, 0, len(s.cache))
	for path, e := range s.cache {
		out = append(out, FileVersion{Path: path, Version: e.key.String()})
	}
	slices.SortFunc(out, func(a, b FileVersion) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Scan lists the node files of every folder the store reads, with the
// version each has now, sorted by path, reading none: with Versions, it
// tells which files changed since Nodes read them (a stat per file, the
// least finding them can cost). A file that cannot be statted is listed
// with an empty version. Folders that cannot be listed, other than
// missing ones, are an error.
func (s *Store) Scan() ([]FileVersion, error) {
	var out []FileVersion
	for _, dir := range s.Dirs() {
		vs, err := store.ScanFolder(dir, isNodeFile)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	slices.SortFunc(out, func(a, b FileVersion) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// isNodeFile says whether a file of a knowledge folder is read as a node:
// dotfiles are the lock and store.WriteFile's temporaries.
func isNodeFile(name string) bool {
	return !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".md")
}

// NodeFile reads one node file of the store's folders as Nodes would,
// through the cache, and nothing else; nil with the problems when it does
// not read as a node, or is not in one of the store's folders.
func (s *Store) NodeFile(path string) (*Node, []Problem) {
	var sc *scope
	for _, c := range []*scope{&s.project, s.vault} {
		if c != nil && (filepath.Dir(path) == c.dir || filepath.Dir(path) == c.legacy) {
			sc = c
		}
	}
	if sc == nil {
		return nil, []Problem{{Path: path, Message: "not in a knowledge folder"}}
	}
	fi, err := os.Lstat(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.readEntry(sc, path, statResult{fi, err})
	return e.node, e.problems
}
