package rerank

import (
	"context"
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/query"
)

// RolesSettings are rerank.roles' settings.
type RolesSettings struct {
	// TestWeight multiplies the score of test cases, fixtures and test
	// modules unless the question is about tests: they repeat the words
	// of the code they test and would otherwise crowd it out.
	TestWeight float64 `hcl:"test_weight,optional"`
	// RolePriors weighs the other files by their role against what the
	// question asks for.
	RolePriors bool `hcl:"role_priors,optional"`
	// DocsWeight multiplies docs and data files, ConfigWeight
	// configuration and build files, for a question about code.
	DocsWeight   float64 `hcl:"docs_weight,optional"`
	ConfigWeight float64 `hcl:"config_weight,optional"`
}

// Roles is rerank.roles: it scales fused scores by what is known of a
// document before any query, weighed by what the question asks for
// (query.Analysis):
//   - test cases, fixtures, benchmark suites and test modules count
//     test_weight unless the question is about tests (helpers and frameworks under test/ are
//     code people look for, and count in full, except for a bug report);
//   - a question about code weighs docs, data, configuration and build
//     files down; one about using the project does not.
//
// The list is re-sorted; ties keep the fuser's order.
type Roles struct {
	s RolesSettings
}

// NewRoles returns rerank.roles with its default settings.
func NewRoles() *Roles {
	return &Roles{s: RolesSettings{TestWeight: 0.5, RolePriors: true, DocsWeight: 0.3, ConfigWeight: 0.5}}
}

// Info describes the stage.
func (r *Roles) Info() core.Info {
	return core.Info{Name: RolesName, Kind: core.KindReranker, Version: "1.0.0", Stateless: true,
		Description: "Rescales files by their role: tests count less unless asked for, docs and configuration less for a question about code.",
		Schema:      core.MustSchemaOf(&RolesSettings{})}
}

// Configure reads the settings.
func (r *Roles) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &r.s); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		v    float64
	}{{"test_weight", r.s.TestWeight}, {"docs_weight", r.s.DocsWeight}, {"config_weight", r.s.ConfigWeight}} {
		if err := unit(s.name, s.v); err != nil {
			return err
		}
	}
	return nil
}

// Rerank without the engine's facts knows no roles: the list is kept.
func (r *Roles) Rerank(_ context.Context, rr core.Rerank) (core.Reranked, error) {
	return core.Reranked{Hits: rr.Hits}, nil
}

// weighedDown is the reason given for a file a question about code
// weighs down.
const weighedDown = ", weighed down: the question asks for code"

// RerankFacts rescales the list by the roles the facts give.
func (r *Roles) RerankFacts(_ context.Context, rr core.Rerank, facts core.Facts) (core.Reranked, error) {
	an := facts.Analysis()
	tw := r.s.TestWeight
	if an.Intent == query.IntentTests {
		tw = 1
	}
	hits := rr.Hits
	out := core.Reranked{Hits: hits}
	for i := range hits {
		kind, key, err := core.SplitDocID(hits[i].ID)
		if err != nil {
			continue
		}
		w, why := 1.0, ""
		switch kind {
		case core.DocFile:
			f, known := facts.File(key)
			switch {
			case codemap.IsTestCase(key) || known && f.Role == codemap.RoleTest && f.Language == "":
				// A test, or a fixture of one (tests/validators/urls.txt).
				w = tw
			case an.Report && (known && f.Role == codemap.RoleTest || !known && codemap.IsTest(key)):
				// A bug report asks for the code at fault; the helpers,
				// sample projects and test apps of a test tree reproduce
				// reported bugs in the report's own words.
				w = tw
			case known && r.s.RolePriors:
				if w = r.roleWeight(f.Role, an.Intent); w < 1 {
					why = f.Role + " file" + weighedDown
				}
			}
		case core.DocModule:
			if codemap.IsTest(key) {
				w = tw
			} else if r.s.RolePriors {
				w = r.roleWeight(codemap.DirRole(key), an.Intent)
			}
		}
		if w != 1 {
			hits[i].Score *= w
			if out.Effects == nil {
				out.Effects = map[string]core.Effect{}
			}
			out.Effects[hits[i].ID] = core.Effect{Factor: w, Reason: why}
		}
	}
	if len(out.Effects) > 0 {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	}
	return out, nil
}

// roleWeight is what a file of a role counts for in a question of an
// intent: a question about code weighs down prose, configuration, build
// files and data, which share its words but are rarely where the answer
// is; a question about using the project weighs nothing down.
func (r *Roles) roleWeight(role, intent string) float64 {
	if intent != query.IntentCode {
		return 1
	}
	switch role {
	case codemap.RoleDocs, codemap.RoleData:
		return r.s.DocsWeight
	case codemap.RoleConfig, codemap.RoleBuild:
		return r.s.ConfigWeight
	}
	return 1
}
