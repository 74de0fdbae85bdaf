package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// rankerStates are the contents of the rankers' state folders under
// root's index, each folder's files by their contents' hashes, in order:
// the names of the files (generations) differ between two runs that
// wrote the same state.
func rankerStates(t *testing.T, root string) map[string][]string {
	t.Helper()
	dir := filepath.Join(root, ".rubi", "index")
	out := map[string][]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if !en.IsDir() || !strings.HasPrefix(en.Name(), "rank.") {
			continue
		}
		err := filepath.WalkDir(filepath.Join(dir, en.Name()), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".written") || filepath.Base(p) == "segments" {
				return err
			}
			data, err := os.ReadFile(p)
			sum := sha256.Sum256(data)
			out[en.Name()] = append(out[en.Name()], hex.EncodeToString(sum[:8]))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(out[en.Name()])
	}
	return out
}

// answers are the engine's answers to the shop's questions, by id.
func answers(t *testing.T, e *Engine) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{"how is the configuration file loaded", "coupon applied twice", "submitCart", "export orders to csv"} {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 8})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(q + ": " + strings.Join(ids(res), " ") + "\n")
	}
	return b.String()
}

// The rankers index while the references are resolved (earlyRankers), a
// ranker that reads the graph's edges waiting for them: what they keep,
// and what the engine answers, are what rankers given their corpora
// after the references (as on a tree of more than rankersAtOnce files)
// keep and answer. Named Concurrent: the race detector's run takes it.
func TestConcurrentRankersWhileReferencesResolve(t *testing.T) {
	var states []map[string][]string
	var said []string
	for _, atOnce := range []int{0, 1} { // 1: every tree is large, nothing early
		root := shop(t)
		e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
		st, err := e.Index(context.Background(), IndexOptions{Full: true, rankersAtOnce: atOnce})
		if err != nil {
			t.Fatal(err)
		}
		if st.References.Found == 0 || st.Rankers["rank.ppr"] != "full" || st.Rankers["rank.bm25"] != "full" {
			t.Fatalf("at once %d: references %+v, rankers %v", atOnce, st.References, st.Rankers)
		}
		states = append(states, rankerStates(t, root))
		said = append(said, answers(t, e))
	}
	if len(states[0]) < 3 {
		t.Fatalf("rankers' states: %v", states[0])
	}
	for name, files := range states[1] {
		if !slices.Equal(states[0][name], files) {
			t.Errorf("%s keeps %v indexed early, %v indexed after the references", name, states[0][name], files)
		}
	}
	if said[0] != said[1] {
		t.Errorf("answers differ:\nindexed early:\n%s\nafter the references:\n%s", said[0], said[1])
	}
}

// cancelling resolves nothing: it cancels the index run it is part of,
// as an interrupted `rubi index` is, while the rankers index early.
type cancelling struct {
	refs.Resolver
	cancel context.CancelFunc
}

func (c cancelling) Refs(ctx context.Context, _ refs.Project, _ []string) (map[string][]refs.Ref, error) {
	c.cancel()
	<-ctx.Done()
	return nil, ctx.Err()
}

// A run that ends before the references are known leaves every ranker
// with what it held or what it would have been given: the rankers that
// indexed early took a corpus whole but for the edges they never read,
// and those that read edges never started. The index as it stands
// answers as before, and the next run keeps it.
func TestInterruptedRunLeavesRankersWhole(t *testing.T) {
	root := shop(t)
	// rank.fullagain reads the edges, and its Index does not stop when
	// the run is cancelled: started early, it would index a corpus whose
	// links never came.
	write(t, root, "rubi.hcl", "ranker \"rank.fullagain\" {}\n")
	fullAgainRanker.mu.Lock()
	fullAgainRanker.imports, fullAgainRanker.refs = nil, nil
	fullAgainRanker.mu.Unlock()
	indexed := func() []int {
		fullAgainRanker.mu.Lock()
		defer fullAgainRanker.mu.Unlock()
		return slices.Clone(fullAgainRanker.imports)
	}
	resolver := golang.New(golang.Options{})
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{resolver}})
	index(t, e)
	want, wantSaid := rankerStates(t, root), answers(t, e)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.resolvers = []refs.Resolver{cancelling{Resolver: resolver, cancel: cancel}}
	before := indexed()
	if len(before) != 1 || before[0] == 0 {
		t.Fatalf("rank.fullagain indexed %v import edges in the first run, want one corpus with some", before)
	}
	if _, err := e.Index(ctx, IndexOptions{Full: true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if got := indexed(); !slices.Equal(got, before) {
		t.Errorf("a ranker that reads edges indexed during the interrupted run: import edges %v, before %v", got, before)
	}
	check := func(when string, e *Engine) {
		t.Helper()
		got := rankerStates(t, root)
		for name, files := range want {
			if !slices.Equal(got[name], files) {
				t.Errorf("%s: %s keeps %v, held %v before the interrupted run", when, name, got[name], files)
			}
		}
		if said := answers(t, e); said != wantSaid {
			t.Errorf("%s, answers:\n%s\nbefore:\n%s", when, said, wantSaid)
		}
	}
	e = engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{resolver}})
	check("after the interrupted run", e)
	st := index(t, e)
	for name := range want {
		if st.Rankers[name] != "up to date" {
			t.Errorf("%s after the interrupted run: %q, want up to date", name, st.Rankers[name])
		}
	}
	check("indexed again", e)
}
