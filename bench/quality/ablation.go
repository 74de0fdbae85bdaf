package main

import (
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
)

// rankerInfo is a ranker the configuration enables.
type rankerInfo struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	// Seeded rankers start from the other rankers' hits, so they cannot
	// run alone.
	Seeded bool   `json:"seeded,omitempty"`
	Plugin string `json:"plugin,omitempty"`
}

// enabledRankers lists the rankers cfg enables, in declaration order,
// less the engine's evidence rankers (evidence), which the ablation
// measures as features. A built-in says whether it is seeded; a
// subprocess plugin is taken as unseeded (finding out would mean
// starting it).
func enabledRankers(cfg *config.Config) []rankerInfo {
	var out []rankerInfo
	for _, st := range cfg.Enabled(core.KindRanker) {
		if evidence(st) {
			continue
		}
		r := rankerInfo{Name: st.Name, Weight: st.Weight, Plugin: st.Plugin}
		if b, ok := core.LookupBuiltin(st.Name); ok && st.Plugin == "" {
			r.Seeded = b.Factory().Info().Seeded
		}
		out = append(out, r)
	}
	return out
}

// variant is one set of rankers to measure.
type variant struct {
	// Rankers are the enabled rankers, in configuration order.
	Rankers []string `json:"rankers"`
	// Roles say why the set is measured: "full", "without rank.ppr",
	// "rank.bm25 alone"; one set may play several.
	Roles []string `json:"roles"`
	// Off names a retrieval feature the variant turns off (the full
	// rankers otherwise), and Config is the rubi.hcl layer that does it.
	Off    string `json:"off,omitempty"`
	Config string `json:"config,omitempty"`
}

// Name is the set as the report shows it.
func (v variant) Name() string {
	if v.Off != "" {
		return strings.Join(v.Rankers, " + ") + ", without " + v.Off
	}
	return strings.Join(v.Rankers, " + ")
}

// features are the retrieval features (stages, settings) that the
// ablation turns off one at a time, each by a rubi.hcl layer. What needs
// another index (index.hidden_roles) is not among them: every variant
// queries the same index.
var features = []struct{ name, config string }{
	{"role priors", "reranker \"rerank.roles\" {\n  role_priors = false\n}\n"},
	{"named paths", "ranker \"query.paths\" {\n  enabled = false\n}\n"},
	{"the report discount of the graph", "ranker \"rank.ppr\" {\n  report_weight = 1\n}\n"},
	{"query term frequency", "ranker \"rank.bm25\" {\n  k3 = 0\n}\n"},
	{"notes lifted beside files", "reranker \"rerank.notes\" {\n  enabled = false\n}\n"},
	{"the files of matching notes", "ranker \"notes.files\" {\n  enabled = false\n}\n"},
	{"dated questions", "ranker \"query.time\" {\n  enabled = false\n}\n"},
}

// Role is the variant's roles as one cell.
func (v variant) Role() string { return strings.Join(v.Roles, "; ") }

// Full reports whether this is the whole configured pipeline.
func (v variant) Full() bool { return slices.Contains(v.Roles, "full") }

// variants enumerates what the ablation measures from the rankers the
// configuration enables, whatever they are: the full pipeline, each
// ranker off in turn, and each unseeded ranker alone. A set left with only
// seeded rankers has nothing to start from and is skipped (returned in
// skipped with the reason). Identical sets are measured once.
func variants(rankers []rankerInfo) (out []variant, skipped []string) {
	all := make([]string, len(rankers))
	for i, r := range rankers {
		all[i] = r.Name
	}
	addSet := func(set []string, role string) {
		for i := range out {
			if slices.Equal(out[i].Rankers, set) {
				out[i].Roles = append(out[i].Roles, role)
				return
			}
		}
		out = append(out, variant{Rankers: set, Roles: []string{role}})
	}
	startable := func(set []string) bool {
		for _, r := range rankers {
			if slices.Contains(set, r.Name) && !r.Seeded {
				return true
			}
		}
		return false
	}
	if len(all) == 0 {
		return nil, []string{"no ranker is enabled"}
	}
	addSet(all, "full")
	if len(all) == 1 {
		return out, nil
	}
	for _, r := range rankers {
		var set []string
		for _, n := range all {
			if n != r.Name {
				set = append(set, n)
			}
		}
		if !startable(set) {
			skipped = append(skipped, "without "+r.Name+": only seeded rankers are left, with nothing to start from")
			continue
		}
		addSet(set, "without "+r.Name)
	}
	for _, r := range rankers {
		if !r.Seeded {
			addSet([]string{r.Name}, r.Name+" alone")
		}
	}
	return out, skipped
}

// featureVariants are the full rankers with each retrieval feature off in
// turn (features).
func featureVariants(rankers []rankerInfo) []variant {
	all := make([]string, len(rankers))
	for i, r := range rankers {
		all[i] = r.Name
	}
	var out []variant
	for _, f := range features {
		if f.name == "query term frequency" && !slices.Contains(all, "rank.bm25") {
			continue
		}
		out = append(out, variant{Rankers: all, Roles: []string{"without " + f.name}, Off: f.name, Config: f.config})
	}
	return out
}

// evidence reports a built-in ranker of the engine's facts of a query
// (core.FactRanker: query.paths, notes.files, query.time): a feature of
// every variant, switched off by the feature variants alone.
func evidence(st *config.Stage) bool {
	b, ok := core.LookupBuiltin(st.Name)
	if !ok || st.Plugin != "" {
		return false
	}
	_, fact := b.Factory().(core.FactRanker)
	return fact
}

// restrict switches off, in cfg, every ranker not in keep, but for the
// evidence rankers.
func restrict(cfg *config.Config, keep []string) {
	for _, st := range cfg.Stages {
		if st.Kind == core.KindRanker && st.Enabled && !slices.Contains(keep, st.Name) && !evidence(st) {
			st.Enabled = false
		}
	}
}
