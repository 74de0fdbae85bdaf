package rerank

import (
	"bytes"
	"cmp"
	"context"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/query"
	"github.com/rubi-dev/rubi/core/text"
)

// UnitsSettings are rerank.units' settings.
type UnitsSettings struct {
	// MaxUnits is how many units an answer lists under one file.
	MaxUnits int `hcl:"max_units,optional"`
	// RankedFiles is how many of the list's first files have their units
	// ranked by their lines, the files read for it; the others list only
	// the units the question names.
	RankedFiles int `hcl:"ranked_files,optional"`
	// ReadBytes is how many bytes of those files are read at most, the
	// first file whole: the files after the one that would pass it are
	// not read.
	ReadBytes int64 `hcl:"read_bytes,optional"`
	// OpenFirst is how many units the answer lists first, across the
	// files read, best first by a score comparable across files; 0 lists
	// none.
	OpenFirst int `hcl:"open_first,optional"`
	// OpenFiles is how many of the files read the listing draws its
	// units from, the first ones; 0 all of them. Every file read still
	// counts in how telling each word is.
	OpenFiles int `hcl:"open_files,optional"`
	// The weights of that score's parts: the file's standing in the list
	// (FileWeight, its place p counting from 0 giving 1/(1+FileDecay·p)),
	// the unit's own lines matched under one inverse document frequency
	// shared by all the units read, the best unit read scoring 1
	// (TextWeight), its lines matched against its own file's units, the
	// file's best scoring 1 (WithinWeight), and the question naming it
	// or pointing into it (NameWeight). For a question asking what calls
	// or uses a symbol, a unit that does (CallerWeight): above what the
	// others can add up to, so the callers lead and the definition, which
	// the question names, follows them.
	FileWeight   float64 `hcl:"file_weight,optional"`
	FileDecay    float64 `hcl:"file_decay,optional"`
	TextWeight   float64 `hcl:"text_weight,optional"`
	WithinWeight float64 `hcl:"within_weight,optional"`
	NameWeight   float64 `hcl:"name_weight,optional"`
	CallerWeight float64 `hcl:"caller_weight,optional"`
	// CallsNamedWeight weighs a unit that calls a unit the question
	// names, NamedCallsWeight one such a unit calls (by the named unit's
	// mention weight): the references' edges from symbol to symbol.
	CallsNamedWeight float64 `hcl:"calls_named_weight,optional"`
	NamedCallsWeight float64 `hcl:"named_calls_weight,optional"`
	// NamesUsedWeight weighs a unit whose lines use the code names the
	// question writes (snake_case, camelCase, dunder names), by how
	// telling each is among the units read, the best unit 1;
	// QuotedWeight one whose quoted text the question writes (an error
	// message it reports). See verbatim.go.
	NamesUsedWeight float64 `hcl:"names_used_weight,optional"`
	QuotedWeight    float64 `hcl:"quoted_weight,optional"`
	// ClassMethodsWeight weighs, for a class, the best own score of its
	// methods (its parts but the file's standing and these two);
	// MethodClassWeight, for a method, its class's: a question about
	// what a class's methods do is about the class too, and the reverse.
	ClassMethodsWeight float64 `hcl:"class_methods_weight,optional"`
	MethodClassWeight  float64 `hcl:"method_class_weight,optional"`
	// TestWeight is what a unit of a test file (its role, or its path
	// read as a test's) loses, unless the question asks for tests: a
	// report's fix is in the code under test.
	TestWeight float64 `hcl:"test_weight,optional"`
}

// Units is rerank.units. It reorders what is under each file of the
// list, not the list: at its turn it reads the first files the query
// keeps (their symbols, and their lines, through the engine's facts) and
// ranks their units for the question; the answer asks it for the units
// of any other file it shows, which are then those the question names.
type Units struct {
	s UnitsSettings
}

// NewUnits returns rerank.units with its default settings.
func NewUnits() *Units {
	return &Units{s: defaultUnits}
}

// Info describes the stage.
func (u *Units) Info() core.Info {
	return core.Info{Name: UnitsName, Kind: core.KindReranker, Version: "1.0.0", Stateless: true,
		Description: "Lists under each file the functions and classes to open, ranked for the question.",
		Schema:      core.MustSchemaOf(&UnitsSettings{})}
}

// Configure reads the settings.
func (u *Units) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &u.s); err != nil {
		return err
	}
	if u.s.MaxUnits < 1 {
		return &core.SettingError{Setting: "max_units", Message: "must be at least 1"}
	}
	if u.s.RankedFiles < 0 {
		return &core.SettingError{Setting: "ranked_files", Message: "cannot be negative"}
	}
	if u.s.ReadBytes < 0 {
		return &core.SettingError{Setting: "read_bytes", Message: "cannot be negative"}
	}
	if u.s.OpenFirst < 0 {
		return &core.SettingError{Setting: "open_first", Message: "cannot be negative"}
	}
	if u.s.OpenFiles < 0 {
		return &core.SettingError{Setting: "open_files", Message: "cannot be negative"}
	}
	for _, w := range []struct {
		name string
		v    float64
	}{{"file_weight", u.s.FileWeight}, {"file_decay", u.s.FileDecay}, {"text_weight", u.s.TextWeight}, {"within_weight", u.s.WithinWeight}, {"name_weight", u.s.NameWeight}, {"caller_weight", u.s.CallerWeight},
		{"calls_named_weight", u.s.CallsNamedWeight}, {"named_calls_weight", u.s.NamedCallsWeight},
		{"names_used_weight", u.s.NamesUsedWeight}, {"quoted_weight", u.s.QuotedWeight}, {"test_weight", u.s.TestWeight},
		{"class_methods_weight", u.s.ClassMethodsWeight}, {"method_class_weight", u.s.MethodClassWeight}} {
		if w.v < 0 || math.IsNaN(w.v) || math.IsInf(w.v, 0) {
			return &core.SettingError{Setting: w.name, Message: "must be a number, zero or more"}
		}
	}
	return nil
}

// Rerank without the engine's facts reads no symbols: the list is kept
// and no unit chosen.
func (u *Units) Rerank(_ context.Context, rr core.Rerank) (core.Reranked, error) {
	return core.Reranked{Hits: rr.Hits}, nil
}

// RerankFacts keeps the list and chooses the units under its files: a
// query that does not ask for files has none.
func (u *Units) RerankFacts(_ context.Context, rr core.Rerank, facts core.Facts) (core.Reranked, error) {
	out := core.Reranked{Hits: rr.Hits}
	if len(rr.Query.Kinds) > 0 && !slices.Contains(rr.Query.Kinds, core.DocFile) {
		return out, nil
	}
	p := newProfile(facts.Question(), rr.Query.Terms, facts.Analysis(), u.s.MaxUnits)
	if u.s.OpenFirst > 0 && u.s.NamesUsedWeight > 0 {
		p.codeNames = codeNames(p.question)
	}
	if u.s.OpenFirst > 0 && u.s.QuotedWeight > 0 {
		p.lowerQuestion = strings.ToLower(p.question)
	}
	if err := p.findCallers(facts); err != nil {
		return core.Reranked{}, err
	}
	if u.s.CallsNamedWeight > 0 || u.s.NamedCallsWeight > 0 {
		p.callsNamed, p.namedCalls = map[unitKey]neighbour{}, map[unitKey]neighbour{}
		if err := p.findNeighbours(facts); err != nil {
			return core.Reranked{}, err
		}
	}
	read, err := rankFileUnits(rr.Hits, min(u.s.RankedFiles, rr.Limit), u.s.ReadBytes, p, facts)
	if err != nil {
		return core.Reranked{}, err
	}
	c := &unitChoice{p: p, ranked: make(map[string][]core.Unit, len(read))}
	for _, f := range read {
		c.ranked[f.path] = f.units
	}
	c.first = u.openFirst(read, p)
	out.Units = c
	return out, nil
}

// unitChoice is rerank.units' choice for one query (core.Units): the
// units of the files it read, and the question's profile to choose those
// of the others by name.
type unitChoice struct {
	p      *profile
	ranked map[string][]core.Unit
	first  []core.Unit
}

// First returns the units to open first across the files read.
func (c *unitChoice) First() []core.Unit { return c.first }

// Of returns the units the reranker ranked for a file it read, else those
// of its symbols the question names.
func (c *unitChoice) Of(path string, syms []core.Symbol) []core.Unit {
	if units, ok := c.ranked[path]; ok {
		return units
	}
	return c.p.best(c.p.scoreFile(unitFile{path: path, syms: syms}, nil, nil), false)
}

// Units are the functions, methods and classes of a file, ranked for a
// question so that an answer says where to open each file: the units
// the question names (a traceback's function, `Session.send` in
// backticks) first, then those whose own lines match its words best.
// A unit's lines are its definition's span less the units nested in it,
// so a class stands for its header and attributes, its methods for
// themselves.

// maxUnits is how many units an answer lists under one file unless
// rerank.units says otherwise (max_units).
const maxUnits = 4

// A probeSet holds the first bytes of each question term (at most four,
// see probeOf): a word that holds none of them, in any case, yields no
// term of the question (a term is a word lowercased and stemmed, and the
// stemmer changes words' ends), and is not tokenized. A long report has
// a hundred terms or more, so a word is not searched for each: one table
// says which pairs of bytes start a probe, and only where a pair does
// are the probes that start with it compared.
type probeSet struct {
	single [256]bool     // probes of one byte (a digit of a compound)
	pairs  [1 << 16]bool // the first two bytes of each longer probe
	longer map[uint16][][]byte
}

// probes returns the question's probe set, made once; nil when the
// filter does not apply: a term that is not plain ASCII (folding makes
// "café" the term "cafe", which the bytes of the line do not show).
func (p *profile) probes() *probeSet {
	p.probeOnce.Do(func() { p.probeSet = p.makeProbes() })
	return p.probeSet
}

func (p *profile) makeProbes() *probeSet {
	ps := &probeSet{longer: map[uint16][][]byte{}}
	for t := range p.terms {
		for i := 0; i < len(t); i++ {
			if c := t[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
				return nil
			}
		}
		ps.add(probeOf(t))
		if w, ok := irregular[t]; ok {
			ps.add(w)
		}
	}
	return ps
}

// probeOf is the first bytes of term that every word stemmed to it
// starts with. The stemmer changes a word's end only, but the end of a
// short stem is within four bytes: "copy" is the term "copi", "using"
// the term "use", "tries" the term "tri"; so a short term ending in a
// letter the stemmer puts there ('i' for 'y', an 'e' it adds) loses it.
func probeOf(term string) string {
	p := term[:min(len(term), 4)]
	if len(p) == len(term) && len(p) > 1 && (p[len(p)-1] == 'i' || p[len(p)-1] == 'e') {
		p = p[:len(p)-1]
	}
	return p
}

// irregular maps the terms of the English stemmer's exceptional forms
// that do not start as their words do to those words' first bytes.
var irregular = map[string]string{"die": "dy", "lie": "ly", "tie": "ty", "sky": "ski"}

func (ps *probeSet) add(probe string) {
	switch len(probe) {
	case 0:
	case 1:
		ps.single[probe[0]] = true
	default:
		k := uint16(probe[0])<<8 | uint16(probe[1])
		ps.pairs[k] = true
		ps.longer[k] = append(ps.longer[k], []byte(probe))
	}
}

// in reports whether the lowercased line low holds a probe.
func (ps *probeSet) in(low []byte) bool {
	for i, c := range low {
		if ps.single[c] {
			return true
		}
		if i+1 == len(low) {
			break
		}
		k := uint16(c)<<8 | uint16(low[i+1])
		if !ps.pairs[k] {
			continue
		}
		for _, probe := range ps.longer[k] {
			if bytes.HasPrefix(low[i:], probe) {
				return true
			}
		}
	}
	return false
}

// keep appends to buf the words of line (low, lowercased) that hold a
// probe, a chunk (text.EachChunk) to a line. A chunk with a byte that is
// not ASCII is kept: folded, "Ação" is the term "acao".
func (ps *probeSet) keep(buf, line, low []byte) []byte {
	text.EachChunk(line, func(c []byte, ascii bool) {
		// c slices line: where it starts finds its lowercase in low.
		at := cap(line) - cap(c)
		if !ascii || ps.in(low[at:at+len(c)]) {
			buf = append(append(buf, c...), '\n')
		}
	})
	return buf
}

// asciiLower appends b lowercased (ASCII letters only) to dst.
func asciiLower(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// classTextWeight scales what a class's own lines (its header,
// docstring, attributes) score for a question's words: they match a
// report's words as often as its methods' lines do, yet the change a
// report asks for is most often in a method (bench/quality, SWE-bench
// dev: function Acc@10 39.7 → 40.8 against 1). A class the question names
// keeps its name bonus.
const classTextWeight = 0.5

// unitNameTF is what a question word in a unit's name counts, in
// occurrences of its lines.
const unitNameTF = 2

// maxUnitFile bounds how much of a file is read to rank its units.
const maxUnitFile = 1 << 20

// unitKinds are the symbol kinds that make units.
var unitKinds = map[string]bool{
	core.SymbolFunction: true, core.SymbolMethod: true, core.SymbolClass: true,
	core.SymbolType: true, core.SymbolInterface: true, core.SymbolEnum: true,
}

// profile is what units are matched against: the question's terms with
// their weights, and the names it mentions.
type profile struct {
	terms map[string]float64
	// order is terms' keys, sorted: a unit's score sums its terms in this
	// order, so that the same question gives the same float every run
	// (a map's order would change the last bits, and a near tie with
	// them).
	order []string
	// names maps a mentioned name, lower case ("session.send", "send"),
	// to the strongest mention of it.
	names map[string]query.Mention
	// at holds the locations the question points at (traceback frames,
	// path:line), by path as written; a frame's function is matched in
	// its own file only.
	at []query.Mention
	// probeSet is the question's probes (see probes), made once for the
	// files ranked at once.
	probeOnce sync.Once
	probeSet  *probeSet
	// maxUnits is how many units a file lists at most.
	maxUnits int
	// callers holds, by file then unit (qualified name), the first use
	// in it of a symbol the question asks the callers of (callers.go).
	callers map[string]map[string]caller
	// callsNamed and namedCalls are the units that call a unit the
	// question names, and those such a unit calls, with the named unit's
	// weight (callers.go).
	callsNamed, namedCalls map[unitKey]neighbour
	// question is the question as ranked (its first maxQuestionScan
	// bytes); codeNames are the code names it writes and lowerQuestion
	// it in lower case, set when the listing weighs them (verbatim.go).
	question      string
	codeNames     map[string]bool
	lowerQuestion string
}

// Weights of a query term by where it came from: the agent's terms are
// the strongest signal, then names the analysis found, then the words.
const (
	wordWeight = 1.0
	// titleWeight is a report's title's words: what the report is about,
	// in a few words (bench/quality, SWE-bench dev: function Acc@10 44.6
	// → 45.4 at 1.5, 44.4 at 2.5).
	titleWeight   = 1.5
	mentionWeight = 2.0
	agentWeight   = 2.5
)

// newProfile is the profile of a question, as asked, with the agent's
// terms and its analysis.
func newProfile(question string, terms []string, an *query.Analysis, maxUnits int) *profile {
	p := &profile{terms: map[string]float64{}, names: map[string]query.Mention{}, maxUnits: maxUnits}
	add := func(s string, w float64) {
		for _, t := range text.Tokenize(s) {
			p.terms[t] = max(p.terms[t], w)
		}
	}
	txt := question
	if len(txt) > maxQuestionScan {
		txt = txt[:maxQuestionScan]
	}
	p.question = txt
	// Each word once: within one file, a repeated word of a long report
	// is mostly what all its functions share (measured: weighing
	// repeats as rank.bm25 does costs function accuracy).
	add(txt, wordWeight)
	add(an.Title, titleWeight)
	for _, m := range an.Mentions {
		if m.Kind == query.KindPath {
			continue
		}
		add(m.Text, mentionWeight*m.Weight)
		key := strings.ToLower(m.Text)
		if old, ok := p.names[key]; !ok || m.Weight > old.Weight {
			p.names[key] = m
		}
	}
	for i := range an.Mentions {
		if m := an.Mentions[i]; m.Kind == query.KindPath && (m.Line > 0 || m.Func != "") {
			p.at = append(p.at, m)
		}
	}
	for _, t := range terms {
		add(t, agentWeight)
		p.names[strings.ToLower(t)] = query.Mention{Text: t, Kind: query.KindName, Weight: 1, Why: "one of the terms"}
	}
	p.order = slices.Sorted(maps.Keys(p.terms))
	return p
}

// unitSpan is one unit of a file being ranked.
type unitSpan struct {
	sym        core.Symbol
	name       string // qualified: Parent.Name
	start, end int    // 1-based lines, inclusive
	tf         map[string]int
	length     int
	score      float64
	why        string
	matched    []string
	// within is the unit's match against its file's units, the file's
	// best scoring 1 (a class's scaled by classTextWeight); bonus is what
	// the question naming it, or pointing into it, adds; caller is 1 for
	// a unit that calls or uses a symbol the question asks the callers of
	// (callers.go). score, the unit's place in its file, is their sum.
	within, bonus, caller float64
	// callsNamed and namedCalls are the unit calling a unit the question
	// names, or being called by one: that unit's mention weight.
	callsNamed, namedCalls float64
	// names are the question's code names the unit's own lines use, and
	// quoted says a string they quote is in the question (verbatim.go).
	names  []string
	quoted bool
}

// maxUnitFiles is how many files of an answer have their units ranked
// by their text, the files read for it, and unitBytes how much of them
// is read at most, the first file whole, unless rerank.units says
// otherwise (ranked_files, read_bytes); the others list only the units
// the question names. The first files are where an agent starts, and a
// query's cost stays bounded (tokenizing runs at about 45 MB/s here): 1
// MiB lets the listing across files draw on all ten files of most
// answers (bench/results/quality-2026-12-06-fnunits.md).
const (
	maxUnitFiles = 10
	unitBytes    = 1 << 20
)

// unitFile is a file whose units are ranked: its path and symbols.
type unitFile struct {
	path string
	syms []core.Symbol
}

// readFile is a file whose units were ranked by their lines: its place
// among the files read (0 the first), its units as its item lists them,
// and every unit it has, scored, for the listing across files.
type readFile struct {
	path  string
	place int
	test  bool // a test file (its role, or its path)
	units []core.Unit
	spans []*unitSpan
}

// rankFileUnits ranks, in parallel, the units of the first files of the
// list that the query keeps (those the answer will most likely show), by
// name and by their lines: at most files of them, within budget bytes. The
// answer's other files rank theirs by name alone (unitChoice.Of).
func rankFileUnits(hits []core.Hit, files int, budget int64, p *profile, facts core.Facts) ([]readFile, error) {
	var picked []unitFile
	var tests []bool
	for _, h := range hits {
		if len(picked) == files {
			break
		}
		kind, key, err := core.SplitDocID(h.ID)
		if err != nil || kind != core.DocFile || !facts.Keeps(key) {
			continue
		}
		info, known := facts.File(key)
		if len(picked) > 0 && info.Size > budget {
			break
		}
		budget -= info.Size
		syms, err := facts.Symbols(key)
		if err != nil {
			return nil, err
		}
		picked = append(picked, unitFile{path: key, syms: syms})
		tests = append(tests, known && info.Role == codemap.RoleTest || codemap.IsTest(key))
	}
	// A worker per processor, each with its own vocabulary: the files of
	// one answer share most of their words, which a worker then analyzes
	// once.
	out := make([]readFile, len(picked))
	var next atomic.Int32
	var wg sync.WaitGroup
	for range min(len(picked), runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			var sc unitScratch
			for i := int(next.Add(1) - 1); i < len(picked); i = int(next.Add(1) - 1) {
				f := picked[i]
				spans := p.scoreFile(f, facts.Read(f.path, maxUnitFile), &sc)
				out[i] = readFile{path: f.path, place: i, test: tests[i], units: p.best(spans, true), spans: spans}
			}
		})
	}
	wg.Wait()
	return out, nil
}

// unitScratch is what ranking the units of files by their lines keeps
// from one file to the next: the vocabulary of the words seen, and which
// of its terms are the question's (by term id: 1 a question term, -1
// not, 0 not yet looked up).
type unitScratch struct {
	voc     *text.Vocabulary
	isQuery []int8
}

// scoreFile scores the units of a file for the question and returns them
// best first. With sc, the file was read (content, nil when it could not
// be) and its units are ranked by their lines too (a file that could not
// be read ranks by names alone); without, by the names the question
// gives alone.
func (p *profile) scoreFile(f unitFile, content []byte, sc *unitScratch) []*unitSpan {
	var spans []*unitSpan
	for _, s := range f.syms {
		// Lines count from 1; a unit without a line (from a parser
		// that gives none) has no span to rank.
		if !unitKinds[s.Kind] || s.Line < 1 {
			continue
		}
		name := s.Name
		if s.Parent != "" {
			name = s.Parent + "." + s.Name
		}
		spans = append(spans, &unitSpan{sym: s, name: name, start: s.Line, end: s.EndLine})
	}
	if len(spans) == 0 {
		return nil
	}
	lines := splitLines(content)
	slices.SortStableFunc(spans, func(a, b *unitSpan) int { return cmp.Compare(a.start, b.start) })
	for i, u := range spans {
		if u.end < u.start {
			// The parser knows where it starts only: it runs to the next
			// unit that is not nested in it (or the end of the file).
			u.end = max(len(lines), u.start)
			for _, v := range spans[i+1:] {
				if v.start > u.start {
					u.end = v.start - 1
					break
				}
			}
		}
		if len(lines) > 0 {
			u.end = min(u.end, max(len(lines), u.start))
		}
	}
	// A unit's own lines: its span less the spans nested in it.
	if len(lines) > 0 {
		owner := make([]int, len(lines)+1) // line → innermost unit + 1
		for i, u := range spans {
			for l := u.start; l <= u.end && l <= len(lines); l++ {
				if o := owner[l]; o == 0 || spans[o-1].end-spans[o-1].start >= u.end-u.start {
					owner[l] = i + 1
				}
			}
		}
		// A unit's length is its lines' tokens, counted without making
		// them (text.CountTokens); its words are tokenized only to count
		// the question's terms, and only those that may hold one
		// (probes). Tokens are counted by id: no string is made per
		// token.
		if sc.voc == nil {
			sc.voc = text.Default.Vocabulary()
		}
		voc := sc.voc
		probes := p.probes()
		var buf, low []byte
		var used map[string]bool
		if len(p.codeNames) > 0 {
			used = map[string]bool{}
		}
		for i, u := range spans {
			buf = buf[:0]
			clear(used)
			for l := u.start; l <= u.end && l <= len(lines); l++ {
				if owner[l] != i+1 {
					continue
				}
				line := lines[l-1]
				if used != nil {
					p.usedNames(line, used)
				}
				if !u.quoted {
					u.quoted = p.quotes(line)
				}
				if probes == nil {
					// Every word is tokenized: their tokens are the length.
					buf = append(append(buf, line...), '\n')
					continue
				}
				u.length += text.Default.CountTokens(line)
				low = asciiLower(low[:0], line)
				buf = probes.keep(buf, line, low)
			}
			for id := range used {
				u.names = append(u.names, id)
			}
			slices.Sort(u.names)
			u.tf = map[string]int{}
			voc.Each(string(buf), func(id uint32, _ bool) {
				if probes == nil {
					u.length++
				}
				for int(id) >= len(sc.isQuery) {
					sc.isQuery = append(sc.isQuery, 0)
				}
				if sc.isQuery[id] == 0 {
					sc.isQuery[id] = -1
					if _, ok := p.terms[voc.Terms()[id]]; ok {
						sc.isQuery[id] = 1
					}
				}
				if sc.isQuery[id] > 0 {
					u.tf[voc.Terms()[id]]++
				}
			})
		}
	}
	// A unit's name is its title: a question word in it counts as much as
	// unitNameTF occurrences in its lines (rank.bm25 weighs names so too),
	// and ranks the units of a file that is not read.
	for _, u := range spans {
		if u.tf == nil {
			u.tf = map[string]int{}
		}
		for _, t := range text.Tokenize(u.sym.Name) {
			if _, ok := p.terms[t]; ok {
				u.tf[t] += unitNameTF
			}
		}
	}
	scoreUnits(spans, p)
	// A unit holding a line the question points at in this file.
	for _, m := range p.at {
		mp := query.CleanPath(m.Text)
		if mp != f.path && !strings.HasSuffix(mp, "/"+f.path) {
			continue
		}
		var in *unitSpan // the innermost unit holding the line
		for _, u := range spans {
			if u.start <= m.Line && m.Line <= u.end && (in == nil || u.end-u.start < in.end-in.start) {
				in = u
			}
		}
		for _, u := range spans {
			if m.Func != "" && u.sym.Name == m.Func {
				u.score += 1 + m.Weight
				u.bonus += 1 + m.Weight
				u.why = "defines " + u.name + ", a function in the traceback"
			}
		}
		if in != nil {
			in.score += 0.5 * m.Weight
			in.bonus += 0.5 * m.Weight
			if in.why == "" || strings.HasPrefix(in.why, "matches ") {
				in.why = "holds line " + strconv.Itoa(m.Line) + ", " + m.Why
			}
		}
	}
	p.markCallers(f.path, spans)
	p.markNeighbours(f.path, spans)
	slices.SortStableFunc(spans, func(a, b *unitSpan) int { return cmp.Compare(b.score, a.score) })
	return spans
}

// best returns the units a file's item lists: its first spans, at most
// maxUnits, those that score; a file that was read lists its first unit
// even when none does.
func (p *profile) best(spans []*unitSpan, read bool) []core.Unit {
	out := make([]core.Unit, 0, min(len(spans), p.maxUnits))
	for _, u := range spans[:min(len(spans), p.maxUnits)] {
		if u.score <= 0 && (len(out) > 0 || !read) {
			break
		}
		out = append(out, u.unit())
	}
	return out
}

// unit is the span as an answer lists it.
func (u *unitSpan) unit() core.Unit {
	return core.Unit{Name: u.name, Kind: u.sym.Kind, Line: u.start, EndLine: u.end, Why: u.why}
}

// scoreUnits scores each unit: BM25 of the question's weighted terms
// over the file's units (the inverse document frequency is the file's
// own, which is what tells one function of it from another), normalized
// to the file's best, plus the strength of a mention of its name.
func scoreUnits(spans []*unitSpan, p *profile) {
	n := float64(len(spans))
	df := map[string]int{}
	total := 0
	for _, u := range spans {
		total += u.length
		for t := range u.tf {
			if _, ok := p.terms[t]; ok {
				df[t]++
			}
		}
	}
	avg := float64(total) / max(n, 1)
	const k1, b = 1.2, 0.75
	best := 0.0
	for _, u := range spans {
		type contrib struct {
			term string
			v    float64
		}
		var cs []contrib
		for _, t := range p.order {
			qw := p.terms[t]
			tf := float64(u.tf[t])
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			norm := k1 * (1 - b + b*float64(u.length)/max(avg, 1))
			v := qw * idf * tf * (k1 + 1) / (tf + norm)
			u.score += v
			cs = append(cs, contrib{t, v})
		}
		slices.SortFunc(cs, func(a, b contrib) int { return cmp.Or(cmp.Compare(b.v, a.v), strings.Compare(a.term, b.term)) })
		for _, c := range cs[:min(len(cs), 3)] {
			u.matched = append(u.matched, strconv.Quote(c.term))
		}
		best = max(best, u.score)
	}
	for _, u := range spans {
		if best > 0 {
			u.score /= best
		}
		if k := u.sym.Kind; k == core.SymbolClass || k == core.SymbolType || k == core.SymbolInterface {
			u.score *= classTextWeight
		}
		u.within = u.score
		u.bonus = u.nameBonus(p)
		u.score += u.bonus
		if u.why == "" && len(u.matched) > 0 {
			u.why = "matches " + strings.Join(u.matched, ", ")
		}
	}
}

// nameBonus is what a mention of the unit's name adds to its score, and
// sets why. A full name given ("Session.send", a function's own name)
// says the most; a class named says less of the class (the fix is more
// often in one of its methods) and a little of each of its methods; a
// method's bare name ("send") says little when its class is not named.
func (u *unitSpan) nameBonus(p *profile) float64 {
	bonus := 0.0
	set := func(v float64, m query.Mention) {
		if v > bonus {
			bonus, u.why = v, "defines "+u.name+", "+m.Why
		}
	}
	qualified := strings.ToLower(u.name)
	own := strings.ToLower(u.sym.Name)
	isClass := u.sym.Kind == core.SymbolClass || u.sym.Kind == core.SymbolType || u.sym.Kind == core.SymbolInterface
	if m, ok := p.names[qualified]; ok {
		if isClass {
			set(0.6*m.Weight, m)
		} else {
			set(1+m.Weight, m)
		}
	}
	if own != qualified {
		if m, ok := p.names[own]; ok {
			set(0.5*m.Weight, m)
		}
		if m, ok := p.names[strings.ToLower(u.sym.Parent)]; ok && bonus == 0 {
			bonus = 0.3 * m.Weight // a method of a class the question names
		}
	}
	return bonus
}

// splitLines splits content into lines without their line ends.
func splitLines(content []byte) [][]byte {
	if len(content) == 0 {
		return nil
	}
	lines := bytes.Split(content, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}
