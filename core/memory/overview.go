package memory

import (
	"cmp"
	"slices"
	"time"
)

// Overview is the conversation memory at a glance (rubi status): its
// chunks by retention zone and type, what retention would do now and
// next, and when a chunk was last read or saved.
type Overview struct {
	// Active and Archived count the chunks in each zone; ByType counts the
	// active ones by type (every type present, 0 included).
	Active   int            `json:"active"`
	Archived int            `json:"archived"`
	ByType   map[string]int `json:"by_type"`
	// Policy is the retention policy, in days (0: never).
	Policy PolicyDays `json:"policy"`
	// Due is what a retention run would do now: the chunks it would
	// archive and the archives it would purge, and the old chunks it
	// keeps, with why (as rubi memory retention shows them).
	Due *Plan `json:"due"`
	// NextArchive is the active chunk that will be due for archiving
	// first, if it stays unread, and NextPurge the archive that will be
	// purged first; nil when none will be.
	NextArchive *Upcoming `json:"next_archive"`
	NextPurge   *Upcoming `json:"next_purge"`
	// Reads counts the reads of the chunks there are (peek, read, grep
	// and search hits that were read).
	Reads int `json:"reads"`
	// LastRead is the last read chunk and when; LastSaved the newest
	// chunk.
	LastRead  *Event `json:"last_read"`
	LastSaved *Event `json:"last_saved"`
	// Problems are the files of the folder that are not readable chunks
	// or archives, each with what is wrong.
	Problems []string `json:"problems"`
}

// PolicyDays is a retention policy in days.
type PolicyDays struct {
	ArchiveAfter int `json:"archive_after_days"`
	PurgeAfter   int `json:"purge_after_days"`
}

// Upcoming is a chunk and when retention will reach it.
type Upcoming struct {
	ID      string    `json:"id"`
	Summary string    `json:"summary"`
	At      time.Time `json:"at"`
}

// Event is a chunk and when something happened to it.
type Event struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// Overview reads every chunk and archive (not their text) and the read
// counts, and plans retention as Preview does. A file that does not read
// is a problem in the answer, not an error; only a folder that cannot be
// listed is.
func (s *Store) Overview(p Policy) (*Overview, error) {
	o := &Overview{ByType: map[string]int{}, Problems: []string{},
		Policy: PolicyDays{ArchiveAfter: int(p.ArchiveAfter / (24 * time.Hour)), PurgeAfter: int(p.PurgeAfter / (24 * time.Hour))}}
	for _, t := range Types {
		o.ByType[t] = 0
	}
	all, err := s.scanAllReport(func(_ string, err error) { o.Problems = append(o.Problems, err.Error()) })
	if err != nil {
		return nil, err
	}
	use, err := s.readUsage()
	if err != nil {
		o.Problems = append(o.Problems, err.Error())
		use = map[string]usage{}
	}
	o.Due = s.plan(p, all, use)
	due := map[string]bool{}
	for _, st := range slices.Concat(o.Due.Archive, o.Due.Kept) {
		due[st.ID] = true
	}
	now := s.Now()
	var waiting []Upcoming
	for _, c := range all {
		u := use[c.ID]
		o.Reads += u.Reads
		if !u.Last.IsZero() && (o.LastRead == nil || u.Last.After(o.LastRead.At)) {
			o.LastRead = &Event{ID: c.ID, At: u.Last}
		}
		if o.LastSaved == nil || c.Created.After(o.LastSaved.At) {
			o.LastSaved = &Event{ID: c.ID, At: c.Created}
		}
		if c.Archived {
			o.Archived++
			if p.PurgeAfter > 0 {
				at := c.ArchivedAt.Add(p.PurgeAfter)
				if at.After(now) && (o.NextPurge == nil || at.Before(o.NextPurge.At)) {
					o.NextPurge = &Upcoming{ID: c.ID, Summary: c.Summary, At: at}
				}
			}
			continue
		}
		o.Active++
		o.ByType[c.Type]++
		if p.ArchiveAfter > 0 && !due[c.ID] {
			last := c.Created
			if u.Last.After(last) {
				last = u.Last
			}
			waiting = append(waiting, Upcoming{ID: c.ID, Summary: c.Summary, At: last.Add(p.ArchiveAfter)})
		}
	}
	// The first chunk to come due that nothing keeps: immune reads a
	// chunk's text only when the policy keeps chunks by keyword.
	slices.SortFunc(waiting, func(a, b Upcoming) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID)) })
	byID := make(map[string]*Chunk, len(all))
	for _, c := range all {
		byID[c.ID] = c
	}
	for _, w := range waiting {
		if s.immune(p, byID[w.ID], use[w.ID]) == "" {
			o.NextArchive = &w
			break
		}
	}
	return o, nil
}
