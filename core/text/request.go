package text

import "sync"

// requestWords are the analyzed words of requests, not of topics: "fix",
// "add", "read", "look", "where", "thanks". A question's telling weight
// (rank.bm25's Hit.Match, which the answer's floor reads) leaves them
// out, and the recall hook never lets them make a note match: a note
// shares "read" or "fix" with half the prompts a user types. "code" is
// not one: "coupon codes", "error code" are topics. "happen" and "know"
// frame a question ("what happens when", "how does it know"): as topics,
// "what happens when a plugin crashes" matched six turns of a chat saved
// as notes on "happens" alone.
var requestWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, t := range Tokenize(`fix add make change update use using help please want need can could would should
		implement write read create remove delete look check see try work works working file files function thing things
		issue problem question explain tell show find why how what where when which okay ok yes thanks thank good great
		nice sure continue go ahead done now again still also just really lets let run start stop keep get put
		happen happens happened happening know knows`) {
		out[t] = true
	}
	return out
})

// RequestWord reports whether an analyzed word (a token of Tokenize) is
// a word of requests rather than of a topic.
func RequestWord(token string) bool { return requestWords()[token] }
