package text

import (
	"fmt"
	"strings"
	"testing"
)

// A vocabulary gives the tokens Each gives, as ids of the same terms,
// whatever the text and the settings, and a word seen again gets the id
// it got the first time.
func TestVocabularyMatchesEach(t *testing.T) {
	texts := []string{
		"loadPlugin LoadPluginConfig load_plugin_config load-plugin HTTP2Server http2 v1.2.3 a b 7 x7 the THE and",
		"Configuração de ações: não há PREÇOS; São Paulo — straße, œuvre, Ñandú",
		"retry with backoff; retries, retrying, retried. The parser's parsers parsed the parsing",
		strings.Repeat("x", 70) + " " + strings.Repeat("ab", 40) + "Cd ok",
		"日本語のテキスト and Ελληνικά and кириллица",
		"",
		"___ --- 123 4 _a_ a_b a-1 1-a",
	}
	for _, a := range []Analyzer{Default, {Stem: Portuguese}, {Stem: NoStemming}, {KeepStopwords: true}} {
		v := a.Vocabulary()
		for round := 0; round < 2; round++ { // the second round comes from the word cache
			for _, s := range texts {
				var want, got []string
				a.Each(s, func(term string, part bool) { want = append(want, fmt.Sprintf("%s/%v", term, part)) })
				v.Each(s, func(id uint32, part bool) { got = append(got, fmt.Sprintf("%s/%v", v.Terms()[id], part)) })
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%+v round %d, %q:\n got %v\nwant %v", a, round, s, got, want)
				}
			}
		}
		seen := map[string]bool{}
		for _, term := range v.Terms() {
			if seen[term] {
				t.Errorf("%+v: term %q numbered twice", a, term)
			}
			seen[term] = true
		}
	}
}
