package notes

import (
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// NodeTypes, Importances and ChunkTypes are the kinds the overview counts
// by, in the order it lists them.
var (
	NodeTypes   = knowledge.Types
	Importances = []string{knowledge.ImportanceCritical, knowledge.ImportanceHigh, knowledge.ImportanceMedium, knowledge.ImportanceLow}
	ChunkTypes  = memory.Types
)

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

// NodesOverview is what the nodes count: the project's, the vault's
// (when personal is set), the node written last, and the node files that
// could not be read.
type NodesOverview struct {
	Project, Personal NodeCounts
	Last              *NodeEvent
	Problems          []string
}

// Overview counts the nodes as their files are now.
func (s *Nodes) Overview() NodesOverview {
	nodes, probs := s.store().Nodes()
	o := NodesOverview{Project: countNodes(nodes, false), Personal: countNodes(nodes, true)}
	for _, p := range probs {
		o.Problems = append(o.Problems, p.String())
	}
	for _, n := range nodes {
		if at := n.Updated; o.Last == nil || at.After(o.Last.At) {
			o.Last = &NodeEvent{ID: n.ID, At: at}
		}
	}
	return o
}

// countNodes counts the project's nodes, or the vault's.
func countNodes(nodes []*knowledge.Node, personal bool) NodeCounts {
	c := NodeCounts{ByStatus: map[string]int{}, ByType: map[string]int{}, ByImportance: map[string]int{}}
	for _, t := range knowledge.Types {
		c.ByType[t] = 0
	}
	for _, imp := range Importances {
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

// MemoryOverview is the conversation memory's overview (core/memory):
// the chunks by zone and type, with retention due now and next.
type MemoryOverview = memory.Overview

// StaleCounts counts the active project notes that are stale (the code
// they are about changed: knowledge.Store.Stale) and those still on
// whole-file anchors (an older rubi's, not migrated or not found then).
func (s *Nodes) StaleCounts() (stale, wholeFile int) {
	s.importChecks()
	ks := s.store()
	nodes, _ := ks.Nodes()
	for _, n := range nodes {
		if n.Personal || n.Status != "" && n.Status != knowledge.StatusActive {
			continue
		}
		if len(ks.Stale(n)) > 0 {
			stale++
		}
		if knowledge.WholeFile(n) {
			wholeFile++
		}
	}
	return stale, wholeFile
}
