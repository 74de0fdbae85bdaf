package view

import (
	"cmp"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/memory"
)

// TimelineItem is a note, a handoff or a conversation chunk at its time.
type TimelineItem struct {
	// ID is the note's id, "handoff:" and the handoff's file name, or the
	// chunk's id.
	ID    string    `json:"id"`
	Kind  string    `json:"kind"` // note, handoff, chunk
	Title string    `json:"title"`
	Time  time.Time `json:"time"`
	// Type is the note's or the chunk's type.
	Type string `json:"type,omitempty"`
	// Importance and Status are a note's.
	Importance string `json:"importance,omitempty"`
	Status     string `json:"status,omitempty"`
	// Zone is a chunk's place under the retention policy: "active"
	// (used within archive_after), "archive-due" (a retention run
	// archives it), "kept" (past archive_after, kept for its tags, reads
	// or keywords), "archived", "purge-due" (archived past purge_after:
	// a run deletes it).
	Zone string   `json:"zone,omitempty"`
	Why  string   `json:"why,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// Timeline is /api/timeline: the items, newest first, and the retention
// policy that draws the zones.
type Timeline struct {
	Items []TimelineItem `json:"items"`
	// ArchiveAfterDays and PurgeAfterDays are the memory block's
	// archive_after and purge_after (0: never).
	ArchiveAfterDays float64   `json:"archive_after_days"`
	PurgeAfterDays   float64   `json:"purge_after_days"`
	Now              time.Time `json:"now"`
	Problems         []string  `json:"problems"`
}

// maxHandoffs caps the handoffs the timeline reads.
const maxHandoffs = 500

func (s *Server) timelineData(*http.Request) (any, error) {
	p := s.eng.Project()
	mem, policy := p.Memory()
	out := &Timeline{Items: []TimelineItem{}, Problems: []string{}, Now: time.Now().UTC(),
		ArchiveAfterDays: policy.ArchiveAfter.Hours() / 24, PurgeAfterDays: policy.PurgeAfter.Hours() / 24}
	nodes, _ := p.Knowledge().Nodes()
	for _, n := range nodes {
		id := n.ID
		if n.Personal {
			id = "personal:" + id
		}
		out.Items = append(out.Items, TimelineItem{ID: id, Kind: "note", Title: n.Title, Time: n.Created, Type: n.Type, Importance: n.Importance, Status: n.Status, Tags: n.Tags})
	}
	hs, err := p.Knowledge().Handoffs(maxHandoffs, func(path string, err error) {
		out.Problems = append(out.Problems, core.EscapePath(filepath.Base(path))+": "+err.Error())
	})
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		title := h.Goal
		if title == "" {
			title, _, _ = strings.Cut(strings.TrimSpace(h.Text), "\n")
		}
		out.Items = append(out.Items, TimelineItem{ID: "handoff:" + core.EscapePath(filepath.Base(h.Path)), Kind: "handoff", Title: title, Time: h.Created})
	}
	// The memory may be unreadable (a sessions folder that leads out of
	// the project): the notes and handoffs still show, and the page says
	// why the chunks do not.
	if err := s.chunks(out, mem, policy); err != nil {
		out.Problems = append(out.Problems, "the conversation memory: "+err.Error())
	}
	slices.SortStableFunc(out.Items, func(a, b TimelineItem) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

// chunks adds the conversation chunks, each in its retention zone.
func (s *Server) chunks(out *Timeline, mem *memory.Store, policy memory.Policy) error {
	chunks, err := mem.List(memory.Filter{})
	if err != nil {
		return err
	}
	plan, err := mem.Preview(policy)
	if err != nil {
		return err
	}
	zone := map[string][2]string{}
	for _, st := range plan.Archive {
		zone[st.ID] = [2]string{"archive-due", st.Why}
	}
	for _, st := range plan.Kept {
		zone[st.ID] = [2]string{"kept", st.Why}
	}
	for _, st := range plan.Purge {
		zone[st.ID] = [2]string{"purge-due", st.Why}
	}
	for _, c := range chunks {
		z, ok := zone[c.ID]
		switch {
		case ok:
		case c.Archived:
			z[0] = "archived"
		default:
			z[0] = "active"
		}
		out.Items = append(out.Items, TimelineItem{ID: c.ID, Kind: "chunk", Title: c.Summary, Time: c.Created, Type: c.Type, Zone: z[0], Why: z[1], Tags: c.Tags})
	}
	return nil
}
