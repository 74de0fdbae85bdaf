package pipeline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
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

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
)

// Edge kinds between knowledge nodes and the code.
const (
	edgeAbout = "about" // node → file (or the file of a symbol) it is about
	edgeLinks = "links" // node → node it links to or supersedes
)

// Project is the project this engine indexes: its data folder, its
// knowledge, memory and handoffs, with the code map backed by the index
// so the notes' anchors and file checks agree with it.
func (e *Engine) Project() *project.Project { return e.project }

// nodeCacheFile keeps the parsed knowledge nodes between processes, so a
// refresh of a project with thousands of nodes parses only the node files
// that changed; legacyNodeCache, the gob form of earlier versions, is
// removed when the cache is saved.
const (
	nodeCacheFile   = "nodes.bin"
	legacyNodeCache = "nodes.gob"
)

// nodes returns the knowledge nodes, reading the node cache the first time
// and saving it when nodes were parsed or removed. The index lock is held.
func (e *Engine) nodes() ([]*knowledge.Node, []knowledge.Problem) {
	return e.nodesSaving(1)
}

// deferredParses is how many node files a notes' delta may have parsed
// without saving the node cache: rewriting the cache of every note costs
// a hook more than the next process parsing those few files again; the
// next full run, or a delta past it, saves it. Past it, every later
// process would parse them again: a pull of many notes pays the export
// once.
const deferredParses = 8

// nodesSaving is nodes, saving the cache only when at least behind node
// files were parsed or dropped since it was read or saved.
func (e *Engine) nodesSaving(behind int) ([]*knowledge.Node, []knowledge.Problem) {
	path := filepath.Join(e.indexDir(), nodeCacheFile)
	e.nodeCacheOnce.Do(func() {
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		if err := e.project.Knowledge().ImportCache(data); err != nil {
			e.logger.Debug("node cache dropped", "error", err)
		}
	})
	nodes, problems := e.project.Knowledge().Nodes()
	if e.project.Knowledge().CacheBehind() < behind {
		return nodes, problems
	}
	if data, changed, err := e.project.Knowledge().ExportCache(); err == nil && changed {
		// A cache: lost or cut short (its checksum tells), the next run
		// parses the notes again. No wait for the disk.
		if err := store.WriteDerived(path, data, 0o644); err != nil {
			e.logger.Warn("could not save the node cache", "error", err)
		} else {
			os.Remove(filepath.Join(e.indexDir(), legacyNodeCache))
		}
	}
	return nodes, problems
}

// indexCodeMap answers the knowledge store from the index manifest.
type indexCodeMap struct {
	e  *Engine
	mu sync.Mutex
	// For the manifest m: its symbols file, read on first use, and the
	// answers found so far. (A manifest, not a generation: an update
	// appends to its generation's file.)
	m     *manifest.Manifest
	data  []byte
	found map[string]symbolAt
}

type symbolAt struct {
	file, signature string
	ok              bool
}

// FileHash answers from the manifest when the engine has read it; it does
// not read it for one hash (the store then hashes the file on disk, which
// is what the index would say of an up-to-date file).
func (c *indexCodeMap) FileHash(p string) (string, bool) {
	c.e.mu.Lock()
	m := c.e.manifest
	c.e.mu.Unlock()
	if m == nil {
		return "", false
	}
	if rec, ok := m.File(p); ok {
		return hex.EncodeToString(rec.Hash[:]), true
	}
	return "", false
}

// Symbol finds where name is defined. Of several definitions, an exported
// one in the most central file wins. It scans the symbols file for the
// name and decodes only the lines that hold it: a staleness check on a
// query path must not decode every symbol of a large project.
func (c *indexCodeMap) Symbol(name string) (string, string, bool) {
	m, err := c.e.currentManifest()
	if err != nil {
		return "", "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != m || c.found == nil {
		c.m, c.data, c.found = m, nil, map[string]symbolAt{}
	}
	r, done := c.found[name]
	if !done {
		r = c.lookup(m, name)
		c.found[name] = r
	}
	return r.file, r.signature, r.ok
}

func (c *indexCodeMap) lookup(m *manifest.Manifest, name string) symbolAt {
	if c.data == nil {
		data, err := os.ReadFile(manifest.SymbolsFile(c.e.indexDir(), m.Generation))
		if err != nil {
			return symbolAt{}
		}
		c.data = data
	}
	quoted, _ := json.Marshal(name)
	needle := append([]byte(`"name":`), quoted...)
	var best symbolAt
	var bestExported bool
	bestRank := -1.0
	for from := 0; from < len(c.data); {
		i := bytes.Index(c.data[from:], needle)
		if i < 0 {
			break
		}
		i += from
		start := bytes.LastIndexByte(c.data[:i], '\n') + 1
		end := len(c.data)
		if k := bytes.IndexByte(c.data[i:], '\n'); k >= 0 {
			end = i + k
		}
		from = end + 1
		var line manifest.SymbolsLine
		if json.Unmarshal(c.data[start:end], &line) != nil {
			continue
		}
		rec, ok := m.File(line.Path)
		if !ok || rec.SymOff != int64(start) {
			continue // a file no longer indexed, or an older line of it
		}
		for _, s := range line.Symbols {
			better := s.Exported && !bestExported || s.Exported == bestExported && rec.Rank > bestRank
			if s.Name == name && (!best.ok || better) {
				best, bestExported, bestRank = symbolAt{line.Path, s.Signature, true}, s.Exported, rec.Rank
			}
		}
	}
	return best
}

// nodeDocs turns the knowledge nodes into documents and edges: each node
// is about its files (and the files defining its symbols) and links to the
// nodes it names or supersedes. Stamps identify each node's version for
// change detection. Every node gets its stamp and edges; a document is
// made only for the nodes want accepts (all of them when want is nil): a
// notes' delta sends only the changed ones, and a document copies its
// node's text.
func (e *Engine) nodeDocs(m *manifest.Manifest, nodes []*knowledge.Node, want func(id, stamp string) bool) (docs []core.Document, edges []core.Edge, stamps map[string]string) {
	stamps = make(map[string]string, len(nodes))
	docs = make([]core.Document, 0, len(nodes))
	// Every node is a document, superseded and retracted ones too: the
	// packer leaves them out unless a query asks for their status.
	active := make(map[string]string, len(nodes)) // node id → doc id
	for _, n := range nodes {
		active[n.ID] = nodeDocID(n)
	}
	for _, n := range nodes {
		id := nodeDocID(n)
		stamp := nodeStamp(n)
		stamps[id] = stamp
		if want == nil || want(id, stamp) {
			docs = append(docs, nodeDoc(e.relPath(n.Path), id, n))
		}
		edges = append(edges, nodeEdges(m, n, id, active)...)
	}
	sortEdges(edges)
	return docs, edges, stamps
}

// nodeEdges are the edges from a node's document id: to the files it is
// about (by its files and its file: links, each file once, in the order
// named) that the index holds, and to the nodes it links to or
// supersedes (active maps node ids to their documents).
func nodeEdges(m *manifest.Manifest, n *knowledge.Node, id string, active map[string]string) []core.Edge {
	var edges []core.Edge
	var about []string // a note names a few files: a slice, not a map
	for _, f := range n.Files {
		if !slices.Contains(about, f) && m.Has(f) {
			about = append(about, f)
		}
	}
	for _, l := range n.Links {
		if f, ok := strings.CutPrefix(l.Target, "file:"); ok {
			if !slices.Contains(about, f) && m.Has(f) {
				about = append(about, f)
			}
		} else if to, ok := active[l.Target]; ok {
			edges = append(edges, core.Edge{From: id, To: to, Kind: edgeLinks, Weight: 1})
		}
	}
	for _, old := range n.Supersedes {
		if to, ok := active[old]; ok {
			edges = append(edges, core.Edge{From: id, To: to, Kind: edgeLinks, Weight: 1})
		}
	}
	for _, f := range about {
		edges = append(edges, core.Edge{From: id, To: core.DocID(core.DocFile, f), Kind: edgeAbout, Weight: 1})
	}
	return edges
}

// sortEdges orders edges by their ends, as the rankers are given them.
func sortEdges(edges []core.Edge) {
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].From != edges[j].From {
			return edges[i].From < edges[j].From
		}
		return edges[i].To < edges[j].To
	})
}

// nodeDoc is a node's document.
func nodeDoc(path, id string, n *knowledge.Node) core.Document {
	d := core.Document{ID: id, Kind: core.DocNode, Title: n.Title, Path: path}
	// The files a note is about name it too: a question that names the
	// file finds its notes.
	d.Names = nodeNames(n)
	d.Body = n.Type + " " + n.Importance + "\n" + n.Body
	if !n.Updated.IsZero() {
		d.ModTime = n.Updated.Unix()
	}
	return d
}

// nodeNames are the names of a node's document, in order.
func nodeNames(n *knowledge.Node) []string {
	return append(append(append(append(make([]string, 0, 1+len(n.Symbols)+len(n.Tags)+len(n.Files)), n.ID), n.Symbols...), n.Tags...), n.Files...)
}

// nodeStamp identifies what a node's document holds, so that an edit
// that leaves its time alone (a hand edit of the text, a git checkout of
// another version) is indexed again: its status and time, and a hash of
// its document's title, names and text, and its links. It hashes the
// pieces as nodeDoc joins them, without joining them.
func nodeStamp(n *knowledge.Node) string {
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

// nodeDocID is a node's document id; personal nodes are told apart from
// project nodes of the same id.
func nodeDocID(n *knowledge.Node) string {
	if n.Personal {
		return core.DocID(core.DocNode, "personal:"+n.ID)
	}
	return core.DocID(core.DocNode, n.ID)
}

// relPath shows a path relative to the project root when it is inside.
func (e *Engine) relPath(p string) string {
	if rel, err := filepath.Rel(e.cfg.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// renderNode is a node as the agent reads it in a result: its type and
// title, its importance when it is not medium, staleness warnings, and the
// start of its text.
func renderNode(n *knowledge.Node, stale []string) string {
	var b strings.Builder
	kind := n.Type
	if n.Personal {
		kind = "personal " + kind
	}
	fmt.Fprintf(&b, "%s: %s", kind, n.Title)
	if n.Importance != "" && n.Importance != "medium" {
		fmt.Fprintf(&b, " (%s)", n.Importance)
	}
	for _, s := range stale {
		b.WriteString("\n  ⚠ " + s)
	}
	body := strings.TrimSpace(n.Body)
	if len([]rune(body)) > 400 {
		body = string([]rune(body)[:400]) + "…"
	}
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteString("\n  " + line)
		}
	}
	if len(n.Files) > 0 {
		fmt.Fprintf(&b, "\n  files: %s", strings.Join(n.Files, ", "))
	}
	return b.String()
}

// criticalFile lists the active critical notes, written by every index
// run that changes them, so that a session start reads one small file
// instead of every note.
const criticalFile = "critical.json"

// writeCritical saves the active notes of importance critical, newest
// first.
func (e *Engine) writeCritical(nodes []*knowledge.Node) error {
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
	return writeIfChanged(filepath.Join(e.indexDir(), criticalFile), string(data))
}

// CriticalNodes returns the active notes of importance critical as of the
// last index, newest first, reading one small file; before any index has
// written it, the notes themselves.
func (e *Engine) CriticalNodes() ([]*knowledge.Node, error) {
	data, err := os.ReadFile(filepath.Join(e.indexDir(), criticalFile))
	if errors.Is(err, os.ErrNotExist) {
		nodes, _ := e.project.Knowledge().Nodes()
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

// acceptsNode applies the node filters: status (active unless asked),
// type, time window, and path or module through the files the node is
// about.
func (q Query) acceptsNode(n *knowledge.Node, m *manifest.Manifest) bool {
	status := cmp.Or(n.Status, "active")
	if len(q.Statuses) == 0 && status != "active" || len(q.Statuses) > 0 && !slices.Contains(q.Statuses, status) {
		return false
	}
	if len(q.NodeTypes) > 0 && !slices.Contains(q.NodeTypes, n.Type) || !q.inWindow(n.Updated) {
		return false
	}
	if q.PathPrefix == "" && q.Module == "" {
		return true
	}
	for _, f := range n.Files {
		rec, ok := m.File(f)
		if q.underPath(f) && (q.Module == "" || ok && rec.Module == q.Module) {
			return true
		}
	}
	return false
}

// node shows a knowledge node, read from its file as it is now, with
// what changed in the code it is about since it was written.
func (p *packer) node(key string, full bool) (Item, verdict, error) {
	if full && !p.q.filtered() {
		// Counted without reading the node: the count may include a
		// superseded one the default filter would drop.
		return Item{}, counted, nil
	}
	kn := p.e.project.Knowledge()
	n, err := kn.Get(key)
	if err != nil || !p.q.acceptsNode(n, p.m) {
		return Item{}, left, nil // deleted since the index, or filtered out
	}
	if full {
		return Item{}, counted, nil
	}
	stale := kn.Stale(n)
	return Item{Kind: core.DocNode, Path: p.e.relPath(n.Path), Title: n.Title, Text: renderNode(n, stale), Stale: stale}, shown, nil
}
