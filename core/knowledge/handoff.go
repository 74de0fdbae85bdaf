package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/rubi-dev/rubi/core/store"
)

// Handoff records where a session left off, for the next one.
//
// Text is the handoff itself: markdown, every section in the order it was
// written, those rubi does not know too, with prose, lists and code
// blocks as they are. The other fields are read from it (Goal, the list
// sections, and Notes for the text before the first section and the
// sections rubi does not know), for the command line's flags and JSON:
// a handoff given as fields alone gets its Text from them when it is
// saved.
type Handoff struct {
	Goal       string   `json:"goal,omitempty"`
	Done       []string `json:"done,omitempty"`
	InProgress []string `json:"in_progress,omitempty"`
	Next       []string `json:"next,omitempty"`
	Decisions  []string `json:"decisions,omitempty"`
	Files      []string `json:"files,omitempty"`
	Notes      string   `json:"notes,omitempty"`
	// Text is the whole handoff as written, without rubi's title line.
	Text string `json:"text,omitempty"`
	// Created defaults to now.
	Created time.Time `json:"created"`
	// Path is the handoff's file (absolute); set by SaveHandoff and
	// LastHandoff.
	Path string `json:"path,omitempty"`
	// Own says LastHandoff found it as rubi saved it for this user; a
	// handoff the repository supplied is not.
	Own bool `json:"-"`
}

// handoffSections are the list sections of a handoff file, in order.
var handoffSections = []struct {
	title string
	get   func(*Handoff) *[]string
}{
	{"Done", func(h *Handoff) *[]string { return &h.Done }},
	{"In progress", func(h *Handoff) *[]string { return &h.InProgress }},
	{"Next", func(h *Handoff) *[]string { return &h.Next }},
	{"Decisions", func(h *Handoff) *[]string { return &h.Decisions }},
	{"Files", func(h *Handoff) *[]string { return &h.Files }},
}

var handoffName = lazyRegexp(`^(\d{4}-\d{2}-\d{2}-\d{4})(?:-(\d+))?\.md$`)

// SaveHandoff writes h to .rubi/handoffs/<YYYY-MM-DD-HHMM>.md (UTC) and
// returns the file. A second handoff in the same minute gets -2, -3…: none
// is ever overwritten.
func (s *Store) SaveHandoff(h Handoff) (string, error) {
	if h.Created.IsZero() {
		h.Created = s.now()
	}
	h.Created = h.Created.UTC().Truncate(time.Second)
	if err := h.Settle(); err != nil {
		return "", err
	}
	data, err := encodeHandoff(&h)
	if err != nil {
		return "", err
	}
	if len(data) > 4*s.opts.MaxBody {
		return "", fmt.Errorf("handoff is %d bytes; the limit is %d", len(data), 4*s.opts.MaxBody)
	}
	dir := filepath.Join(s.rubiDir, "handoffs")
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	lock, err := store.LockWithin(ctx, s.root, dir)
	if err != nil {
		return "", err
	}
	defer lock.Unlock()
	base := h.Created.Format("2006-01-02-1504")
	p := filepath.Join(dir, base+".md")
	for k := 2; ; k++ {
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			break
		}
		p = filepath.Join(dir, base+"-"+strconv.Itoa(k)+".md")
	}
	if err := store.WriteFile(p, data, 0o644); err != nil {
		return "", err
	}
	if err := s.recordOwn(map[string][]byte{p: data}); err != nil {
		return p, fmt.Errorf("the handoff is saved in %s, but shows as the repository's: %w", p, err)
	}
	return p, nil
}

// LastHandoff returns the most recent handoff: latest minute, then highest
// suffix. ErrNotFound when there is none. A handoff named or dated in the
// future (a committed 2099-01-01-0000.md) is never the last while there
// is another: it ranks below every other, and its date is clamped to its
// file's time, or now.
func (s *Store) LastHandoff() (*Handoff, error) {
	return s.lastHandoff(false)
}

// LastOwnHandoff is LastHandoff among the handoffs rubi saved for this
// user (own.go): what a session of the user's resumes from, whatever the
// repository holds. ErrNotFound when there is none.
func (s *Store) LastOwnHandoff() (*Handoff, error) {
	return s.lastHandoff(true)
}

func (s *Store) lastHandoff(own bool) (*Handoff, error) {
	hs, err := s.handoffs(own, 1, nil)
	if err != nil {
		return nil, err
	}
	if len(hs) == 0 {
		return nil, fmt.Errorf("no handoff in %s: %w", filepath.Join(s.rubiDir, "handoffs"), ErrNotFound)
	}
	return hs[0], nil
}

// Handoffs returns the handoffs of .rubi/handoffs/, the last first (as
// LastHandoff orders them), at most limit of them (0: all), each with its
// file and whether rubi saved it for this user. A handoff that cannot be
// read is left out and told to bad.
func (s *Store) Handoffs(limit int, bad func(path string, err error)) ([]*Handoff, error) {
	return s.handoffs(false, limit, bad)
}

// handoffs lists the handoffs, the last first, up to limit (0: all);
// with own, only those rubi saved for this user. A handoff that cannot be
// read is told to bad, or ends the listing with its error when bad is nil.
func (s *Store) handoffs(own bool, limit int, bad func(path string, err error)) ([]*Handoff, error) {
	dir := filepath.Join(s.rubiDir, "handoffs")
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	now := s.now()
	type cand struct {
		future bool
		stamp  string
		n      int
		name   string
	}
	var cs []cand
	for _, de := range des {
		m := handoffName().FindStringSubmatch(de.Name())
		if m == nil || !de.Type().IsRegular() {
			continue
		}
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		t, err := time.Parse("2006-01-02-1504", m[1])
		cs = append(cs, cand{err != nil || t.After(now), m[1], n, de.Name()})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].future != cs[j].future {
			return cs[i].future
		}
		if cs[i].stamp != cs[j].stamp {
			return cs[i].stamp < cs[j].stamp
		}
		return cs[i].n < cs[j].n
	})
	var rec *ownRecord
	if own {
		if rec, err = s.readOwn(); err != nil {
			return nil, err
		}
	}
	var out []*Handoff
	for k := len(cs) - 1; k >= 0 && (limit <= 0 || len(out) < limit); k-- {
		p := filepath.Join(dir, cs[k].name)
		var data []byte
		mine := false
		if own {
			if data, mine = s.ownedData(rec, p); !mine {
				continue
			}
		} else if data, err = store.ReadWithin(s.root, p, maxOwnFile); err != nil {
			if bad == nil {
				return nil, err
			}
			bad(p, err)
			continue
		} else {
			mine = s.Owned(p)
		}
		h, err := decodeHandoff(data)
		if err != nil {
			if bad == nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			bad(p, err)
			continue
		}
		h.Path, h.Own = p, mine
		if h.Created.After(now) {
			h.Created = now
			if fi, err := os.Lstat(p); err == nil && fi.ModTime().Before(now) {
				h.Created = fi.ModTime().UTC().Truncate(time.Second)
			}
		}
		out = append(out, h)
	}
	return out, nil
}

func encodeHandoff(h *Handoff) ([]byte, error) {
	head, err := yaml.Marshal(struct {
		Created time.Time `yaml:"created"`
	}{h.Created})
	if err != nil {
		return nil, err
	}
	return []byte("---\n" + string(head) + "---\n" + h.Markdown()), nil
}

// Settle makes Text and the fields agree, as a save does: a handoff given as
// fields gets its text from them; one given as text gets its fields from
// it, and fields given beside the text must be the ones it reads as (the
// JSON `rubi handoff last --json` prints is), else neither is dropped for
// the other: an error says to give one.
func (h *Handoff) Settle() error {
	text := normalizeHandoff(h.Text)
	if text == "" {
		text = h.fieldsMarkdown()
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("the handoff is empty: give its text, or at least a goal and the next steps")
	}
	read := ParseHandoff(text)
	if h.Text != "" {
		for _, f := range []struct {
			name      string
			given, is any
			set       bool
		}{
			{"goal", h.Goal, read.Goal, h.Goal != ""},
			{"done", h.Done, read.Done, len(h.Done) > 0},
			{"in_progress", h.InProgress, read.InProgress, len(h.InProgress) > 0},
			{"next", h.Next, read.Next, len(h.Next) > 0},
			{"decisions", h.Decisions, read.Decisions, len(h.Decisions) > 0},
			{"files", h.Files, read.Files, len(h.Files) > 0},
			{"notes", h.Notes, read.Notes, h.Notes != ""},
		} {
			if f.set && !reflect.DeepEqual(f.given, f.is) {
				return fmt.Errorf("the handoff's %s is not what its text says: give the text, or the fields, not both", f.name)
			}
		}
	}
	h.Goal, h.Done, h.InProgress, h.Next, h.Decisions, h.Files, h.Notes, h.Text =
		read.Goal, read.Done, read.InProgress, read.Next, read.Decisions, read.Files, read.Notes, read.Text
	return nil
}

// handoffTitle is the title line rubi writes atop a handoff file.
func handoffTitle(t time.Time) string {
	return "# Handoff " + t.UTC().Format("2006-01-02 15:04") + " UTC"
}

var handoffTitleLine = lazyRegexp(`^# Handoff \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC[ \t]*$`)

// Markdown is the handoff as its file shows it, without the frontmatter:
// a title with its time, then the text (made from the fields when there
// is no text).
func (h *Handoff) Markdown() string {
	body := normalizeHandoff(h.Text)
	if body == "" {
		body = h.fieldsMarkdown()
	}
	if body == "" {
		return handoffTitle(h.Created) + "\n"
	}
	return handoffTitle(h.Created) + "\n\n" + body + "\n"
}

// fieldsMarkdown writes the fields as a handoff's sections.
func (h *Handoff) fieldsMarkdown() string {
	var parts []string
	if g := strings.TrimSpace(normalizeHandoff(h.Goal)); g != "" {
		parts = append(parts, "## Goal\n\n"+g)
	}
	for _, sec := range handoffSections {
		var lines []string
		for _, it := range *sec.get(h) {
			it = strings.TrimSpace(normalizeHandoff(it))
			if it == "" {
				continue
			}
			// Continuation lines are indented so that they stay inside
			// their item.
			lines = append(lines, "- "+strings.ReplaceAll(it, "\n", "\n  "))
		}
		if len(lines) > 0 {
			parts = append(parts, "## "+sec.title+"\n\n"+strings.Join(lines, "\n"))
		}
	}
	if n := strings.TrimSpace(normalizeHandoff(h.Notes)); n != "" {
		parts = append(parts, "## Notes\n\n"+n)
	}
	return strings.Join(parts, "\n\n")
}

// normalizeHandoff is the text a handoff keeps of what was written: line
// ends made \n (a carriage return before a line feed is dropped), blank
// lines before the text and white space after it left out. Nothing else
// changes, indentation of the first line included.
func normalizeHandoff(s string) string {
	if strings.IndexByte(s, '\r') >= 0 {
		var b strings.Builder
		b.Grow(len(s))
		for i := 0; i < len(s); i++ {
			if s[i] == '\r' {
				j := i
				for j < len(s) && s[j] == '\r' {
					j++
				}
				if j < len(s) && s[j] == '\n' {
					i = j - 1
					continue
				}
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	s = strings.TrimRight(s, " \t\n\r\v\f")
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			if i < 0 && strings.TrimSpace(s) == "" {
				return ""
			}
			return s
		}
		s = s[i+1:]
	}
}

// ParseHandoff reads a handoff written as markdown. All of it is kept as
// its Text; the fields are read from the sections rubi knows (## Goal,
// ## Done, ## In progress, ## Next, ## Decisions, ## Files, ## Notes), in
// any order. Text before the first section and the sections rubi does not
// know go to the notes, with their headings. A handoff file pasted whole
// (its frontmatter and title line) reads as the handoff it holds.
func ParseHandoff(text string) Handoff {
	text = normalizeHandoff(text)
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if i := strings.Index(rest, "\n---"); i >= 0 && (len(rest) == i+4 || rest[i+4] == '\n') {
			var fm map[string]any
			if yaml.Unmarshal([]byte(rest[:i]), &fm) == nil && len(fm) == 1 {
				if _, ok := fm["created"].(time.Time); ok {
					text = normalizeHandoff(rest[min(i+5, len(rest)):])
				}
			}
		}
	}
	first, rest, _ := strings.Cut(text, "\n")
	if handoffTitleLine().MatchString(first) {
		text = normalizeHandoff(rest)
	}
	h := Handoff{Text: text}
	h.readFields()
	return h
}

// readFields fills the fields from Text. Headings inside fenced code
// blocks are code, not sections.
func (h *Handoff) readFields() {
	type section struct {
		heading string // the line, "" before the first
		title   string // a known section's title, "" for the others
		lines   []string
	}
	var secs []*section
	cur := &section{}
	secs = append(secs, cur)
	fence := ""
	for l := range strings.SplitSeq(h.Text, "\n") {
		if fence == "" {
			if title, ok := handoffHeading(l); ok {
				cur = &section{heading: l, title: title}
				secs = append(secs, cur)
				continue
			}
		}
		fence = nextFence(fence, l)
		cur.lines = append(cur.lines, l)
	}
	var notes []string
	for _, sec := range secs {
		body := strings.TrimSpace(strings.Join(sec.lines, "\n"))
		switch sec.title {
		case "Goal":
			h.Goal = joinPart(h.Goal, body)
		case "Notes":
			notes = appendPart(notes, body)
		case "":
			part := body
			if sec.heading != "" {
				part = strings.TrimRight(sec.heading+"\n"+body, "\n")
			}
			notes = appendPart(notes, part)
		default:
			for _, ls := range handoffSections {
				if ls.title == sec.title {
					*ls.get(h) = append(*ls.get(h), listItems(sec.lines)...)
				}
			}
		}
	}
	h.Notes = strings.Join(notes, "\n\n")
}

func joinPart(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n\n" + b
}

func appendPart(parts []string, p string) []string {
	if strings.TrimSpace(p) == "" {
		return parts
	}
	return append(parts, p)
}

// handoffHeading reads a level-2 heading: the title of a section rubi
// knows (any case), or "" for another heading.
func handoffHeading(l string) (string, bool) {
	t, ok := strings.CutPrefix(l, "##")
	if !ok || t != "" && t[0] != ' ' && t[0] != '\t' {
		return "", false
	}
	t = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t), "#"))
	for _, known := range []string{"Goal", "Notes"} {
		if strings.EqualFold(t, known) {
			return known, true
		}
	}
	for _, sec := range handoffSections {
		if strings.EqualFold(t, sec.title) {
			return sec.title, true
		}
	}
	return "", true
}

// nextFence follows fenced code blocks: given the fence open before line
// l ("" when none), it returns the one open after it.
func nextFence(open, l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 {
		return open // indented code, not a fence
	}
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n < 3 {
			continue
		}
		if open == "" {
			if c == "`" && strings.Contains(t[n:], "`") {
				return "" // an inline code span, not a fence
			}
			return t[:n]
		}
		if open[0] == c[0] && n >= len(open) && strings.TrimSpace(t[n:]) == "" {
			return ""
		}
	}
	return open
}

// listMarker measures the marker of a list item ("- ", "* ", "+ ", "1. ",
// "2) "), 0 when l starts none.
func listMarker(l string) int {
	if len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && (l[1] == ' ' || l[1] == '\t') {
		return 2
	}
	i := 0
	for i < len(l) && i < 9 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && (l[i+1] == ' ' || l[i+1] == '\t') {
		return i + 2
	}
	return 0
}

// listItems reads a list section's lines into items, losing no word: a
// list item at the left margin starts one, and so does a paragraph of
// prose that does not belong to an item (after a blank line, or before
// any item); indented lines and code blocks continue the item they
// follow.
func listItems(lines []string) []string {
	var out []string
	fence := ""
	blank := true // before the first line, as after a blank one
	for _, l := range lines {
		inCode := fence != ""
		fence = nextFence(fence, l)
		opens := !inCode && fence != ""
		switch {
		case inCode && len(out) > 0:
			out[len(out)-1] += "\n" + l
			continue
		case inCode:
			out = append(out, l)
			continue
		case strings.TrimSpace(l) == "":
			blank = true
			continue
		}
		indented := l[0] == ' ' || l[0] == '\t'
		if n := listMarker(l); n > 0 {
			out = append(out, strings.TrimSpace(l[n:]))
		} else if len(out) > 0 && (indented || !blank || opens) {
			out[len(out)-1] += "\n" + strings.TrimPrefix(l, "  ")
		} else {
			out = append(out, strings.TrimSpace(l))
		}
		blank = false
	}
	return out
}

// decodeHandoff reads a handoff file: its frontmatter, rubi's title line,
// then the text.
func decodeHandoff(data []byte) (*Handoff, error) {
	text := normalizeHandoff(string(data))
	h := &Handoff{}
	if first, rest, _ := strings.Cut(text, "\n"); strings.TrimSpace(first) == "---" {
		lines := strings.Split(rest, "\n")
		end := -1
		for i, l := range lines {
			if strings.TrimSpace(l) == "---" {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("line 1: the frontmatter is not closed by a line \"---\"")
		}
		var fm struct {
			Created time.Time `yaml:"created"`
		}
		if err := yaml.Unmarshal([]byte(strings.Join(lines[:end], "\n")), &fm); err != nil {
			return nil, fmt.Errorf("invalid YAML frontmatter: %v", err)
		}
		h.Created = fm.Created.UTC()
		text = strings.Join(lines[end+1:], "\n")
	}
	// The title is rubi's; a text that starts otherwise (a file written
	// by hand) is kept whole.
	if first, rest, _ := strings.Cut(normalizeHandoff(text), "\n"); handoffTitleLine().MatchString(first) {
		text = rest
	}
	h.Text = normalizeHandoff(text)
	h.readFields()
	return h, nil
}
