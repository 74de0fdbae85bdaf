package messages

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/rubi-dev/rubi/core/tokens"
)

// verbs reads a fmt format and returns the verb each argument gets, by
// argument number (from 1), as fmt numbers them: in order, or with
// explicit indexes (%[2]s). Flags, width and precision are part of the
// verb ("%-14s", "%.1f"); a width or precision taken from an argument (*)
// counts as that argument's "*".
func verbs(format string) (map[int]string, error) {
	out := map[int]string{}
	arg := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		start := i
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		index := func() error {
			if i < len(format) && format[i] == '[' {
				end := strings.IndexByte(format[i:], ']')
				if end < 0 {
					return fmt.Errorf("unclosed index in %q", format)
				}
				if _, err := fmt.Sscanf(format[i+1:i+end], "%d", &arg); err != nil {
					return fmt.Errorf("bad index in %q", format)
				}
				i += end + 1
			}
			return nil
		}
		if err := index(); err != nil {
			return nil, err
		}
		for i < len(format) && (format[i] >= '0' && format[i] <= '9' || format[i] == '.' || format[i] == '*') {
			if format[i] == '*' {
				out[arg] = "*"
				arg++
			}
			i++
		}
		if err := index(); err != nil {
			return nil, err
		}
		if i >= len(format) {
			return nil, fmt.Errorf("%q ends inside a verb", format)
		}
		verb := strings.TrimLeft(format[start:i], "+-# 0")
		verb = regexp.MustCompile(`\[\d+\]`).ReplaceAllString(verb, "")
		if prev, ok := out[arg]; ok && prev != verb+string(format[i]) {
			return nil, fmt.Errorf("argument %d takes %s and %s in %q", arg, prev, verb+string(format[i]), format)
		}
		out[arg] = verb + string(format[i])
		arg++
	}
	return out, nil
}

func TestVerbs(t *testing.T) {
	for format, want := range map[string]map[int]string{
		"no verbs, 100%%":         {},
		"%s is %d%% of %q":        {1: "s", 2: "d", 3: "q"},
		"%[2]s then %[1]d":        {1: "d", 2: "s"},
		"%-14s %4d %.1f":          {1: "14s", 2: "4d", 3: ".1f"},
		"(grep %[1]s; sed %[1]s)": {1: "s"},
	} {
		got, err := verbs(format)
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("verbs(%q) = %v, %v; want %v", format, got, err, want)
		}
	}
	for _, bad := range []string{"%", "%[1", "%[1]s and %[1]d"} {
		if _, err := verbs(bad); err == nil {
			t.Errorf("verbs(%q): no error", bad)
		}
	}
}

// letters reports whether s has a word to translate: three letters in a
// row.
var letters = regexp.MustCompile(`\pL{3}`)

// hasJapanese reports whether s holds a kana or an ideograph.
func hasJapanese(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

// sameWords are the texts a language writes as English does.
var sameWords = map[Lang]map[string]bool{
	Portuguese: {"%d import": true, "%d imports": true, "%s tokens": true, ".": true},
	French: {"%d note": true, "%d notes": true, "%d minute": true, "%d minutes": true, "index": true, "agents": true,
		"%d import": true, "%d imports": true, "%d module": true, "%d modules": true, "VERSION": true, "# Module %s": true, "%s tokens": true, "instructions": true, "%d session": true, "%d sessions": true, ".": true},
}

// checkTranslation checks one language's text of a message against the
// English one.
func checkTranslation(t *testing.T, name string, l Lang, en, tr string) {
	t.Helper()
	if tr == "" {
		t.Errorf("%s: no %s text", name, l.Name())
		return
	}
	want, err := verbs(en)
	if err != nil {
		t.Errorf("%s (en): %v", name, err)
		return
	}
	got, err := verbs(tr)
	if err != nil {
		t.Errorf("%s (%s): %v", name, l, err)
	} else if !maps.Equal(got, want) {
		t.Errorf("%s (%s): verbs %v, English has %v:\n  en: %q\n  %s: %q", name, l, got, want, en, l, tr)
	}
	if strings.Contains(tr, "TODO") || strings.Contains(tr, "%!") {
		t.Errorf("%s (%s): %q", name, l, tr)
	}
	if l != English && tr == en && letters.MatchString(en) && !sameWords[l][tr] {
		t.Errorf("%s (%s) is the English text, untranslated: %q", name, l, tr)
	}
	if l == Japanese && letters.MatchString(en) && !hasJapanese(tr) {
		t.Errorf("%s (ja) has no Japanese: %q", name, tr)
	}
	if strings.Count(tr, "\n") != strings.Count(en, "\n") && !strings.Contains(en, "\n- ") {
		t.Errorf("%s (%s): %d line breaks, English has %d", name, l, strings.Count(tr, "\n"), strings.Count(en, "\n"))
	}
}

// Every message has a text in every language, with the verbs of the
// English text for the same arguments: a translation cannot break a
// Printf, nor leave an argument out.
func TestCatalog(t *testing.T) {
	for k := range numKeys {
		name := fmt.Sprintf("message %d %q", k, catalog[k].en)
		if catalog[k].en == "" {
			t.Errorf("message %d has no English text (a key without an entry?)", k)
			continue
		}
		for _, l := range Langs {
			checkTranslation(t, name, l, catalog[k].en, catalog[k].in(l))
		}
	}
	for w := range numNouns {
		en := nouns[w].en
		name := fmt.Sprintf("noun %d %q", w, en[1])
		for _, l := range Langs {
			fs := nouns[w].in(l)
			for i, f := range fs {
				checkTranslation(t, name, l, en[i], f)
				if got, _ := verbs(f); !maps.Equal(got, map[int]string{1: "d"}) {
					t.Errorf("%s (%s): %q must take the count as its one %%d", name, l, f)
				}
			}
			if l == Japanese && fs[0] != fs[1] {
				t.Errorf("%s (ja): Japanese has one form: %q", name, fs)
			}
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		l    Lang
		n    int
		want string
	}{
		{English, 0, "0 files"}, {English, 1, "1 file"}, {English, 2, "2 files"},
		{Portuguese, 0, "0 arquivos"}, {Portuguese, 1, "1 arquivo"}, {Portuguese, 2, "2 arquivos"},
		{French, 0, "0 fichier"}, {French, 1, "1 fichier"}, {French, 3, "3 fichiers"},
		{Japanese, 1, "1ファイル"}, {Japanese, 5, "5ファイル"},
	} {
		if got := c.l.Count(c.n, NounFile); got != c.want {
			t.Errorf("%s Count(%d) = %q, want %q", c.l, c.n, got, c.want)
		}
	}
}

// Quantity groups the digits of a count as each language writes them.
func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		l    Lang
		n    int
		want string
	}{
		{English, 1, "1 file"}, {English, 999, "999 files"}, {English, 5614, "5,614 files"}, {English, 1234567, "1,234,567 files"},
		{Portuguese, 5614, "5.614 arquivos"}, {French, 5614, "5\u202f614 fichiers"}, {Japanese, 5614, "5,614ファイル"},
	} {
		if got := c.l.Quantity(c.n, NounFile); got != c.want {
			t.Errorf("%s Quantity(%d) = %q, want %q", c.l, c.n, got, c.want)
		}
	}
	if got := English.Number(-12345); got != "-12,345" {
		t.Errorf("Number(-12345) = %q", got)
	}
}

// Explicit indexes let a language take the arguments in its own order.
func TestFormatReorders(t *testing.T) {
	if got := Japanese.Format(CLIIndexed, 6, "/src/shop", 12.4); got != "/src/shopの6ファイルをインデックス化(12 ms)" {
		t.Errorf("ja: %q", got)
	}
	if got := English.Format(CLIIndexed, 6, "/src/shop", 12.4); got != "indexed 6 files in /src/shop (12 ms)" {
		t.Errorf("en: %q", got)
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"en": English, "en-US": English, "en_GB.UTF-8": English,
		"pt": Portuguese, "pt-BR": Portuguese, "pt_BR.UTF-8": Portuguese, "pt_PT": Portuguese,
		"fr": French, "fr_FR": French, "fr_CA.ISO-8859-1": French, "fr_BE@euro": French,
		"ja": Japanese, "ja_JP.UTF-8": Japanese, "JA": Japanese, " ja ": Japanese,
	} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "C", "C.UTF-8", "POSIX", "de_DE.UTF-8", "es", "zh_CN", "klingon", "12"} {
		if got, ok := Parse(in); ok {
			t.Errorf("Parse(%q) = %v, true; want not a language rubi speaks", in, got)
		}
	}
}

func TestLocale(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want Lang
		from string
	}{
		{map[string]string{}, English, ""},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, French, "LANG=fr_FR.UTF-8"},
		{map[string]string{"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, Japanese, "LC_MESSAGES=ja_JP.UTF-8"},
		{map[string]string{"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8", "LC_ALL": "pt_BR.UTF-8"}, Portuguese, "LC_ALL=pt_BR.UTF-8"},
		// LC_ALL=C wins over a French LANG: English.
		{map[string]string{"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, English, "LC_ALL=C"},
		{map[string]string{"LANG": "C.UTF-8"}, English, "LANG=C.UTF-8"},
		{map[string]string{"LANG": "de_DE.UTF-8"}, English, "LANG=de_DE.UTF-8"},
		// An empty variable is unset.
		{map[string]string{"LC_ALL": "", "LANG": "ja_JP.UTF-8"}, Japanese, "LANG=ja_JP.UTF-8"},
	} {
		l, from := Locale(func(k string) string { return c.env[k] })
		if l != c.want || from != c.from {
			t.Errorf("%v: %v (%s), want %v (%s)", c.env, l, from, c.want, c.from)
		}
	}
	env := func(k string) string { return map[string]string{"LANG": "fr_FR.UTF-8"}[k] }
	if got := Choose("ja", env); got != Japanese {
		t.Errorf("the setting ja under a French locale: %v", got)
	}
	if got := Choose("", env); got != French {
		t.Errorf("no setting under a French locale: %v", got)
	}
}

// The instructions and descriptions agents read name the tools and
// arguments as they are, in every language.
func TestToolTextsKeepNames(t *testing.T) {
	for _, l := range Langs {
		for _, w := range []string{"read map", "context", "terms", "register", "memory", "handoff"} {
			if !strings.Contains(l.Get(ToolInstructions), w) {
				t.Errorf("%s instructions do not name %s:\n%s", l, w, l.Get(ToolInstructions))
			}
		}
		for _, w := range []string{"summary", "title", "body", "retract", "hard", `"map"`, "module:NAME"} {
			if !strings.Contains(l.Get(ToolRegister), w) {
				t.Errorf("%s register description does not name %s: %s", l, w, l.Get(ToolRegister))
			}
		}
		for _, w := range []string{`"map"`, "module:NAME", "chunk:ID", "path"} {
			if !strings.Contains(l.Get(ToolRead), w) {
				t.Errorf("%s read description does not name %s: %s", l, w, l.Get(ToolRead))
			}
		}
		for _, w := range []string{"xray", "since", "30d", "all", "project"} {
			if !strings.Contains(l.Get(ToolMemoryXray), w) {
				t.Errorf("%s memory's xray text does not name %s: %s", l, w, l.Get(ToolMemoryXray))
			}
		}
		for _, w := range memoryActionNames {
			if !strings.Contains(l.Get(ToolMemory), w) {
				t.Errorf("%s memory description does not name %s: %s", l, w, l.Get(ToolMemory))
			}
		}
		t.Logf("%s: instructions %d tokens", l, tokens.Estimate(l.Get(ToolInstructions)))
	}
}

// memoryActionNames are the memory tool's actions its description explains
// (restore is named by a chunk's archived state in list).
var memoryActionNames = []string{"save", "grep", "list", "handoff", "last", "retention", "retain", "status"}
