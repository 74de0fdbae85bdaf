package facts

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/query"
)

// PathsSettings are query.paths' settings.
type PathsSettings struct {
	// MaxMatches is how many files a bare file name may stand for before
	// it says too little to count ("models.py" in a Django project).
	MaxMatches int `hcl:"max_matches,optional"`
	// MaxMentions bounds the path mentions resolved for one question.
	MaxMentions int `hcl:"max_mentions,optional"`
}

// Paths is query.paths: the project's files the question names by path,
// as the query analysis found them (traceback frames, path:line, file
// names). A path written in the question is strong evidence, and the
// list seeds the graph like the lists of the question's words.
type Paths struct {
	noIndex
	s PathsSettings
}

// NewPaths returns query.paths with its default settings.
func NewPaths() *Paths { return &Paths{s: PathsSettings{MaxMatches: 4, MaxMentions: 60}} }

// Info describes the stage.
func (p *Paths) Info() core.Info {
	return core.Info{Name: PathsName, Kind: core.KindRanker, Version: "1.0.0", Stateless: true,
		Description: "The files the question names by path: traceback frames, path:line, file names.",
		Scoped:      true,
		Schema:      core.MustSchemaOf(&PathsSettings{})}
}

// Configure reads the settings.
func (p *Paths) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &p.s); err != nil {
		return err
	}
	if p.s.MaxMatches < 1 {
		return &core.SettingError{Setting: "max_matches", Message: "must be at least 1"}
	}
	if p.s.MaxMentions < 1 {
		return &core.SettingError{Setting: "max_mentions", Message: "must be at least 1"}
	}
	return nil
}

// RankFacts resolves the question's path mentions to the project's
// files: the path itself, else the longest tail of it that is a project
// path (an absolute path in a traceback, a path from another checkout),
// else, for a bare name, the files of that name. A mention that matches
// several files splits its weight among them; a file's score sums its
// mentions and its reason is its strongest one.
func (p *Paths) RankFacts(_ context.Context, q core.Query, facts core.Facts) ([]core.Hit, error) {
	if !q.AcceptsKind(core.DocFile) {
		return nil, nil
	}
	an := facts.Analysis()
	type found struct {
		score, best float64
		why, text   string
	}
	byPath := map[string]*found{}
	credit := func(path string, w float64, mt *query.Mention) {
		f := byPath[path]
		if f == nil {
			f = &found{}
			byPath[path] = f
		}
		f.score += w
		if w > f.best {
			f.best, f.why, f.text = w, mt.Why, mt.Text
		}
	}
	var bare []*query.Mention
	n := 0
	for i := range an.Mentions {
		mt := &an.Mentions[i]
		if mt.Kind != query.KindPath {
			continue
		}
		if n++; n > p.s.MaxMentions {
			break
		}
		path := query.CleanPath(mt.Text)
		if path == "" {
			continue
		}
		resolved := false
		for tail := path; tail != ""; {
			if _, ok := facts.File(tail); ok {
				credit(tail, mt.Weight, mt)
				resolved = true
				break
			}
			_, rest, ok := strings.Cut(tail, "/")
			if !ok {
				break
			}
			tail = rest
		}
		if !resolved && !strings.HasPrefix(mt.Text, "/") {
			bare = append(bare, mt)
		}
	}
	// A relative path or a bare name that is no project path from the
	// root: the files ending with it.
	if len(bare) > 0 {
		suffixes := make([]string, len(bare)) // "/" + the cleaned path
		for i, mt := range bare {
			suffixes[i] = "/" + query.CleanPath(mt.Text)
		}
		matches := make([][]string, len(bare))
		facts.EachPath(func(path string) bool {
			for i, suf := range suffixes {
				if len(matches[i]) <= p.s.MaxMatches && (path == suf[1:] || strings.HasSuffix(path, suf)) {
					matches[i] = append(matches[i], path)
				}
			}
			return true
		})
		for i, mt := range bare {
			if k := len(matches[i]); k > 0 && k <= p.s.MaxMatches {
				for _, path := range matches[i] {
					credit(path, mt.Weight/float64(k), mt)
				}
			}
		}
	}
	hits := make([]core.Hit, 0, len(byPath))
	for path, f := range byPath {
		hits = append(hits, core.Hit{ID: core.DocID(core.DocFile, path), Score: f.score, Reason: f.why + ": " + f.text})
	}
	slices.SortFunc(hits, func(a, b core.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID)) })
	return hits, nil
}
