package pipeline

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/walk"
)

// The code's files in an index run (codeSource.read): walked as the
// index block says, read where their size or time changed, compared with
// their records by hash, and parsed where their content changed.

// scanned is one file of the walk and what this run learned about it.
type scanned struct {
	file walk.File
	rec  *manifest.Record
	// content is set when the file was read in this run, until its
	// parsers are done (dropContents); read says it was.
	content []byte
	read    bool
	changed bool
	// reparse forces parsing even if the content hash is unchanged.
	reparse bool
	skip    string // a skip reason found on reading (binary, unreadable)
}

// fileDoc is the one-line description of a file: its own doc comment, or
// the doc of its first documented exported top-level symbol.
func fileDoc(f core.FileFacts) string {
	if f.Doc != "" {
		return f.Doc
	}
	for _, s := range f.Symbols {
		if s.Exported && s.Parent == "" && s.Doc != "" {
			return s.Doc
		}
	}
	return ""
}

func langOrOther(l string) string {
	if l == "" {
		return "other"
	}
	return l
}

// walk lists the project's files as rubi.hcl's index block says. The
// last walk's directories (walk.Dirs, in the index folder) spare it
// listing those unchanged since; a walk that learned something new
// saves them for the next.
func (r *indexRun) walk(ctx context.Context) ([]*scanned, walk.Stats, error) {
	ix := r.e.cfg.Index
	var files []*scanned
	// Allocated a block at a time: a no-change run makes nothing else
	// per file.
	var block []scanned
	r.progress.phase(PhaseWalk, 0, 0)
	dirsFile := filepath.Join(r.e.folder.dir, walk.DirsFile)
	dirs := walk.LoadDirs(dirsFile, r.e.oneShot)
	st, err := walk.Walk(ctx, r.e.cfg.Root, walk.Options{
		Include:           ix.Include,
		Exclude:           ix.Exclude,
		NoDefaultExcludes: !ix.DefaultExcludes,
		MaxFileSize:       ix.MaxFileSize,
		Dirs:              dirs,
	}, func(f walk.File) error {
		if len(block) == cap(block) {
			block = make([]scanned, 0, 256)
		}
		block = append(block, scanned{file: f})
		files = append(files, &block[len(block)-1])
		r.progress.add(1, 0)
		return nil
	})
	if st.Skipped == nil {
		st.Skipped = map[string]int{}
	}
	if err == nil && dirs.Changed() {
		// Derived: unsaved, the next walk lists every directory. A
		// folder that cannot be written (read-only, full) is the index's
		// to report, where it matters: when the run must write it.
		if err := dirs.Save(dirsFile); err != nil && !store.CannotWrite(err) {
			r.e.logger.Warn("could not save the walked directories", "error", err)
		}
	}
	return files, st, err
}

// scan decides for every file whether the previous index still holds for
// it, and reads and parses those for which it does not. A file whose size
// and modification time are unchanged is not even opened.
func (r *indexRun) scan(ctx context.Context) error {
	files, prev, next, opts := r.files, r.prev, r.next, r.opts
	full := opts.Full
	r.binaries, r.scanned = readBinaryFiles(r.e.folder.dir), true
	var todo []*scanned
	known := 0 // binary files as the last run saw them
	previous := recordsInOrder(prev)
	// The parsers are most often those of the last run, every one: no
	// file's language need then be told to know its record holds.
	sameParsers := maps.Equal(prev.Parsers, next.Parsers)
	for _, s := range files {
		if b, ok := r.binaries[s.file.Path]; ok && !full && b == (binaryStamp{s.file.Size, s.file.ModTime.UnixNano()}) {
			s.skip = walk.ReasonBinary
			known++
			continue
		}
		old := previous(s.file.Path)
		// A file is reused only if the parser of its language is the
		// one that parsed it: a new parser, setting or rubi version
		// re-parses the language.
		if !sameParsers && old != nil {
			if lang := core.DetectLanguage(s.file.Path); prev.Parsers[lang] != next.Parsers[lang] {
				old = nil
			}
		}
		if !full && old != nil && old.Size == s.file.Size && old.ModTime == s.file.ModTime.UnixNano() {
			s.rec = old
			continue
		}
		if old == nil {
			s.reparse = true
		}
		todo = append(todo, s)
	}
	// The files this run indexes: the unchanged are done already, a file
	// found binary or unreadable leaves the count (PhaseRead).
	r.progress.phase(PhaseRead, len(files)-len(todo)-known, len(files)-known)
	if len(todo) == 0 {
		return nil
	}
	r.working()
	route, err := r.e.stages.parsers(ctx, false)
	if err != nil {
		return err
	}
	total := 0
	for _, s := range todo {
		total += int(s.file.Size)
	}
	if opts.HugeHeap && total >= hugeHeapFrom {
		// Parsing and the rankers' indexes grow the heap to about three
		// times what is read, and its address range further between
		// collections: the reservation is address space, not memory.
		store.ReserveHugeHeap(min(8*total, hugeHeapMax))
	}
	return r.readAndParse(ctx, todo, route, full)
}

// readWindow is about the most file contents a run holds at once: the
// files are read and parsed a window at a time, one window read while
// the one before is parsed, so that a run's memory does not grow with
// the bytes of the tree (all of them held until parsed were 600 MB of a
// 48,000-file tree's peak). A window is at least a few parsers' batches
// for each core.
func readWindow() int {
	return max(32<<20, 4*runtime.GOMAXPROCS(0)*core.ChunkSize)
}

// windows cuts files, in order, into runs whose contents (a byte more
// each, as readFile reads them) fit in size; a larger file is a run of
// its own.
func windows(files []*scanned, size int) [][]*scanned {
	var out [][]*scanned
	start, bytes := 0, 0
	for i, s := range files {
		n := int(s.file.Size) + 1
		if i > start && bytes+n > size {
			out = append(out, files[start:i])
			start, bytes = i, 0
		}
		bytes += n
	}
	if start < len(files) {
		out = append(out, files[start:])
	}
	return out
}

// readAndParse reads the files of todo and parses those that changed, a
// window at a time (readWindow): read in parallel (hashing and the
// binary check are cheap next to the system calls, and a cold cache
// makes reads the slowest part) into an arena, which costs far fewer
// page faults than a heap allocation each; parsed while the next window
// is read into a second arena; let go once parsed (dropContents), their
// arena then taking the window after. Two windows' contents at most are
// held at once. Nothing a parser returns points into the contents
// (parsers copy what they keep), as the arena's memory is given again.
func (r *indexRun) readAndParse(ctx context.Context, todo []*scanned, route map[string]*config.Stage, full bool) error {
	prev := r.prev
	size := readWindow()
	if r.opts.readWindow > 0 {
		size = r.opts.readWindow
	}
	var arenas []*store.Arena // every arena made, released at the end
	defer func() {
		for _, a := range arenas {
			a.Release()
		}
	}()
	type window struct {
		files []*scanned
		arena *store.Arena
	}
	free := make(chan *store.Arena, 2)
	free <- nil // made when first needed
	free <- nil
	read := make(chan window)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(read)
		for _, w := range windows(todo, size) {
			var a *store.Arena
			select {
			case a = <-free:
			case <-gctx.Done():
				return gctx.Err()
			}
			if a == nil {
				a = store.NewArena(size + size/16 + 4096)
				arenas = append(arenas, a)
			}
			a.Reset()
			reads, rctx := errgroup.WithContext(gctx)
			reads.SetLimit(runtime.GOMAXPROCS(0) * 2)
			for _, s := range w {
				reads.Go(func() error {
					if rctx.Err() != nil {
						return rctx.Err()
					}
					old := prev.Records()[s.file.Path]
					if s.reparse {
						old = nil
					}
					r.readOne(s, a, old, full)
					switch {
					case s.skip != "":
						r.progress.add(0, -1)
					case !s.changed || route[s.rec.Language] == nil:
						r.progress.add(1, 0) // nothing to parse
					}
					return nil
				})
			}
			if err := reads.Wait(); err != nil {
				return err
			}
			select {
			case read <- window{w, a}:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	g.Go(func() error {
		for w := range read {
			var parse []*scanned
			for _, s := range w.files {
				if s.skip == "" && s.changed && route[s.rec.Language] != nil {
					parse = append(parse, s)
				}
			}
			if err := r.parse(gctx, parse, route); err != nil {
				return err
			}
			if r.symbols != nil {
				for _, s := range w.files {
					if s.skip == "" {
						if err := r.symbols.Add(s.rec); err != nil {
							return err
						}
					}
				}
			}
			dropContents(w.files)
			free <- w.arena // room for two: never waits
		}
		return nil
	})
	return g.Wait()
}

// recordsInOrder returns a lookup of m's records by path for paths asked
// in increasing order, as the walk yields them: a merge with the records
// of a manifest read in order (manifest.ReadInOrder), which hashes no
// path; by path in the map for any other manifest, or a path asked out
// of order.
func recordsInOrder(m *manifest.Manifest) func(path string) *manifest.Record {
	ordered := m.ReadInOrder()
	if ordered == nil {
		return func(p string) *manifest.Record { return m.Records()[p] }
	}
	k, last := 0, ""
	return func(p string) *manifest.Record {
		if p < last {
			return m.Records()[p]
		}
		last = p
		for ; k < len(ordered); k++ {
			switch c := strings.Compare(ordered[k].Path, p); {
			case c == 0:
				return ordered[k]
			case c > 0:
				return nil
			}
		}
		return nil
	}
}

// readOne loads one file and compares it with its previous record.
func (r *indexRun) readOne(s *scanned, arena *store.Arena, old *manifest.Record, full bool) {
	content, err := readFile(arena, filepath.Join(r.e.cfg.Root, filepath.FromSlash(s.file.Path)), s.file.Size)
	if err != nil {
		s.skip = walk.ReasonUnreadable
		return
	}
	head := content
	if len(head) > 8000 {
		head = head[:8000]
	}
	if walk.IsBinary(head) {
		s.skip = walk.ReasonBinary
		return
	}
	hash := sha256.Sum256(content)
	s.content = content
	generated := codemap.GeneratedHeader(head)
	if !full && old != nil && old.Hash == hash {
		// Touched, not changed: keep the facts, note the new times.
		rec := *old
		rec.Size, rec.ModTime = s.file.Size, s.file.ModTime.UnixNano()
		s.rec = &rec
		return
	}
	s.changed = true
	s.rec = &manifest.Record{
		Path:      s.file.Path,
		Language:  core.DetectLanguage(s.file.Path),
		Size:      s.file.Size,
		ModTime:   s.file.ModTime.UnixNano(),
		Hash:      hash,
		Generated: generated,
	}
	s.rec.Loaded, s.rec.Fresh = true, true // no symbols until a parser finds some
}

// maxSourceRead bounds what is read of one file of the project the walk
// listed (index.max_file_size, when set, is smaller): the largest
// generated sources seen in real repositories are tens of MB, and a file
// that became a link, a device or a FIFO since the walk is refused
// (store.ReadLeaf), not read without end.
const maxSourceRead = 256 << 20

// maxSymbolsFile bounds what is read of the index's symbols file at once:
// a line a file, a 100,000-file repository's is about 100 MB.
const maxSymbolsFile = 1 << 30

// readFile reads a file of the expected size into arena, or from the
// heap when the arena is full or the file grew since the walk. The walk
// listed it without following links; it is opened so again.
func readFile(arena *store.Arena, path string, size int64) ([]byte, error) {
	buf := arena.Alloc(int(size) + 1)
	if buf == nil {
		return store.ReadLeaf(path, maxSourceRead)
	}
	n, err := store.ReadInto(path, buf)
	switch {
	case err != nil:
		return nil, err
	case n < len(buf):
		return buf[:n:n], nil // the whole file: it is no longer than the walk saw
	}
	// One byte more than the walk saw: the file grew; read it whole.
	return store.ReadLeaf(path, maxSourceRead)
}

// parse sends the changed files to the parser of their language (route,
// stageSet.parsers; each file has one), in batches of about core.ChunkSize, a worker per
// core.
func (r *indexRun) parse(ctx context.Context, files []*scanned, route map[string]*config.Stage) error {
	if len(files) > 0 {
		r.progress.enter(PhaseParse)
	}
	type batch struct {
		stage *config.Stage
		files []*scanned
		size  int
	}
	var batches []*batch
	current := map[*config.Stage]*batch{}
	for _, s := range files {
		st := route[s.rec.Language]
		b := current[st]
		if b == nil || b.size+len(s.content) > core.ChunkSize {
			b = &batch{stage: st}
			current[st] = b
			batches = append(batches, b)
		}
		b.files = append(b.files, s)
		b.size += len(s.content)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, b := range batches {
		g.Go(func() error {
			defer r.progress.add(len(b.files), 0)
			stage, err := r.e.stages.open(gctx, b.stage)
			if err != nil {
				return err
			}
			parser, ok := stage.(core.Parser)
			if !ok {
				// The plugin failed and its kind had no fallback: the files
				// stay indexed by name and content.
				return nil
			}
			in := make([]core.SourceFile, len(b.files))
			for i, s := range b.files {
				in[i] = core.SourceFile{Path: s.rec.Path, Language: s.rec.Language, Content: s.content}
			}
			facts, err := parser.Parse(gctx, in)
			if err != nil {
				if gctx.Err() != nil {
					return gctx.Err()
				}
				r.e.logger.Warn("parse failed; files indexed without symbols", "parser", b.stage.Name, "error", err)
				return nil
			}
			for i, s := range b.files {
				f := facts[i]
				s.rec.Package, s.rec.Imports, s.rec.ParseError = f.Package, f.Imports, f.Error
				s.rec.Syms, s.rec.Symbols = f.Symbols, len(f.Symbols)
				s.rec.Doc = fileDoc(f)
			}
			return nil
		})
	}
	return g.Wait()
}

// dropContents lets go of the contents of files, once parsed: each file
// read keeps only that it was, and their arena may be given again.
func dropContents(files []*scanned) {
	for _, s := range files {
		if s.content != nil {
			s.read, s.content = true, nil
		}
	}
}

// fileBodies returns what reads the bodies of the documents of recs for
// the rankers (core.Corpus.DeferBodies), where withBody says: the file is
// read again, its first maxBody bytes, into a buffer the reads share one
// at a time, and only the body made of it (fileBody) leaves. The contents
// of the whole tree are never held at once, nor are the documents'
// bodies: a ranker takes each as it indexes. A file changed since it was
// parsed gives its new text, and its new time makes the next run parse
// it again; a file that cannot be read any more gives no body, as one
// the run did not read.
//
// The head of each body, what it takes from the file's facts (bodyHead,
// from the symbols loaded or digested in dg), is made now: the records'
// symbols need not stay loaded while the rankers read (bodyHeads).
func (r *indexRun) fileBodies(recs []*manifest.Record, dg *symbolDigests, withBody func(path string) bool) (func(*core.Document) string, error) {
	heads := bodyHeads{buf: spillBuffer{spill: r.spill}}
	for _, rec := range recs {
		if withBody(rec.Path) {
			head, err := bodyHead(rec, dg)
			if err != nil {
				return nil, err
			}
			if err := heads.add(rec.Path, head); err != nil {
				return nil, err
			}
		}
	}
	if err := heads.done(); err != nil {
		return nil, err
	}
	buffers := sync.Pool{New: func() any { return new([maxBody]byte) }}
	return func(d *core.Document) string {
		if d.Kind != core.DocFile {
			return ""
		}
		head, ok := heads.get(d.Path)
		if !ok {
			return ""
		}
		buf := buffers.Get().(*[maxBody]byte)
		defer buffers.Put(buf)
		body := r.readBody(d.Path, buf[:])
		if body == nil {
			return ""
		}
		return fileBody(head, body)
	}, nil
}

// bodyHeads are the heads of the bodies fileBodies reads, by path: in
// memory while they are few, in a file of the run's once they pass
// headsInMemory (spillBuffer; on six copies of kubernetes, 48,000 files,
// 8 MB; 44 MB at 200,000 files, held through the rankers' step). Paths
// are added in order.
type bodyHeads struct {
	paths []string
	at    []int64 // paths[i]'s head is at[i] to at[i+1]
	buf   spillBuffer
}

// headsInMemory is the most bytes of heads a spillBuffer keeps in memory.
var headsInMemory = 4 << 20

// add adds the head of path, which comes after the last one's.
func (h *bodyHeads) add(path, head string) error {
	if n := len(h.paths); n > 0 && h.paths[n-1] >= path {
		return fmt.Errorf("the bodies' heads out of path order: %s after %s", path, h.paths[n-1]) // not reached: recs are in path order
	}
	at, err := h.buf.append(head)
	if err != nil {
		return err
	}
	h.paths = append(h.paths, path)
	h.at = append(h.at, at)
	return nil
}

// done ends the adding.
func (h *bodyHeads) done() error {
	h.at = append(h.at, h.buf.size)
	return h.buf.flush()
}

// get is the head of path, and whether it has one; the bytes are not
// to be changed. A head that cannot be read back is none: the file then
// has no body, as one that cannot be read.
func (h *bodyHeads) get(path string) ([]byte, bool) {
	i, ok := slices.BinarySearch(h.paths, path)
	if !ok {
		return nil, false
	}
	b, err := h.buf.read(h.at[i], h.at[i+1])
	return b, err == nil
}

// spillBuffer holds strings appended one after another, each read back
// by its place: in memory up to headsInMemory bytes, then in a file of
// the run's (spill; with none, in memory whatever its size). Reads come
// after a flush and may then run at once.
type spillBuffer struct {
	mem   []byte // the bytes, until spilled
	spill func() (*os.File, error)
	f     *os.File
	w     *bufio.Writer
	size  int64
}

// append adds s and returns where it starts.
func (b *spillBuffer) append(s string) (int64, error) {
	at := b.size
	if b.f == nil && b.spill != nil && len(b.mem)+len(s) > headsInMemory {
		f, err := b.spill()
		if err != nil {
			return 0, err
		}
		b.f, b.w = f, bufio.NewWriterSize(f, 64<<10)
		if _, err := b.w.Write(b.mem); err != nil {
			return 0, err
		}
		b.mem = nil
	}
	if b.f != nil {
		if _, err := b.w.WriteString(s); err != nil {
			return 0, err
		}
	} else {
		b.mem = append(b.mem, s...)
	}
	b.size += int64(len(s))
	return at, nil
}

// flush writes out what append buffered, before the bytes are read.
func (b *spillBuffer) flush() error {
	if b.w == nil {
		return nil
	}
	return b.w.Flush()
}

// read returns the bytes from from to to, which are not to be changed.
func (b *spillBuffer) read(from, to int64) ([]byte, error) {
	if b.f == nil {
		return b.mem[from:to:to], nil
	}
	out := make([]byte, to-from)
	if _, err := b.f.ReadAt(out, from); err != nil {
		return nil, err
	}
	return out, nil
}

// readBody reads the first len(buf) bytes of the project's file path into
// buf, opened as the walk listed it (no link followed, regular files
// only); nil when it cannot be read. An empty file is an empty body, not
// a missing one.
func (r *indexRun) readBody(path string, buf []byte) []byte {
	f, err := store.OpenLeaf(filepath.Join(r.e.cfg.Root, filepath.FromSlash(path)))
	if err != nil {
		return nil
	}
	defer f.Close()
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil
	}
	return buf[:n:n]
}

// binaryFilesFile, in the index folder, lists the files found binary
// (binaryFiles): the manifest holds no record of them, and without it
// every refresh would read each again to find it binary.
const binaryFilesFile = "binary.json"

// maxBinaryFiles bounds what is read of binary.json.
const maxBinaryFiles = 64 << 20

// binaryFiles are the files an index run found binary, by path, with the
// size and modification time they had: a later run that finds them so
// skips them unread, as it passes an unchanged file.
type binaryFiles map[string]binaryStamp

type binaryStamp struct {
	Size    int64 `json:"size"`
	ModTime int64 `json:"mtime"`
}

// readBinaryFiles reads binary.json; none, or one that cannot be read,
// is an empty list: every file is then read and checked again.
func readBinaryFiles(indexDir string) binaryFiles {
	data, err := store.ReadLeaf(filepath.Join(indexDir, binaryFilesFile), maxBinaryFiles)
	if err != nil {
		return binaryFiles{}
	}
	var out binaryFiles
	if json.Unmarshal(data, &out) != nil || out == nil {
		return binaryFiles{}
	}
	return out
}

// onlyBinary keeps the files of files found binary, copied: the walk
// allocates its list in blocks, which one kept entry would keep whole.
func onlyBinary(files []*scanned) []*scanned {
	var out []*scanned
	for _, s := range files {
		if s.skip == walk.ReasonBinary {
			out = append(out, &scanned{file: s.file, skip: s.skip})
		}
	}
	return out
}

// saveBinaryFiles writes the files this run found binary, read or known,
// when they differ from the list it read; derived (lost, the next run
// reads them again). A run that did not scan the files keeps the list.
func (r *indexRun) saveBinaryFiles() error {
	if !r.scanned {
		return nil
	}
	now := binaryFiles{}
	for _, s := range r.files {
		if s.skip == walk.ReasonBinary {
			now[s.file.Path] = binaryStamp{s.file.Size, s.file.ModTime.UnixNano()}
		}
	}
	if maps.Equal(now, r.binaries) {
		return nil
	}
	path := filepath.Join(r.e.folder.dir, binaryFilesFile)
	if len(now) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(now)
	if err != nil {
		return err
	}
	return store.WriteDerived(path, data, 0o644)
}
