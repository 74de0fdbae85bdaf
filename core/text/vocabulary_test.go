package text

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
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
		// Chunks (EachChunk) that reach into other scripts, marks and
		// separators, each met twice: the second from the chunk cache.
		"naïveCafé_Ñandú-2024 x-1-2 -a- _b_ 1-2-3 HTTPServerIDs URLsFor naïveCafé_Ñandú-2024 x-1-2 HTTPServerIDs",
		"e\u0301cole écoleDesParis e\u0301cole APIの設定 APIの設定 Æsir Æsir straße straße",
		strings.Repeat("veryLongIdentifierName", 3) + "X " + strings.Repeat("veryLongIdentifierName", 3) + "X",
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

// Tokenizing a text chunk by chunk, as a vocabulary does to remember
// chunks, gives what tokenizing it whole gives, whatever the text: random
// runs of letters of several scripts and cases, digits, separators,
// marks and spaces, each tokenized twice by one vocabulary.
func TestVocabularyChunksMatchEach(t *testing.T) {
	pieces := []string{"a", "B", "z", "Q", "1", "9", "_", "-", " ", ".", "é", "É", "\u0301", "ß", "の", "設", "Ж", "ж", "Σ", "\u200b", "—", "\t"}
	rnd := rand.New(rand.NewPCG(7, 11))
	v := Default.Vocabulary()
	for range 3000 {
		var b strings.Builder
		for range rnd.IntN(40) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		var want []string
		Default.Each(s, func(term string, part bool) { want = append(want, fmt.Sprintf("%s/%v", term, part)) })
		for round := range 2 {
			var got []string
			v.Each(s, func(id uint32, part bool) { got = append(got, fmt.Sprintf("%s/%v", v.Terms()[id], part)) })
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("round %d, %q:\n got %v\nwant %v", round, s, got, want)
			}
		}
	}
}

// treeSample is the text of this repository's Go and Markdown files
// under core/ and docs/, as an index run gives a vocabulary its
// documents: code with identifiers repeated file after file, and prose.
func treeSample(tb testing.TB) []string {
	var docs []string
	for _, root := range []string{"..", "../../docs"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md")) {
				return err
			}
			data, err := os.ReadFile(p)
			docs = append(docs, string(data))
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	if len(docs) < 50 {
		tb.Fatalf("%d sample files: the repository's tree is not beside the test", len(docs))
	}
	return docs
}

// BenchmarkVocabularyEach numbers the tokens of a tree's files with one
// vocabulary, as a worker of the bm25 index does.
func BenchmarkVocabularyEach(b *testing.B) {
	docs := treeSample(b)
	size := 0
	for _, d := range docs {
		size += len(d)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		v := Default.Vocabulary()
		n := 0
		for _, d := range docs {
			v.Each(d, func(uint32, bool) { n++ })
		}
	}
}
