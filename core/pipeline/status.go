package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// Status is the overview of a project's memory (rubi status, the memory
// tool's status action): its knowledge nodes, its conversation chunks by
// retention zone and what retention would do, the index's age and health,
// the size of what rubi keeps and when it was last used. Every part that
// cannot be read says so in its problems; Status itself never fails.
type Status struct {
	Root string `json:"root"`
	// At is when the status was taken.
	At        time.Time        `json:"at"`
	Knowledge KnowledgeStatus  `json:"knowledge"`
	Memory    *memory.Overview `json:"memory"`
	Index     IndexStatus      `json:"index"`
	Sizes     Sizes            `json:"sizes"`
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
	// Personal is nil without a personal vault; Vault is its folder.
	Personal *NodeCounts `json:"personal"`
	Vault    string      `json:"vault,omitempty"`
}

// NodeCounts counts nodes: all of them by status, and the active ones
// (those recall uses) by type and importance, every type and importance
// present, 0 included.
type NodeCounts struct {
	Total        int            `json:"total"`
	Active       int            `json:"active"`
	ByStatus     map[string]int `json:"by_status"`
	ByType       map[string]int `json:"by_type"`
	ByImportance map[string]int `json:"by_importance"`
}

// NodeEvent is a node and when it was written.
type NodeEvent struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// IndexStatus is the index's age and health.
type IndexStatus struct {
	// State is "none" (never indexed), "ok", "outdated" (sound, but a
	// ranker's configuration changed, or notes changed since: the next
	// refresh catches up) or "damaged" (the next rubi index repairs it).
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
	// (its configuration changed), damaged (with why) or not checked (a
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

// Status takes the overview at now. It writes nothing: the index is
// checked as an index run checks it before keeping it (the manifest's
// checksum, the symbols file's size, each built-in ranker's Verify), not
// refreshed.
func (e *Engine) Status(ctx context.Context, now time.Time) *Status {
	s := &Status{Root: e.cfg.Root, At: now.UTC().Truncate(time.Second), Problems: []string{}}
	nodes, probs := e.Knowledge().Nodes()
	for _, p := range probs {
		s.Problems = append(s.Problems, p.String())
	}
	s.Knowledge.Project = countNodes(nodes, false)
	if v := e.VaultDir(); v != "" {
		personal := countNodes(nodes, true)
		s.Knowledge.Personal, s.Knowledge.Vault = &personal, v
	}
	for _, n := range nodes {
		if at := n.Updated; s.LastWritten == nil || at.After(s.LastWritten.At) {
			s.LastWritten = &NodeEvent{ID: n.ID, At: at}
		}
	}

	st, policy := e.Memory()
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

	data := e.dataDir()
	s.Sizes = Sizes{Rubi: dirSize(data), Sessions: dirSize(filepath.Join(e.cfg.Root, filepath.FromSlash(memory.Dir))), Index: dirSize(e.indexDir())}
	dirs := e.Knowledge().Dirs()
	for i, d := range dirs {
		if i < 2 {
			s.Sizes.Knowledge += dirSize(d)
		} else {
			s.Sizes.Vault += dirSize(d)
		}
	}
	return s
}

// countNodes counts the project's nodes, or the vault's.
func countNodes(nodes []*knowledge.Node, personal bool) NodeCounts {
	c := NodeCounts{ByStatus: map[string]int{}, ByType: map[string]int{}, ByImportance: map[string]int{}}
	for _, t := range knowledge.Types {
		c.ByType[t] = 0
	}
	for _, imp := range []string{knowledge.ImportanceCritical, knowledge.ImportanceHigh, knowledge.ImportanceMedium, knowledge.ImportanceLow} {
		c.ByImportance[imp] = 0
	}
	for _, st := range []string{knowledge.StatusActive, knowledge.StatusSuperseded, knowledge.StatusRetracted} {
		c.ByStatus[st] = 0
	}
	for _, n := range nodes {
		if n.Personal != personal {
			continue
		}
		c.Total++
		c.ByStatus[n.Status]++
		if n.Status == knowledge.StatusActive {
			c.Active++
			c.ByType[n.Type]++
			c.ByImportance[n.Importance]++
		}
	}
	return c
}

// indexStatus checks the index as an index run does before it keeps it.
func (e *Engine) indexStatus(ctx context.Context, now time.Time) IndexStatus {
	is := IndexStatus{State: IndexNone, Rankers: []RankerStatus{}}
	if !e.HasIndex() {
		return is
	}
	m, err := loadManifest(e.indexDir(), true)
	if err != nil {
		is.State = IndexDamaged
		is.Rankers = append(is.Rankers, RankerStatus{Name: "manifest", State: IndexDamaged, Error: err.Error()})
		return is
	}
	is.State, is.IndexedAt = IndexOK, m.IndexedAt
	is.AgeSeconds = max(0, int64(now.Sub(m.IndexedAt)/time.Second))
	is.Files, is.Nodes = len(m.records()), len(m.nodeStamps())
	// The stamps differ: unlike NotesChanged, a change in the stamp's own
	// clock tick is not suspected (that is for a hook deciding to read).
	stamp, _ := e.notesStamp()
	stored, _ := e.storedNotesStamp()
	is.NotesChanged = stamp != stored
	if is.NotesChanged {
		is.State = IndexOutdated
	}
	if !m.symbolsIntact(e.indexDir()) {
		is.State = IndexDamaged
		is.Rankers = append(is.Rankers, RankerStatus{Name: "symbols", State: IndexDamaged, Error: "the symbols file is missing or shorter than the manifest says"})
	}
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		r := RankerStatus{Name: st.Name, State: IndexOK}
		switch fp := m.Rankers[st.Name]; {
		case fp == "":
			r.State = "not indexed"
		case st.Plugin != "":
			r.State = "not checked"
		case fp != e.stageFingerprint(st):
			r.State = IndexOutdated
		case m.Stateful[st.Name] && !e.hasState(st.Name):
			r.State, r.Error = IndexDamaged, "its state folder is empty"
		default:
			if err := e.verifyRanker(ctx, st); err != nil {
				r.State, r.Error = IndexDamaged, err.Error()
			}
		}
		switch {
		case r.State == IndexDamaged:
			is.State = IndexDamaged
		case r.State != IndexOK && r.State != "not checked" && is.State == IndexOK:
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

// Text is the status for a person in a terminal or an agent: a dozen
// short lines.
func (s *Status) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rubi status of %s\n", s.Root)
	k := s.Knowledge
	fmt.Fprintf(&b, "knowledge: %s in the project\n", nodesLine(k.Project))
	if k.Personal != nil {
		fmt.Fprintf(&b, "  personal vault %s: %s\n", k.Vault, nodesLine(*k.Personal))
	} else {
		b.WriteString("  no personal vault (set vault in rubi.hcl or RUBI_VAULT)\n")
	}
	if m := s.Memory; m != nil {
		fmt.Fprintf(&b, "memory: %s active (%s), %d archived; %s\n", plural(m.Active, "chunk"), counts(m.ByType, memory.Types), m.Archived, sizeText(s.Sizes.Sessions))
		b.WriteString("  retention: " + retentionLine(m, s.At) + "\n")
	}
	b.WriteString("index: " + indexLine(s.Index, s.At) + "\n")
	for _, r := range s.Index.Rankers {
		if r.State != IndexOK && r.State != IndexDamaged { // the damaged are among the problems
			fmt.Fprintf(&b, "  %s: %s\n", r.Name, r.State)
		}
	}
	fmt.Fprintf(&b, "size: .rubi/ %s (knowledge %s, sessions %s, index %s)", sizeText(s.Sizes.Rubi), sizeText(s.Sizes.Knowledge), sizeText(s.Sizes.Sessions), sizeText(s.Sizes.Index))
	if k.Personal != nil {
		fmt.Fprintf(&b, ", vault %s", sizeText(s.Sizes.Vault))
	}
	b.WriteString("\n")
	var last []string
	if s.Memory != nil && s.Memory.LastRead != nil {
		last = append(last, fmt.Sprintf("chunk %s read %s", s.Memory.LastRead.ID, ago(s.At, s.Memory.LastRead.At)))
	}
	if s.Memory != nil && s.Memory.LastSaved != nil {
		last = append(last, fmt.Sprintf("chunk %s saved %s", s.Memory.LastSaved.ID, ago(s.At, s.Memory.LastSaved.At)))
	}
	if s.LastWritten != nil {
		last = append(last, fmt.Sprintf("node %s written %s", s.LastWritten.ID, ago(s.At, s.LastWritten.At)))
	}
	if len(last) == 0 {
		last = append(last, "nothing stored yet")
	}
	b.WriteString("last access: " + strings.Join(last, "; ") + "\n")
	if len(s.Problems) > 0 {
		fmt.Fprintf(&b, "problems (%d):\n", len(s.Problems))
		shown := s.Problems[:min(len(s.Problems), 10)]
		for _, p := range shown {
			b.WriteString("  " + p + "\n")
		}
		if len(s.Problems) > len(shown) {
			fmt.Fprintf(&b, "  … %d more (--json lists them all)\n", len(s.Problems)-len(shown))
		}
	}
	return b.String()
}

func nodesLine(c NodeCounts) string {
	if c.Total == 0 {
		return "no nodes"
	}
	line := fmt.Sprintf("%s, %d active", plural(c.Total, "node"), c.Active)
	if c.Active > 0 {
		line += " (" + counts(c.ByType, knowledge.Types) + "; " + counts(c.ByImportance, []string{"critical", "high", "medium", "low"}) + ")"
	}
	if n := c.Total - c.Active; n > 0 {
		line += fmt.Sprintf(", %d superseded or retracted", n)
	}
	return line
}

// counts lists the non-zero counts of m in the order of keys, then any
// other key (a value rubi does not know, read from a hand-edited file).
func counts(m map[string]int, keys []string) string {
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
		return "none"
	}
	return strings.Join(parts, ", ")
}

func retentionLine(m *memory.Overview, now time.Time) string {
	if m.Policy.ArchiveAfter == 0 && m.Policy.PurgeAfter == 0 {
		return "off (memory archive_after and purge_after are 0)"
	}
	line := fmt.Sprintf("archive after %d days unused, purge %d days after; due now: %d to archive, %d to purge", m.Policy.ArchiveAfter, m.Policy.PurgeAfter, len(m.Due.Archive), len(m.Due.Purge))
	if n := len(m.Due.Kept); n > 0 {
		line += fmt.Sprintf(", %d old kept", n)
	}
	if a := m.NextArchive; a != nil {
		line += fmt.Sprintf("; next to archive: %s %s", a.ID, until(now, a.At))
	}
	if p := m.NextPurge; p != nil {
		line += fmt.Sprintf("; next to purge: %s %s", p.ID, until(now, p.At))
	}
	if len(m.Due.Archive)+len(m.Due.Purge) > 0 {
		line += " (rubi memory retention lists them; --run does it)"
	}
	return line
}

func indexLine(is IndexStatus, now time.Time) string {
	if is.State == IndexNone {
		return "none yet (rubi index builds it; the hooks and the MCP server do on their own)"
	}
	if is.IndexedAt.IsZero() {
		return "damaged: rubi index rebuilds it"
	}
	line := fmt.Sprintf("%s, indexed %s (%s), %s, %s", is.State, ago(now, is.IndexedAt), is.IndexedAt.Local().Format("2006-01-02 15:04"), plural(is.Files, "file"), plural(is.Nodes, "note"))
	if is.NotesChanged {
		line += "; notes changed since (the next query or refresh reads them)"
	}
	if is.State == IndexDamaged {
		line += "; rubi index repairs it"
	}
	return line
}

// ago says how long before now t was, roughly.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		return "just now"
	}
	return roughly(d) + " ago"
}

// until says how long after now t is, roughly.
func until(now, t time.Time) string {
	d := t.Sub(now)
	if d <= 0 {
		return "now"
	}
	return "in " + roughly(d)
}

func roughly(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "seconds"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour")
	default:
		return plural(int(d/(24*time.Hour)), "day")
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
