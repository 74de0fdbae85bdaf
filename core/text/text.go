// Package text is the one tokenizer rubi uses everywhere: the BM25 ranker
// indexes documents and parses queries with it, the names ranker splits
// names with it, and the knowledge graph, the conversation memory, the
// relating of notes and the ranking of an answer's units use it too.
// Documents and queries must go through the same Analyzer, or their
// terms will not meet.
//
// The rules, in order, for every piece of input:
//
//  1. Words are maximal runs of letters and digits. '_' and '-' between two
//     alphanumerics keep a compound identifier together (snake_case,
//     kebab-case), except a '-' between two digits (dates, ranges). Any
//     other character separates words, so paths and qualified names
//     (core/stage.go, store.WriteFile) fall apart into their components.
//  2. Accents are folded (NFKD, then combining marks removed, plus a few
//     letters that do not decompose: ß→ss, æ→ae, œ→oe, ø→o, ł→l, đ→d, ı→i),
//     so "Ação" and "acao" are the same word. Only Latin, Greek and
//     Cyrillic letters and digits are folded; in other scripts marks are
//     part of the letter (kana voicing, Indic viramas) and are kept.
//     Folding comes before stemming so that accented prose and ASCII
//     identifiers always meet.
//  3. A word is split into parts at snake/kebab separators, at lower→Upper
//     (paymentError), at the end of an acronym (HTTPServer → HTTP, Server,
//     while a plural acronym stays whole: IDs, URLs) and between letters and
//     digits (utf8Decode → utf, 8, Decode). Parts are lowercased.
//  4. A compound word (more than one part) also yields its joined form
//     (paymentError → payment, error, paymenterror), so an exact
//     identifier in a query matches that identifier more strongly than
//     documents that merely use its parts.
//  5. Dropped parts: single letters (i, x, s of "don't"), a lone single digit
//     that is not part of a compound (digits inside a compound stay:
//     utf8 → utf, 8), parts longer than MaxTokenLen bytes (hashes, blobs),
//     and stopwords (a small English, Portuguese, French and Spanish list,
//     unless KeepStopwords). A joined form is never dropped as a stopword,
//     and it keeps the dropped parts: isValid → valid, isvalid.
//  6. Chinese, Japanese and Korean text (Han, hiragana, katakana, Hangul)
//     has no spaces between words: a run of it is a word of its own, cut
//     from any letters of another script beside it, and yields its
//     overlapping pairs of letters (a lone letter yields itself), whatever
//     its length, as Lucene's CJK analyzer does. A question's words then
//     meet the sentences that hold them: 上限 is a term of
//     リトライの上限を変更した.
//  7. Stemming (Snowball, English by default) applies to ASCII tokens of
//     three bytes or more that end in a letter, joined forms included.
//     For Portuguese, Spanish and French a few folded suffixes get their
//     accent back before Snowball sees them ("configuracao" stems like
//     "configuração"), since its rules for them are written with accents.
//
// Tokenize is safe for concurrent use. Besides its result it allocates
// only for words it has not seen lately: pooled caches map words to their
// terms. An index run numbers the terms it makes with a Vocabulary, one
// map lookup per word seen before; CountTokens counts the tokens of a
// text without making them, for a length against which a few wanted
// terms are weighed; RequestWord tells the words of a request ("fix",
// "look", "read") from those of a topic.
//
// What a repository names (paths, titles, names) reaches a terminal and
// an agent's context through rubi's text output, so display.go escapes
// it: Escape for one line, EscapeLines for a body, and Quote for the
// repository's own text, quoted line by line so that it reads as data,
// not as rubi's words.
package text

import (
	"fmt"
	"strings"
)

// Version changes whenever a change of this package changes the tokens it
// produces. Indexes that persist tokens record it (see Analyzer.Signature)
// and rebuild when it differs.
const Version = 2

// MaxTokenLen is the longest part or joined form kept, in bytes. Longer
// runs are hashes, base64 blobs or minified code, which nobody searches by
// their parts.
const MaxTokenLen = 64

// Language selects a stemmer.
type Language string

// The stemming languages. Snowball has no stemmer that would suit all four
// at once, so a project picks the language most of its prose is in; code
// identifiers are mostly English, hence the default.
const (
	English    Language = "english"
	Portuguese Language = "portuguese"
	French     Language = "french"
	Spanish    Language = "spanish"
	// NoStemming keeps words as they are (after folding and lowercasing).
	NoStemming Language = "none"
)

// Languages lists the values ParseLanguage accepts.
var Languages = []Language{English, Portuguese, French, Spanish, NoStemming}

// ParseLanguage reads a stemmer name as written in settings: one of
// Languages, case-insensitive; the empty string means English.
func ParseLanguage(name string) (Language, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		return English, nil
	}
	for _, l := range Languages {
		if string(l) == n {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown stemmer %q: use english, portuguese, french, spanish or none", name)
}

// Analyzer turns text into index terms. The zero value is the Default
// analyzer. An Analyzer is a small value; it is safe for concurrent use.
type Analyzer struct {
	// Stem is the stemming language; "" means English and NoStemming turns
	// stemming off. A name outside Languages stems nothing: validate user
	// input with ParseLanguage.
	Stem Language
	// KeepStopwords turns stopword removal off.
	KeepStopwords bool
}

// Default is the analyzer rubi uses unless a stage is configured otherwise.
var Default = Analyzer{Stem: English}

// Tokenize returns the terms of s with the Default analyzer.
func Tokenize(s string) []string { return Default.Tokenize(s) }

// Tokenize returns the terms of s, in order of appearance (a compound's
// joined form comes right after its parts). Repeated words repeat.
func (a Analyzer) Tokenize(s string) []string { return a.AppendTokens(nil, s) }

// AppendTokens appends the terms of s to dst and returns it, so that an
// indexer can reuse one slice for every document.
func (a Analyzer) AppendTokens(dst []string, s string) []string {
	a.run(s, func(t Token) { dst = append(dst, t.Text) })
	return dst
}

// Token is one term with where it came from, for callers that show terms
// back to the user (a ranker's "matches ..." reason).
type Token struct {
	// Text is the term, as Tokenize returns it.
	Text string
	// Source is the input it came from, as written: "Plugin" for the term
	// "plugin" of "loadPlugin", and the whole word for a joined form.
	Source string
	// Word numbers the words of the input from 0; the parts and joined
	// form of one compound share it.
	Word int
	// Joined marks the joined form of a compound word.
	Joined bool
	// Part marks one part of a compound word ("plugin" of "loadPlugin").
	Part bool
}

// Each calls fn with every term of s and whether it is a part of a
// compound word, in order; for indexers that weigh the parts of
// identifiers apart from whole words.
func (a Analyzer) Each(s string, fn func(term string, part bool)) {
	a.run(s, func(t Token) { fn(t.Text, t.Part) })
}

// Analyze is Tokenize with provenance. It is meant for queries, which are
// short; documents go through Tokenize or AppendTokens.
func (a Analyzer) Analyze(s string) []Token {
	var out []Token
	a.run(s, func(t Token) { out = append(out, t) })
	return out
}

// Signature identifies everything that decides the terms this analyzer
// produces. An index stores it and is rebuilt when it changes.
func (a Analyzer) Signature() string {
	return fmt.Sprintf("text/v%d stem=%s stopwords=%t", Version, a.lang(), !a.KeepStopwords)
}

// lang resolves the default and unknown names.
func (a Analyzer) lang() Language {
	switch a.Stem {
	case "":
		return English
	case English, Portuguese, French, Spanish, NoStemming:
		return a.Stem
	}
	return NoStemming
}
