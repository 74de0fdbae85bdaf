package text

import (
	"strings"
	"sync"
)

// The stopword lists are short on purpose: BM25's idf already discounts
// frequent words, so removing them mostly saves index space and keeps
// "matches ..." reasons readable. Words that are also identifiers or
// keywords people search for (not, new, all, any, if, else, done, must,
// up, out, lo, sin, es, des, son, car, plus, sans) are left out even where
// a language would list them. Entries are folded: removal runs after accent
// folding, so "não" and "nao" are both dropped.
const (
	englishStopwords = `
a an the and or but nor of to in on at by for with from into onto as
is are was were be been being am it its this that these those there here
what which who whom whose how why when where do does did
has have had having i me my mine we us our ours you your yours he him his
she her hers they them their theirs so than then too very can could
should would will shall may might about also just only some such
own same other each both few more most again once`

	portugueseStopwords = `
o as um uma uns umas de da do das dos em na no nas nos por pelo pela
pelos pelas para pra com e ou que se nao mas como mais ao aos ja eu ele
ela eles elas voce voces isso isto esse essa esses essas este esta estes
estas aquele aquela aquilo seu sua seus suas meu minha meus minhas lhe
lhes foi ser tem sao estao entre sobre ate quando onde tambem muito
muita muitos muitas qual quais quem nem cada`

	frenchStopwords = `
le la les un une du de et ou en au aux ce ces cet cette dans par pour
sur avec est sont pas ne que qui quoi il elle ils elles je nous vous
se sa ses leur leurs mon ma mes notre votre nos vos etre avoir ete
comme mais donc lui dont aussi tres`

	spanishStopwords = `
el la los las un una unos unas de del al y en con por para que se su
sus no le les como mas pero este esta estos estas ese esa esos
esas eso esto muy ya entre sobre cuando donde tambien hay fue yo mi
nos cada`
)

// stopwordSet returns the words of every list and the length of the
// longest (longer words skip the map lookup). It is built on first use, not
// at init, so that a process that never tokenizes does not pay for it.
var stopwordSet = sync.OnceValues(func() (map[string]struct{}, int) {
	set, longest := map[string]struct{}{}, 0
	for _, list := range []string{englishStopwords, portugueseStopwords, frenchStopwords, spanishStopwords} {
		for _, w := range strings.Fields(list) {
			set[w] = struct{}{}
			longest = max(longest, len(w))
		}
	}
	return set, longest
})

// IsStopword reports whether word, folded and lowercased (see Fold), is on
// one of the stopword lists.
func IsStopword(word string) bool {
	set, _ := stopwordSet()
	_, ok := set[word]
	return ok
}

// isStopword is IsStopword without converting b to a string first (the
// compiler does not allocate for a map index of string(b)).
func isStopword(b []byte) bool {
	set, longest := stopwordSet()
	if len(b) > longest {
		return false
	}
	_, ok := set[string(b)]
	return ok
}
