package subprocess

import (
	"context"
	"fmt"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
)

// BenchmarkRankCall compares one Rank call to the same ranker in-process
// and as a go-plugin subprocess over gRPC, for answers of 1, 50 and 500
// hits: the fixed cost of the plugin boundary and its cost per hit.
func BenchmarkRankCall(b *testing.B) {
	for _, hits := range []int{1, 50, 500} {
		q := core.Query{Text: "how are plugins loaded", Terms: []string{"plugin", "load"}, Limit: hits}
		b.Run(fmt.Sprintf("in-process/hits=%d", hits), func(b *testing.B) {
			r := &fakeRanker{who: "builtin", mode: "bench"}
			benchRank(b, r, q)
		})
		b.Run(fmt.Sprintf("subprocess/hits=%d", hits), func(b *testing.B) {
			root := b.TempDir()
			script := pluginScriptB(b, "bench")
			cfg := loadConfigB(b, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n}\n", script))
			h := host.New(cfg, host.Options{Launcher: Launcher{}})
			defer h.Close()
			stage, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake"))
			if diags.HasErrors() || len(h.Problems()) > 0 {
				b.Fatal(diags, h.Problems())
			}
			benchRank(b, stage.(core.Ranker), q)
		})
	}
}

func benchRank(b *testing.B, r core.Ranker, q core.Query) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		hits, err := r.Rank(ctx, q)
		if err != nil || len(hits) != q.Limit {
			b.Fatalf("Rank = %d hits, %v", len(hits), err)
		}
	}
}

// BenchmarkPluginStart measures starting a plugin process, the handshake,
// Info and Configure: the one-time cost a subprocess stage adds to a run.
func BenchmarkPluginStart(b *testing.B) {
	root := b.TempDir()
	script := pluginScriptB(b, "good")
	cfg := loadConfigB(b, root, fmt.Sprintf("ranker \"rank.fake\" {\n  plugin = %q\n}\n", script))
	for b.Loop() {
		h := host.New(cfg, host.Options{Launcher: Launcher{}})
		if _, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.fake")); diags.HasErrors() || len(h.Problems()) > 0 {
			b.Fatal(diags, h.Problems())
		}
		h.Close()
	}
}
