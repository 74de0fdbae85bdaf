package notes

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// Nodes are the knowledge nodes as the index reads them, from the store
// the project keeps (project and personal nodes alike).
type Nodes struct {
	// store returns the project's knowledge store, opened on first use
	// (after a vault is set).
	store    func() *knowledge.Store
	root     string // the project's root, which documents' paths are relative to
	indexDir string // where the node cache and the critical notes' file live
	logger   hclog.Logger
	// oneShot is pipeline.Options.OneShot: the node cache is mapped and
	// never released, instead of copied (store.Mapped).
	oneShot bool
	// cacheOnce reads the persisted node cache into the store once;
	// checksOnce the notes' checks.
	cacheOnce, checksOnce sync.Once
}

// NewNodes returns the nodes of the store st returns, for the project at
// root whose index folder is indexDir. st is called at each use, so that
// the store may be opened after the engine. oneShot says the process
// answers once and exits (pipeline.Options.OneShot).
func NewNodes(st func() *knowledge.Store, root, indexDir string, logger hclog.Logger, oneShot bool) *Nodes {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Nodes{store: st, root: root, indexDir: indexDir, logger: logger, oneShot: oneShot}
}

// cacheFile keeps the parsed knowledge nodes between processes, so a
// refresh of a project with thousands of nodes parses only the node files
// that changed; legacyCache, the gob form of earlier versions, is removed
// when the cache is saved.
const (
	cacheFile   = "nodes.bin"
	legacyCache = "nodes.gob"
	// checksFile keeps the notes' checks against the code, as the last
	// index run made them (knowledge.Check): a recall shows a note
	// without reading the files it is about while they are unchanged.
	checksFile = "checks.bin"
	maxChecks  = 256 << 20
)

// All returns every node as a note, superseded and retracted ones too
// (the packer leaves them out unless a query asks for their status), and
// the problems of the node files that could not be read. It reads the
// node cache the first time, and saves it when at least behind node files
// were parsed or dropped since it was read or saved. The index lock is
// held.
func (s *Nodes) All(behind int) ([]*Note, []string) {
	nodes, problems := s.load(behind)
	// One allocation for the notes: a delta in a fresh hook pays for
	// every new page.
	all := make([]Note, len(nodes))
	out := make([]*Note, len(nodes))
	for i, n := range nodes {
		s.fill(&all[i], n)
		out[i] = &all[i]
	}
	probs := make([]string, len(problems))
	for i, p := range problems {
		probs[i] = p.String()
	}
	return out, probs
}

func (s *Nodes) load(behind int) ([]*knowledge.Node, []knowledge.Problem) {
	path := filepath.Join(s.indexDir, cacheFile)
	s.ImportCache()
	nodes, problems := s.store().Nodes()
	// A cache another rubi wrote over this one's (an older rubi beside a
	// server of this one) is written again, though this store holds every
	// node it parsed.
	current := s.CacheCurrent()
	if s.store().CacheBehind() < behind && current {
		return nodes, problems
	}
	if !current {
		s.store().CacheOutdated()
	}
	if data, changed, err := s.store().ExportCache(); err == nil && changed {
		// A cache: lost or cut short (its checksum tells), the next run
		// parses the notes again. No wait for the disk.
		if err := store.WriteDerivedVerified(path, data, 0o644); err != nil {
			s.logger.Warn("could not save the node cache", "error", err)
		} else {
			os.Remove(filepath.Join(s.indexDir, legacyCache))
		}
	}
	return nodes, problems
}

// ImportCache reads the persisted node cache into the store, once: a
// node file whose size and time the cache holds is then not parsed again.
func (s *Nodes) ImportCache() {
	s.cacheOnce.Do(func() {
		path := filepath.Join(s.indexDir, cacheFile)
		// The store keeps views of the bytes (store.ReadWithinKept).
		data, err := store.ReadWithinKept(s.root, path, maxNodeCache, s.oneShot)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				s.logger.Debug("node cache dropped", "error", err)
			}
			return
		}
		imp := s.store().ImportCache
		if store.Unchanged(path) {
			imp = s.store().ImportWrittenCache
		}
		if err := imp(data); err != nil {
			s.logger.Debug("node cache dropped", "error", err)
		}
	})
}

// importChecks reads the notes' kept checks into the store, once.
func (s *Nodes) importChecks() {
	s.checksOnce.Do(func() {
		data, err := store.ReadWithin(s.root, filepath.Join(s.indexDir, checksFile), maxChecks)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				s.logger.Debug("notes' checks dropped", "error", err)
			}
			return
		}
		if err := s.store().ImportChecks(data); err != nil {
			s.logger.Debug("notes' checks dropped", "error", err)
		}
	})
}

// CacheCurrent says whether the node cache is of this rubi's version (an
// older rubi's is not read, and every note read from its file). Its head
// alone is read.
func (s *Nodes) CacheCurrent() bool {
	return s.headIs(cacheFile, knowledge.CacheHead, knowledge.CacheCurrent)
}

// headIs reads the first n bytes of the index folder's file name and says
// what current says of them: false when it cannot be read.
func (s *Nodes) headIs(name string, n int, current func([]byte) bool) bool {
	f, err := store.OpenWithin(s.root, filepath.Join(s.indexDir, name))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, n)
	got, _ := io.ReadFull(f, head)
	return current(head[:got])
}

// ChecksSaved says whether the notes' checks were saved by this rubi's
// version (they may be out of date). Its head alone is read.
func (s *Nodes) ChecksSaved() bool {
	return s.headIs(checksFile, knowledge.ChecksHead, knowledge.ChecksCurrent)
}

// SaveChecks checks every note against the code, taking the kept check of
// each note whose anchors and files did not change, and saves the checks
// when any changed. An index run calls it, the index lock held; basis is
// knowledge.Store.ExportChecks'.
func (s *Nodes) SaveChecks(basis string) error {
	s.ImportCache()
	s.importChecks()
	data, changed, err := s.store().ExportChecks(basis)
	if err != nil || !changed && s.ChecksSaved() {
		return err
	}
	// A cache: lost or cut short (its checksum tells), notes are checked
	// against the files again. No wait for the disk.
	return store.WriteDerived(filepath.Join(s.indexDir, checksFile), data, 0o644)
}

// File reads the node of one node file again, as it is now; false when
// it holds none or cannot be read.
func (s *Nodes) File(path string) (*Note, bool) {
	n, _ := s.store().NodeFile(path)
	if n == nil {
		return nil, false
	}
	nt := &Note{}
	s.fill(nt, n)
	return nt, true
}

// Scan lists the node files with their versions, a stat each.
func (s *Nodes) Scan() ([]FileVersion, error) { return s.store().Scan() }

// Versions are the node files with their versions as the last read of
// the nodes found them.
func (s *Nodes) Versions() []FileVersion { return s.store().Versions() }

// Dirs are the folders the nodes are read from: the project's knowledge
// folders, then the vault's.
func (s *Nodes) Dirs() []string { return s.store().Dirs() }

// fill makes nt a node's note.
func (s *Nodes) fill(nt *Note, n *knowledge.Node) {
	active := n.Status == "" || n.Status == knowledge.StatusActive
	*nt = Note{
		ID: docID(n), Key: n.ID, Path: n.Path, Stamp: stamp(n), Created: n.Created,
		Active: active, Critical: active && n.Importance == knowledge.ImportanceCritical,
		node: n, root: s.root, About: n.Files,
	}
	// What a node is about: its files and its file: links, in the order
	// named; what it links to: the nodes its links name, then those it
	// supersedes. Most nodes have no links: their files are shared.
	for _, l := range n.Links {
		if f, ok := strings.CutPrefix(l.Target, "file:"); ok {
			if len(nt.About) == len(n.Files) {
				nt.About = slices.Clip(nt.About)
			}
			nt.About = append(nt.About, f)
		} else {
			nt.Links = append(nt.Links, l.Target)
		}
	}
	if len(n.Supersedes) > 0 {
		nt.Links = append(nt.Links, n.Supersedes...)
	}
}

// document is a node's document.
func document(path, id string, n *knowledge.Node) core.Document {
	d := core.Document{ID: id, Kind: core.DocNode, Title: n.Title, Path: path}
	// The files a note is about name it too: a question that names the
	// file finds its notes.
	d.Names = append(append(append(append(make([]string, 0, 1+len(n.Symbols)+len(n.Tags)+len(n.Files)), n.ID), n.Symbols...), n.Tags...), n.Files...)
	d.Body = n.Type + " " + n.Importance + "\n" + n.Body
	if !n.Updated.IsZero() {
		d.ModTime = n.Updated.Unix()
	}
	return d
}

// stamp identifies what a node's document holds, so that an edit that
// leaves its time alone (a hand edit of the text, a git checkout of
// another version) is indexed again: its status and time, and a hash of
// its document's title, names and text, and its links. It hashes the
// pieces as document joins them, without joining them.
func stamp(n *knowledge.Node) string {
	h := sha256.New()
	for _, piece := range [...]string{n.Title, "\x00", n.Type, " ", n.Importance, "\n", n.Body, "\x00", n.ID, "\x00"} {
		io.WriteString(h, piece)
	}
	for _, names := range [...][]string{n.Symbols, n.Tags, n.Files} {
		for _, name := range names {
			io.WriteString(h, name)
			io.WriteString(h, "\x00")
		}
	}
	for _, l := range n.Links {
		io.WriteString(h, l.Target)
		io.WriteString(h, "\x00")
	}
	for _, old := range n.Supersedes {
		io.WriteString(h, old)
		io.WriteString(h, "\x00")
	}
	return fmt.Sprintf("%s/%d/%x", n.Status, n.Updated.UnixNano(), h.Sum(nil)[:12])
}

// docID is a node's document id; personal nodes are told apart from
// project nodes of the same id.
func docID(n *knowledge.Node) string {
	if n.Personal {
		return core.DocID(core.DocNode, "personal:"+n.ID)
	}
	return core.DocID(core.DocNode, n.ID)
}

// relPath shows a path relative to the project root when it is inside.
func relPath(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// How much of a node Show gives: whether it is kept (Decide), its words
// (Render: its text as if it were the user's own, for a caller that
// weighs what a note says before showing it), or its text as it is shown
// (Check): marked and quoted when the repository wrote it, which reads
// the note's file again to tell, with what changed in the code it is
// about since it was written, which reads those files.
type Showing int

const (
	Decide Showing = iota
	Render
	Check
)

// Show finds the node of a document's key as its file is now and applies
// the filter: false when it is gone or filtered out. how says what else
// it gives (Decide, Render, Check).
func (s *Nodes) Show(key string, f Filter, how Showing) (Shown, bool) {
	n, err := s.store().Get(key)
	if err != nil || !accepts(n, f) {
		return Shown{}, false
	}
	if how == Decide {
		return Shown{}, true
	}
	var stale []string
	own := true
	if how == Check {
		s.importChecks()
		stale = s.store().Stale(n)
		own = n.Personal || s.store().Owned(n.Path)
	}
	return Shown{Path: relPath(s.root, n.Path), Title: n.Title, Text: renderNode(n, stale, own), Stale: stale}, true
}

// accepts applies the filter to a node: status (active unless asked),
// type, time window, and path or module through the files it is about.
func accepts(n *knowledge.Node, f Filter) bool {
	status := cmp.Or(n.Status, "active")
	if len(f.Statuses) == 0 && status != "active" || len(f.Statuses) > 0 && !slices.Contains(f.Statuses, status) {
		return false
	}
	if len(f.Types) > 0 && !slices.Contains(f.Types, n.Type) || !f.inWindow(n.Updated) {
		return false
	}
	return f.InScope == nil || slices.ContainsFunc(n.Files, f.InScope)
}

// Type is the type of the node of a document's key, "" when it cannot be
// read. A query asks it of many notes (rerank.floor's type_floors): the
// node cache spares parsing each.
func (s *Nodes) Type(key string) string {
	s.ImportCache()
	n, err := s.store().Get(key)
	if err != nil {
		return ""
	}
	return n.Type
}

// Time is when the node of a document's key was written.
func (s *Nodes) Time(key string) (time.Time, bool) {
	n, err := s.store().Get(key)
	if err != nil {
		return time.Time{}, false
	}
	return n.Created, true
}

// maxStaleLines is how many of a node's staleness warnings a result shows
// (rubi read shows them all): past it, one line counts the rest.
const maxStaleLines = 3

// renderNode is a node as the agent reads it in a result: its type and
// title, its importance when it is not medium, staleness warnings, and the
// start of its text. A node that is not the user's own (not as rubi wrote
// it for this user, knowledge.Store.Owned) says it is the repository's,
// and its text is quoted ("> "): what it says is data, not rubi's word.
// Its title, text and files are escaped (text.Escape): none can start a
// line of the result's own.
func renderNode(n *knowledge.Node, stale []string, own bool) string {
	var b strings.Builder
	kind := n.Type
	if n.Personal {
		kind = "personal " + kind
	}
	if !own {
		kind = "repository " + kind
	}
	fmt.Fprintf(&b, "%s: %s", text.Escape(kind), text.Escape(n.Title))
	if n.Importance != "" && n.Importance != "medium" {
		fmt.Fprintf(&b, " (%s)", text.Escape(n.Importance))
	}
	for i, s := range stale {
		if i == maxStaleLines && len(stale) > maxStaleLines+1 {
			fmt.Fprintf(&b, "\n  ⚠ %d more changes", len(stale)-i)
			break
		}
		b.WriteString("\n  ⚠ " + text.Escape(s))
	}
	if own {
		text.WriteExcerpt(&b, text.EscapeLines(n.Body), 400)
	} else {
		// Quoted: a line of the repository's text reads as no line of the
		// result's own ("why: …").
		var q strings.Builder
		text.WriteExcerpt(&q, text.EscapeLines(n.Body), 400)
		b.WriteString(strings.ReplaceAll(q.String(), "\n  ", "\n  > "))
	}
	if len(n.Files) > 0 {
		fmt.Fprintf(&b, "\n  files: %s", text.Escape(strings.Join(n.Files, ", ")))
	}
	return b.String()
}

// criticalFile lists the active critical notes, written by every index
// run that changes them, so that a session start reads one small file
// instead of every note.
const criticalFile = "critical.json"

// What is read of the index's side files, which the repository may have
// replaced (a committed critical.json -> /dev/zero or -> a secret): a
// refused file is read as missing, and the next index rewrites it. A
// critical note shown at session start is a title and a body of at most
// 64 KiB (knowledge.DefaultMaxBody); a thousand of them are 64 MiB, and no
// project has that many. The node cache holds every note parsed: 10,000
// notes of 8 KiB are 80 MiB; 512 MiB is room to spare.
const (
	maxCriticalFile = 64 << 20
	maxNodeCache    = 512 << 20
)

// WriteCritical saves the active notes of importance critical among all,
// newest first (when they changed).
func (s *Nodes) WriteCritical(all []*Note) error {
	nodes := make([]*knowledge.Node, 0, len(all))
	for _, n := range all {
		if n.node != nil {
			nodes = append(nodes, n.node)
		}
	}
	return s.writeCritical(nodes)
}

func (s *Nodes) writeCritical(nodes []*knowledge.Node) error {
	crit := critical(nodes)
	for i, n := range crit {
		c := *n
		c.Anchors, c.Links = nil, nil // what a session start shows needs neither
		crit[i] = &c
	}
	data, err := json.Marshal(crit)
	if err != nil {
		return err
	}
	path := filepath.Join(s.indexDir, criticalFile)
	// Compared without following a link, and only up to the new
	// content's size: a larger file differs, a link is replaced.
	if old, err := store.ReadWithin(s.root, path, int64(len(data))); err == nil && string(old) == string(data) {
		return nil
	}
	if err := store.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write the critical notes: %w", err)
	}
	return nil
}

// RewriteCritical brings the critical notes' file up to date with the
// edited notes (by document id), from the file as the last run wrote it.
func (s *Nodes) RewriteCritical(edited map[string]*Note) error {
	crit, err := s.Critical()
	if err != nil {
		return err
	}
	kept := make([]*knowledge.Node, 0, len(crit)+len(edited))
	for _, n := range crit {
		if _, ok := edited[docID(n)]; !ok {
			kept = append(kept, n)
		}
	}
	for _, n := range edited {
		kept = append(kept, n.node)
	}
	return s.writeCritical(kept)
}

// Critical returns the active notes of importance critical as of the
// last index, newest first, reading one small file; before any index has
// written it, or when it is not one rubi could have written (a link, a
// FIFO, a file past maxCriticalFile), the notes themselves: the next
// index rewrites it.
func (s *Nodes) Critical() ([]*knowledge.Node, error) {
	data, err := store.ReadWithin(s.root, filepath.Join(s.indexDir, criticalFile), maxCriticalFile)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, store.ErrNotOwned) || errors.Is(err, store.ErrTooLarge) {
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			s.logger.Warn("critical notes read from the notes", "error", err)
		}
		nodes, _ := s.store().Nodes()
		return critical(nodes), nil
	}
	if err != nil {
		return nil, err
	}
	var crit []*knowledge.Node
	if err := json.Unmarshal(data, &crit); err != nil {
		return nil, fmt.Errorf("%s: %w (run rubi index to rewrite it)", criticalFile, err)
	}
	for i, n := range crit {
		// The file is the index's, as the repository holds it: a null
		// would crash what lists the notes.
		if n == nil || n.ID == "" || n.Title == "" {
			return nil, fmt.Errorf("%s: entry %d is not a note (run rubi index to rewrite it)", criticalFile, i)
		}
	}
	return crit, nil
}

// critical keeps the active notes of importance critical, newest first.
func critical(nodes []*knowledge.Node) []*knowledge.Node {
	crit := []*knowledge.Node{}
	for _, n := range nodes {
		if n.Importance == knowledge.ImportanceCritical && (n.Status == "" || n.Status == knowledge.StatusActive) {
			crit = append(crit, n)
		}
	}
	sort.Slice(crit, func(i, j int) bool {
		if !crit[i].Updated.Equal(crit[j].Updated) {
			return crit[i].Updated.After(crit[j].Updated)
		}
		return crit[i].ID < crit[j].ID
	})
	return crit
}

// Named returns the title and files of the node of a document's key when
// the filter keeps it.
func (s *Nodes) Named(key string, f Filter) (title string, files []string, ok bool) {
	n, err := s.store().Get(key)
	if err != nil || !accepts(n, f) {
		return "", nil, false
	}
	return n.Title, n.Files, true
}
