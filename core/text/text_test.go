package text

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

var noStem = Analyzer{Stem: NoStemming}

func TestTokenizeSplits(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"PaymentError", []string{"payment", "error", "paymenterror"}},
		{"paymentError", []string{"payment", "error", "paymenterror"}},
		{"HTTPServer", []string{"http", "server", "httpserver"}},
		{"parseJSONFile", []string{"parse", "json", "file", "parsejsonfile"}},
		{"utf8Decode", []string{"utf", "8", "decode", "utf8decode"}},
		{"snake_case_name", []string{"snake", "case", "name", "snakecasename"}},
		{"SCREAMING_CASE", []string{"screaming", "case", "screamingcase"}},
		{"kebab-case", []string{"kebab", "case", "kebabcase"}},
		{"--dry-run", []string{"dry", "run", "dryrun"}},
		{"core/stage.go", []string{"core", "stage", "go"}},
		{"store.WriteFile(path)", []string{"store", "write", "file", "writefile", "path"}},
		{"__init__", []string{"init"}},
		{"snake__double", []string{"snake", "double", "snakedouble"}},
		// Plural acronyms stay whole.
		{"userIDs", []string{"user", "ids", "userids"}},
		{"GetURLsFor", []string{"get", "urls", "geturlsfor"}},
		// Digits: kept inside a compound, a lone single digit dropped,
		// a '-' between digits separates.
		{"utf-8", []string{"utf", "8", "utf8"}},
		{"int64 x 7 42", []string{"int", "64", "int64", "42"}},
		{"2024-01-15", []string{"2024", "01", "15"}},
		// Single letters go, a joined form keeps its dropped parts.
		{"x := a + b; i++", nil},
		{"isValid", []string{"valid", "isvalid"}},
		{"aString", []string{"string", "astring"}},
		// Unicode: folding, caseless scripts, other cases.
		{"Ünïcödé café", []string{"unicode", "cafe"}},
		{"straße Æsir", []string{"strasse", "aesir"}},
		{"北京 Москва ΑΘΗΝΑ", []string{"北京", "москва", "αθηνα"}},
		{"Ac\u0327a\u0303o", []string{"acao"}}, // decomposed input (NFD)
		{"Tie\u0302\u0301ng Vie\u0323t tiếng", []string{"tieng", "viet", "tieng"}},
		// Marks of other scripts are part of their letters, and Hangul
		// syllables are not broken into jamo.
		{"がぎ かき 한국어", []string{"がぎ", "かき", "한국", "국어"}},
		{"\u304b\u3099\u304d", []string{"\u304b\u3099\u304d"}},
		// Chinese, Japanese and Korean runs are overlapping pairs of
		// letters, a lone letter itself, whatever their length; a word of
		// another script beside them is a word of its own.
		{"リトライの上限を変更した。", []string{"リト", "トラ", "ライ", "イの", "の上", "上限", "限を", "を変", "変更", "更し", "した"}},
		{"APIの設定はretryCount", []string{"api", "の設", "設定", "定は", "retry", "count", "retrycount"}},
		{"上 限", []string{"上", "限"}},
		{"データー", []string{"デー", "ータ", "ター"}},
		{strings.Repeat("日本", 40), slices.Repeat([]string{"日本", "本日"}, 40)[:79]},
		// Stopwords of the four languages.
		{"the plugin is loaded", []string{"plugin", "loaded"}},
		{"não é o arquivo", []string{"arquivo"}},
		{"les fichiers de la config", []string{"fichiers", "config"}},
		{"los archivos del proyecto", []string{"archivos", "proyecto"}},
		// Too long to be a word.
		{strings.Repeat("ab", MaxTokenLen), nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := noStem.Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenizeDefaultStems(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"PaymentError", []string{"payment", "error", "paymenterror"}},
		{"PaymentErrors", []string{"payment", "error", "paymenterror"}},
		{"loadPlugin", []string{"load", "plugin", "loadplugin"}},
		{"load the plugin", []string{"load", "plugin"}},
		{"how are plugins loaded?", []string{"plugin", "load"}},
		{"core/stage.go", []string{"core", "stage", "go"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Words users type differently must produce the same terms.
func TestWordsMeet(t *testing.T) {
	groups := []struct {
		a     Analyzer
		words []string
	}{
		{Default, []string{"plugins", "plugin", "Plugin", "PLUGINS"}},
		{Default, []string{"loaded", "loading", "load", "loads"}},
		{Default, []string{"indexes", "indexing", "index"}},
		{Default, []string{"ação", "Ação", "AÇÃO", "acao"}},
		{Analyzer{Stem: Portuguese}, []string{"ação", "Ação", "acao"}},
		{Analyzer{Stem: Portuguese}, []string{"configuração", "configuracao", "configurações", "configurar", "configurado"}},
		{Analyzer{Stem: Portuguese}, []string{"validação", "validacao", "validar"}},
		{Analyzer{Stem: Portuguese}, []string{"eficiência", "eficiencia", "eficiente"}},
		{Analyzer{Stem: Spanish}, []string{"configuración", "configuracion", "configuraciones", "configurar"}},
		{Analyzer{Stem: Spanish}, []string{"búsqueda", "busqueda", "búsquedas"}},
		{Analyzer{Stem: French}, []string{"données", "donnees", "donnée"}},
		{Analyzer{Stem: French}, []string{"configurée", "configuree", "configurer"}},
		{noStem, []string{"ação", "ACAO", "Acao"}},
		{Default, []string{"上限", "「上限」", "上限。"}},
	}
	for _, g := range groups {
		want := g.a.Tokenize(g.words[0])
		if len(want) != 1 {
			t.Errorf("%s: Tokenize(%q) = %q, want one term", g.a.lang(), g.words[0], want)
			continue
		}
		for _, w := range g.words[1:] {
			if got := g.a.Tokenize(w); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Tokenize(%q) = %q, want %q like %q", g.a.lang(), w, got, want, g.words[0])
			}
		}
	}
	if got := Tokenize("Ação"); !reflect.DeepEqual(got, []string{"acao"}) {
		t.Errorf("Tokenize(Ação) = %q, want [acao]", got)
	}
	// A Japanese question meets the sentence that holds its words.
	doc := map[string]bool{}
	for _, term := range Tokenize("リトライの上限を変更した。") {
		doc[term] = true
	}
	for _, q := range []string{"上限", "リトライ", "変更"} {
		for _, term := range Tokenize(q) {
			if !doc[term] {
				t.Errorf("the term %q of %q is not in the sentence's terms", term, q)
			}
		}
	}
}

func TestKeepStopwords(t *testing.T) {
	a := Analyzer{Stem: NoStemming, KeepStopwords: true}
	want := []string{"the", "plugin", "is", "loaded"}
	if got := a.Tokenize("the plugin is loaded"); !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %q, want %q", got, want)
	}
	if !IsStopword("nao") || !IsStopword("the") || IsStopword("plugin") || IsStopword("os") {
		t.Error("IsStopword disagrees with the lists")
	}
}

func TestAnalyzeSources(t *testing.T) {
	got := Default.Analyze("loadPlugin, the config_path")
	want := []Token{
		{Text: "load", Source: "load", Word: 0, Part: true},
		{Text: "plugin", Source: "Plugin", Word: 0, Part: true},
		{Text: "loadplugin", Source: "loadPlugin", Word: 0, Joined: true},
		{Text: "config", Source: "config", Word: 2, Part: true},
		{Text: "path", Source: "path", Word: 2, Part: true},
		{Text: "configpath", Source: "config_path", Word: 2, Joined: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze =\n%+v\nwant\n%+v", got, want)
	}
	// The source of a folded word is the word as written.
	if got := Default.Analyze("a Ação"); len(got) != 1 || got[0].Source != "Ação" {
		t.Errorf("Analyze(a Ação) = %+v", got)
	}
}

func TestParseLanguage(t *testing.T) {
	for in, want := range map[string]Language{"": English, "English": English, "portuguese": Portuguese, " french ": French, "spanish": Spanish, "none": NoStemming} {
		if got, err := ParseLanguage(in); err != nil || got != want {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseLanguage("klingon"); err == nil || !strings.Contains(err.Error(), "portuguese") {
		t.Errorf("ParseLanguage(klingon) error = %v, want the list of stemmers", err)
	}
}

func TestSignature(t *testing.T) {
	if Default.Signature() != (Analyzer{}).Signature() {
		t.Error("the zero Analyzer must be the Default one")
	}
	seen := map[string]bool{}
	for _, a := range []Analyzer{Default, {Stem: Portuguese}, {Stem: NoStemming}, {KeepStopwords: true}} {
		if s := a.Signature(); seen[s] {
			t.Errorf("Signature %q repeats", s)
		} else {
			seen[s] = true
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Ação Élève": "acao eleve", "ASCII Only": "ascii only", "Straße": "strasse",
		"naïve—café": "naive—cafe", "a\u0301": "a", "がギ": "がギ", "Ｆｕｌｌ": "full",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// Tokens must not point into the input: indexes keep them as map keys.
func TestTokensDoNotAliasInput(t *testing.T) {
	buf := []byte("plugin zzzq")
	toks := noStem.Tokenize(string(buf))
	copy(buf, "XXXXXXXXXXX")
	if toks[0] != "plugin" || toks[1] != "zzzq" {
		t.Errorf("tokens changed with their input: %q", toks)
	}
}

// The stem cache empties itself when full; terms must not change.
func TestStemCacheOverflow(t *testing.T) {
	var b strings.Builder
	for i := range maxCache + 100 {
		fmt.Fprintf(&b, "w%dloading ", i)
	}
	big := b.String()
	want := Tokenize("loading plugins")
	Tokenize(big)
	if got := Tokenize("loading plugins"); !reflect.DeepEqual(got, want) {
		t.Errorf("after a cache overflow: %q, want %q", got, want)
	}
	if got := Tokenize("w42loading"); !reflect.DeepEqual(got, []string{"42", "load", "w42load"}) {
		t.Errorf("Tokenize(w42loading) = %q", got)
	}
}

func TestUnknownLanguageDoesNotStem(t *testing.T) {
	a := Analyzer{Stem: "klingon"}
	if got := a.Tokenize("loading plugins"); !reflect.DeepEqual(got, []string{"loading", "plugins"}) {
		t.Errorf("Tokenize = %q", got)
	}
}

func TestConcurrent(t *testing.T) {
	src := goSample(t)
	want := Tokenize(src)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := []Analyzer{Default, {Stem: Portuguese}}[g%2]
			for i := 0; i < 5; i++ {
				got := a.Tokenize(src)
				if a == Default && !reflect.DeepEqual(got, want) {
					t.Error("concurrent Tokenize differs")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"PaymentError", "HTTPServer_v2-beta", "ação-ÇÃO", "a\u0327", "ǅemal ß", "x--9", "_-_", "\xff\xfeab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range []Analyzer{Default, {Stem: Portuguese}, {Stem: French}} {
			for _, tk := range a.Analyze(s) {
				if tk.Text == "" || len(tk.Text) > MaxTokenLen || !utf8.ValidString(tk.Text) {
					t.Fatalf("bad token %q from %q", tk.Text, s)
				}
				if strings.ToLower(tk.Text) != tk.Text {
					t.Fatalf("token %q of %q is not lowercase", tk.Text, s)
				}
				if !strings.Contains(s, tk.Source) || tk.Source == "" {
					t.Fatalf("source %q is not in %q", tk.Source, s)
				}
			}
		}
	})
}

// goSample is realistic Go source: the engine's own contract files.
func goSample(tb testing.TB) string {
	files, err := filepath.Glob("../*.go")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no sample files: %v", err)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

const proseSample = `A configuração do índice é recalculada quando um arquivo muda; ` +
	`les données sont indexées à nouveau, y la búsqueda usa la versión nueva. ` +
	`Each plugin is loaded once and its settings are validated before indexing starts. `

func BenchmarkTokenize(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"go", goSample(b)},
		{"prose", strings.Repeat(proseSample, 200)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.src)))
			b.ReportAllocs()
			var dst []string
			for b.Loop() {
				dst = Default.AppendTokens(dst[:0], bc.src)
			}
		})
	}
}
