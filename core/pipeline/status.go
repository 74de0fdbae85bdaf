package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/notes"
)

// Status is the overview of a project's memory (rubi status, the memory
// tool's status action): its knowledge nodes, its conversation chunks by
// retention zone and what retention would do, the index's age and health,
// the size of what rubi keeps and when it was last used. Every part that
// cannot be read says so in its problems; Status itself never fails.
type Status struct {
	Root string `json:"root"`
	// At is when the status was taken.
	At        time.Time             `json:"at"`
	Knowledge KnowledgeStatus       `json:"knowledge"`
	Memory    *notes.MemoryOverview `json:"memory"`
	Index     IndexStatus           `json:"index"`
	Sizes     Sizes                 `json:"sizes"`
	// LastWritten is the node written last (created, merged or edited
	// through rubi).
	LastWritten *NodeEvent `json:"last_written"`
	// Problems are what could not be read: unreadable nodes and chunks, a
	// damaged index, a folder that cannot be listed.
	Problems []string `json:"problems"`
}

// KnowledgeStatus counts the knowledge nodes of the project and of the
// personal vault.
type KnowledgeStatus struct {
	Project NodeCounts `json:"project"`
	// Stale counts the active project notes the code they are about
	// changed since (knowledge.Store.Stale); WholeFile, those anchored the
	// old way, to whole files (rubi index migrates them).
	Stale     int `json:"stale"`
	WholeFile int `json:"whole_file_anchors"`
	// Personal is nil without a personal vault; Vault is its folder.
	Personal *NodeCounts `json:"personal"`
	Vault    string      `json:"vault,omitempty"`
}

// NodeCounts counts nodes (core/notes): all of them by status, and the
// active ones by type and importance.
type NodeCounts = notes.NodeCounts

// NodeEvent is a node and when it was written.
type NodeEvent = notes.NodeEvent

// IndexStatus is the index's age and health.
type IndexStatus struct {
	// State is "none" (never indexed), "ok", "outdated" (sound, but a
	// ranker's configuration changed, a ranker's files were written by
	// another version of rubi, or notes changed since: the next refresh
	// catches up) or "damaged" (the next rubi index repairs it).
	State     string    `json:"state"`
	IndexedAt time.Time `json:"indexed_at,omitzero"`
	// AgeSeconds is how long ago it was indexed.
	AgeSeconds int64 `json:"age_seconds"`
	Files      int   `json:"files"`
	Nodes      int   `json:"nodes"`
	// NotesChanged reports that the notes' folders changed since the
	// index read them.
	NotesChanged bool `json:"notes_changed"`
	// Rankers is each enabled ranker's state: ok, not indexed, outdated
	// (its configuration changed, or its files are another version's,
	// with why), damaged (with why) or not checked (a
	// subprocess plugin, which is not started for a status).
	Rankers []RankerStatus `json:"rankers"`
}

// RankerStatus is the state of one ranker's index.
type RankerStatus struct {
	Name  string `json:"name"`
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// Sizes are the bytes on disk of what rubi keeps (links not followed).
type Sizes struct {
	// Rubi is all of .rubi/; Knowledge, Sessions and Index are parts of
	// it: the nodes (with the Node.js version's folder), the conversation
	// memory with its archive, the index.
	Rubi      int64 `json:"rubi"`
	Knowledge int64 `json:"knowledge"`
	Sessions  int64 `json:"sessions"`
	Index     int64 `json:"index"`
	// Vault is the personal vault's nodes.
	Vault int64 `json:"vault"`
}

// Index states.
const (
	IndexNone     = "none"
	IndexOK       = "ok"
	IndexOutdated = "outdated"
	IndexDamaged  = "damaged"
)

// Ranker states besides the index's: a ranker the index never ran, and
// one whose state Status does not check (a plugin, which would have to
// be started).
const (
	IndexNotIndexed = "not indexed"
	IndexNotChecked = "not checked"
)

// Status takes the overview at now. It writes nothing: the index is
// checked as an index run checks it before keeping it (the manifest's
// checksum, the symbols file's size, each built-in ranker's Verify), not
// refreshed.
func (e *Engine) Status(ctx context.Context, now time.Time) *Status {
	s := &Status{Root: e.cfg.Root, At: now.UTC().Truncate(time.Second), Problems: []string{}}
	o := e.nodes.Overview()
	s.Problems = append(s.Problems, o.Problems...)
	s.Knowledge.Project, s.LastWritten = o.Project, o.Last
	s.Knowledge.Stale, s.Knowledge.WholeFile = e.nodes.StaleCounts()
	if v := e.project.VaultDir(); v != "" {
		s.Knowledge.Personal, s.Knowledge.Vault = &o.Personal, v
	}

	st, policy := e.project.Memory()
	st.Now = func() time.Time { return now }
	if o, err := st.Overview(policy); err != nil {
		s.Problems = append(s.Problems, "conversation memory: "+err.Error())
	} else {
		s.Memory = o
		s.Problems = append(s.Problems, o.Problems...)
	}

	s.Index = e.indexStatus(ctx, now)
	for _, r := range s.Index.Rankers {
		if r.State == IndexDamaged {
			s.Problems = append(s.Problems, "index: "+r.Name+" is damaged (rubi index repairs it): "+r.Error)
		}
	}

	data := e.project.Dir()
	s.Sizes = Sizes{Rubi: dirSize(data), Sessions: dirSize(e.chunks.Dir()), Index: dirSize(e.folder.dir)}
	dirs := e.nodes.Dirs()
	for i, d := range dirs {
		if i < 2 {
			s.Sizes.Knowledge += dirSize(d)
		} else {
			s.Sizes.Vault += dirSize(d)
		}
	}
	return s
}

// indexStatus checks the index as an index run does before it keeps it.
func (e *Engine) indexStatus(ctx context.Context, now time.Time) IndexStatus {
	is := IndexStatus{State: IndexNone, Rankers: []RankerStatus{}}
	if !e.HasIndex() {
		return is
	}
	m, err := manifest.Load(e.folder.dir, true, e.oneShot)
	if err != nil {
		is.State = IndexDamaged
		is.Rankers = append(is.Rankers, RankerStatus{Name: "manifest", State: IndexDamaged, Error: err.Error()})
		return is
	}
	is.State, is.IndexedAt = IndexOK, m.IndexedAt
	is.AgeSeconds = max(0, int64(now.Sub(m.IndexedAt)/time.Second))
	is.Files = len(m.Records())
	if ns := e.notes.Load(); ns != nil {
		is.Nodes = ns.Len()
	}
	// The stamps differ: unlike NotesChanged, a change in the stamp's own
	// clock tick is not suspected (that is for a hook deciding to read).
	is.NotesChanged = e.notes.Changed()
	if is.NotesChanged {
		is.State = IndexOutdated
	}
	if !m.SymbolsIntact(e.folder.dir) {
		is.State = IndexDamaged
		is.Rankers = append(is.Rankers, RankerStatus{Name: "symbols", State: IndexDamaged, Error: "the symbols file is missing, shorter than the manifest says, or holds a line of another file"})
	}
	for _, st := range e.stages.indexedRankers() {
		r := RankerStatus{Name: st.Name, State: IndexOK}
		switch fp := m.Rankers[st.Name]; {
		case fp == "":
			r.State = IndexNotIndexed
		case st.Plugin != "":
			r.State = IndexNotChecked
		case fp != e.stages.fingerprint(st):
			r.State = IndexOutdated
		case m.Stateful[st.Name] && !e.folder.hasState(st.Name):
			r.State, r.Error = IndexDamaged, "its state folder is empty"
		default:
			if err := e.stages.verify(ctx, st); errors.Is(err, core.ErrOutdated) {
				// Sound, from another version of rubi: rebuilt by the
				// next index run, nothing lost.
				r.State, r.Error = IndexOutdated, err.Error()
			} else if err != nil {
				r.State, r.Error = IndexDamaged, err.Error()
			}
		}
		switch {
		case r.State == IndexDamaged:
			is.State = IndexDamaged
		case r.State != IndexOK && r.State != IndexNotChecked && is.State == IndexOK:
			is.State = IndexOutdated
		}
		is.Rankers = append(is.Rankers, r)
	}
	return is
}

// dirSize is the bytes of the regular files under dir, links not
// followed; 0 for a folder that is missing.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder that cannot be listed adds nothing
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// Text is the status for a person in a terminal or an agent, in l: a
// dozen short lines. Names (types, importances, ranker names, chunk and
// node ids) are as they are in every language.
func (s *Status) Text(l messages.Lang) string { return s.Styled(l, TextStyle{}) }

// TextStyle marks parts of the status's text (Styled) for a terminal:
// each function is given a part and returns it marked (nil: as it is).
type TextStyle struct {
	// Heading marks the first line and the label of each line that is
	// not indented ("index:").
	Heading func(string) string
	// Problems marks the heading of the problems.
	Problems func(string) string
}

// label marks the heading of text, the line of the message k in l: the
// label of a line that is not indented is the message's text before its
// first argument, up to its last colon ("index:", "connaissances :"); a
// line with no colon there is a heading whole ("rubi status of ROOT").
func (st TextStyle) label(l messages.Lang, k messages.Key, text string) string {
	format := l.Get(k)
	switch {
	case k == messages.StatusProblems && st.Problems != nil:
		return st.Problems(text)
	case st.Heading == nil || strings.HasPrefix(format, " "):
		return text
	}
	prefix, _, _ := strings.Cut(format, "%")
	if i := strings.LastIndex(prefix, ":"); i >= 0 {
		return st.Heading(text[:i+1]) + text[i+1:]
	}
	return st.Heading(text)
}

// Styled is Text with its headings marked as st says.
func (s *Status) Styled(l messages.Lang, st TextStyle) string {
	var b strings.Builder
	line := func(k messages.Key, args ...any) { b.WriteString(st.label(l, k, l.Format(k, args...)) + "\n") }
	line(messages.StatusHeader, s.Root)
	k := s.Knowledge
	kl := nodesLine(l, k.Project)
	if k.Stale > 0 {
		kl += l.Format(messages.StatusStale, k.Stale)
	}
	if k.WholeFile > 0 {
		kl += l.Format(messages.StatusWholeFile, k.WholeFile)
	}
	line(messages.StatusKnowledge, kl)
	if k.Personal != nil {
		line(messages.StatusVault, k.Vault, nodesLine(l, *k.Personal))
	} else {
		line(messages.StatusNoVault)
	}
	if m := s.Memory; m != nil {
		line(messages.StatusMemory, l.Count(m.Active, messages.NounChunkActive), counts(l, m.ByType, notes.ChunkTypes), l.Format(messages.StatusArchived, m.Archived), sizeText(s.Sizes.Sessions))
		line(messages.StatusRetention, retentionLine(l, m, s.At))
	}
	line(messages.StatusIndex, indexLine(l, s.Index, s.At))
	for _, r := range s.Index.Rankers {
		if r.State != IndexOK && r.State != IndexDamaged { // the damaged are among the problems
			line(messages.StatusRanker, r.Name, stateText(l, r.State))
		}
	}
	size := st.label(l, messages.StatusSize, l.Format(messages.StatusSize, sizeText(s.Sizes.Rubi), sizeText(s.Sizes.Knowledge), sizeText(s.Sizes.Sessions), sizeText(s.Sizes.Index)))
	if k.Personal != nil {
		size += l.Format(messages.StatusSizeVault, sizeText(s.Sizes.Vault))
	}
	b.WriteString(size + "\n")
	var last []string
	if s.Memory != nil && s.Memory.LastRead != nil {
		last = append(last, l.Format(messages.StatusLastRead, s.Memory.LastRead.ID, ago(l, s.At, s.Memory.LastRead.At)))
	}
	if s.Memory != nil && s.Memory.LastSaved != nil {
		last = append(last, l.Format(messages.StatusLastSaved, s.Memory.LastSaved.ID, ago(l, s.At, s.Memory.LastSaved.At)))
	}
	if s.LastWritten != nil {
		last = append(last, l.Format(messages.StatusLastWritten, s.LastWritten.ID, ago(l, s.At, s.LastWritten.At)))
	}
	if len(last) == 0 {
		last = append(last, l.Get(messages.StatusNothingStored))
	}
	line(messages.StatusLastAccess, strings.Join(last, "; "))
	if len(s.Problems) > 0 {
		line(messages.StatusProblems, len(s.Problems))
		shown := s.Problems[:min(len(s.Problems), 10)]
		for _, p := range shown {
			b.WriteString("  " + p + "\n")
		}
		if len(s.Problems) > len(shown) {
			line(messages.StatusMoreProblems, len(s.Problems)-len(shown))
		}
	}
	return b.String()
}

func nodesLine(l messages.Lang, c NodeCounts) string {
	if c.Total == 0 {
		return l.Get(messages.StatusNoNodes)
	}
	line := l.Format(messages.StatusNodes, l.Count(c.Total, messages.NounNode), c.Active)
	if c.Active > 0 {
		line += l.Format(messages.StatusNodeCounts, counts(l, c.ByType, notes.NodeTypes), counts(l, c.ByImportance, notes.Importances))
	}
	if n := c.Total - c.Active; n > 0 {
		line += l.Format(messages.StatusSuperseded, n)
	}
	return line
}

// counts lists the non-zero counts of m in the order of keys, then any
// other key (a value rubi does not know, read from a hand-edited file).
// The keys are names (types, importances) in every language.
func counts(l messages.Lang, m map[string]int, keys []string) string {
	var parts []string
	for _, k := range keys {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	var other []string
	for k, v := range m {
		if v > 0 && !slices.Contains(keys, k) {
			other = append(other, fmt.Sprintf("%d %s", v, k))
		}
	}
	slices.Sort(other)
	parts = append(parts, other...)
	if len(parts) == 0 {
		return l.Get(messages.StatusNone)
	}
	return strings.Join(parts, ", ")
}

func retentionLine(l messages.Lang, m *notes.MemoryOverview, now time.Time) string {
	if m.Policy.ArchiveAfter == 0 && m.Policy.PurgeAfter == 0 {
		return l.Get(messages.StatusRetentionOff)
	}
	line := l.Format(messages.StatusRetentionLine, m.Policy.ArchiveAfter, m.Policy.PurgeAfter, len(m.Due.Archive), len(m.Due.Purge))
	if n := len(m.Due.Kept); n > 0 {
		line += l.Format(messages.StatusRetentionKept, n)
	}
	if a := m.NextArchive; a != nil {
		line += l.Format(messages.StatusNextArchive, a.ID, until(l, now, a.At))
	}
	if p := m.NextPurge; p != nil {
		line += l.Format(messages.StatusNextPurge, p.ID, until(l, now, p.At))
	}
	if len(m.Due.Archive)+len(m.Due.Purge) > 0 {
		line += l.Get(messages.StatusRetentionHint)
	}
	return line
}

func indexLine(l messages.Lang, is IndexStatus, now time.Time) string {
	if is.State == IndexNone {
		return l.Get(messages.StatusIndexNone)
	}
	if is.IndexedAt.IsZero() {
		return l.Get(messages.StatusIndexDamaged)
	}
	line := l.Format(messages.StatusIndexLine, stateText(l, is.State), ago(l, now, is.IndexedAt), is.IndexedAt.Local().Format("2006-01-02 15:04"),
		l.Count(is.Files, messages.NounFile), l.Count(is.Nodes, messages.NounNote))
	if is.NotesChanged {
		line += l.Get(messages.StatusNotesChanged)
	}
	if is.State == IndexDamaged {
		line += l.Get(messages.StatusIndexRepair)
	}
	return line
}

// stateText is an index or ranker state in l (a state rubi does not name
// is shown as it is).
func stateText(l messages.Lang, state string) string {
	switch state {
	case IndexOK:
		return l.Get(messages.StateOK)
	case IndexOutdated:
		return l.Get(messages.StateOutdated)
	case IndexDamaged:
		return l.Get(messages.StateDamaged)
	case IndexNotChecked:
		return l.Get(messages.StateNotChecked)
	case IndexNotIndexed:
		return l.Get(messages.StateNotIndexed)
	}
	return state
}

// ago says how long before now t was, roughly.
func ago(l messages.Lang, now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		return l.Get(messages.TimeJustNow)
	}
	return l.Format(messages.TimeAgo, roughly(l, d))
}

// until says how long after now t is, roughly.
func until(l messages.Lang, now, t time.Time) string {
	d := t.Sub(now)
	if d <= 0 {
		return l.Get(messages.TimeNow)
	}
	return l.Format(messages.TimeIn, roughly(l, d))
}

func roughly(l messages.Lang, d time.Duration) string {
	switch {
	case d < time.Minute:
		return l.Get(messages.TimeSeconds)
	case d < time.Hour:
		return l.Count(int(d/time.Minute), messages.NounMinute)
	case d < 48*time.Hour:
		return l.Count(int(d/time.Hour), messages.NounHour)
	default:
		return l.Count(int(d/(24*time.Hour)), messages.NounDay)
	}
}

// sizeText writes a byte count in B, KB, MB or GB (powers of 1024).
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	}
}
