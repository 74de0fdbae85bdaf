package hooks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// sessionStart refreshes the index and injects what a session should
// know before its first prompt: after a compaction or /clear the last
// handoff, then the level-0 map and the critical notes.
func (h *handler) sessionStart(ctx context.Context) (Output, error) {
	h.sweepStates()
	eng := h.engine()
	indexed := eng.HasIndex()
	if err := h.refreshIndex(ctx, indexed); err != nil {
		logError(h.dataDir(), h.event, err)
	}
	var parts []string
	if h.in.Source == "compact" || h.in.Source == "clear" {
		if s := h.handoffText(); s != "" {
			parts = append(parts, s)
		}
	}
	if m := h.mapText(eng.MapPath(), eng.MapWritten()); m != "" {
		parts = append(parts, m)
	} else if !eng.HasIndex() {
		parts = append(parts, h.lang.Get(messages.HookIndexing))
	}
	if s := h.criticalText(); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return Output{}, nil
	}
	return Output{Context: strings.Join(parts, "\n\n") + "\n"}, nil
}

// refreshIndex starts the background refresh and waits for it a little:
// long enough for a small project's refresh to finish, so its map is
// fresh, and on a project never indexed long enough for a first index of
// a middle-sized one. A refresh that takes longer goes on alone.
func (h *handler) refreshIndex(ctx context.Context, indexed bool) error {
	if h.env.StartIndex == nil {
		return nil
	}
	done, err := h.env.StartIndex(h.root)
	if err != nil {
		return fmt.Errorf("start the index: %w", err)
	}
	wait := cmp.Or(h.env.RefreshWait, DefaultRefreshWait)
	if !indexed {
		wait = cmp.Or(h.env.FirstWait, DefaultFirstWait)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}

// handoffBudget caps the handoff injected after a compaction, in tokens.
const handoffBudget = 2000

// handoffMaxAge is how old a handoff may be to be injected whole after a
// compaction or /clear: one written for this stretch of work. An older one
// is only pointed to; it may be about another task.
const handoffMaxAge = 24 * time.Hour

// mapBytes caps the read of .rubi/map.md: rubi writes it within
// budgets.map tokens (at most 1 MiB of them), a few bytes each. A larger
// file is not rubi's, and is not read.
func mapBytes(budget int) int64 { return max(256<<10, 8*int64(budget)) }

// mapText is the level-0 map to inject, cut to budgets.map tokens whoever
// wrote it, "" when there is none. A map that is not the very file the
// index wrote (written: not committed, edited, replaced), or one that
// holds a curated summary the repository supplied, is the repository's:
// said so, and quoted, unless the user trusted the project.
func (h *handler) mapText(path string, written bool) string {
	data, err := store.ReadWithin(h.root, path, mapBytes(h.cfg.Budgets.Map))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			logError(h.dataDir(), h.event, err)
		}
		return ""
	}
	m := strings.TrimSpace(text.EscapeLines(codemap.WithoutLinks(string(data))))
	if m == "" {
		return ""
	}
	if cut := cutToTokens(m, h.cfg.Budgets.Map); len(cut) < len(m) {
		m = cut + "\n" + h.lang.Format(messages.HookMapCut, h.cfg.Budgets.Map)
	}
	if h.cfg.Trusted || written && h.engine().Project().Knowledge().OwnSummary("map") {
		return h.lang.Get(messages.HookMap) + "\n\n" + m
	}
	return h.lang.Get(messages.HookMapRepo) + "\n\n" + text.Quote(m)
}

// handoffText is the last handoff, for a session that lost its thread:
// the last the user saved, else the repository's last, said to be the
// repository's and quoted.
func (h *handler) handoffText() string {
	k := h.engine().Project().Knowledge()
	ho, err := k.LastOwnHandoff()
	if errors.Is(err, knowledge.ErrNotFound) {
		ho, err = k.LastHandoff()
	}
	if err != nil {
		if !errors.Is(err, knowledge.ErrNotFound) {
			logError(h.dataDir(), h.event, err)
		}
		return ""
	}
	when := ho.Created.Local().Format("2006-01-02 15:04")
	if age := h.env.now().Sub(ho.Created); age > handoffMaxAge {
		return h.lang.Format(messages.HookHandoffOld, when, roundAge(h.lang, age))
	}
	md := strings.TrimSpace(text.EscapeLines(ho.Markdown()))
	if tokens.Estimate(md) > handoffBudget {
		md = cutHandoff(h.lang, md, handoffBudget)
	}
	if !ho.Own {
		return h.lang.Format(messages.HookHandoffRepo, when, text.Quote(md))
	}
	return h.lang.Format(messages.HookHandoff, when, md)
}

// cutHandoff cuts a handoff's markdown at a line to about n tokens, and
// says in l what it left out: how many lines and tokens, and the sections
// they hold, so the agent knows what to read with the memory tool.
func cutHandoff(l messages.Lang, text string, n int) string {
	// Tokens kept for the line saying what was cut: 80, or the line with
	// the widest numbers and room for section names where l's is longer.
	note := max(80, tokens.Estimate(l.Format(messages.HookCutNote, n, l.Format(messages.HookCutMore, 99999, 999999)))+20)
	shown := cutToTokens(text, n-note)
	if shown == "" {
		// One long first line: cut inside it.
		r := []rune(text)
		shown = string(r[:min(len(r), (n-note)*3)])
	}
	rest := strings.TrimLeft(text[len(shown):], "\n")
	var sections []string
	partial := ""
	for i, l := range strings.Split(rest, "\n") {
		if t, ok := strings.CutPrefix(l, "## "); ok && strings.TrimSpace(t) != "" {
			sections = append(sections, strings.TrimSpace(t))
		} else if i == 0 {
			// The cut fell inside a section: name it too.
			for _, sl := range strings.Split(shown, "\n") {
				if t, ok := strings.CutPrefix(sl, "## "); ok && strings.TrimSpace(t) != "" {
					partial = strings.TrimSpace(t)
				}
			}
		}
	}
	what := l.Format(messages.HookCutMore, strings.Count(rest, "\n")+1, tokens.Estimate(rest))
	switch {
	case partial != "" && len(sections) > 0:
		what += l.Format(messages.HookCutRestThen, partial, quoteAll(sections))
	case partial != "":
		what += l.Format(messages.HookCutRest, partial)
	case len(sections) > 0:
		what += l.Format(messages.HookCutSections, quoteAll(sections))
	}
	return shown + l.Format(messages.HookCutNote, n, what)
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// criticalText lists the active notes marked critical, which every
// session must know, within the recall budget: newest first, as of the
// last index (the refresh this session start began has written them when
// it finished within the wait). Only the user's own notes (as rubi wrote
// them for this user, knowledge.Store.OwnNode), or every note of a project
// the user trusted, come under "always apply"; the repository's follow
// under a heading that says whose they are, each line quoted.
func (h *handler) criticalText() string {
	crit, err := h.engine().Notes().Critical()
	if err != nil {
		logError(h.dataDir(), h.event, err)
		return ""
	}
	if len(crit) == 0 {
		return ""
	}
	k := h.engine().Project().Knowledge()
	var own, repo []*knowledge.Node
	for _, n := range crit {
		if mine, ok := k.OwnNode(n); ok {
			// The note as its file says, not as the index's copy does.
			if mine.Importance == knowledge.ImportanceCritical && (mine.Status == "" || mine.Status == knowledge.StatusActive) {
				own = append(own, mine)
			}
		} else {
			repo = append(repo, n)
		}
	}
	var b strings.Builder
	budget := h.cfg.Budgets.Recall
	shown := 0
	list := func(heading string, nodes []*knowledge.Node, prefix string) {
		if len(nodes) == 0 {
			return
		}
		head := heading + "\n"
		if tokens.Estimate(b.String()+head) > budget {
			return
		}
		b.WriteString(head)
		for _, n := range nodes {
			line := prefix + "- " + text.Escape(n.Type) + ": " + text.Escape(n.Title)
			if body := firstLine(n.Body); body != "" {
				line += " — " + text.Escape(body)
			}
			if len(n.Files) > 0 {
				line += " (" + text.Escape(strings.Join(n.Files, ", ")) + ")"
			}
			line += "\n"
			if tokens.Estimate(b.String()+line) > budget {
				return
			}
			b.WriteString(line)
			shown++
		}
	}
	list(h.lang.Get(messages.HookCritical), own, "")
	list(h.lang.Get(messages.HookCriticalRepo), repo, "> ")
	if shown < len(own)+len(repo) {
		b.WriteString(h.lang.Format(messages.HookCriticalMore, len(own)+len(repo)-shown) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// firstLine is the first non-empty line of s, cut at 200 characters.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 200 {
				return string(r[:200]) + "…"
			}
			return l
		}
	}
	return ""
}

// cutToTokens cuts s at a line boundary so that it fits n tokens,
// counting line by line (a line's estimate is rounded up, so the sum never
// falls short of the whole's): linear in s, however long.
func cutToTokens(s string, n int) string {
	used, end := 0, 0
	for end < len(s) {
		l, _, _ := strings.Cut(s[end:], "\n")
		if used += tokens.Estimate(l + "\n"); used > n {
			break
		}
		end += len(l) + 1
	}
	return strings.TrimRight(s[:min(end, len(s))], "\n")
}

// roundAge writes an age in l, in days, or hours under two days.
func roundAge(l messages.Lang, d time.Duration) string {
	if d < 48*time.Hour {
		return l.Count(int(d.Hours()), messages.NounHour)
	}
	return l.Count(int(d.Hours()/24), messages.NounDay)
}
