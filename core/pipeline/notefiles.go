package pipeline

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/rubi-dev/rubi/core"
)

// notesStage is the name of the evidence list the engine adds for the
// files of the notes that answer the question: a note is a few lines
// someone wrote about exactly these files, so when it matches the
// question as well as the best hits do, the files it is about answer
// it too, whatever words they use ("how are plugins loaded": the note
// says so; host.go "opens stages").
const notesStage = "notes.files"

// notesWeight is that list's vote in the fusion: half a ranker's. A note
// is a hint about where to look, not a match of the question's words,
// and a note about a wide area names files beside the point (bench/
// quality's self set: at a full vote the questions a broad note matches
// lost their file; at half, two questions gained theirs).
const notesWeight = 0.5

// maxNoteFiles bounds the files one note lends its vote to; a note about
// more is about an area, not a place to open.
const maxNoteFiles = 8

// noteFiles returns the files, indexed and admitted by the query, of the
// notes that match the question well (goodNotes: the notes liftNotes
// lifts), best note first and each note's files in its own order, with
// the reason naming the note. files reports whether a path is an indexed
// file; get reads a note's title and files.
//
// A file the question names by path has that vote already, and the note
// may have matched through it (a note's names hold its files): it gets
// no second one.
func noteFiles(direct []core.RankedList, files func(string) bool, get func(key string) (title string, about []string, ok bool)) []core.Hit {
	var out []core.Hit
	seen := map[string]bool{}
	for _, l := range direct {
		if l.Stage == pathsStage {
			for _, h := range l.Hits {
				if _, key, err := core.SplitDocID(h.ID); err == nil {
					seen[key] = true
				}
			}
		}
	}
	_, good := goodNotes(direct)
	for _, id := range good[:min(len(good), maxLifted)] {
		_, key, err := core.SplitDocID(id)
		if err != nil {
			continue
		}
		title, about, ok := get(key)
		if !ok || len(about) > maxNoteFiles {
			continue
		}
		for _, f := range about {
			if seen[f] || !files(f) {
				continue
			}
			seen[f] = true
			out = append(out, core.Hit{
				ID:     core.DocID(core.DocFile, f),
				Score:  1 / float64(len(out)+1),
				Reason: "named by the note " + strconv.Quote(title),
			})
		}
	}
	return out
}

// goodNotes are the notes that a ranker of the question's own words
// scores at least noteShare of its best hit, within its first
// maxNoteRank, each with its best share of a list's top, and in order:
// best share first, the lists' order breaking ties.
func goodNotes(direct []core.RankedList) (map[string]float64, []string) {
	best := map[string]float64{}
	var order []string
	for _, l := range direct {
		if len(l.Hits) == 0 || l.Hits[0].Score <= 0 {
			continue
		}
		top := l.Hits[0].Score
		for i, h := range l.Hits {
			if i >= maxNoteRank {
				break
			}
			if kind, _, _ := core.SplitDocID(h.ID); kind != core.DocNode || h.Score < noteShare*top {
				continue
			}
			if _, ok := best[h.ID]; !ok {
				order = append(order, h.ID)
			}
			best[h.ID] = max(best[h.ID], h.Score/top)
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(best[b], best[a]) })
	return best, order
}
