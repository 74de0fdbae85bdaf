package rerank

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/query"
)

// A question scores its units with the same floats every time it is
// asked: the sums run over the question's terms in one order (a map's
// order changed their last bits from run to run, and with them a near
// tie's order and the answer's JSON).
func TestUnitScoresAreTheSameEveryRun(t *testing.T) {
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("word%c%c", 'a'+i%26, 'a'+i/26))
	}
	question := strings.Join(words, " ")
	an := query.Analyze(question)
	scores := func() ([]float64, []float64) {
		p := newProfile(question, nil, &an, 4)
		var spans []*unitSpan
		for u := range 12 {
			tf := map[string]int{}
			for i, w := range words {
				if (i*7+u*3)%5 != 0 {
					tf[w] = 1 + (i*u)%9
				}
			}
			spans = append(spans, &unitSpan{name: fmt.Sprint("unit", u), tf: tf, length: 50 + 37*u})
		}
		shared := sharedText([]readFile{{path: "a.go", spans: spans}}, p)
		scoreUnits(spans, p)
		var within, across []float64
		for _, s := range spans {
			within = append(within, s.score)
			across = append(across, shared[s])
		}
		return within, across
	}
	w0, a0 := scores()
	for run := range 30 {
		w, a := scores()
		for i := range w0 {
			if math.Float64bits(w[i]) != math.Float64bits(w0[i]) || math.Float64bits(a[i]) != math.Float64bits(a0[i]) {
				t.Fatalf("run %d, unit %d: scores %v / %v, first run %v / %v", run, i, w[i], a[i], w0[i], a0[i])
			}
		}
	}
}
