package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/plugins/rerank"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

func TestVariants(t *testing.T) {
	bm25 := rankerInfo{Name: "rank.bm25"}
	names := rankerInfo{Name: "rank.names"}
	ppr := rankerInfo{Name: "rank.ppr", Seeded: true}
	type want struct {
		sets    [][]string
		roles   [][]string
		skipped int
	}
	tests := []struct {
		name    string
		rankers []rankerInfo
		want    want
	}{
		{"text and graph", []rankerInfo{bm25, ppr}, want{
			sets:    [][]string{{"rank.bm25", "rank.ppr"}, {"rank.bm25"}},
			roles:   [][]string{{"full"}, {"without rank.ppr", "rank.bm25 alone"}},
			skipped: 1,
		}},
		{"text, names and graph", []rankerInfo{bm25, names, ppr}, want{
			sets: [][]string{
				{"rank.bm25", "rank.names", "rank.ppr"},
				{"rank.names", "rank.ppr"},
				{"rank.bm25", "rank.ppr"},
				{"rank.bm25", "rank.names"},
				{"rank.bm25"},
				{"rank.names"},
			},
			roles: [][]string{{"full"}, {"without rank.bm25"}, {"without rank.names"}, {"without rank.ppr"}, {"rank.bm25 alone"}, {"rank.names alone"}},
		}},
		{"one ranker", []rankerInfo{bm25}, want{sets: [][]string{{"rank.bm25"}}, roles: [][]string{{"full"}}}},
		{"none", nil, want{skipped: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, skipped := variants(tt.rankers)
			var sets, roles [][]string
			for _, v := range vs {
				sets, roles = append(sets, v.Rankers), append(roles, v.Roles)
			}
			if !reflect.DeepEqual(sets, tt.want.sets) || !reflect.DeepEqual(roles, tt.want.roles) || len(skipped) != tt.want.skipped {
				t.Errorf("variants:\nsets  %v\nroles %v\nskipped %v\nwant %+v", sets, roles, skipped, tt.want)
			}
		})
	}
}

// TestEnabledRankersFollowConfig reads the rankers from a real
// configuration, so a ranker added to the defaults or by a project's
// rubi.hcl shows up in the ablation without touching the benchmark.
func TestEnabledRankersFollowConfig(t *testing.T) {
	root := t.TempDir()
	hcl := "ranker \"rank.ppr\" {\n  weight = 0.5\n}\n"
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &harness{}
	cfg, err := h.config(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Vault != "" {
		t.Errorf("vault = %q: the personal vault must stay out of a run", cfg.Vault)
	}
	rankers := enabledRankers(cfg)
	var ppr *rankerInfo
	for i := range rankers {
		if _, ok := core.LookupBuiltin(rankers[i].Name); !ok {
			t.Errorf("ranker %s is not a built-in", rankers[i].Name)
		}
		if rankers[i].Name == "rank.ppr" {
			ppr = &rankers[i]
		}
	}
	if ppr == nil || !ppr.Seeded || ppr.Weight != 0.5 {
		t.Fatalf("rank.ppr = %+v, want seeded with weight 0.5 (rankers %+v)", ppr, rankers)
	}

	cfg, err = h.config(root, []string{"rank.bm25"})
	if err != nil {
		t.Fatal(err)
	}
	if got := enabledRankers(cfg); len(got) != 1 || got[0].Name != "rank.bm25" {
		t.Errorf("restricted to rank.bm25, enabled = %+v", got)
	}
}

// Each feature variant runs the full rankers with one feature off, and
// its layer reaches the engine's configuration.
func TestFeatureVariants(t *testing.T) {
	rankers := []rankerInfo{{Name: "rank.bm25"}, {Name: "rank.names"}, {Name: "rank.ppr", Seeded: true}}
	fv := featureVariants(rankers)
	if len(fv) != len(features) {
		t.Fatalf("feature variants = %d, want %d", len(fv), len(features))
	}
	h := &harness{work: t.TempDir()}
	root := t.TempDir()
	seen := map[string]bool{}
	for _, v := range fv {
		if !slices.Equal(v.Rankers, []string{"rank.bm25", "rank.names", "rank.ppr"}) || v.Full() || seen[v.Name()] {
			t.Errorf("variant %+v: want the full rankers, not the full role, a name of its own", v)
		}
		seen[v.Name()] = true
		f, err := h.layer(v.Config)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := h.config(root, v.Rankers, f)
		if err != nil {
			t.Fatalf("%s: %v", v.Name(), err)
		}
		on := func(kind core.Kind, name string) bool { return cfg.Stage(kind, name) != nil }
		roles := cfg.Stage(core.KindReranker, "rerank.roles")
		var rs rerank.RolesSettings
		if raw, diags := roles.Settings(rerank.NewRoles().Info().Schema); diags.HasErrors() || core.DecodeSettings(raw, &rs) != nil {
			t.Fatalf("%s: rerank.roles' settings: %v", v.Name(), diags)
		}
		rolePriors := rs.RolePriors
		switch v.Off {
		case "role priors":
			if rolePriors || !on(core.KindRanker, "query.paths") {
				t.Errorf("%s: role_priors %v, query.paths %v", v.Off, rolePriors, on(core.KindRanker, "query.paths"))
			}
		case "named paths":
			if on(core.KindRanker, "query.paths") || !rolePriors {
				t.Errorf("%s: query.paths %v, role_priors %v", v.Off, on(core.KindRanker, "query.paths"), rolePriors)
			}
		case "the report discount of the graph":
			if ppr := cfg.Stage(core.KindRanker, "rank.ppr"); ppr == nil || ppr.ReportWeight != 1 {
				t.Errorf("%s: %+v", v.Off, ppr)
			}
		case "notes lifted beside files":
			if on(core.KindReranker, "rerank.notes") || !on(core.KindRanker, "notes.files") {
				t.Errorf("%s: rerank.notes %v, notes.files %v", v.Off, on(core.KindReranker, "rerank.notes"), on(core.KindRanker, "notes.files"))
			}
		case "the files of matching notes":
			if on(core.KindRanker, "notes.files") || !on(core.KindReranker, "rerank.notes") {
				t.Errorf("%s: notes.files %v, rerank.notes %v", v.Off, on(core.KindRanker, "notes.files"), on(core.KindReranker, "rerank.notes"))
			}
		}
	}
	if fv := featureVariants([]rankerInfo{{Name: "rank.names"}}); len(fv) != len(features)-1 {
		t.Errorf("without rank.bm25 the k3 variant has nothing to change: %d variants", len(fv))
	}
}
