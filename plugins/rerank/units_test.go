package rerank

import (
	"bytes"
	"maps"
	"testing"

	"github.com/rubi-dev/rubi/core/text"
)

// The words probes keep give every question term the whole line gives,
// as often: a line is cut only where the analyzer cuts words too.
func TestProbesKeepEveryTerm(t *testing.T) {
	lines := []string{
		`func (s *PodStatusManager) syncPod(ctx context.Context, uid types.UID) error {`,
		`	return fmt.Errorf("failed to pull image %q: %w", image, err) // retry with back-off`,
		`def get_queryset(self, request): return self.model._default_manager.all()`,
		`const utf8Decode = "2024-05-01..2024-06-01"; x := a-b; HTTPServer.ListenAndServe()`,
		`// Ação de configuração — café, naïve résumé → pod_status_manager`,
		`リトライの上限を変更した: retryLimit = 上限 * 2`,
		`	isValid, don't, IDs, URLsFor, io_util, kebab-case-name, __init__`,
	}
	for _, line := range lines {
		all := text.Tokenize(line)
		// Every other term of the line is a question term, the rest not.
		terms := map[string]float64{}
		for i, tok := range all {
			if i%2 == 0 {
				terms[tok] = 1
			}
		}
		p := &profile{terms: terms}
		probes := p.probes()
		if probes == nil {
			continue // a term that is not ASCII: every line is tokenized
		}
		kept := probes.keep(nil, []byte(line), asciiLower(nil, []byte(line)))
		count := func(toks []string) map[string]int {
			n := map[string]int{}
			for _, tok := range toks {
				if _, ok := terms[tok]; ok {
					n[tok]++
				}
			}
			return n
		}
		want, got := count(all), count(text.Tokenize(string(kept)))
		if !maps.Equal(got, want) {
			t.Errorf("%s\nkept %q\ngives %v, the whole line %v", line, kept, got, want)
		}
	}
}

// A word is kept for a question that has another word of its stem: the
// stemmer changes the ends of short words ("copy" is "copi", "using"
// "use") and has exceptional forms ("dying" is "die").
func TestProbesKeepInflections(t *testing.T) {
	for _, pair := range [][2]string{
		{"used", "using"}, {"copies", "copy"}, {"tried", "try"}, {"hoped", "hoping"},
		{"tidied", "tidy"}, {"die", "dying"}, {"lie", "lying"}, {"tie", "tying"}, {"sky", "skies"},
		{"agreed", "agreeing"}, {"ugly", "ugly"}, {"early", "early"}, {"creating", "created"},
		{"troubling", "trouble"}, {"cries", "cry"},
	} {
		question, word := pair[0], pair[1]
		terms := map[string]float64{}
		for _, tok := range text.Tokenize(question) {
			terms[tok] = 1
		}
		shared := false
		for _, tok := range text.Tokenize(word) {
			_, ok := terms[tok]
			shared = shared || ok
		}
		if !shared {
			t.Fatalf("%q and %q share no term: %v, %v", question, word, text.Tokenize(question), text.Tokenize(word))
		}
		line := []byte("x = " + word + "(y)")
		p := &profile{terms: terms}
		if kept := p.probes().keep(nil, line, asciiLower(nil, line)); !bytes.Contains(kept, []byte(word)) {
			t.Errorf("a question of %q (terms %v) does not keep %q: kept %q", question, text.Tokenize(question), word, kept)
		}
	}
}
