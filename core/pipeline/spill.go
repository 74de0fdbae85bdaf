package pipeline

import (
	"os"
	"path/filepath"
)

// spillPattern names the files an index run keeps on disk rather than
// in memory (spillFile) in the index folder.
const spillPattern = ".spill-*"

// spillFile makes a file in the index folder dir for what a run keeps on
// disk rather than in memory: made in the folder, which the run holds
// locked, and removed at once, so that only the open file leads to it
// and a crash leaves nothing. Where an open file cannot be removed
// (Windows), left names it, for the run to remove once it is closed, and
// the next run removes what a crash left (removeSpills).
func spillFile(dir string) (f *os.File, left string, err error) {
	f, err = os.CreateTemp(dir, spillPattern)
	if err != nil {
		return nil, "", err
	}
	if os.Remove(f.Name()) != nil {
		left = f.Name()
	}
	return f, left, nil
}

// removeSpills removes the spills a run that crashed left in the index
// folder dir (where an open file cannot be removed): none is in use, as
// the run holds the folder's lock.
func removeSpills(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, spillPattern))
	for _, f := range left {
		os.Remove(f)
	}
}

// spill is spillFile for the run itself: the file is closed, and
// removed where it could not be at once, when the run ends
// (closeSpills).
func (r *indexRun) spill() (*os.File, error) {
	f, left, err := spillFile(r.e.folder.dir)
	if err != nil {
		return nil, err
	}
	r.spills = append(r.spills, spilled{f, left})
	return f, nil
}

// spilled is a file of the run's own (spill).
type spilled struct {
	f    *os.File
	left string
}

// closeSpills closes the run's own spills.
func (r *indexRun) closeSpills() {
	for _, s := range r.spills {
		s.f.Close()
		if s.left != "" {
			os.Remove(s.left)
		}
	}
	r.spills = nil
}
