// Package walk lists the files of a project tree that rubi's index pipeline
// should look at, and says why it skipped the rest.
//
// The index runs on every change, so the walk must be cheap and must never
// read file contents: it makes one ReadDir pass per directory, calls lstat
// only for files it is about to accept (or size-check), and decides
// "binary" from the extension alone. Content sniffing is left to the caller,
// which reads the file anyway and can use IsBinary on the bytes it has.
//
// Those ReadDir and lstat calls are most of the cost, and mostly wait on the
// kernel, so a bounded number of goroutines list directories concurrently
// (each reads a directory's ignore files before it judges the directory's
// entries). fn is still called from the caller's goroutine, one file at a
// time, in the order and with the stats of a sequential walk.
//
// A walk given the last walk's directories (Options.Dirs) lists only
// those that changed since: the others' entries are taken as the last
// walk judged them, and only their files are statted, relative to the
// open directory (Dirs says when a listing is trusted).
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
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	// Dirs, when set, is what an earlier walk of the tree learned of its
	// directories: those unchanged since are not listed again (Dirs). A
	// complete walk leaves in it what it learned, for the next.
	Dirs *Dirs
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
// Cancelling ctx stops the walk with ctx's error. Stats are valid either way:
// they count the entries up to the one the walk stopped at, as if the walk
// had been sequential. fn is called from the goroutine that called Walk,
// never concurrently, and Walk returns only after the goroutines it started
// have ended.
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
	start := time.Now()
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
	var frames []ignoreFrame
	exclude, _ := readIgnoreFile(filepath.Join(dir, ".git", "info", "exclude"))
	if len(exclude) > 0 {
		frames = []ignoreFrame{{rules: exclude}}
	}
	top := &dirNode{dir: dir, frames: frames, done: make(chan struct{})}
	var fp [32]byte
	if d := opts.Dirs; d != nil {
		fp = fingerprint(dir, opts)
		w.remember = true
		w.settle = start.Add(-settleWindow).UnixNano()
		if d.fp == fp {
			w.old = d.byRel
		}
		top.stale = !rulesEqual(exclude, d.exclude)
	}
	w.start(top)
	defer w.stop()
	err = w.emit(top)
	if err == nil && w.remember {
		opts.Dirs.update(fp, exclude, w.records)
	}
	if errors.Is(err, fs.SkipAll) {
		err = nil
	}
	return w.stats, err
}

// The walk runs in two halves. Workers list directories: each takes a
// directory from the queue, lists it, reads its ignore files, judges its
// entries, lstats the files it accepts and queues the subdirectories to
// descend, each carrying the ignore rules in force below it. Listing is
// mostly waiting on ReadDir and lstat syscalls, so several directories are
// listed at once. Meanwhile the goroutine that called Walk emits: it goes
// through the directories in path order, waiting for each one's listing,
// and counts the stats and calls fn in exactly the order of a sequential
// walk. The queue is a stack, so workers list directories roughly in the
// order they are emitted and few listings wait to be emitted.

// workers returns the number of directories listed at once. A listing
// blocks in syscalls more than it computes, so more workers than cores
// help; past a few dozen they only contend in the kernel, and each holds a
// file descriptor. Tests swap it.
var workers = defaultWorkers

func defaultWorkers() int { return min(4*runtime.GOMAXPROCS(0), 32) }

type walker struct {
	ctx      context.Context
	root     string
	opts     Options
	include  []glob
	exclude  []glob
	defaults map[string]bool // nil when NoDefaultExcludes

	// The queue of directories to list, shared by the workers.
	mu      sync.Mutex
	wake    sync.Cond   // signalled when the queue grows or the walk ends
	queue   []*dirNode  // a stack: the next directory to list is last
	pending int         // directories queued or being listed
	stopped atomic.Bool // the emitter is done: workers must return; set with mu held
	wg      sync.WaitGroup

	// With Options.Dirs: remember says to record the listings, old are
	// the earlier walk's by path (nil when made with other options), and
	// settle is the change time in Unix nanoseconds a stamp must be
	// older than to be trusted next time.
	remember bool
	old      map[string]*dirRecord
	settle   int64

	// Used by the emitter only.
	fn      func(File) error
	stats   Stats
	records []*dirRecord // the listings of the directories emitted, for Dirs
}

// dirNode is a directory to list, and once done is closed, its listing.
type dirNode struct {
	dir      string        // OS path
	rel      string        // slash path, "" for the root
	included bool          // an ancestor matched an Include pattern
	frames   []ignoreFrame // ignore rules of the ancestors, outermost first; shared, never appended to in place
	// stale says frames may differ from the rules in force when the
	// earlier walk (Options.Dirs) judged the entries: judge them again.
	stale bool

	done  chan struct{} // closed when the fields below are set
	err   error         // the listing failed, perhaps after some entries
	items []item        // the entries in path order
	rec   *dirRecord    // the listing, for the next walk; nil if it is not kept
}

// item is one entry of a listed directory: a file to pass to fn, a skipped
// entry, or a directory to descend into.
type item struct {
	file   File
	reason string   // skip reason; "" for a file or a directory to descend
	sub    *dirNode // directory to descend
}

// start queues the root and starts the workers.
func (w *walker) start(top *dirNode) {
	w.wake.L = &w.mu
	w.queue = append(w.queue, top)
	w.pending = 1
	for range max(workers(), 1) {
		w.wg.Go(w.work)
	}
}

// stop ends the workers, whether the walk is complete or not, and waits
// for them.
func (w *walker) stop() {
	w.mu.Lock()
	w.stopped.Store(true)
	w.wake.Broadcast()
	w.mu.Unlock()
	w.wg.Wait()
}

// work lists queued directories until none are left or the walk stops.
func (w *walker) work() {
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && w.pending > 0 && !w.stopped.Load() {
			w.wake.Wait()
		}
		if w.stopped.Load() || len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		n := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.mu.Unlock()
		if w.ctx.Err() != nil {
			return // the emitter sees ctx too
		}

		subs := w.list(n)

		w.mu.Lock()
		// Push the subdirectories last first, so the first is listed next.
		for i := len(subs) - 1; i >= 0; i-- {
			w.queue = append(w.queue, subs[i])
		}
		w.pending += len(subs) - 1
		if len(subs) > 0 || w.pending == 0 {
			w.wake.Broadcast()
		}
		w.mu.Unlock()
		close(n.done) // after queueing subs: the emitter waits for them next
	}
}

// emit waits for n's listing and emits its entries, descending into its
// subdirectories in order.
func (w *walker) emit(n *dirNode) error {
	select {
	case <-n.done:
	case <-w.ctx.Done():
		return fmt.Errorf("walk %s: %w", w.root, w.ctx.Err())
	}
	if n.err != nil {
		if n.rel == "" {
			return fmt.Errorf("walk %s: %w", w.root, unwrapPath(n.err))
		}
		// Count the directory once and keep whatever was listed before the error.
		w.skip(ReasonUnreadable)
	}
	if n.rec != nil {
		w.records = append(w.records, n.rec)
	}
	for i := range n.items {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("walk %s: %w", w.root, err)
		}
		it := &n.items[i]
		switch {
		case it.sub != nil:
			if err := w.emit(it.sub); err != nil {
				return err
			}
		case it.reason != "":
			w.skip(it.reason)
		default:
			w.stats.Seen++
			w.stats.Accepted++
			if err := w.fn(it.file); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *walker) skip(reason string) {
	w.stats.Seen++
	w.stats.Skipped[reason]++
}

// ignoreFiles are read in each directory in increasing priority.
var ignoreFiles = [...]string{".gitignore", ".ignore", ".rubiignore"}

// list lists n, sets its items and err, and returns the subdirectories to
// descend into, in path order: as the earlier walk listed it, where it can
// (reuse), or by listing it. It runs on a worker.
func (w *walker) list(n *dirNode) []*dirNode {
	old := w.old[n.rel]
	if old != nil && old.settled && !n.stale {
		if subs, ok := w.reuse(n, old); ok {
			return subs
		}
	}
	var st stamp
	if w.remember {
		// Before the listing: a change after it changes the stamp.
		st = pathStamp(n.dir, n.rel == "")
	}
	entries, release, err := listDir(n.dir)
	defer release()
	n.err = err
	if err != nil && (n.rel == "" || len(entries) == 0) {
		return nil
	}

	var rules []rule
	var ignores []ignoreStamp
	for _, name := range ignoreFiles {
		for _, e := range entries {
			// Like git, don't follow a symlinked ignore file.
			if e.Name() == name && e.Type().IsRegular() {
				r, st := readIgnoreFile(filepath.Join(n.dir, name))
				rules = append(rules, r...)
				ignores = append(ignores, ignoreStamp{name, st})
			}
		}
	}
	frames := n.frames
	if len(rules) > 0 {
		// Clip first: siblings share the parent's frames.
		frames = append(slices.Clip(frames), ignoreFrame{dir: n.rel, rules: rules})
	}
	// The rules in force below are those the earlier walk judged by if
	// they were here and n's own are the same.
	stale := n.stale || old == nil || !rulesEqual(rules, old.rules)
	if w.remember && err == nil && st != (stamp{}) {
		n.rec = &dirRecord{
			rel: n.rel, stamp: st, ignores: ignores, rules: slices.Clip(rules),
			settled: st.ctime < w.settle, entries: make([]entry, len(entries)),
		}
		for _, ig := range ignores {
			n.rec.settled = n.rec.settled && ig.stamp != (stamp{}) && ig.stamp.ctime < w.settle
		}
	}

	// os.ReadDir's name order would put "a/b" before "a.txt"; sorting
	// directories as "name/" yields true lexical order of full paths.
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		return comparePathKeys(a.Name(), a.IsDir(), b.Name(), b.IsDir())
	})

	n.items = make([]item, len(entries))
	var subs []*dirNode
	for i, e := range entries {
		if i%64 == 0 && w.halted() {
			return subs // the emitter will not look at n
		}
		it := &n.items[i]
		w.judge(n, frames, e, it)
		if it.sub != nil {
			it.sub.stale = stale
			subs = append(subs, it.sub)
		}
		if n.rec != nil {
			n.rec.entries[i] = entry{name: e.Name(), dir: e.IsDir()}
			switch kind, ok := kindOf(it.reason); {
			case it.sub != nil:
				n.rec.entries[i].kind = kindDir
			case it.reason == "" || it.reason == ReasonTooLarge:
				n.rec.entries[i].kind = kindFile
			case ok:
				n.rec.entries[i].kind = kind
			default: // unreadable: list it again next time
				n.rec.settled = false
			}
		}
	}
	return subs
}

// reuse sets n's items from old, the earlier walk's listing of n, and
// returns the subdirectories to descend into, if n's stamp and its ignore
// files' are old's: it stats the files only, relative to n. ok is false,
// and n untouched, if the listing cannot be reused.
func (w *walker) reuse(n *dirNode, old *dirRecord) (subs []*dirNode, ok bool) {
	d, st, err := openDir(n.dir, n.rel == "")
	if err != nil {
		return nil, false
	}
	defer d.close()
	if st != old.stamp {
		return nil, false
	}
	for _, ig := range old.ignores {
		if st, ok := d.stampAt(ig.name); !ok || st != ig.stamp {
			return nil, false
		}
	}
	frames := n.frames
	if len(old.rules) > 0 {
		frames = append(slices.Clip(frames), ignoreFrame{dir: n.rel, rules: old.rules})
	}
	items := make([]item, len(old.entries))
	for i, e := range old.entries {
		if i%64 == 0 && w.halted() {
			n.items = items
			return subs, true // the emitter will not look at n
		}
		it := &items[i]
		if e.kind > kindFile {
			// Skipped for its name and type: no path to make.
			it.reason = kindReasons[e.kind]
			continue
		}
		rel := e.name
		if n.rel != "" {
			rel = n.rel + "/" + e.name
		}
		switch e.kind {
		case kindDir:
			it.sub = &dirNode{
				dir:      filepath.Join(n.dir, e.name),
				rel:      rel,
				included: n.included || matchAny(w.include, rel, true),
				frames:   frames,
				done:     make(chan struct{}),
			}
			subs = append(subs, it.sub)
		case kindFile:
			size, modTime, ok := d.fileAt(e.name)
			switch {
			case !ok:
				return nil, false // gone or replaced since: list n
			case w.opts.MaxFileSize > 0 && size > w.opts.MaxFileSize:
				it.reason = ReasonTooLarge
			default:
				it.file = File{Path: rel, Size: size, ModTime: modTime}
			}
		}
	}
	n.items, n.rec = items, old
	return subs, true
}

// halted reports whether the walk has stopped or been cancelled.
func (w *walker) halted() bool {
	return w.stopped.Load() || w.ctx.Err() != nil
}

// judge decides what the entry e of n is, with frames the ignore rules in
// force in n, and sets it accordingly.
func (w *walker) judge(n *dirNode, frames []ignoreFrame, e fs.DirEntry, it *item) {
	name := e.Name()
	rel := name
	if n.rel != "" {
		rel = n.rel + "/" + name
	}
	typ := e.Type()

	if typ.IsDir() {
		switch {
		case w.defaults[name]:
			it.reason = ReasonDefaultExcluded
		case ignored(frames, rel, name, true):
			it.reason = ReasonIgnored
		case matchAny(w.exclude, rel, true):
			it.reason = ReasonExcluded
		default:
			it.sub = &dirNode{
				dir:      filepath.Join(n.dir, name),
				rel:      rel,
				included: n.included || matchAny(w.include, rel, true),
				frames:   frames,
				done:     make(chan struct{}),
			}
		}
		return
	}

	switch {
	case w.defaults[".git"] && name == ".git": // a submodule's or worktree's .git file
		it.reason = ReasonDefaultExcluded
	case ignored(frames, rel, name, false):
		it.reason = ReasonIgnored
	case matchAny(w.exclude, rel, false):
		it.reason = ReasonExcluded
	case typ&fs.ModeSymlink != 0:
		it.reason = ReasonSymlink
	case !typ.IsRegular():
		it.reason = ReasonSpecial
	case len(w.include) > 0 && !n.included && !matchAny(w.include, rel, false):
		it.reason = ReasonNotIncluded
	case hasBinaryExt(name):
		it.reason = ReasonBinary
	}
	if it.reason != "" {
		return
	}

	// The only stat of the walk, and only for files that got this far.
	size, modTime, err := statEntry(e)
	switch {
	case err != nil:
		it.reason = ReasonUnreadable
	case w.opts.MaxFileSize > 0 && size > w.opts.MaxFileSize:
		it.reason = ReasonTooLarge
	default:
		it.file = File{Path: rel, Size: size, ModTime: modTime}
	}
}

// listDir is readDir; tests swap it to simulate unreadable directories and
// files, which running as root cannot produce with permissions.
var listDir = readDir

// readDir (one per platform) lists dir without sorting (Walk sorts with its
// own key). On error it returns whatever was read. The entries may hold on
// to the open directory: statEntry works on them until release is called.
//
//	func readDir(dir string) (entries []fs.DirEntry, release func(), err error)
//
// statEntry (one per platform) returns the size and modification time of a
// file listed by readDir, without following a symlink.
//
//	func statEntry(e fs.DirEntry) (size int64, modTime time.Time, err error)

// statInfo is statEntry through fs.DirEntry.Info.
func statInfo(e fs.DirEntry) (int64, time.Time, error) {
	info, err := e.Info()
	if err != nil {
		return 0, time.Time{}, err
	}
	return info.Size(), info.ModTime(), nil
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
