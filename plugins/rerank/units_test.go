package rerank

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
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

// unitFacts are the engine's facts of a query over a few files, for
// rerank.units.
type unitFacts struct {
	question string
	an       query.Analysis
	files    map[string]string // path → content
	syms     map[string][]core.Symbol
	out      map[string]bool // files the query's filters leave out
	err      error           // what reading symbols fails with
	read     []string        // the files read
	readMu   sync.Mutex      // Read is called from units' workers at once
	// uses and calls are the index's references: a target's uses, a
	// unit's calls (by path and qualified name).
	uses  map[string]core.SymbolUses
	calls map[[2]string][]core.Callee
	// types are the notes' types, by key.
	types map[string]string
}

func (f *unitFacts) Question() string          { return f.question }
func (f *unitFacts) Analysis() *query.Analysis { return &f.an }
func (f *unitFacts) File(path string) (core.FileInfo, bool) {
	c, ok := f.files[path]
	return core.FileInfo{Language: "go", Size: int64(len(c))}, ok
}
func (f *unitFacts) EachPath(fn func(string) bool) {}
func (f *unitFacts) Keeps(path string) bool {
	_, ok := f.files[path]
	return ok && !f.out[path]
}
func (f *unitFacts) Symbols(path string) ([]core.Symbol, error) { return f.syms[path], f.err }
func (f *unitFacts) Read(path string, limit int64) []byte {
	f.readMu.Lock()
	defer f.readMu.Unlock()
	f.read = append(f.read, path)
	return []byte(f.files[path])
}
func (f *unitFacts) Note(string) (string, []string, bool)        { return "", nil, false }
func (f *unitFacts) NoteType(key string) string                  { return f.types[key] }
func (f *unitFacts) Time(string) time.Time                       { return time.Time{} }
func (f *unitFacts) Now() time.Time                              { return time.Now() }
func (f *unitFacts) Uses(target string) (core.SymbolUses, error) { return f.uses[target], nil }
func (f *unitFacts) Calls(path, from string) ([]core.Callee, error) {
	return f.calls[[2]string{path, from}], nil
}

// rerank.units keeps the list and chooses, under the first files the
// query keeps (ranked_files of them), the functions whose lines match the
// question; under any other file only those whose names hold its words
// or that it names; for a query that asks for no files, none. An error reading the index's
// symbols is the index's, returned as is.
func TestUnitsRankTheFirstFilesByTheirLines(t *testing.T) {
	syms := []core.Symbol{
		{Name: "Total", Kind: core.SymbolFunction, Line: 1, EndLine: 3},
		{Name: "ApplyCoupon", Kind: core.SymbolFunction, Line: 4, EndLine: 6},
	}
	content := "func Total() int {\n\treturn sum\n}\nfunc ApplyCoupon() {\n\tdiscount once per cart\n}\n"
	question := "the discount is counted twice per cart"
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{"a.go": content, "hidden.go": content, "b.go": content},
		syms:  map[string][]core.Symbol{"a.go": syms, "hidden.go": syms, "b.go": syms},
		out:   map[string]bool{"hidden.go": true}}
	hits := []core.Hit{{ID: "file:hidden.go"}, {ID: "node:n"}, {ID: "file:a.go"}, {ID: "file:b.go"}}
	u := NewUnits()
	u.s.RankedFiles = 1
	out, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Hits) != len(hits) || out.Units == nil || len(out.Effects) != 0 {
		t.Fatalf("rerank.units changed the list or chose nothing: %+v", out)
	}
	if !slices.Equal(facts.read, []string{"a.go"}) {
		t.Errorf("read %q, want the first file the query keeps alone", facts.read)
	}
	if got := out.Units.Of("a.go", syms); len(got) == 0 || got[0].Name != "ApplyCoupon" || got[0].Line != 4 || got[0].EndLine != 6 {
		t.Errorf("a.go, ranked by its lines: %+v, want ApplyCoupon (4-6) first", got)
	}
	if got := out.Units.Of("b.go", syms); len(got) != 0 {
		t.Errorf("b.go, past ranked_files, lists %+v: no word of the question is in its units' names", got)
	}
	named := &unitFacts{question: "why does ApplyCoupon run twice", an: query.Analyze("why does ApplyCoupon run twice"), files: facts.files, syms: facts.syms}
	out, err = u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, named)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Units.Of("b.go", syms); len(got) != 1 || got[0].Name != "ApplyCoupon" {
		t.Errorf("b.go, past ranked_files: %+v, want the unit the question names", got)
	}

	out, err = u.RerankFacts(context.Background(), core.Rerank{Query: core.Query{Kinds: []string{core.DocNode}}, Hits: hits, Limit: 10}, facts)
	if err != nil || out.Units != nil {
		t.Errorf("a query for notes alone: units %v, error %v", out.Units, err)
	}
	facts.err = manifest.ErrSymbolsDamaged
	if _, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts); !errors.Is(err, manifest.ErrSymbolsDamaged) {
		t.Errorf("damaged symbols: %v", err)
	}
}

// The listing across files ranks units of different files on one score:
// the function that matches the question best sits in the second file,
// under a first file whose own best unit matches it barely, and leads the
// listing; each unit carries its path, its score and what each setting
// added. With open_first = 0 there is no listing.
func TestOpenFirstLeadsWithTheBestUnitOfAnyFile(t *testing.T) {
	cart := "func Total() int {\n\treturn total\n}\nfunc Items() []Item {\n\treturn items\n}\n"
	coupon := "func Load() {\n\tread config\n}\nfunc ApplyCoupon() {\n\t// the coupon discount is applied once per cart\n\tapplyDiscount(coupon)\n}\n"
	question := "the coupon discount is applied twice to the cart total"
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{"cart.go": cart, "coupon.go": coupon},
		syms: map[string][]core.Symbol{
			"cart.go":   {{Name: "Total", Kind: core.SymbolFunction, Line: 1, EndLine: 3}, {Name: "Items", Kind: core.SymbolFunction, Line: 4, EndLine: 6}},
			"coupon.go": {{Name: "Load", Kind: core.SymbolFunction, Line: 1, EndLine: 3}, {Name: "ApplyCoupon", Kind: core.SymbolFunction, Line: 4, EndLine: 7}},
		}}
	hits := []core.Hit{{ID: "file:cart.go", Score: 2}, {ID: "file:coupon.go", Score: 1}}
	u := NewUnits()
	out, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts)
	if err != nil {
		t.Fatal(err)
	}
	first := out.Units.First()
	if len(first) < 2 || first[0].Path != "coupon.go" || first[0].Name != "ApplyCoupon" || first[0].Line != 4 || first[0].EndLine != 7 {
		t.Fatalf("open first: %+v, want coupon.go's ApplyCoupon (4-7) first", first)
	}
	if first[1].Path != "cart.go" || first[1].Name != "Total" {
		t.Errorf("second: %+v, want the first file's best, cart.go's Total", first[1])
	}
	for _, un := range first {
		sum := 0.0
		for _, v := range un.Parts {
			sum += v
		}
		if un.Score <= 0 || math.Abs(sum-un.Score) > 1e-9 || un.Parts["file_weight"] <= 0 {
			t.Errorf("%s: score %v, parts %v: the parts must add up to the score, the file's standing among them", un.Name, un.Score, un.Parts)
		}
	}
	if slices.ContainsFunc(first, func(un core.Unit) bool { return un.Name == "Load" || un.Name == "Items" }) {
		t.Errorf("open first lists a unit nothing matches: %+v", first)
	}
	// Per file, the units stay as they were: the file's own order.
	if got := out.Units.Of("cart.go", nil); len(got) == 0 || got[0].Name != "Total" || got[0].Path != "" {
		t.Errorf("cart.go's own units: %+v", got)
	}

	u.s.OpenFirst = 0
	out, err = u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts)
	if err != nil || out.Units.First() != nil {
		t.Errorf("open_first = 0: %+v, %v", out.Units.First(), err)
	}
}

// The references' edges from symbol to symbol, when weighed: the unit
// that calls the function a question names, and the one it calls, are
// listed to open, the callee though no word of the question is in it,
// each saying why; a unit neither matches nor touches is not. Unweighed (rubi's
// default), they are not looked up.
func TestOpenFirstListsTheNeighboursOfANamedUnit(t *testing.T) {
	question := "`ApplyCoupon` fails for an empty basket"
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{
			"coupon.go":   "func ApplyCoupon() {\n\tsubtract()\n}\n",
			"checkout.go": "func Pay() {\n\tApplyCoupon()\n}\nfunc Load() {\n\tread()\n}\n",
			"discount.go": "func subtract() {\n\tx--\n}\n",
		},
		syms: map[string][]core.Symbol{
			"coupon.go":   {{Name: "ApplyCoupon", Kind: core.SymbolFunction, Line: 1, EndLine: 3}},
			"checkout.go": {{Name: "Pay", Kind: core.SymbolFunction, Line: 1, EndLine: 3}, {Name: "Load", Kind: core.SymbolFunction, Line: 4, EndLine: 6}},
			"discount.go": {{Name: "subtract", Kind: core.SymbolFunction, Line: 1, EndLine: 3}},
		},
		uses: map[string]core.SymbolUses{"ApplyCoupon": {
			Defs:  []core.UsedDef{{Path: "coupon.go", Name: "ApplyCoupon", Line: 1}},
			Sites: []core.UseSite{{Path: "checkout.go", Line: 2, From: "Pay", Call: true}},
		}},
		calls: map[[2]string][]core.Callee{{"coupon.go", "ApplyCoupon"}: {{Path: "discount.go", Name: "subtract", Line: 2, Call: true}}},
	}
	hits := []core.Hit{{ID: "file:coupon.go", Score: 3}, {ID: "file:checkout.go", Score: 2}, {ID: "file:discount.go", Score: 1}}
	listed := func(u *Units) map[string]string { return listedWhy(t, u, hits, facts) }
	u := NewUnits()
	if got := listed(u); len(got) != 2 || got["ApplyCoupon"] == "" || !strings.HasPrefix(got["Pay"], "matches ") {
		t.Errorf("unweighed: %v, want the named unit and its caller by its words alone", got)
	}
	u.s.CallsNamedWeight, u.s.NamedCallsWeight = 0.5, 0.5
	got := listed(u)
	want := map[string]string{
		"ApplyCoupon": got["ApplyCoupon"],
		"Pay":         "calls ApplyCoupon, named in the question",
		"subtract":    "called by ApplyCoupon, named in the question",
	}
	if !maps.Equal(got, want) {
		t.Errorf("weighed: %v, want %v", got, want)
	}
}

// What the question writes verbatim, when weighed: the unit whose lines
// use a code name the report writes (`use_tz`) and the one that raises
// the message it quotes lead the listing, each saying why, above a unit
// of the first file that shares only the report's words; a unit of a
// test file loses test_weight, unless the question asks for tests.
// Unweighed (each weight 0), the second file's save stays above
// to_python, whose words the report barely shares.
func TestOpenFirstWeighsWhatTheQuestionWritesVerbatim(t *testing.T) {
	question := "Saving a model with `use_tz` on fails: DateTimeField received a naive datetime while time zone support is active. Saving the model date should convert it."
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{
			"models.py":       "def save(model):\n    # saving the model date: convert the date\n    model.date = convert(model.date)\n",
			"fields.py":       "def to_python(value):\n    if settings.use_tz:\n        return value\ndef warn(name, value):\n    raise Warning(\"DateTimeField %s received a naive datetime (%s) while time zone support is active.\" % (name, value))\n",
			"tests/test_x.py": "def test_saving_model_date():\n    saving the model date fails; saving the model date\n",
		},
		syms: map[string][]core.Symbol{
			"models.py":       {{Name: "save", Kind: core.SymbolFunction, Line: 1, EndLine: 3}},
			"fields.py":       {{Name: "to_python", Kind: core.SymbolFunction, Line: 1, EndLine: 3}, {Name: "warn", Kind: core.SymbolFunction, Line: 4, EndLine: 5}},
			"tests/test_x.py": {{Name: "test_saving_model_date", Kind: core.SymbolFunction, Line: 1, EndLine: 2}},
		}}
	hits := []core.Hit{{ID: "file:tests/test_x.py", Score: 4}, {ID: "file:models.py", Score: 3}, {ID: "file:fields.py", Score: 1}}
	listed := func(u *Units, q string) []core.Unit {
		facts.question, facts.an = q, query.Analyze(q)
		out, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts)
		if err != nil {
			t.Fatal(err)
		}
		return out.Units.First()
	}
	names := func(us []core.Unit) []string {
		var out []string
		for _, un := range us {
			out = append(out, un.Name)
		}
		return out
	}
	u := NewUnits()
	u.s.NamesUsedWeight, u.s.QuotedWeight, u.s.TestWeight = 0, 0, 0
	if got := names(listed(u, question)); slices.Index(got, "to_python") < slices.Index(got, "save") {
		t.Errorf("unweighed: %v, want save above to_python", got)
	}
	u.s.NamesUsedWeight, u.s.QuotedWeight, u.s.TestWeight = 1, 1, 1
	got := listed(u, question)
	if n := names(got); len(n) != 4 || !slices.Equal(n[:2], []string{"warn", "to_python"}) || n[3] != "test_saving_model_date" {
		t.Fatalf("weighed: %v, want warn and to_python first, the test's unit last", n)
	}
	if got[0].Why != "quotes text of the question" || got[1].Why != "uses use_tz, written in the question" {
		t.Errorf("why: %q, %q", got[0].Why, got[1].Why)
	}
	if got[3].Parts["test_weight"] != -1 {
		t.Errorf("the test's unit: parts %v, want test_weight -1", got[3].Parts)
	}
	asks := "add a test for " + question
	if n := names(listed(u, asks)); n[len(n)-1] == "test_saving_model_date" {
		t.Errorf("a question asking for tests: %v, want the test's unit not demoted", n)
	}
}

// A class and its methods lend each other their scores, when weighed: a
// class whose own lines share no word of the question is listed because
// its method matches it (the fix may add a method to it), and a method
// whose lines match nothing is listed under its class that the question
// matches, each saying why; a function of neither is not. Unweighed
// (rubi's default before them), only the matching units are listed.
func TestOpenFirstLendsAClassItsMethodsScores(t *testing.T) {
	question := "The page number is out of range: validating a page of an empty list raises an error"
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{
			"paginator.py": "class Paginator:\n    per = 10\n    def validate_number(self, number):\n        if number > self.num_pages:\n            raise EmptyPage('page number out of range')\n        return number\n",
			"errors.py":    "class EmptyPage(Exception):\n    \"\"\"an empty page of a list\"\"\"\n    def render(self):\n        return str(self.args)\ndef load():\n    return None\n",
		},
		syms: map[string][]core.Symbol{
			"paginator.py": {{Name: "Paginator", Kind: core.SymbolClass, Line: 1, EndLine: 6}, {Name: "validate_number", Parent: "Paginator", Kind: core.SymbolMethod, Line: 3, EndLine: 6}},
			"errors.py":    {{Name: "EmptyPage", Kind: core.SymbolClass, Line: 1, EndLine: 4}, {Name: "render", Parent: "EmptyPage", Kind: core.SymbolMethod, Line: 3, EndLine: 4}, {Name: "load", Kind: core.SymbolFunction, Line: 5, EndLine: 6}},
		}}
	hits := []core.Hit{{ID: "file:paginator.py", Score: 2}, {ID: "file:errors.py", Score: 1}}
	listed := func(u *Units) map[string]string { return listedWhy(t, u, hits, facts) }
	u := NewUnits()
	u.s.ClassMethodsWeight, u.s.MethodClassWeight = 0, 0
	if got := listed(u); len(got) != 2 || got["Paginator.validate_number"] == "" || got["EmptyPage"] == "" {
		t.Errorf("unweighed: %v, want validate_number and EmptyPage alone", got)
	}
	u.s.ClassMethodsWeight, u.s.MethodClassWeight = 0.5, 0.5
	got := listed(u)
	if got["Paginator"] != "its methods match the question" || got["EmptyPage.render"] != "a method of EmptyPage, which matches the question" {
		t.Errorf("weighed: %v, want Paginator for its method and EmptyPage.render for its class", got)
	}
	if _, ok := got["load"]; ok || len(got) != 4 {
		t.Errorf("weighed: %v, want the four units of the two classes and not load", got)
	}
}

// read_bytes bounds what is read to rank units: the first file is read
// whole whatever its size, the next ones while the bytes left hold them,
// and none after the first that does not fit; a negative budget is
// refused.
func TestUnitsReadWithinReadBytes(t *testing.T) {
	syms := []core.Symbol{{Name: "Total", Kind: core.SymbolFunction, Line: 1, EndLine: 3}}
	content := "func Total() int {\n\treturn sum\n}\n" // 33 bytes
	question := "the total sum is wrong"
	facts := &unitFacts{question: question, an: query.Analyze(question),
		files: map[string]string{"a.go": content, "b.go": content, "c.go": content + "\n", "d.go": content},
		syms:  map[string][]core.Symbol{"a.go": syms, "b.go": syms, "c.go": syms, "d.go": syms}}
	hits := []core.Hit{{ID: "file:a.go"}, {ID: "file:b.go"}, {ID: "file:c.go"}, {ID: "file:d.go"}}
	for _, c := range []struct {
		budget int64
		want   []string
	}{{1, []string{"a.go"}}, {66, []string{"a.go", "b.go"}}, {132, []string{"a.go", "b.go", "c.go"}}, {1 << 20, []string{"a.go", "b.go", "c.go", "d.go"}}} {
		u := NewUnits()
		u.s.ReadBytes = c.budget
		facts.read = nil
		if _, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts); err != nil {
			t.Fatal(err)
		}
		slices.Sort(facts.read)
		if !slices.Equal(facts.read, c.want) {
			t.Errorf("read_bytes %d: read %q, want %q", c.budget, facts.read, c.want)
		}
	}
	u := NewUnits()
	if err := u.Configure(context.Background(), core.Setup{Settings: []byte(`{"read_bytes": -1}`)}); err == nil {
		t.Error("read_bytes -1 accepted")
	}
}

// listedWhy is the listing across files units makes of hits: each unit
// listed, by name, with why.
func listedWhy(t *testing.T, u *Units, hits []core.Hit, facts core.Facts) map[string]string {
	t.Helper()
	out, err := u.RerankFacts(context.Background(), core.Rerank{Hits: hits, Limit: 10}, facts)
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, un := range out.Units.First() {
		why[un.Name] = un.Why
	}
	return why
}
