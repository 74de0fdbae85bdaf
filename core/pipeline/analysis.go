package pipeline

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
)

// pathsStage is the name of the evidence list the engine adds to the
// rankers': the project's files the question names by path, as the query
// analysis found them (tracebacks, locations, file names).
const pathsStage = "query.paths"

// pathsWeight is that list's vote in the fusion. A path written in the
// question is strong evidence: a traceback's frames, a file:line.
const pathsWeight = 1.5

// maxPathMatches is how many files a bare file name may stand for before
// it says too little to count ("models.py" in a Django project).
const maxPathMatches = 4

// maxPathMentions bounds the path mentions resolved for one query.
const maxPathMentions = 60

// mentionedPaths resolves the question's path mentions to the project's
// files: the path itself, else the longest tail of it that is a project
// path (an absolute path in a traceback, a path from another checkout),
// else, for a bare name, the files of that name. A mention that matches
// several files splits its weight among them.
func mentionedPaths(m *manifest.Manifest, an *query.Analysis) []core.Hit {
	if m == nil {
		return nil
	}
	// A file's score sums its mentions; its reason is its strongest one.
	type found struct {
		score, best float64
		why, text   string
	}
	byPath := map[string]*found{}
	credit := func(p string, w float64, mt *query.Mention) {
		f := byPath[p]
		if f == nil {
			f = &found{}
			byPath[p] = f
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
		if n++; n > maxPathMentions {
			break
		}
		p := cleanPath(mt.Text)
		if p == "" {
			continue
		}
		resolved := false
		for tail := p; tail != ""; {
			if _, ok := m.File(tail); ok {
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
			suffixes[i] = "/" + cleanPath(mt.Text)
		}
		matches := make([][]string, len(bare))
		m.EachPath(func(p string) bool {
			for i, suf := range suffixes {
				if len(matches[i]) <= maxPathMatches && (p == suf[1:] || strings.HasSuffix(p, suf)) {
					matches[i] = append(matches[i], p)
				}
			}
			return true
		})
		for i, mt := range bare {
			if k := len(matches[i]); k > 0 && k <= maxPathMatches {
				for _, p := range matches[i] {
					credit(p, mt.Weight/float64(k), mt)
				}
			}
		}
	}
	hits := make([]core.Hit, 0, len(byPath))
	for p, f := range byPath {
		hits = append(hits, core.Hit{ID: core.DocID(core.DocFile, p), Score: f.score, Reason: f.why + ": " + f.text})
	}
	slices.SortFunc(hits, func(a, b core.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID)) })
	return hits
}

// cleanPath turns a path as written into a slash path relative to some
// root: backslashes become slashes, a drive letter, "./" and leading
// slashes go.
func cleanPath(p string) string {
	p = strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
	if len(p) > 2 && p[1] == ':' && p[2] == '/' {
		p = p[3:]
	}
	p = path.Clean("/" + p)[1:]
	if p == "" || p == "." {
		return ""
	}
	return p
}

// roleWeight is what a file of a role counts for in a question of an
// intent: a question about code weighs down prose, configuration, build
// files and data, which share its words but are rarely where the answer
// is; a question about using the project weighs nothing down. Tests are
// weighed by retrieve.test_weight, as before roles.
func roleWeight(role, intent string) float64 {
	if intent != query.IntentCode {
		return 1
	}
	switch role {
	case codemap.RoleDocs, codemap.RoleData:
		return 0.3
	case codemap.RoleConfig, codemap.RoleBuild:
		return 0.5
	}
	return 1
}
