// Package gate is rubi's ranking gate: fixed question sets, each question
// with the files (or notes) that answer it, asked of fixed trees through
// the engine at the default settings, and their recall@1, recall@5 and
// MRR kept in a golden file that go test checks, as zoekt keeps its
// rank_stats. A change that moves any answer changes the golden, so the
// move is seen and reviewed like any other change of behaviour, question
// by question, instead of surfacing weeks later in a benchmark run.
//
// The sets are rubi's own self set (bench/quality/testdata/
// rubi-questions.txt) asked of rubi's tree at a pinned commit, and
// questions written for small projects in several languages
// (testdata/projects, testdata/questions). The test is gate_test.go;
// this file holds the scoring and the golden's format.
package gate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// Limit is how many items each question asks for: what an agent reads
// at a glance. A gold item further down counts as not found.
const Limit = 10

// noteDir is where a project keeps its knowledge notes; a gold path
// under it names a note rather than a file.
const noteDir = ".rubi/knowledge/"

// Rank is the 1-based rank of the first gold item among the items of the
// kinds the gold names, 0 when none is there. A question whose gold is
// files is scored on the answer's file items only, as bench/quality
// scores the self set, so notes and modules shown beside the files do
// not push a file down; a question whose gold names a note is scored on
// the notes too (and on the files when it names files as well).
func Rank(items []answer.Item, gold []string) int {
	files, notes := false, false
	for _, g := range gold {
		if strings.HasPrefix(g, noteDir) {
			notes = true
		} else {
			files = true
		}
	}
	n := 0
	for _, it := range items {
		switch {
		case it.Kind == core.DocFile && files, it.Kind == core.DocNode && notes:
		default:
			continue
		}
		n++
		if slices.Contains(gold, it.Path) {
			return n
		}
	}
	return 0
}

// Set is one question set's outcome.
type Set struct {
	// Name names the set in the golden; About says what was asked of
	// what (the tree, its commit).
	Name, About string
	Questions   []sets.SelfQuestion
	// Ranks are the questions' ranks (Rank), in their order.
	Ranks []int
}

// Stats are a set's scores: the shares of its questions with a gold item
// first and among the first five, and the mean reciprocal rank of the
// first gold item (0 for a question without one in the answer).
type Stats struct {
	Recall1, Recall5, MRR float64
}

// Score sums a set's ranks.
func Score(ranks []int) Stats {
	var s Stats
	if len(ranks) == 0 {
		return s
	}
	for _, r := range ranks {
		if r == 1 {
			s.Recall1++
		}
		if r >= 1 && r <= 5 {
			s.Recall5++
		}
		if r >= 1 {
			s.MRR += 1 / float64(r)
		}
	}
	n := float64(len(ranks))
	return Stats{Recall1: s.Recall1 / n, Recall5: s.Recall5 / n, MRR: s.MRR / n}
}

// header opens the golden: what it is and how to rewrite it.
const header = `# The ranking gate (bench/gate): recall@1, recall@5 and MRR of rubi's
# answers to fixed questions, then each question's rank: where its first
# gold file comes among the answer's file items (notes too when the gold
# names a note), "-" when not among the first 10 items. A change of this
# file is a ranking change: review it like one. Rewrite it with
#   go test ./gate -update     (from bench/)
`

// Golden renders the sets as the golden file: per set a line of scores,
// then one line per question, its rank then its text, so that a diff
// names the questions that moved.
func Golden(ss []Set) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	for _, s := range ss {
		st := Score(s.Ranks)
		fmt.Fprintf(&b, "\nset %s: %s\n", s.Name, s.About)
		fmt.Fprintf(&b, "questions %d  recall@1 %.3f  recall@5 %.3f  MRR %.3f\n", len(s.Ranks), st.Recall1, st.Recall5, st.MRR)
		for i, q := range s.Questions {
			fmt.Fprintf(&b, "%3s  %s\n", rankText(s.Ranks[i]), q.Text)
		}
	}
	return b.Bytes()
}

func rankText(r int) string {
	if r <= 0 {
		return "-"
	}
	return strconv.Itoa(r)
}

// Moves compares two goldens and says, in the order of now, what moved:
// each set whose scores changed, each question whose rank changed, and
// the sets and questions one has and the other lacks.
func Moves(was, now []byte) []string {
	old, oldOrder := parseGolden(was)
	cur, curOrder := parseGolden(now)
	var out []string
	for _, set := range curOrder {
		o, ok := old[set]
		c := cur[set]
		if !ok {
			out = append(out, fmt.Sprintf("set %s: new (%s)", set, c.scores))
			continue
		}
		if o.scores != c.scores {
			out = append(out, fmt.Sprintf("set %s: %s, was %s", set, c.scores, o.scores))
		}
		for _, q := range c.order {
			r, had := o.ranks[q]
			switch {
			case !had:
				out = append(out, fmt.Sprintf("  %s: new question %q, rank %s", set, q, c.ranks[q]))
			case r != c.ranks[q]:
				out = append(out, fmt.Sprintf("  %s: %q moved %s → %s", set, q, r, c.ranks[q]))
			}
		}
		for _, q := range o.order {
			if _, ok := c.ranks[q]; !ok {
				out = append(out, fmt.Sprintf("  %s: question %q gone (was %s)", set, q, o.ranks[q]))
			}
		}
	}
	for _, set := range oldOrder {
		if _, ok := cur[set]; !ok {
			out = append(out, fmt.Sprintf("set %s: gone (was %s)", set, old[set].scores))
		}
	}
	return out
}

// goldenSet is a set as read back from a golden.
type goldenSet struct {
	scores string
	ranks  map[string]string
	order  []string
}

// parseGolden reads what Golden wrote; it is lenient, since the file it
// reads may be an older or a hand-edited one.
func parseGolden(data []byte) (map[string]*goldenSet, []string) {
	out := map[string]*goldenSet{}
	var order []string
	var cur *goldenSet
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "", strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "set "):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "set "), ":")
			cur = &goldenSet{ranks: map[string]string{}}
			out[name] = cur
			order = append(order, name)
		case cur == nil:
		case strings.HasPrefix(line, "questions "):
			cur.scores = line
		default:
			rank, q, ok := strings.Cut(strings.TrimSpace(line), "  ")
			if !ok {
				continue
			}
			if _, dup := cur.ranks[q]; !dup {
				cur.order = append(cur.order, q)
			}
			cur.ranks[q] = rank
		}
	}
	return out, order
}

// Ask indexes the project at root with rubi's default configuration (the
// project's own rubi.hcl layered over it, no personal layer, no personal
// vault) and returns the rank (Rank) of each question's answer: Retrieve
// with the question's text, Limit items, every kind, a budget that never
// cuts, so what is measured is the order and not the packing. It
// returns the number of files indexed too.
func Ask(ctx context.Context, root string, qs []sets.SelfQuestion) (ranks []int, files int, err error) {
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		var b bytes.Buffer
		config.WriteDiagnostics(&b, nil, diags)
		return nil, 0, fmt.Errorf("configuration of %s:\n%s", root, b.String())
	}
	cfg.Vault = ""
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments, Resolvers: standard.Resolvers()})
	defer eng.Close()
	st, err := eng.Index(ctx, pipeline.IndexOptions{})
	if err != nil {
		return nil, 0, fmt.Errorf("index %s: %w", root, err)
	}
	ranks = make([]int, len(qs))
	for i, q := range qs {
		res, err := eng.Retrieve(ctx, answer.Query{Text: q.Text, Limit: Limit, Budget: 1 << 30})
		if err != nil {
			return nil, 0, fmt.Errorf("line %d, %q: %w", q.Line, q.Text, err)
		}
		ranks[i] = Rank(res.Items, q.Gold)
	}
	return ranks, st.Parsed + st.Unchanged, nil
}
