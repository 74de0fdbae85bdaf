// Package names is rubi's built-in ranker "rank.names": it finds the
// documents whose names the question names. Full-text ranking weighs words;
// people and agents also name things directly ("where is LoadPlugin", "the
// host.go file", "the note on coupon applied twice"), often approximately:
// as separate words ("load plugin"), by a prefix ("Checkout" for
// CheckoutService) or with a typo ("recieve"). This ranker matches the
// question's words, and runs of up to three adjacent words joined, against
// file names, symbol names, module paths and knowledge node titles and ids,
// exactly, by prefix, or within a small edit distance.
//
// Names are normalized (accents folded, lower case, separators dropped), so
// load_plugin, loadPlugin and "load plugin" all meet LoadPlugin.
//
// Its default weight is 0.25 (rubi.hcl): a precise but narrow vote, which
// bench/quality found costs accuracy when heavier. Prefixes match from
// min_prefix (4) letters, and typos one edit away from five letters (two
// from nine) among the names sharing the question word's first letter.
//
// The index keeps names only, in two files (index.go): the notes' part
// (core.NotesScope) and the rest, each rewritten only when a name of its
// documents changes; each holds a forward table per document for updates
// and a sorted table of normalized names with postings for queries, which
// find exact names and prefixes by binary search. It is Scoped: an edited
// note reads and rewrites the notes' part alone. A query reads both parts
// as one index (document counts and frequencies summed, prefixes and
// typos expanded over the union of their names with the same limit), so
// the scores are those of a single index. Fuzz target: FuzzIndex.
package names

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Name is the stage name in rubi.hcl.
const Name = "rank.names"

// Version of the stage, reported by `rubi plugins`.
const Version = "0.2.0"

func init() {
	core.Register(Name, core.KindRanker, func() core.Stage { return New() })
}

// Settings are the attributes of a `ranker "rank.names"` block.
type Settings struct {
	// MinPrefix is the shortest question word matched as a name prefix.
	MinPrefix int `hcl:"min_prefix,optional"`
	// Typos allows names within a small edit distance of a question word
	// of five letters or more: one edit, two from nine letters.
	Typos bool `hcl:"typos,optional"`
}

// DefaultSettings match prefixes from four letters and tolerate typos.
func DefaultSettings() Settings { return Settings{MinPrefix: 4, Typos: true} }

// Ranker is the rank.names stage. It is safe for concurrent use once
// configured.
type Ranker struct {
	indexMu sync.Mutex // serializes Index calls

	mu       sync.RWMutex // guards all below
	settings Settings
	stateDir string
	// oneShot is core.Setup.OneShot: the index's files are mapped without
	// populating their pages ahead.
	oneShot bool
	// idx holds each part of the index (see partFiles) as last built or
	// read, and stamp the version of its file it was read from.
	idx   [numParts]*index
	stamp [numParts]store.Stamp
}

var _ core.Ranker = (*Ranker)(nil)

// New returns an unconfigured ranker with the default settings.
func New() *Ranker { return &Ranker{settings: DefaultSettings()} }

// Info describes the stage.
func (r *Ranker) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindRanker,
		Version:     Version,
		Description: "names named in the question: file, symbol, module and note names, exact, by prefix or with a typo",
		Schema:      core.MustSchemaOf(&Settings{}),
		// The notes' documents are a part of their own (partNotes), so an
		// edited note rewrites that part alone.
		Scoped:  true,
		NoEdges: true, // names only
	}
}

// Configure reads the settings and remembers the state directory.
func (r *Ranker) Configure(_ context.Context, setup core.Setup) error {
	s := DefaultSettings()
	if err := core.DecodeSettings(setup.Settings, &s); err != nil {
		return err
	}
	if s.MinPrefix < 2 || s.MinPrefix > 32 {
		return &core.SettingError{Setting: "min_prefix", Message: fmt.Sprintf("must be between 2 and 32, got %d", s.MinPrefix)}
	}
	if setup.StateDir == "" {
		return errors.New(Name + ": no state directory to keep the index in")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settings, r.stateDir, r.oneShot, r.idx, r.stamp = s, setup.StateDir, setup.OneShot, [numParts]*index{}, [numParts]store.Stamp{}
	return nil
}
