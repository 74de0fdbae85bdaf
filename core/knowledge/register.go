package knowledge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// prep is an Input checked and normalized, before it meets the graph.
type prep struct {
	personal   bool
	needsBody  bool
	id         string // the caller's, or ""
	typ        string // "" when the caller left it to an existing node
	title      string
	norm       string
	body       string
	importance string
	files      []string
	symbols    []string
	tags       []string
	links      []Link
	supersedes []string
	created    *time.Time
	terms      *nodeTerms
}

// Register stores a batch of nodes. The whole batch runs under the
// cross-process lock of the knowledge directory (and of the vault's, when
// it has personal nodes); a bad input gets an error Result and the others
// go on. The error return is for the batch as a whole: the lock could not
// be taken, or ctx was canceled (the inputs not yet handled then have
// error Results; the others are written).
//
// For each input, in order:
//   - an existing node with the input's id, or an active node of the same
//     type with the same normalized title, absorbs it ("merged into <id>"):
//     the body is appended under a dated separator unless its text is
//     already there, files, symbols, tags and links are added, importance
//     is raised (never lowered), anchors are refreshed;
//   - otherwise a node is created, with the caller's id or
//     <type>-<slug of title> (plus -2, -3… if taken), and near-duplicates
//     are reported ("similar: <id>", see similar.go); an input with
//     NeedsBody and nothing to create a node from but its title gets the
//     error ErrNoBody;
//   - files and symbols are checked against the code map (files on disk
//     without one); unknown ones are kept and reported;
//   - supersedes (ids or titles) marks each old node superseded, with
//     superseded_by and valid_until; its file stays;
//   - links resolve by id, title, file path ("file:<path>") or symbol name
//     ("symbol:<Name>"), against the graph as the whole batch leaves it;
//     unresolved ones are kept as written and reported.
func (s *Store) Register(ctx context.Context, in []Input) ([]Result, error) {
	results := make([]Result, len(in))
	preps := make([]*prep, len(in))
	var needProject, needVault bool
	for i := range in {
		p, err := s.prepare(&in[i])
		if err != nil {
			results[i] = Result{Action: ActionError, ID: in[i].ID, Error: err.Error()}
			continue
		}
		preps[i] = p
		if p.personal {
			needVault = true
		} else {
			needProject = true
		}
	}
	if !needProject && !needVault {
		return results, nil
	}

	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	now := s.now()
	var batches []*batch
	defer func() {
		for _, b := range batches {
			b.lock.Unlock()
		}
	}()
	open := func(sc *scope) (*batch, error) {
		lock, err := store.LockWithin(ctx, sc.base, sc.dir)
		if err != nil {
			return nil, err
		}
		b := &batch{s: s, sc: sc, lock: lock, now: now, l: s.load(sc)}
		batches = append(batches, b)
		// Writers of this directory hold its lock, so a temporary file
		// seen now was left by a writer that died: remove it.
		for _, t := range b.l.temps {
			os.Remove(t)
		}
		if !sc.personal {
			b.commit = headCommit(s.root)
		}
		b.init(preps)
		return b, nil
	}
	var project, vault *batch
	var err error
	if needProject {
		if project, err = open(&s.project); err != nil {
			return nil, err
		}
	}
	if needVault {
		if vault, err = open(s.vault); err != nil {
			return nil, err
		}
	}
	batchOf := func(p *prep) *batch {
		if p.personal {
			return vault
		}
		return project
	}

	// Pass 1: every input lands on a node, created or merged.
	nodes := make([]*Node, len(in))
	similar := make([][]string, len(in))
	var ctxErr error
	for i, p := range preps {
		if p == nil {
			continue
		}
		if ctxErr == nil {
			ctxErr = ctx.Err()
		}
		if ctxErr != nil {
			results[i] = Result{Action: ActionError, ID: in[i].ID, Error: "not registered: " + ctxErr.Error()}
			preps[i] = nil
			continue
		}
		n, res, sim := batchOf(p).place(p)
		results[i], nodes[i], similar[i] = res, n, sim
		if n == nil {
			preps[i] = nil
		}
	}
	// Pass 2: edges, now that every node of the batch exists.
	for i, p := range preps {
		if p == nil {
			continue
		}
		b := batchOf(p)
		n := nodes[i]
		res := &results[i]
		superseded := 0
		for _, ref := range p.supersedes {
			old := b.find(ref)
			if old == nil || old.ID == n.ID {
				res.Notes = append(res.Notes, "unresolved supersedes: "+ref)
				continue
			}
			o, err := b.mut(old)
			if err != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("could not supersede %s: %v", old.ID, err))
				continue
			}
			o.Status, o.SupersededBy, o.Updated = StatusSuperseded, n.ID, now
			until := now
			o.ValidUntil = &until
			n.Supersedes = addUnique(n.Supersedes, o.ID)
			res.Notes = append(res.Notes, "superseded: "+o.ID)
			superseded++
		}
		for _, l := range p.links {
			target, ok := b.resolve(l.Target)
			if target == n.ID {
				continue
			}
			if !ok {
				res.Notes = append(res.Notes, "unresolved link: "+l.Target)
			}
			n.Links = addUnique(n.Links, Link{Rel: l.Rel, Target: target})
		}
		count := 0
		for _, id := range similar[i] {
			if count == 3 {
				break
			}
			if !contains(n.Supersedes, id) && id != n.ID {
				res.Notes = append(res.Notes, "similar: "+id)
				count++
			}
		}
		if res.Action == ActionCreated && superseded > 0 {
			res.Action = ActionSuperseded
		}
	}

	// Write every changed node; a failed write fails the inputs that
	// landed on it.
	writeErr := map[string]error{}
	var recordErr error
	for _, b := range batches {
		for id, err := range b.write() {
			writeErr[id] = err
		}
		recordErr = cmp.Or(recordErr, b.recordErr)
	}
	for i, n := range nodes {
		if n == nil || preps[i] == nil {
			continue
		}
		res := &results[i]
		if err := writeErr[n.ID]; err != nil {
			*res = Result{Action: ActionError, ID: n.ID, Error: err.Error()}
			continue
		}
		for j, note := range res.Notes {
			if id, ok := strings.CutPrefix(note, "superseded: "); ok && writeErr[id] != nil {
				res.Notes[j] = fmt.Sprintf("could not supersede %s: %v", id, writeErr[id])
			}
		}
		if recordErr != nil {
			res.Notes = append(res.Notes, "saved, but shown as the repository's: "+recordErr.Error())
		}
	}
	return results, ctxErr
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// prepare validates an input on its own, before any locking.
func (s *Store) prepare(in *Input) (*prep, error) {
	p := &prep{personal: in.Personal, needsBody: in.NeedsBody, created: in.Created}
	if p.personal && s.vault == nil {
		return nil, errors.New("personal node: no personal vault is configured")
	}
	if in.ID != "" {
		id := strings.TrimSpace(in.ID)
		if err := validateID(id); err != nil {
			return nil, err
		}
		p.id = id
	}
	if t := strings.TrimSpace(in.Type); t != "" {
		c, ok := canonicalType(t)
		if !ok {
			return nil, fmt.Errorf("unknown type %q: use one of %s", in.Type, strings.Join(Types, ", "))
		}
		p.typ = c
	}
	p.title = oneLine(in.Title)
	if len(p.title) > MaxTitleLen {
		return nil, fmt.Errorf("title is %d bytes; the limit is %d", len(p.title), MaxTitleLen)
	}
	if p.title == "" && p.id == "" {
		return nil, errors.New("title is required")
	}
	p.norm = normTitle(p.title)
	p.body = strings.TrimSpace(strings.ReplaceAll(in.Body, "\r\n", "\n"))
	// Agents often repeat the title as a heading; the file has one already.
	if first, rest, _ := strings.Cut(p.body, "\n"); strings.HasPrefix(first, "# ") && normTitle(first[2:]) == p.norm {
		p.body = strings.TrimSpace(rest)
	}
	if len(p.body) > s.opts.MaxBody {
		return nil, fmt.Errorf("body is %d bytes; the limit is %d", len(p.body), s.opts.MaxBody)
	}
	if in.Importance != "" {
		c, ok := canonicalImportance(in.Importance)
		if !ok {
			return nil, fmt.Errorf("unknown importance %q: use critical, high, medium or low", in.Importance)
		}
		p.importance = c
	}
	for what, n := range map[string]int{"files": len(in.Files), "symbols": len(in.Symbols), "tags": len(in.Tags), "links": len(in.Links), "supersedes": len(in.Supersedes)} {
		if n > MaxListLen {
			return nil, fmt.Errorf("%d %s; the limit is %d", n, what, MaxListLen)
		}
	}
	for _, f := range in.Files {
		c, err := cleanFile(s.root, f)
		if err != nil {
			return nil, err
		}
		p.files = addUnique(p.files, c)
	}
	for _, sym := range in.Symbols {
		c, err := cleanRef("symbol", sym)
		if err != nil {
			return nil, err
		}
		p.symbols = addUnique(p.symbols, c)
	}
	for _, t := range in.Tags {
		if c := cleanTag(t); c != "" {
			if _, err := cleanRef("tag", c); err != nil {
				return nil, err
			}
			p.tags = addUnique(p.tags, c)
		}
	}
	for _, l := range in.Links {
		rel, err := cleanRel(l.Rel)
		if err != nil {
			return nil, err
		}
		t, err := cleanRef("link target", l.Target)
		if err != nil {
			return nil, err
		}
		if f, ok := strings.CutPrefix(t, "file:"); ok {
			c, err := cleanFile(s.root, f)
			if err != nil {
				return nil, fmt.Errorf("link target: %w", err)
			}
			t = "file:" + c
		}
		p.links = addUnique(p.links, Link{Rel: rel, Target: t})
	}
	for _, ref := range in.Supersedes {
		c, err := cleanRef("supersedes", ref)
		if err != nil {
			return nil, err
		}
		p.supersedes = addUnique(p.supersedes, c)
	}
	p.terms = termsOf(p.title, p.body)
	return p, nil
}

// batch is one scope's share of a Register call.
type batch struct {
	s      *Store
	sc     *scope
	lock   *store.Lock
	l      *loaded
	now    time.Time
	commit string

	byID    map[string]*Node    // current version of every node
	byTitle map[string]*Node    // type + "\x00" + normalized title → active node
	titles  map[string][]string // normalized title → ids of every status and type
	sim     *simIndex
	working map[string]bool // ids already cloned (or created) in this batch
	dirty   []*Node
	// recordErr is why the record of the user's own notes could not be
	// updated after the write (own.go): the notes are saved, and show
	// as the repository's.
	recordErr error
}

func titleKey(typ, norm string) string { return typ + "\x00" + norm }

// init indexes the scope for the inputs that belong to it.
func (b *batch) init(preps []*prep) {
	b.byID = make(map[string]*Node, len(b.l.nodes))
	b.byTitle = make(map[string]*Node, len(b.l.nodes))
	b.working = map[string]bool{}
	b.titles = make(map[string][]string, len(b.l.nodes))
	var sets [][]string
	type indexed struct {
		n *Node
		t *nodeTerms
	}
	var active []indexed
	for _, n := range b.l.nodes {
		b.byID[n.ID] = n
		nt := normTitle(n.Title)
		b.titles[nt] = append(b.titles[nt], n.ID)
		if n.Status != StatusActive {
			continue
		}
		k := titleKey(n.Type, nt)
		if b.byTitle[k] == nil {
			b.byTitle[k] = n
		}
		t := b.terms(n)
		active = append(active, indexed{n, t})
		sets = append(sets, t.title, t.full)
	}
	for _, p := range preps {
		if p != nil && p.personal == b.sc.personal {
			sets = append(sets, p.terms.title, p.terms.full)
		}
	}
	b.sim = newSimIndex(sets)
	for _, a := range active {
		b.sim.put(a.n, a.t)
	}
}

// terms returns a loaded node's terms, cached with its file.
func (b *batch) terms(n *Node) *nodeTerms {
	e := b.l.entries[n]
	if e == nil {
		return termsOf(n.Title, n.Body)
	}
	b.s.mu.Lock()
	t := e.terms
	b.s.mu.Unlock()
	if t == nil {
		t = termsOf(n.Title, n.Body)
		b.s.mu.Lock()
		e.terms = t
		b.s.mu.Unlock()
	}
	return t
}

// path is where node id is written: its file when that is in the
// writable directory, else <dir>/<id>.md, which must not hold another
// node.
func (b *batch) path(n *Node) (string, error) {
	if n.Path != "" && filepath.Dir(n.Path) == b.sc.dir {
		return n.Path, nil
	}
	if held, ok := b.l.stems[n.ID]; ok && held != n.ID {
		f := filepath.Join(b.sc.dir, n.ID+".md")
		if held == "" {
			return "", fmt.Errorf("%s exists but cannot be read; fix or remove it first", f)
		}
		return "", fmt.Errorf("%s holds node %s", f, held)
	}
	return filepath.Join(b.sc.dir, n.ID+".md"), nil
}

// mut returns the batch's working copy of n, cloning it the first time.
func (b *batch) mut(n *Node) (*Node, error) {
	if b.working[n.ID] {
		return b.byID[n.ID], nil
	}
	p, err := b.path(n)
	if err != nil {
		return nil, err
	}
	c := n.Clone()
	c.Path = p
	b.working[c.ID] = true
	b.byID[c.ID] = c
	k := titleKey(c.Type, normTitle(c.Title))
	if b.byTitle[k] == n {
		b.byTitle[k] = c
	}
	b.sim.rename(n, c)
	b.dirty = append(b.dirty, c)
	return c, nil
}

// idFree says whether a new node may take id.
func (b *batch) idFree(id string) bool {
	_, onDisk := b.l.stems[id]
	return b.byID[id] == nil && !onDisk
}

// place lands one input on a node: merged into an existing one or created.
func (b *batch) place(p *prep) (*Node, Result, []string) {
	fail := func(err error) (*Node, Result, []string) {
		return nil, Result{Action: ActionError, ID: p.id, Error: err.Error()}, nil
	}
	var target *Node
	if p.id != "" {
		target = b.byID[p.id]
		if target != nil && p.typ != "" && p.typ != target.Type {
			return fail(fmt.Errorf("id %s is a %s, not a %s", p.id, target.Type, p.typ))
		}
		if target == nil && p.title == "" {
			return fail(fmt.Errorf("no node %s to merge into, and no title to create it", p.id))
		}
	}
	if target == nil {
		target = b.byTitle[titleKey(typeOr(p.typ), p.norm)]
	}
	if target != nil {
		return b.merge(target, p)
	}

	if p.needsBody && p.body == "" && len(p.files)+len(p.symbols)+len(p.links)+len(p.supersedes) == 0 {
		return fail(ErrNoBody)
	}
	typ := typeOr(p.typ)
	id := p.id
	if id == "" {
		base := makeID(typ, p.title, MaxIDLen)
		id = base
		for k := 2; !b.idFree(id); k++ {
			suffix := "-" + itoa(k)
			id = strings.TrimRight(base[:min(len(base), MaxIDLen-len(suffix))], "-") + suffix
		}
	}
	n := &Node{
		ID: id, Type: typ, Status: StatusActive, Importance: p.importance, Title: p.title,
		Body: p.body, Created: b.now, Updated: b.now, Personal: b.sc.personal,
	}
	if n.Importance == "" {
		n.Importance = ImportanceMedium
	}
	if p.created != nil {
		n.Created = p.created.UTC().Truncate(time.Second)
	}
	n.Tags = append(n.Tags, p.tags...)
	path, err := b.path(n)
	if err != nil {
		return fail(err)
	}
	n.Path = path
	res := Result{Action: ActionCreated, ID: id, Path: path}
	res.Notes = b.anchor(n, p)

	var sim []string
	for _, m := range b.sim.similar(typ, p.terms, n) {
		sim = append(sim, m.node.ID)
	}
	b.byID[id] = n
	b.working[id] = true
	b.byTitle[titleKey(typ, p.norm)] = n
	b.titles[p.norm] = append(b.titles[p.norm], id)
	b.sim.put(n, p.terms)
	b.dirty = append(b.dirty, n)
	return n, res, sim
}

func typeOr(t string) string {
	if t == "" {
		return TypeNote
	}
	return t
}

// merge folds an input into an existing node.
func (b *batch) merge(target *Node, p *prep) (*Node, Result, []string) {
	body := target.Body
	if p.body != "" && !strings.Contains(oneLine(body), oneLine(p.body)) {
		if body == "" {
			body = p.body
		} else {
			body += "\n\n---\n\n*" + b.now.Format("2006-01-02") + "*\n\n" + p.body
		}
	}
	if len(body) > b.s.opts.MaxBody {
		return nil, Result{Action: ActionError, ID: target.ID, Error: fmt.Sprintf("merging into %s would make its body %d bytes; the limit is %d", target.ID, len(body), b.s.opts.MaxBody)}, nil
	}
	n, err := b.mut(target)
	if err != nil {
		return nil, Result{Action: ActionError, ID: target.ID, Error: err.Error()}, nil
	}
	res := Result{Action: ActionMerged, ID: n.ID, Path: n.Path, Notes: []string{"merged into " + n.ID}}
	if n.Status == StatusRetracted {
		n.Status = StatusActive
		res.Notes = append(res.Notes, "reactivated: it was retracted")
		if k := titleKey(n.Type, normTitle(n.Title)); b.byTitle[k] == nil {
			b.byTitle[k] = n
		}
	}
	n.Body = body
	n.Updated = b.now
	if importanceRank[p.importance] > importanceRank[n.Importance] {
		n.Importance = p.importance
	}
	n.Tags = addUnique(n.Tags, p.tags...)
	res.Notes = append(res.Notes, b.anchor(n, p)...)
	b.sim.put(n, termsOf(n.Title, n.Body))
	return n, res, nil
}

// anchor adds the input's files and symbols to n and anchors n to the
// code it is about as that code is now (anchor.go), returning notes about
// the unknown files and symbols. The anchors of the files the input does
// not name (nor the files of the symbols it lists) are kept as they were:
// merging into a note does not confirm what it said of other code.
func (b *batch) anchor(n *Node, p *prep) []string {
	var notes []string
	n.Files = addUnique(n.Files, p.files...)
	n.Symbols = addUnique(n.Symbols, p.symbols...)
	if b.sc.personal {
		// The vault is shared by every project: its notes name files of no
		// project in particular, so nothing is checked or anchored.
		return nil
	}
	n.Commit = b.commit
	fresh, unknownFiles, unknownSymbols := anchorsOf(n, b.s.codeNow())
	for _, f := range p.files {
		if slices.Contains(unknownFiles, f) {
			notes = append(notes, "unknown file: "+f)
		}
	}
	for _, sym := range p.symbols {
		if slices.Contains(unknownSymbols, sym) {
			notes = append(notes, "unknown symbol: "+sym)
		}
	}
	n.Anchors = mergeAnchors(n.Anchors, fresh, p.files, p.symbols)
	return notes
}

// mergeAnchors keeps the old anchors of the files not touched (named by
// files, or holding a symbol of symbols) and takes the fresh ones of the
// rest. nil when none is left.
func mergeAnchors(old, fresh map[string]string, files, symbols []string) map[string]string {
	touched := map[string]bool{}
	for _, f := range files {
		touched[f] = true
	}
	for k, v := range fresh {
		if i := strings.LastIndexByte(k, '#'); i > 0 && strings.HasPrefix(v, bodyPrefix) && slices.Contains(symbols, k[i+1:]) {
			touched[k[:i]] = true
		}
	}
	kept := map[string]bool{} // files of which old anchors are kept
	out := map[string]string{}
	for k, v := range old {
		f := anchorFile(k, v)
		if f == "" {
			// A signature anchor of the old kind: replaced when its symbol
			// is listed again, else kept.
			if !slices.Contains(symbols, strings.TrimPrefix(k, "symbol:")) {
				out[k] = v
			}
			continue
		}
		if !touched[f] {
			out[k] = v
			kept[f] = true
		}
	}
	for k, v := range fresh {
		if !kept[anchorFile(k, v)] {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// find resolves a reference to a node of the scope: by id, else by title.
func (b *batch) find(ref string) *Node {
	if n := b.byID[ref]; n != nil {
		return n
	}
	nt := normTitle(ref)
	if nt == "" {
		return nil
	}
	var best *Node
	for _, id := range b.titles[nt] {
		n := b.byID[id]
		if best == nil || n.Status == StatusActive && best.Status != StatusActive ||
			(n.Status == StatusActive) == (best.Status == StatusActive) && n.ID < best.ID {
			best = n
		}
	}
	return best
}

// resolve turns a link target into a node id, "file:<path>" or
// "symbol:<Name>". ok is false when nothing matched; the target is then
// returned as written.
func (b *batch) resolve(t string) (string, bool) {
	if rest, ok := strings.CutPrefix(t, "file:"); ok {
		f, err := cleanFile(b.s.root, rest)
		if err != nil {
			return t, false
		}
		_, known := b.s.fileHash(f)
		return "file:" + f, known
	}
	if rest, ok := strings.CutPrefix(t, "symbol:"); ok {
		if b.s.opts.Code != nil {
			if _, _, ok := b.s.opts.Code.Symbol(rest); ok {
				return t, true
			}
		}
		return t, false
	}
	if n := b.find(t); n != nil {
		return n.ID, true
	}
	if f, err := cleanFile(b.s.root, t); err == nil {
		if _, ok := b.s.fileHash(f); ok {
			return "file:" + f, true
		}
	}
	if b.s.opts.Code != nil {
		if _, _, ok := b.s.opts.Code.Symbol(t); ok {
			return "symbol:" + t, true
		}
	}
	return t, false
}

// write saves the batch's changed nodes in one store.WriteFiles: each file
// is still replaced atomically, but the batch pays for one filesystem sync
// instead of one per node. It returns the nodes that could not be written.
func (b *batch) write() map[string]error {
	errs := map[string]error{}
	var files []store.File
	var nodes []*Node
	for _, n := range b.dirty {
		data, err := encodeNode(n)
		if err != nil {
			errs[n.ID] = err
			continue
		}
		files = append(files, store.File{Path: n.Path, Data: data, Perm: 0o644})
		nodes = append(nodes, n)
	}
	var own map[string]bool
	if !b.sc.personal {
		own = b.s.ownBefore(nodes)
	}
	wrote := map[string][]byte{}
	for i, err := range store.WriteFiles(files) {
		if err != nil {
			errs[nodes[i].ID] = err
			continue
		}
		b.s.remember(nodes[i])
		if own[nodes[i].Path] {
			wrote[nodes[i].Path] = files[i].Data
		}
	}
	b.recordErr = b.s.recordOwn(wrote)
	return errs
}
