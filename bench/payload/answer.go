package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// What an agent receives, read back item by item. The text rubi sends
// (the CLI's answer, the MCP text content, the recall hook's injection) is
// the compact form of answer.Result.Text: a numbered line per item at
// the start of a line, "N. [kind] first line", the item's other lines
// indented by three spaces, and lines of rubi's own around them (a
// header, the footer). The structured content is the result's JSON, whose
// items are read from the bytes as sent.

// item is one item of an answer as the agent reads it.
type item struct {
	Kind string `json:"kind"`
	// Key names the item: a file's or a module's path, a note's title.
	Key string `json:"key"`
	// Files are, for a note, the files it is about.
	Files  []string `json:"files,omitempty"`
	Tokens int      `json:"tokens"`
	Gold   bool     `json:"gold,omitempty"`
}

// itemLine is the first line of an item in the compact form.
var itemLine = regexp.MustCompile(`^(\d+)\. \[([^\]\n]+)\] (.*)$`)

// budgetLine is the footer's budget: "~N tokens (budget B".
var budgetLine = regexp.MustCompile(`~\d+ tokens \(budget (\d+)`)

// parseText splits a text answer into its items: each with the tokens of
// its lines (first line and indented ones, with their line ends). What is
// no item's (header, footer, notes) is left out of the items and counts
// in the answer's total only.
func parseText(s string) []item {
	var out []item
	var cur *item
	var block strings.Builder
	flush := func() {
		if cur != nil {
			cur.Tokens = tokens.Estimate(block.String())
			out = append(out, *cur)
		}
		cur = nil
		block.Reset()
	}
	for l := range strings.Lines(s) {
		line := strings.TrimRight(l, "\n")
		if m := itemLine.FindStringSubmatch(line); m != nil {
			flush()
			cur = &item{Kind: m[2], Key: itemKey(m[2], m[3])}
			block.WriteString(l)
			continue
		}
		if cur != nil && strings.HasPrefix(line, "   ") {
			block.WriteString(l)
			if f, ok := strings.CutPrefix(strings.TrimSpace(line), "files: "); ok && isNote(cur.Kind) {
				cur.Files = splitFiles(f)
			}
			continue
		}
		flush()
	}
	flush()
	return out
}

// isNote reports a kind of item that is a knowledge note.
func isNote(kind string) bool { return kind == "node" }

// itemKey is what names an item, read from its first line: a file's path
// without the shape after it ("core/x.go (go, 3 symbols)"), a note's
// title without its type ("gotcha: Title (high)"), a module's path.
func itemKey(kind, first string) string {
	switch kind {
	case "file":
		if p, _, ok := strings.Cut(first, " ("); ok && strings.HasSuffix(first, ")") {
			return p
		}
		return first
	case "node":
		if _, title, ok := strings.Cut(first, ": "); ok {
			return title
		}
		return first
	case "module":
		m := strings.TrimPrefix(first, "module ")
		if p, _, ok := strings.Cut(m, " ("); ok {
			return p
		}
		return m
	}
	return first
}

func splitFiles(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ", ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// textBudget reads the budget a text answer's footer names (0 when it
// names none).
func textBudget(s string) int {
	m := budgetLine.FindAllStringSubmatch(s, -1)
	if len(m) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(m[len(m)-1][1])
	return n
}

// structured is the part of a structured answer the benchmark reads:
// answer.Result's JSON (kind, path, title and text per item, the
// budget), or the compact answer (a file by its path, anything else by
// its id, "module:…" for a module, a note by its bare id; the text; the
// footer naming the budget).
type structured struct {
	Budget int               `json:"budget"`
	Footer string            `json:"footer"`
	Items  []json.RawMessage `json:"items"`
}

// parseStructured reads a structured answer's items from its JSON as
// sent: each item's tokens are those of its own bytes.
func parseStructured(raw []byte) (items []item, budget int, err error) {
	var s structured
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, 0, fmt.Errorf("structured content: %w", err)
	}
	if s.Items == nil {
		return nil, 0, fmt.Errorf("structured content without items: %.200s", raw)
	}
	budget = s.Budget
	if budget == 0 {
		budget = textBudget(s.Footer)
	}
	for i, r := range s.Items {
		var it struct {
			Kind  string `json:"kind"`
			Path  string `json:"path"`
			ID    string `json:"id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(r, &it); err != nil {
			return nil, 0, fmt.Errorf("structured content, item %d: %w", i+1, err)
		}
		x := item{Kind: it.Kind, Key: it.Path, Tokens: tokens.Estimate(string(bytes.TrimSpace(r)))}
		if x.Kind == "" {
			x.Kind = compactKind(it.Path, it.ID)
		}
		first, _, _ := strings.Cut(it.Text, "\n")
		switch {
		case isNote(x.Kind):
			x.Key = it.Title
			if x.Key == "" {
				x.Key = itemKey(x.Kind, first)
			}
			for l := range strings.Lines(it.Text) {
				if f, ok := strings.CutPrefix(strings.TrimSpace(l), "files: "); ok {
					x.Files = splitFiles(f)
				}
			}
		case x.Key == "" && x.Kind == "module":
			x.Key = strings.TrimPrefix(it.ID, "module:")
		case x.Key == "":
			x.Key = it.ID
		}
		items = append(items, x)
	}
	return items, budget, nil
}

// compactKind is the kind of an item of the compact answer, which names
// none: a file has a path; "kind:key" ids are other documents'; a bare
// id is a note's.
func compactKind(path, id string) string {
	switch {
	case path != "":
		return "file"
	case id == "":
		return ""
	}
	if kind, _, ok := strings.Cut(id, ":"); ok {
		return kind
	}
	return "node"
}

// gold says which items of an answer are about the answer to the
// question.
type gold struct {
	// Files are the files that answer it: a file item of one of them is
	// on gold, and so is a note about one of them.
	Files []string
	// Titles are the notes that answer it (the recall set), as they are
	// written (escaped like the answer escapes them).
	Titles []string
}

// is reports whether it is on gold.
func (g gold) is(it item) bool {
	switch {
	case it.Kind == "file":
		return slices.Contains(g.Files, it.Key)
	case isNote(it.Kind):
		for _, t := range g.Titles {
			// A note's title line may end in its importance: "Title (high)".
			if e := text.Escape(t); it.Key == e || it.Key == t || strings.HasPrefix(it.Key, e+" (") {
				return true
			}
		}
		for _, f := range it.Files {
			if slices.Contains(g.Files, f) {
				return true
			}
		}
	}
	return false
}

// delivery is what one transport delivered for one question.
type delivery struct {
	// Tokens are the whole answer's, as the model reads it.
	Tokens int `json:"tokens"`
	// Budget is the budget the answer says it was packed to.
	Budget int    `json:"packed_budget"`
	Items  []item `json:"items"`
	// GoldTokens are the gold items' tokens.
	GoldTokens int `json:"gold_tokens"`
	// GoldRank is the 1-based position of the first gold item among the
	// answer's items, 0 when none is there.
	GoldRank int `json:"gold_rank"`
}

// score marks the gold items of d and sums their tokens.
func (d *delivery) score(g gold) {
	d.GoldTokens, d.GoldRank = 0, 0
	for i := range d.Items {
		d.Items[i].Gold = g.is(d.Items[i])
		if d.Items[i].Gold {
			d.GoldTokens += d.Items[i].Tokens
			if d.GoldRank == 0 {
				d.GoldRank = i + 1
			}
		}
	}
}

// textDelivery reads a text answer.
func textDelivery(s string, g gold) delivery {
	d := delivery{Tokens: tokens.Estimate(s), Budget: textBudget(s), Items: parseText(s)}
	d.score(g)
	return d
}

// structuredDelivery reads a structured answer from its JSON as sent.
func structuredDelivery(raw []byte, g gold) (delivery, error) {
	items, budget, err := parseStructured(raw)
	if err != nil {
		return delivery{}, err
	}
	d := delivery{Tokens: tokens.Estimate(string(bytes.TrimSpace(raw))), Budget: budget, Items: items}
	d.score(g)
	return d, nil
}
