package query

import (
	"strings"
)

// A question that asks who calls or uses a name ("what calls Estimate",
// "where is `Session.send` used", "callers of pkg.Func") wants the places
// that reference it, not its definition and its look-alikes: Analysis.Uses
// holds those names, and the engine answers with the code that references
// them. The phrasings are those of the four languages rubi speaks; each
// names the symbol right after the phrase ("who calls X", "usages of
// X") or right before it ("where is X called", "Xを呼び出している").

// usesBefore are phrases the name follows: "what calls X".
var usesBefore = []string{
	// English
	"what calls", "who calls", "which functions call", "which function calls",
	"what uses", "who uses", "what invokes", "who invokes", "what references",
	"callers of", "call sites of", "call sites for", "callsites of", "usages of", "uses of",
	"references to", "references of", "callers for", "users of",
	// Portuguese
	"quem chama", "o que chama", "quem usa", "o que usa", "chamadas de", "chamadas a",
	"usos de", "referências a", "referências de", "onde se chama",
	// French
	"qui appelle", "qu'est-ce qui appelle", "qui utilise", "appels de", "appels à",
	"utilisations de", "références à", "appelants de",
}

// usesAfter are phrases the name comes before: "where is X called".
// The question must also hold one of usesAfterLead (its start: "where
// is", "onde") for the English and Romance forms, so that "X used to be
// slow" is not read as one.
var usesAfter = []string{
	"called", "used", "referenced", "invoked",
	"chamado", "chamada", "usado", "usada", "utilizado", "utilizada",
	"appelé", "appelée", "utilisé", "utilisée",
}

var usesAfterLead = []string{"where is", "where are", "where's", "onde", "où"}

// Japanese marks the name with a particle before the verb: "Xを呼び出して
// いる", "Xの呼び出し元", "Xを使っている", "Xの参照".
var usesJapanese = []string{"を呼び出して", "を呼んで", "の呼び出し元", "を使って", "を使用して", "の参照", "の使用箇所", "の呼び出し箇所"}

// maxUsesScan bounds the question read for such phrases: they are short
// questions, and a bug report never asks this way.
const maxUsesScan = 400

// uses returns the names the question asks the callers or users of.
func uses(text string) []string {
	if len(text) > maxUsesScan {
		return nil
	}
	low := strings.ToLower(text)
	var out []string
	add := func(name string) {
		name = strings.Trim(name, "`'\"“”‘’()?!.,:;「」")
		name = strings.TrimSuffix(name, "()")
		if !isSymbolName(name) {
			return
		}
		for _, n := range out {
			if n == name {
				return
			}
		}
		out = append(out, name)
	}
	for _, p := range usesBefore {
		for at := 0; ; {
			i := strings.Index(low[at:], p)
			if i < 0 {
				break
			}
			at += i + len(p)
			// The phrase must stand as words: "the users of" does not
			// hide in "abusers of" and the name follows a space.
			if start := at - len(p); start > 0 && isWord(low[start-1]) || at < len(low) && isWord(low[at]) {
				continue
			}
			add(nextName(text[at:]))
		}
	}
	lead := false
	for _, l := range usesAfterLead {
		lead = lead || strings.Contains(low, l)
	}
	if lead {
		words := strings.Fields(text)
		for i := 1; i < len(words); i++ {
			w := strings.ToLower(strings.Trim(words[i], "?!.,:;"))
			for _, a := range usesAfter {
				if w == a {
					add(words[i-1])
				}
			}
		}
	}
	for _, p := range usesJapanese {
		if i := strings.Index(text, p); i > 0 {
			add(lastName(text[:i]))
		}
	}
	return out
}

// fillers are words between a phrase and its name: "callers of the
// function X".
var fillers = map[string]bool{
	"the": true, "function": true, "method": true, "type": true, "class": true, "a": true,
	"o": true, "a função": true, "função": true, "método": true, "la": true, "le": true,
	"fonction": true, "méthode": true, "my": true, "our": true, "this": true,
}

// nextName is the first word of s that is not a filler.
func nextName(s string) string {
	for _, w := range strings.Fields(s) {
		if fillers[strings.ToLower(w)] {
			continue
		}
		return w
	}
	return ""
}

// lastName is the identifier s ends with (Japanese writes no space
// before the particle).
func lastName(s string) string {
	s = strings.TrimRight(s, "`'\"」 ")
	i := len(s)
	for i > 0 && (isWord(s[i-1]) || s[i-1] == '.') {
		i--
	}
	return s[i:]
}

// isSymbolName reports a name a symbol may have: identifiers joined by
// dots ("Estimate", "Session.send", "pkg.Func") or a path and a name
// ("core/tokens/tokens.go::Estimate"), starting with a
// letter or '_', not a plain English word alone unless it is written as
// code (any capital, digit, '_' or dot).
func isSymbolName(s string) bool {
	if path, name, ok := strings.Cut(s, "::"); ok && path != "" && !strings.ContainsAny(path, " \t") {
		// PATH::Name, as rubi read takes it.
		return isSymbolName(name) && !strings.Contains(name, "::")
	}
	if s == "" || len(s) > 200 || !isWordStart(s[0]) {
		return false
	}
	code := false
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !isWord(c) {
				return false
			}
			code = code || c == '_' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		}
	}
	return code || strings.Contains(s, ".") || !pronouns[s]
}

// pronouns are the words a phrase may be followed by that name no
// symbol: "who calls it", "what uses this".
var pronouns = map[string]bool{
	"it": true, "this": true, "that": true, "them": true, "these": true, "those": true,
	"me": true, "you": true, "we": true, "they": true, "what": true, "which": true,
	"is": true, "are": true, "was": true, "be": true, "in": true, "on": true,
	"and": true, "or": true, "to": true, "from": true, "into": true, "here": true,
	"isso": true, "ele": true, "ela": true, "cela": true, "ça": true, "il": true, "elle": true,
}
