package rankertest

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// wordRanker is the smallest ranker that keeps the contract: it counts
// the words of each document, keeps them in one checksummed file, and
// scores a question by tf·idf. A mutant breaks it in one way.
type wordRanker struct {
	mutant string
	dir    string
	mu     sync.Mutex
	docs   map[string]wordDoc
}

type wordDoc struct {
	Kind  string         `json:"kind"`
	Words map[string]int `json:"words"`
}

const wordFile = "words.json"

func (r *wordRanker) Info() core.Info {
	return core.Info{Name: "rank.words", Kind: core.KindRanker, Version: "1.0.0"}
}

func (r *wordRanker) Configure(_ context.Context, setup core.Setup) error {
	r.dir = setup.StateDir
	return nil
}

func countWords(d core.Document, body string) map[string]int {
	words := map[string]int{}
	for _, t := range tokens(d.Path + " " + d.Title + " " + strings.Join(d.Names, " ") + " " + body) {
		words[t]++
	}
	return words
}

func (r *wordRanker) Index(ctx context.Context, c *core.Corpus) error {
	if err := ctx.Err(); err != nil && r.mutant != "ignores cancel" {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := map[string]wordDoc{}
	if !c.Full {
		loaded, err := r.load()
		switch {
		case err != nil && r.mutant == "indexes without state":
		case err != nil:
			return core.ErrFullIndexNeeded
		default:
			prev = loaded
		}
	}
	next := map[string]wordDoc{}
	for _, d := range c.Documents {
		if old, ok := prev[d.ID]; ok && !c.Full && !slices.Contains(c.Changed, d.ID) {
			next[d.ID] = old
			continue
		}
		body := c.Body(&d)
		if r.mutant == "reads the documents' bodies" {
			body = d.Body
		}
		next[d.ID] = wordDoc{Kind: d.Kind, Words: countWords(d, body)}
	}
	if r.mutant == "keeps removed" {
		for id, d := range prev {
			if _, ok := next[id]; !ok && slices.Contains(c.Removed, id) {
				next[id] = d
			}
		}
	}
	data, err := json.Marshal(next)
	if err != nil {
		return err
	}
	if r.mutant != "trusts its file" {
		data = binary.LittleEndian.AppendUint32(data, crc32.ChecksumIEEE(data))
	}
	if err := store.WriteFile(filepath.Join(r.dir, wordFile), data, 0o644); err != nil {
		return err
	}
	r.docs = next
	return nil
}

func (r *wordRanker) load() (map[string]wordDoc, error) {
	data, err := os.ReadFile(filepath.Join(r.dir, wordFile))
	if err != nil {
		return nil, err
	}
	if r.mutant != "trusts its file" {
		if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
			return nil, errors.New("words.json: checksum mismatch")
		}
		data = data[:len(data)-4]
	}
	docs := map[string]wordDoc{}
	return docs, json.Unmarshal(data, &docs)
}

func (r *wordRanker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if err := ctx.Err(); err != nil && r.mutant != "ignores cancel" {
		return nil, err
	}
	r.mu.Lock()
	if r.docs == nil {
		docs, err := r.load()
		if err != nil {
			r.mu.Unlock()
			return nil, err
		}
		r.docs = docs
	}
	docs := r.docs
	r.mu.Unlock()
	words := tokens(q.Text + " " + strings.Join(q.Terms, " "))
	df := map[string]int{}
	for _, d := range docs {
		for _, w := range words {
			if d.Words[w] > 0 {
				df[w]++
			}
		}
	}
	var hits []core.Hit
	for id, d := range docs {
		if !q.AcceptsKind(d.Kind) {
			continue
		}
		score := 0.0
		for _, w := range words {
			if n := d.Words[w]; n > 0 {
				score += float64(n) / float64(n+1) * math.Log(1+float64(len(docs))/float64(df[w]))
			}
		}
		if score > 0 {
			hits = append(hits, core.Hit{ID: id, Score: score})
		}
	}
	slices.SortFunc(hits, func(a, b core.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID)) })
	if r.mutant == "worst first" {
		slices.Reverse(hits)
	}
	if q.Limit > 0 && len(hits) > q.Limit && r.mutant != "over the limit" {
		hits = hits[:q.Limit]
	}
	return hits, nil
}

func wordSubject(mutant string) Subject {
	return Subject{New: func(*testing.T) core.Ranker { return &wordRanker{mutant: mutant} }}
}

// The smallest sound ranker passes the contract.
func TestContract(t *testing.T) {
	Contract(t, wordSubject(""))
}

// TestMutant runs the contract on the mutant RANKERTEST_MUTANT names;
// TestContractCatchesMutants runs it in a process of its own.
func TestMutant(t *testing.T) {
	mutant := os.Getenv("RANKERTEST_MUTANT")
	if mutant == "" {
		return
	}
	Contract(t, wordSubject(mutant))
}

// Each way of breaking a ranker fails the check of it, and the contract
// as a whole.
func TestContractCatchesMutants(t *testing.T) {
	for mutant, check := range map[string]string{
		"keeps removed":               "IncrementalEqualsFull",
		"indexes without state":       "MissingState",
		"trusts its file":             "DamagedState",
		"ignores cancel":              "Canceled",
		"worst first":                 "FullIndexThenQuery",
		"over the limit":              "FullIndexThenQuery",
		"reads the documents' bodies": "DeferredBodies",
	} {
		t.Run(mutant, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMutant$", "-test.v")
			cmd.Env = append(os.Environ(), "RANKERTEST_MUTANT="+mutant)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the contract passed a ranker that %s", mutant)
			}
			if !strings.Contains(string(out), "--- FAIL: TestMutant/"+check) {
				t.Errorf("a ranker that %s does not fail %s:\n%s", mutant, check, out)
			}
		})
	}
}
