package hooks

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/text"
)

// userPrompt starts a new turn (the harvest counts per turn), reads the
// meter, and recalls what the project's memory holds about the prompt.
//
// The turn's state and the recall are independent: the state is updated
// while the recall runs.
func (h *handler) userPrompt(ctx context.Context) (Output, error) {
	var warn string
	var turn sync.WaitGroup
	turn.Go(func() {
		if _, err := h.updateState(ctx, func(st *sessionState) {
			st.Explored, st.Registered, st.Harvested = 0, 0, false
			warn = h.meter(st)
		}); err != nil && !errors.Is(err, errNoSession) {
			logError(h.dataDir(), h.event, err)
		}
	})
	recall, err := h.recall(ctx, withoutHookContext(h.in.Prompt))
	turn.Wait()
	if err != nil {
		return Output{}, err
	}
	return Output{Context: joinParts(recall, warn)}, nil
}

// recallLimit caps the items of a recall.
const recallLimit = 6

// recall searches the project's memory, its notes and conversation
// chunks, with a prompt and returns what may be injected: at most the
// recall budget (budgets.recall), or "" when nothing matches well enough.
// The memory is ranked exactly as `rubi context --kinds node,chunk` ranks
// it (answer.MemoryKinds, every ranker, the prompt as written): the hook
// and the command are one ranking, and what bench/quality measures of
// the command is what the hook recalls from. The threshold says whether
// the best are good enough, and it is deliberately strict, since an
// injection the model does not need costs tokens on every turn. An item
// qualifies when
//
//   - it reaches rerank.floor's floor for its kind (a note: the share of
//     the telling weight of the prompt it holds, so that sharing frequent
//     words such as "hook" or "test" is not enough; a conversation chunk
//     has none), and its title and text contain at least two of the
//     prompt's distinct content words (one, when the prompt has fewer
//     than three), after stemming; stopwords and the words of any request
//     ("fix", "add", "read", "please", "thanks", …) are not content words;
//     or
//   - it is a note about a file the prompt names: its path, or its file
//     name written as such (coupon.ts, internal/discount/coupon.go).
//
// The rule is applied as the items are packed, so an item that fails it
// takes none of the budget. Each note comes with the files it is about.
// Nothing else is injected, so a prompt such as "thanks, looks good" or
// one about a topic the project's memory does not hold injects nothing.
func (h *handler) recall(ctx context.Context, prompt string) (string, error) {
	prompt = strings.TrimSpace(prompt)
	if prompt == "" || strings.HasPrefix(prompt, "/") {
		return "", nil // a slash command is for the agent, not a question
	}
	words := contentWords(prompt)
	paths := namedPaths(prompt)
	if len(words) == 0 && len(paths) == 0 {
		return "", nil
	}
	h.refreshNotes(ctx)
	// The threshold is applied as the items are packed, before each is
	// fitted to the budget: an item left out takes none of it.
	res, err := h.engine().Retrieve(ctx, answer.Query{
		Text: prompt, Kinds: answer.MemoryKinds,
		Budget: h.cfg.Budgets.Recall, Limit: recallLimit,
		Admit: func(it *answer.Item, strong bool) bool {
			prose, files := splitNote(it.Title + "\n" + it.Text)
			return aboutNamed(paths, files) || strong && matched(words, prose) >= need(words)
		},
	})
	if errors.Is(err, pipeline.ErrNoIndex) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if len(res.Items) == 0 {
		return "", nil
	}
	res.Omitted = 0 // items below the threshold are not matches left out
	return h.lang.Get(messages.HookRecall) + "\n" + res.Text(false), nil
}

// need is how many of the prompt's content words a note must contain:
// two, or one when the prompt has fewer than three.
func need(words map[string]bool) int {
	if len(words) < 3 {
		return 1
	}
	return 2
}

// notesRefreshWait bounds the refresh of the notes' index before a
// recall, the wait for another process's index included: past it, the
// recall answers from the index as it stands.
const notesRefreshWait = 3 * time.Second

// refreshNotes brings the notes' part of the index up to date when their
// folders changed since the last index (a note registered by the command
// line, pulled with git, edited by hand): with nothing changed it costs a
// stat of each notes' folder; with a change, a delta of the notes alone
// (pipeline.Engine.RefreshNotes). The code's part is left to
// SessionStart's refresh and `rubi index`.
func (h *handler) refreshNotes(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, notesRefreshWait)
	defer cancel()
	_, _, err := h.engine().RefreshNotes(ctx)
	if err != nil && !errors.Is(err, pipeline.ErrIndexOutdated) && ctx.Err() == nil {
		logError(h.dataDir(), h.event, err)
	}
}

// contentWords are the prompt's distinct analyzed words that name a topic.
func contentWords(prompt string) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Tokenize(prompt) {
		if !text.RequestWord(t) {
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

// pathWord is a word written as a path or a file name: something with a
// dot or a slash between name characters (coupon.ts, src/cart).
var pathWord = lazyRegexp(`[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)+|[A-Za-z0-9_-]+\.[A-Za-z0-9]{1,8}\b`)

// namedPaths returns the prompt's words written as paths or file names.
func namedPaths(prompt string) []string {
	var out []string
	for _, w := range pathWord().FindAllString(prompt, -1) {
		if w = strings.Trim(w, "./"); len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// aboutNamed reports whether one of a note's files is a named path: the
// same path, or a path ending in the named one.
func aboutNamed(named, files []string) bool {
	for _, f := range files {
		for _, w := range named {
			if f == w || strings.HasSuffix(f, "/"+w) {
				return true
			}
		}
	}
	return false
}

// splitNote parts a rendered note into its prose and the files it is
// about ("files: a, b"); staleness warnings (⚠) are neither.
func splitNote(rendered string) (prose string, files []string) {
	var b strings.Builder
	for _, l := range strings.Split(rendered, "\n") {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "files: "); ok {
			files = append(files, strings.Split(rest, ", ")...)
			continue
		}
		if strings.HasPrefix(t, "⚠") {
			continue
		}
		b.WriteString(l + "\n")
	}
	return b.String(), files
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

// lazyRegexp compiles a pattern on first use: a hook process pays only
// for the patterns its event uses.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// withoutHookContext removes what hooks injected from a prompt: headless
// Gemini CLI prepends SessionStart's context to the user's prompt, inside
// <hook_context> tags, and passes that on to BeforeAgent. Recalling from
// rubi's own map and critical notes would match them, not the request.
func withoutHookContext(prompt string) string {
	const open, end = "<hook_context>", "</hook_context>"
	for {
		i := strings.Index(prompt, open)
		if i < 0 {
			return prompt
		}
		j := strings.Index(prompt[i:], end)
		if j < 0 {
			return prompt[:i]
		}
		prompt = prompt[:i] + prompt[i+j+len(end):]
	}
}
