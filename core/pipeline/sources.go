package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/store"
)

// Sources (core.Source) bring documents from outside the code files. An
// index run asks each enabled source what it holds, reads what changed
// since its state, and gives the rankers the documents of every item; the
// state, one file per source in sourcesDir, keeps each item's stamp and
// what it read, so that a query shows an item without calling the source
// and a run where no stamp changed reads nothing. A run of the notes alone
// (a hook's) does not call the sources: their documents stand as the last
// full run left them.

// sourcesDir is the folder of the sources' states, in the index folder.
const sourcesDir = "sources"

// sourceFormat is the version of a source's state file.
const sourceFormat = 1

// maxSourceState bounds a source's state file as read: a larger one (a
// file put there by hand) is taken as missing.
const maxSourceState = 1 << 30

// sourceState is what the index holds of one source.
type sourceState struct {
	Format int    `json:"format"`
	Source string `json:"source"`
	// Kind is the kind of the source's documents (core.Info.DocKind).
	Kind  string        `json:"kind"`
	Items []sourceEntry `json:"items"`

	// byKey finds an item by its key; made once, before the state is
	// shared with queries, which may run at once.
	byKey map[string]int
}

// indexKeys makes byKey.
func (s *sourceState) indexKeys() *sourceState {
	s.byKey = make(map[string]int, len(s.Items))
	for i := range s.Items {
		s.byKey[s.Items[i].Key] = i
	}
	return s
}

// sourceEntry is one item as the source last read it, with its stamp.
type sourceEntry struct {
	Stamp string `json:"stamp"`
	core.SourceDocument
}

func (s *sourceState) entry(key string) (*sourceEntry, bool) {
	i, ok := s.byKey[key]
	if !ok {
		return nil, false
	}
	return &s.Items[i], true
}

// statePath is where the state of the source called name lives.
func (c *sourceCache) statePath(name string) string {
	return filepath.Join(c.dir, name+".json")
}

// loadSourceState reads a source's state; nil when there is none, or it
// is damaged or of another format (the source is then read whole again).
func loadSourceState(path, name string) *sourceState {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSourceState+1))
	if err != nil || len(data) > maxSourceState {
		return nil
	}
	var st sourceState
	if json.Unmarshal(data, &st) != nil || st.Format != sourceFormat || st.Source != name || core.ValidDocKind(st.Kind) != nil {
		return nil
	}
	st.indexKeys()
	if len(st.byKey) != len(st.Items) || st.byKey[""] != 0 || len(st.Items) > 0 && st.Items[0].Key == "" {
		return nil // a key repeated or empty: not a state rubi wrote
	}
	return &st
}

// sourceRun is a configured source (core.Source) as a docSource, or the
// state of one taken out of the configuration, whose documents go.
type sourceRun struct {
	stage *config.Stage // nil for a source no longer configured
	gone  string        // the name of a source no longer configured
	prev  *sourceState
	next  *sourceState
}

func (run *sourceRun) name() string {
	if run.stage == nil {
		return run.gone
	}
	return run.stage.Name
}

// read brings a source's documents up to date, or, for a run of the
// notes alone, takes them as the last run left them. A source that
// fails, or answers what no source could mean, is reported and keeps
// what it held: an unreachable tracker does not empty the index of its
// issues. A source whose documents' kind another took already is left
// out; so are the documents of a source no longer configured.
func (run *sourceRun) read(ctx context.Context, r *indexRun) error {
	e, name := r.e, run.name()
	run.prev = loadSourceState(e.sources.statePath(name), name)
	switch {
	case run.stage == nil:
		// Taken out of the configuration: no next, so its documents go.
	case r.opts.notesOnly:
		run.next = run.prev
	default:
		if err := run.readSource(ctx, r); err != nil {
			var de *DiagnosticsError
			if errors.As(err, &de) || ctx.Err() != nil {
				return err
			}
			r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("source %s: %v; keeping what it held", name, err))
			run.next = run.prev
		}
	}
	if run.next != nil {
		if other, dup := r.sourceKinds[run.next.Kind]; dup {
			r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("source %s: its documents' kind %q is %s's already; leaving it out", name, run.next.Kind, other))
			run.next = nil
		} else {
			r.sourceKinds[run.next.Kind] = name
			r.stats.Sourced += len(run.next.Items)
		}
	}
	r.diffSource(run.prev, run.next)
	r.lap("source " + name)
	return nil
}

// readSource scans one source and reads the items whose stamp changed.
func (run *sourceRun) readSource(ctx context.Context, r *indexRun) error {
	s, err := r.e.stages.open(ctx, run.stage)
	if err != nil {
		return err
	}
	src, ok := s.(core.Source)
	if s == nil || !ok {
		return fmt.Errorf("unavailable")
	}
	kind := src.Info().DocKind
	if err := core.ValidDocKind(kind); err != nil {
		return err
	}
	items, err := src.Scan(ctx)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if err := core.CheckSourceItems(items); err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	prev := run.prev
	if r.opts.Full || prev != nil && prev.Kind != kind {
		prev = nil
	}
	var want []string
	for _, it := range items {
		if old, ok := prev.lookup(it.Key); !ok || old.Stamp != it.Stamp {
			want = append(want, it.Key)
		}
	}
	if len(want) == 0 && prev != nil && len(items) == len(prev.Items) {
		run.next = prev // nothing new, nothing gone
		return nil
	}
	read := map[string]core.SourceDocument{}
	if len(want) > 0 {
		docs, err := src.Read(ctx, want)
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if err := core.CheckSourceDocuments(want, docs); err != nil {
			return fmt.Errorf("read: %w", err)
		}
		for _, d := range docs {
			read[d.Key] = d
		}
	}
	next := &sourceState{Format: sourceFormat, Source: run.stage.Name, Kind: kind, Items: make([]sourceEntry, 0, len(items))}
	for _, it := range items {
		if d, ok := read[it.Key]; ok {
			next.Items = append(next.Items, sourceEntry{Stamp: it.Stamp, SourceDocument: d})
		} else if old, ok := prev.lookup(it.Key); ok && old.Stamp == it.Stamp {
			next.Items = append(next.Items, *old)
		}
		// Else gone between the scan and the read: left out.
	}
	sort.Slice(next.Items, func(i, j int) bool { return next.Items[i].Key < next.Items[j].Key })
	run.next = next.indexKeys()
	return nil
}

// lookup finds an item of a state that may be nil.
func (s *sourceState) lookup(key string) (*sourceEntry, bool) {
	if s == nil {
		return nil, false
	}
	return s.entry(key)
}

// diffSource lists the documents of a source that changed or went.
func (r *indexRun) diffSource(prev, next *sourceState) {
	if next != nil {
		for i := range next.Items {
			it := &next.Items[i]
			if prev == nil || prev.Kind != next.Kind {
				r.changedIDs = append(r.changedIDs, core.DocID(next.Kind, it.Key))
			} else if old, ok := prev.entry(it.Key); !ok || old.Stamp != it.Stamp {
				r.changedIDs = append(r.changedIDs, core.DocID(next.Kind, it.Key))
			}
		}
	}
	if prev != nil {
		for i := range prev.Items {
			key := prev.Items[i].Key
			if next == nil || next.Kind != prev.Kind {
				r.removedIDs = append(r.removedIDs, core.DocID(prev.Kind, key))
			} else if _, ok := next.entry(key); !ok {
				r.removedIDs = append(r.removedIDs, core.DocID(prev.Kind, key))
			}
		}
	}
}

// documents adds the source's documents, and their edges to the files
// the index shows.
func (run *sourceRun) documents(r *indexRun, _ bool, c *core.Corpus) error {
	st := run.next
	if st == nil {
		return nil
	}
	for i := range st.Items {
		it := &st.Items[i]
		id := core.DocID(st.Kind, it.Key)
		c.Documents = append(c.Documents, core.Document{ID: id, Kind: st.Kind, Title: it.Title, Names: it.Names, Body: it.Body, ModTime: it.Time})
		var about []string
		for _, f := range it.Files {
			if rec, ok := r.next.File(f); ok && !r.e.roles.hides(rec) && !slices.Contains(about, f) {
				about = append(about, f)
				c.Edges = append(c.Edges, core.Edge{From: id, To: core.DocID(core.DocFile, f), Kind: edgeAbout, Weight: 1})
			}
		}
	}
	return nil
}

// save writes the state when it changed, and removes it when the
// source's documents were dropped (a source taken out or disabled, or
// left out for its kind), so that a source that comes back sends every
// item again.
func (run *sourceRun) save(r *indexRun, _ bool) error {
	e := r.e
	path := e.sources.statePath(run.name())
	switch {
	case run.next == nil:
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	case run.next != run.prev:
		data, err := json.Marshal(run.next)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		// Derived: lost in a power cut, the next run reads the source
		// whole again.
		if err := store.WriteDerived(path, data, 0o644); err != nil {
			return err
		}
		e.sources.cache(run.name(), run.next)
	}
	return nil
}

// stateNames lists the sources whose state the index folder holds.
func (c *sourceCache) stateNames() []string {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, de := range ents {
		if name, ok := strings.CutSuffix(de.Name(), ".json"); ok && de.Type().IsRegular() && core.ValidStageName(name, core.KindSource) == nil {
			names = append(names, name)
		}
	}
	return names
}

// sourceCache is the sources' states in the index folder (dir), and
// those a query read, by source name, each with the stat of its file
// then: another process's index run replaces the file, and the next
// query reads it again.
type sourceCache struct {
	dir    string
	mu     sync.Mutex
	states map[string]cachedSource
}

type cachedSource struct {
	state *sourceState
	stat  string
}

// statOf identifies a file's version by its size and modification time.
func statOf(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
}

// cache keeps the state an index run just wrote for the queries.
func (c *sourceCache) cache(name string, st *sourceState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.states == nil {
		c.states = map[string]cachedSource{}
	}
	c.states[name] = cachedSource{state: st, stat: statOf(c.statePath(name))}
}

// kinds maps the kinds of the documents of the sources cfg enables, as
// the index holds them, to their states. A query reads it only when it
// meets a kind that is not the core's own.
func (c *sourceCache) kinds(cfg *config.Config) map[string]*sourceState {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.states == nil {
		c.states = map[string]cachedSource{}
	}
	out := map[string]*sourceState{}
	for _, st := range cfg.Enabled(core.KindSource) {
		path := c.statePath(st.Name)
		stat := statOf(path)
		cs, ok := c.states[st.Name]
		if !ok || cs.stat != stat {
			cs = cachedSource{state: loadSourceState(path, st.Name), stat: stat}
			c.states[st.Name] = cs
		}
		if cs.state != nil {
			out[cs.state.Kind] = cs.state
		}
	}
	return out
}
