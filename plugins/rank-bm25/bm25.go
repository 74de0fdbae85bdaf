// Package bm25 is rubi's built-in full-text ranker, rank.bm25: BM25F over
// four fields of each document (title, path, symbol names, body), all
// tokenized by core/text so that queries and documents meet on camelCase,
// snake_case, accents and stems alike.
//
// BM25F here means the field term frequencies of a document are weighted
// and summed first, and the BM25 saturation (k1) and length normalization
// (b) then apply once to that sum, against a weighted document length: a
// title match counts like several body matches but a long body cannot
// multiply its weight without bound. A word the question repeats n times
// counts (k3+1)·n/(k3+n) times (k3 = 8 by default): a bug report repeats
// the words it is about. Defaults (rubi.hcl): weight 1, k1 1.2, b 0.75.
// Each hit also carries its Match (core.Hit.Match), the share of the
// question's telling weight it holds, which rerank.floor reads.
//
// The index is persisted in the stage's state directory as a list of
// immutable segments (store.go), so a later process (the CLI answering a
// query, the MCP server) ranks without re-reading the project, and an
// update writes a segment of the changed documents and the ids it deletes
// from older ones: more than 8 segments merge the later ones, and later
// segments holding over 1/8 of the live documents (or deletions over 1/8
// of all stored) merge everything, by re-reading postings, never
// re-tokenizing. Document frequencies and lengths count live documents
// only, so a segmented index ranks exactly like a rebuilt one. A segment's
// tables are fixed-width, so a query binary-searches its terms, decodes
// only their postings and reads only the documents they name: loading
// costs nothing per document. The index stores raw per-field counts, not
// scores: k1, b and the field weights apply at query time, and changing
// them in rubi.hcl needs no re-index. Changing the stemmer does. It is
// Scoped: a delta of the notes writes a segment of the notes alone. Fuzz
// target: FuzzSegment.
package bm25

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
)

// Name is the stage name in rubi.hcl.
const Name = "rank.bm25"

// Version of the stage, reported by `rubi plugins`.
const Version = "0.3.0"

// TermsWeight scales the query terms an agent adds (core.Query.Terms)
// relative to the words of the query text. They are guesses (synonyms,
// likely identifiers) and should refine the user's own words, not outvote
// them; 0.7 lets two guessed terms outweigh one real word, but not one.
const TermsWeight = 0.7

// DefaultLimit is the number of hits Rank returns when Query.Limit is not
// positive.
const DefaultLimit = 50

func init() {
	core.Register(Name, core.KindRanker, func() core.Stage { return New() })
}

// Settings are the attributes of a `ranker "rank.bm25"` block.
type Settings struct {
	// K1 is the term frequency saturation: 0 makes a term count once
	// however often it occurs, larger values let repetitions count more.
	K1 float64 `hcl:"k1,optional"`
	// B is the length normalization, from 0 (none) to 1 (full).
	B float64 `hcl:"b,optional"`
	// Field weights multiply the term frequencies of each field.
	TitleWeight float64 `hcl:"title_weight,optional"`
	PathWeight  float64 `hcl:"path_weight,optional"`
	NamesWeight float64 `hcl:"names_weight,optional"`
	BodyWeight  float64 `hcl:"body_weight,optional"`
	// PartsWeight weighs the parts of identifiers in the body (the
	// "client" of newClientForConfig), which body_weight then scales too.
	PartsWeight float64 `hcl:"parts_weight,optional"`
	// Stemmer is english, portuguese, french, spanish or none.
	Stemmer string `hcl:"stemmer,optional"`
	// K3 saturates the weight of a word the question repeats: it counts
	// (k3+1)·n/(k3+n) for n times. 0 counts every word once.
	K3 float64 `hcl:"k3,optional"`
}

// DefaultSettings are the textbook k1 and b, and field weights that let a
// word in the title, path or symbol names beat the same word in the body:
// a file is more likely about what it is called than about what it
// mentions.
func DefaultSettings() Settings {
	return Settings{
		K1: 1.2, B: 0.75,
		TitleWeight: 3, PathWeight: 2.5, NamesWeight: 2, BodyWeight: 1, PartsWeight: 0.25,
		Stemmer: string(text.English), K3: 8,
	}
}

// Ranker is the rank.bm25 stage. It is safe for concurrent use once
// configured: Rank calls share the index, Index replaces it.
type Ranker struct {
	indexMu sync.Mutex // serializes Index calls

	mu       sync.RWMutex // guards all below
	settings Settings
	analyzer text.Analyzer
	stateDir string
	oneShot  bool      // core.Setup.OneShot: segments are mapped without populating their pages ahead
	view     *view     // the segments prepared for ranking; nil until built or loaded
	stamp    listStamp // of the segment list view was loaded from or saved to
}

var _ core.Ranker = (*Ranker)(nil)

// New returns an unconfigured Ranker with the default settings.
func New() *Ranker {
	return &Ranker{settings: DefaultSettings(), analyzer: text.Default}
}

// Info describes the stage.
func (r *Ranker) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindRanker,
		Version:     Version,
		Description: "BM25F full-text ranking over titles, paths, symbol names and bodies",
		Scoped:      true, // a scoped delta costs what it changes (Index)
		NoEdges:     true, // text only
		Schema:      core.MustSchemaOf(&Settings{}),
	}
}

// Configure reads the settings and remembers the state directory.
func (r *Ranker) Configure(ctx context.Context, setup core.Setup) error {
	s := DefaultSettings()
	if err := core.DecodeSettings(setup.Settings, &s); err != nil {
		return err
	}
	lang, err := s.validate()
	if err != nil {
		return err
	}
	if setup.StateDir == "" {
		return errors.New(Name + ": no state directory to keep the index in")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settings = s
	r.analyzer = text.Analyzer{Stem: lang}
	r.stateDir = setup.StateDir
	r.oneShot = setup.OneShot
	r.view, r.stamp = nil, ""
	return nil
}

func (s Settings) validate() (text.Language, error) {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	if bad(s.K1) || s.K1 < 0 {
		return "", &core.SettingError{Setting: "k1", Message: "must be zero or more"}
	}
	if bad(s.K3) || s.K3 < 0 {
		return "", &core.SettingError{Setting: "k3", Message: "must be zero or more (0 counts a repeated word of the question once)"}
	}
	if bad(s.B) || s.B < 0 || s.B > 1 {
		return "", &core.SettingError{Setting: "b", Message: "must be between 0 and 1"}
	}
	weights := []struct {
		name string
		v    float64
	}{{"title_weight", s.TitleWeight}, {"path_weight", s.PathWeight}, {"names_weight", s.NamesWeight}, {"body_weight", s.BodyWeight}, {"parts_weight", s.PartsWeight}}
	positive := false
	for _, w := range weights {
		if bad(w.v) || w.v < 0 {
			return "", &core.SettingError{Setting: w.name, Message: "must be zero or more"}
		}
		// parts_weight scales body_weight, so it cannot make a field count
		// on its own.
		positive = positive || w.v > 0 && w.name != "parts_weight"
	}
	if !positive {
		return "", &core.SettingError{Message: "at least one of title_weight, path_weight, names_weight and body_weight must be more than zero"}
	}
	lang, err := text.ParseLanguage(s.Stemmer)
	if err != nil {
		return "", &core.SettingError{Setting: "stemmer", Message: err.Error()}
	}
	return lang, nil
}

func (r *Ranker) listPath() string { return filepath.Join(r.stateDir, listFile) }
