// Package walk lists the files of a project tree that rubi's index pipeline
// should look at, and says why it skipped the rest.
//
// The index runs on every change, so the walk must be cheap and must never
// read file contents: it makes one os.ReadDir pass per directory, calls
// lstat only for files it is about to accept (or size-check), and decides
// "binary" from the extension alone. Content sniffing is left to the caller,
// which reads the file anyway and can use IsBinary on the bytes it has.
//
// What is skipped, in the order it is checked:
//
//   - directories named in DefaultExcludes (and any entry named ".git"),
//     unless Options.NoDefaultExcludes;
//   - paths ignored by .gitignore, .ignore or .rubiignore files at any depth,
//     or by .git/info/exclude at the root (git semantics, see below);
//   - paths matching Options.Exclude;
//   - symlinks (never followed, so no loops) and special files;
//   - files not matching Options.Include;
//   - files with a well-known binary extension;
//   - files larger than Options.MaxFileSize.
//
// A skipped directory is not descended into and counts once in
// Stats.Skipped, however many files it holds: the point is not to walk
// node_modules only to throw it away.
//
// Ignore files follow gitignore(5): a pattern applies below the directory of
// its file; "!" re-includes; a leading or middle "/" anchors the pattern to
// that directory, otherwise it matches a name at any depth; a trailing "/"
// matches directories only; "**" spans directories. Deeper files override
// shallower ones; within one directory .rubiignore overrides .ignore, which
// overrides .gitignore; .git/info/exclude has the lowest priority. As in git,
// a file cannot be re-included if a parent directory is ignored. The root is
// the top of the hierarchy: ignore files above it and git's global excludes
// file are not read.
//
// Output is in byte-wise lexical order of File.Path, so callers can merge it
// against a sorted index.
package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// DefaultExcludes are directory names skipped at any depth unless
// Options.NoDefaultExcludes is set: VCS metadata, rubi's own state,
// dependency trees, virtualenvs, tool caches and build output. They hold
// little a coding agent needs and often most of a tree's files. An Include
// pattern does not re-admit them; set NoDefaultExcludes and use Exclude
// instead for finer control.
var DefaultExcludes = []string{
	// VCS metadata and rubi's own state.
	".git", ".hg", ".svn", ".bzr", ".jj", ".rubi",
	// Third-party dependencies.
	"node_modules", "vendor", "bower_components",
	// Python environments and caches.
	"__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
	// Build output and tool caches.
	".next", ".nuxt", "dist", "build", "out", "target", "coverage",
	".gradle", ".idea", ".cache", ".terraform",
}

// Skip reasons, the keys of Stats.Skipped.
const (
	ReasonDefaultExcluded = "default-excluded" // name in DefaultExcludes
	ReasonIgnored         = "ignored"          // .gitignore, .ignore, .rubiignore or .git/info/exclude
	ReasonExcluded        = "excluded"         // matched Options.Exclude
	ReasonSymlink         = "symlink"          // symlinks are never followed
	ReasonSpecial         = "special"          // device, socket, named pipe
	ReasonNotIncluded     = "not-included"     // matched no Options.Include pattern
	ReasonBinary          = "binary"           // well-known binary extension
	ReasonTooLarge        = "too-large"        // larger than Options.MaxFileSize
	ReasonUnreadable      = "unreadable"       // directory could not be listed or file could not be stat'ed
)

// Options tune a walk. The zero value walks everything except
// DefaultExcludes and ignored paths.
type Options struct {
	// Include holds doublestar globs matched against the slash path relative
	// to the root, e.g. "**/*.go" or "core/**". Empty means every file. A
	// directory matching a pattern admits every file beneath it, so "core"
	// works like "core/**".
	Include []string
	// Exclude holds doublestar globs; a matching file is skipped and a
	// matching directory is not descended into ("**/testdata" and
	// "**/testdata/**" both prune testdata directories). A trailing "/"
	// restricts a pattern to directories.
	Exclude []string
	// NoDefaultExcludes walks into DefaultExcludes directories too.
	NoDefaultExcludes bool
	// MaxFileSize skips files larger than this many bytes; 0 means no limit.
	MaxFileSize int64
}

// File is one accepted file.
type File struct {
	Path    string // slash-separated, relative to the root
	Size    int64
	ModTime time.Time
}

// Stats summarises a walk. Seen == Accepted + the sum of Skipped: every
// entry is either passed to fn or skipped for exactly one reason. Descended
// directories are not counted; a skipped directory counts once.
type Stats struct {
	Seen     int
	Accepted int
	Skipped  map[string]int // reason -> count
}

// Walk calls fn for every accepted file under root, in lexical path order.
//
// Problems below the root (unlistable directories, files that vanish) are
// counted as ReasonUnreadable and never stop the walk; only a missing,
// non-directory or unreadable root, or an invalid Include or Exclude
// pattern, is an error. If fn returns an error the
// walk stops and returns it unchanged; fs.SkipAll stops it without error.
// Cancelling ctx stops the walk with ctx's error. Stats are valid either way.
func Walk(ctx context.Context, root string, opts Options, fn func(File) error) (Stats, error) {
	w := &walker{
		ctx:   ctx,
		root:  root,
		opts:  opts,
		fn:    fn,
		stats: Stats{Skipped: map[string]int{}},
	}
	var err error
	if w.include, err = compileGlobs(opts.Include); err != nil {
		return w.stats, fmt.Errorf("walk %s: include: %w", root, err)
	}
	if w.exclude, err = compileGlobs(opts.Exclude); err != nil {
		return w.stats, fmt.Errorf("walk %s: exclude: %w", root, err)
	}
	if !opts.NoDefaultExcludes {
		w.defaults = make(map[string]bool, len(DefaultExcludes))
		for _, name := range DefaultExcludes {
			w.defaults[name] = true
		}
	}

	dir := filepath.Clean(root)
	info, err := os.Stat(dir) // follow a symlinked root: users point at it on purpose
	if err != nil {
		return w.stats, fmt.Errorf("walk %s: %w", root, unwrapPath(err))
	}
	if !info.IsDir() {
		return w.stats, fmt.Errorf("walk %s: not a directory", root)
	}
	if err := ctx.Err(); err != nil {
		return w.stats, fmt.Errorf("walk %s: %w", root, err)
	}
	// .git/info/exclude is the lowest-priority ignore source, so it goes on
	// the stack before the root's own ignore files.
	if rules := readIgnoreFile(filepath.Join(dir, ".git", "info", "exclude")); len(rules) > 0 {
		w.frames = append(w.frames, ignoreFrame{rules: rules})
	}
	err = w.walkDir(dir, "", false)
	if errors.Is(err, fs.SkipAll) {
		err = nil
	}
	return w.stats, err
}

type walker struct {
	ctx      context.Context
	root     string
	opts     Options
	fn       func(File) error
	stats    Stats
	include  []glob
	exclude  []glob
	defaults map[string]bool // nil when NoDefaultExcludes
	frames   []ignoreFrame   // ignore rules of the directories being walked, outermost first
}

// ignoreFiles are read in each directory in increasing priority.
var ignoreFiles = [...]string{".gitignore", ".ignore", ".rubiignore"}

// walkDir walks one directory. rel is its slash path ("" for the root);
// included reports whether an ancestor matched an Include pattern.
func (w *walker) walkDir(dir, rel string, included bool) error {
	entries, err := listDir(dir)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("walk %s: %w", w.root, unwrapPath(err))
		}
		// Count the directory once and keep whatever was listed before the error.
		w.skip(ReasonUnreadable)
		if len(entries) == 0 {
			return nil
		}
	}

	var rules []rule
	for _, name := range ignoreFiles {
		for _, e := range entries {
			// Like git, don't follow a symlinked ignore file.
			if e.Name() == name && e.Type().IsRegular() {
				rules = append(rules, readIgnoreFile(filepath.Join(dir, name))...)
			}
		}
	}
	if len(rules) > 0 {
		w.frames = append(w.frames, ignoreFrame{dir: rel, rules: rules})
		defer func(n int) { w.frames = w.frames[:n] }(len(w.frames) - 1)
	}

	// os.ReadDir's name order would put "a/b" before "a.txt"; sorting
	// directories as "name/" yields true lexical order of full paths.
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		return comparePathKeys(a.Name(), a.IsDir(), b.Name(), b.IsDir())
	})

	for _, e := range entries {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("walk %s: %w", w.root, err)
		}
		if err := w.visit(dir, rel, included, e); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) visit(dir, parent string, included bool, e fs.DirEntry) error {
	name := e.Name()
	rel := name
	if parent != "" {
		rel = parent + "/" + name
	}
	typ := e.Type()

	if typ.IsDir() {
		switch {
		case w.defaults[name]:
			w.skip(ReasonDefaultExcluded)
		case w.ignored(rel, name, true):
			w.skip(ReasonIgnored)
		case matchAny(w.exclude, rel, true):
			w.skip(ReasonExcluded)
		default:
			return w.walkDir(filepath.Join(dir, name), rel, included || matchAny(w.include, rel, true))
		}
		return nil
	}

	var reason string
	switch {
	case w.defaults[".git"] && name == ".git": // a submodule's or worktree's .git file
		reason = ReasonDefaultExcluded
	case w.ignored(rel, name, false):
		reason = ReasonIgnored
	case matchAny(w.exclude, rel, false):
		reason = ReasonExcluded
	case typ&fs.ModeSymlink != 0:
		reason = ReasonSymlink
	case !typ.IsRegular():
		reason = ReasonSpecial
	case len(w.include) > 0 && !included && !matchAny(w.include, rel, false):
		reason = ReasonNotIncluded
	case hasBinaryExt(name):
		reason = ReasonBinary
	}
	if reason != "" {
		w.skip(reason)
		return nil
	}

	// The only stat of the walk, and only for files that got this far.
	info, err := e.Info()
	if err != nil {
		w.skip(ReasonUnreadable)
		return nil
	}
	if w.opts.MaxFileSize > 0 && info.Size() > w.opts.MaxFileSize {
		w.skip(ReasonTooLarge)
		return nil
	}
	w.stats.Seen++
	w.stats.Accepted++
	return w.fn(File{Path: rel, Size: info.Size(), ModTime: info.ModTime()})
}

func (w *walker) skip(reason string) {
	w.stats.Seen++
	w.stats.Skipped[reason]++
}

// listDir is readDir; tests swap it to simulate unreadable directories and
// files, which running as root cannot produce with permissions.
var listDir = readDir

// readDir lists dir without sorting (Walk sorts with its own key). On error
// it returns whatever was read.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// comparePathKeys orders directory entries as if directory names ended in
// "/". Names cannot contain "/", so the first differing byte decides.
func comparePathKeys(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	return keyByte(a, n, aDir) - keyByte(b, n, bDir)
}

func keyByte(s string, i int, dir bool) int {
	switch {
	case i < len(s):
		return int(s[i])
	case dir:
		return '/'
	}
	return -1
}

// unwrapPath drops the *fs.PathError wrapper so messages name the path once;
// errors.Is still sees the underlying error.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// glob is a compiled Include or Exclude pattern.
type glob struct {
	pattern string
	dirOnly bool
}

func compileGlobs(patterns []string) ([]glob, error) {
	globs := make([]glob, 0, len(patterns))
	for _, p := range patterns {
		g := glob{pattern: strings.TrimPrefix(strings.TrimLeft(p, "/"), "./")}
		if s, ok := strings.CutSuffix(g.pattern, "/"); ok {
			g.pattern, g.dirOnly = s, true
		}
		if g.pattern == "" || !doublestar.ValidatePattern(g.pattern) {
			return nil, fmt.Errorf("invalid pattern %q", p)
		}
		globs = append(globs, g)
	}
	return globs, nil
}

func matchAny(globs []glob, rel string, isDir bool) bool {
	for _, g := range globs {
		if (isDir || !g.dirOnly) && doublestar.MatchUnvalidated(g.pattern, rel) {
			return true
		}
	}
	return false
}
