package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
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
