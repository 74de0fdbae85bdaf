// Package messages is rubi's message catalog: every sentence rubi writes
// for a person or an agent to read, in English, Portuguese (as spoken in
// Brazil), French and Japanese, and the choice of language.
//
// The language is the language setting of rubi.hcl (config.Config's
// Language), else the environment's locale (LC_ALL, then LC_MESSAGES, then
// LANG, as POSIX orders them), else English. A setting or a locale is
// matched to the four languages with golang.org/x/text/language, so
// "pt-BR", "pt_PT.UTF-8" and "pt" are all Portuguese; a language rubi does
// not speak is English.
//
// What is translated: what the hooks inject into the agent's context, the
// MCP server's instructions and tool descriptions, and what the command
// line prints for a person: its messages (the writes' results, common
// errors), the reports of status, doctor, config check, index, plugins,
// graph, install, connect, xray and audit (headings, labels, sentences,
// table columns), and the fixed phrases of the map on a terminal
// (codemap.Localize; the stored map is English). What is not: identifiers,
// tool and argument names, enum values, file paths, flags and JSON
// (--json output is the same in every language), the help (cobra prints
// its usage and flag texts itself), what an agent integration says it
// changed in a file (agents' change lines, notes and descriptions), the
// HTML page of xray, and the answer of a query (answer.Result.Text: its
// items, reasons and footer are a format the rankers — plugins too, in
// their own words — fill in, and its budget is counted on it).
//
// The catalog is Go tables (catalog.go): one entry per message with its
// four texts side by side, so a reviewer reads a message and its
// translations together, and a test checks that every entry has every
// language with the same format verbs for the same arguments, argument by
// argument, and flags a translation that is a copy of the English. Counted
// nouns carry their plural forms (Noun, Lang.Count), and Table aligns
// columns as text/tabwriter does but counts a wide character (Chinese,
// Japanese, Korean) as two columns, as a terminal shows it.
package messages

import (
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// Lang is a language rubi speaks. The zero value is English.
type Lang uint8

// The languages, in the order of Langs.
const (
	English Lang = iota
	Portuguese
	French
	Japanese
	numLangs
)

// Langs lists the languages rubi speaks.
var Langs = []Lang{English, Portuguese, French, Japanese}

// tags are the languages' BCP 47 tags, in Lang order: the matcher's
// supported list, whose first is the default.
var tags = []language.Tag{language.English, language.Portuguese, language.French, language.Japanese}

var codes = [numLangs]string{"en", "pt", "fr", "ja"}

var names = [numLangs]string{"English", "Português", "Français", "日本語"}

// String is the language's code: en, pt, fr or ja.
func (l Lang) String() string {
	if l >= numLangs {
		return codes[English]
	}
	return codes[l]
}

// Name is the language's name in itself.
func (l Lang) Name() string {
	if l >= numLangs {
		return names[English]
	}
	return names[l]
}

// LangName is the key of the message that names the language l (in the
// language it is rendered in: "French", "francês", "français", "フランス語").
func LangName(l Lang) Key {
	switch l {
	case Portuguese:
		return LangPortuguese
	case French:
		return LangFrench
	case Japanese:
		return LangJapanese
	}
	return LangEnglish
}

// Codes lists the codes of the languages rubi speaks, as a setting names
// them: "en, pt, fr, ja".
func Codes() string { return strings.Join(codes[:], ", ") }

var matcher = sync.OnceValue(func() language.Matcher { return language.NewMatcher(tags) })

// Parse reads a language: a BCP 47 tag (ja, pt-BR, fr-CA) or a POSIX
// locale (pt_BR.UTF-8). It reports false for what is not a language
// rubi speaks, or not a language at all.
func Parse(s string) (Lang, bool) {
	s = strings.TrimSpace(s)
	// POSIX's language[_territory][.codeset][@modifier]: the codeset and
	// the modifier are no part of a BCP 47 tag.
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return English, false
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return English, false
	}
	_, i, conf := matcher().Match(t)
	if conf == language.No {
		return English, false
	}
	return Lang(i), true
}

// Locale returns the language of the environment's locale and the
// variable that set it ("LANG=fr_FR.UTF-8"; "" when none is set): the
// first of LC_ALL, LC_MESSAGES and LANG that is set. The C and POSIX
// locales, and a language rubi does not speak, are English.
func Locale(getenv func(string) string) (Lang, string) {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(k)
		if v == "" {
			continue
		}
		l, _ := Parse(v) // C, POSIX and the rest: English
		return l, k + "=" + v
	}
	return English, ""
}

// Choose returns the language of a setting (config.Config's Language,
// already checked), else the locale's.
func Choose(setting string, getenv func(string) string) Lang {
	if l, ok := Parse(setting); ok {
		return l
	}
	l, _ := Locale(getenv)
	return l
}
