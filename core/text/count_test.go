package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// CountTokens counts what Tokenize gives, for code and prose alike: the
// cases of each rule, then random strings over the characters the rules
// turn on.
func TestCountTokens(t *testing.T) {
	cases := []string{
		"", "x", "7", "a b", "paymentError", "HTTPServer", "IDs", "URLsFor", "getHTTPSURLs",
		"utf8Decode", "int64", "v1", "x_1", "io_util", "__init__", "_private", "trailing_",
		"kebab-case-name", "2024-05-01", "1-2", "a-1", "1_2", "don't", "isValid",
		"the quick brown fox is not in the box", "func (s *Server) Start(ctx context.Context) error {",
		"def get_queryset(self, request): return self.model._default_manager.all()",
		strings.Repeat("a", 70) + " " + strings.Repeat("b", 40) + "_" + strings.Repeat("c", 30),
		"Ação de configuração — café → pod_status", "リトライの上限を変更した: retryLimit", "naïveBayes",
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAbZsS09_-. '/éの"
	for range 20000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteString(string([]rune(alphabet)[r.IntN(len([]rune(alphabet)))]))
		}
		cases = append(cases, b.String())
	}
	for _, a := range []Analyzer{Default, {KeepStopwords: true}} {
		for _, s := range cases {
			if got, want := a.CountTokens([]byte(s)), len(a.Tokenize(s)); got != want {
				t.Fatalf("KeepStopwords %v, %q: counted %d, Tokenize gives %d %q", a.KeepStopwords, s, got, want, a.Tokenize(s))
			}
		}
	}
}

func BenchmarkCountTokens(b *testing.B) {
	src := []byte(strings.Repeat("func (s *PodStatusManager) syncPod(ctx context.Context, uid types.UID) error { return fmt.Errorf(\"failed: %w\", err) }\n", 200))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Default.CountTokens(src)
	}
}

func BenchmarkTokenizeToCount(b *testing.B) {
	src := strings.Repeat("func (s *PodStatusManager) syncPod(ctx context.Context, uid types.UID) error { return fmt.Errorf(\"failed: %w\", err) }\n", 200)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		n := 0
		Default.Each(src, func(string, bool) { n++ })
	}
}
