package hooks

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/text"
)

// userPrompt starts a new turn (the harvest counts per turn), reads the
// meter, and recalls what the project's memory holds about the prompt.
func (h *handler) userPrompt(ctx context.Context) (Output, error) {
	var warn string
	if _, err := h.updateState(ctx, func(st *sessionState) {
		st.Explored, st.Registered, st.Harvested = 0, 0, false
		warn = h.meter(st)
	}); err != nil && !errors.Is(err, errNoSession) {
		logError(h.dataDir(), h.event, err)
	}
	recall, err := h.recall(ctx, h.in.Prompt)
	if err != nil {
		return Output{}, err
	}
	return Output{Context: joinParts(recall, warn)}, nil
}

// recallLimit caps the items of a recall.
const recallLimit = 6

// recall searches the project with a prompt and returns what may be
// injected: at most the recall budget (budgets.recall), or "" when nothing
// matches well enough. Ranking says what matches best; the threshold says
// whether the best is good enough, and it is deliberately strict, since an
// injection the model does not need costs tokens on every turn:
//
//   - a note qualifies when its title, text or tags contain at least two
//     of the prompt's distinct content words (one, when the prompt has
//     fewer than three), after stemming; stopwords and the words of any
//     request ("fix", "add", "please", "thanks", …) are not content words;
//   - a file or module qualifies when the prompt names it: its path, its
//     file name, or an identifier in it written as code (an identifier
//     with an inner capital, an underscore, a dot or a digit, such as
//     applyCoupon or cart_total);
//   - a file a qualifying note is about qualifies with it.
//
// Nothing else is injected, so a prompt such as "thanks, looks good" or
// one about a topic the project does not hold injects nothing.
func (h *handler) recall(ctx context.Context, prompt string) (string, error) {
	prompt = strings.TrimSpace(prompt)
	if prompt == "" || strings.HasPrefix(prompt, "/") {
		return "", nil // a slash command is for the agent, not a question
	}
	eng := h.engine()
	words := contentWords(prompt)
	idents := identifiers(prompt)
	if len(words) == 0 && len(idents) == 0 {
		return "", nil
	}
	res, err := eng.Retrieve(ctx, pipeline.Query{Text: prompt, Budget: h.cfg.Budgets.Recall, Limit: recallLimit * 2})
	if errors.Is(err, pipeline.ErrNoIndex) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	need := 2
	if len(words) < 3 {
		need = 1
	}
	about := map[string]bool{}
	keep := make([]bool, len(res.Items))
	for i, it := range res.Items {
		if it.Kind == core.DocNode && matched(words, it.Title+"\n"+it.Text) >= need {
			keep[i] = true
			for _, f := range nodeFiles(it.Text) {
				about[f] = true
			}
		}
	}
	for i, it := range res.Items {
		if it.Kind != core.DocNode && (about[it.Path] || names(idents, it)) {
			keep[i] = true
		}
	}
	kept := &pipeline.Result{Query: res.Query, Budget: res.Budget, Items: []pipeline.Item{}}
	for i, it := range res.Items {
		if keep[i] && len(kept.Items) < recallLimit {
			kept.Items = append(kept.Items, it)
			kept.Tokens += it.Tokens
		}
	}
	if len(kept.Items) == 0 {
		return "", nil
	}
	return "rubi recall: what the project's memory holds about this request (open an item with the rubi read tool):\n" + kept.Text(false), nil
}

// requestWords are words of requests, not of topics: they never make a
// note match.
var requestWords = func() map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Tokenize(`fix add make change update use using help please want need can could would should
		implement write create remove delete look check see try work works working code file files function thing things
		issue problem question explain tell show find why how what where when which okay ok yes thanks thank good great
		nice sure continue go ahead done now again still also just really lets let run start stop keep get put`) {
		out[t] = true
	}
	return out
}()

// contentWords are the prompt's distinct analyzed words that name a topic.
func contentWords(prompt string) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Tokenize(prompt) {
		if !requestWords[t] {
			out[t] = true
		}
	}
	return out
}

// matched counts the words that occur in s after the same analysis.
func matched(words map[string]bool, s string) int {
	seen := map[string]bool{}
	for _, t := range text.Tokenize(s) {
		if words[t] && !seen[t] {
			seen[t] = true
		}
	}
	return len(seen)
}

// codeWord is a word written as code: a path, a file name, or an
// identifier with an inner capital, an underscore or a digit.
var codeWord = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_]`)

// identifiers returns the prompt's words written as code.
func identifiers(prompt string) []string {
	var out []string
	for _, w := range codeWord.FindAllString(prompt, -1) {
		w = strings.Trim(w, "./-")
		if len(w) < 3 {
			continue
		}
		if strings.ContainsAny(w, "./_0123456789") || hasInnerUpper(w) {
			out = append(out, w)
		}
	}
	return out
}

func hasInnerUpper(w string) bool {
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// names reports whether the prompt names a file or module item: its path,
// its file name, or an identifier of it (as code, whole word).
func names(idents []string, it pipeline.Item) bool {
	for _, w := range idents {
		if it.Path == w || strings.HasSuffix(it.Path, "/"+w) {
			return true
		}
		if strings.ContainsAny(w, "/.") {
			continue // a path or file name that is not this one
		}
		if containsWord(it.Text, w) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s not glued to other
// identifier characters.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !identChar(s[start-1])) && (end == len(s) || !identChar(s[end])) {
			return true
		}
		i = start + 1
	}
}

func identChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// nodeFiles reads the "files:" line a rendered note ends with.
func nodeFiles(rendered string) []string {
	for _, l := range strings.Split(rendered, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "files: "); ok {
			return strings.Split(rest, ", ")
		}
	}
	return nil
}

// joinParts joins the non-empty parts of an injection.
func joinParts(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return strings.Join(keep, "\n\n") + "\n"
}
