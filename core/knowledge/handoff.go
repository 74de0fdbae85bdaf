package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/rubi-dev/rubi/core/store"
)

// Handoff records where a session left off, for the next one.
type Handoff struct {
	Goal       string   `json:"goal,omitempty"`
	Done       []string `json:"done,omitempty"`
	InProgress []string `json:"in_progress,omitempty"`
	Next       []string `json:"next,omitempty"`
	Decisions  []string `json:"decisions,omitempty"`
	Files      []string `json:"files,omitempty"`
	Notes      string   `json:"notes,omitempty"`
	// Created defaults to now.
	Created time.Time `json:"created"`
	// Path is the handoff's file (absolute); set by SaveHandoff and
	// LastHandoff.
	Path string `json:"path,omitempty"`
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
	return p, nil
}

// LastHandoff returns the most recent handoff: latest minute, then highest
// suffix. ErrNotFound when there is none.
func (s *Store) LastHandoff() (*Handoff, error) {
	dir := filepath.Join(s.rubiDir, "handoffs")
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	type cand struct {
		stamp string
		n     int
		name  string
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
		cs = append(cs, cand{m[1], n, de.Name()})
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("no handoff in %s: %w", dir, ErrNotFound)
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].stamp != cs[j].stamp {
			return cs[i].stamp < cs[j].stamp
		}
		return cs[i].n < cs[j].n
	})
	p := filepath.Join(dir, cs[len(cs)-1].name)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	h, err := decodeHandoff(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	h.Path = p
	return h, nil
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

// Markdown is the handoff as its file shows it, without the frontmatter:
// a title with its time, then its sections.
func (h *Handoff) Markdown() string {
	var b strings.Builder
	b.WriteString("# Handoff " + h.Created.UTC().Format("2006-01-02 15:04") + " UTC\n")
	if g := strings.TrimSpace(h.Goal); g != "" {
		b.WriteString("\n## Goal\n\n" + g + "\n")
	}
	for _, sec := range handoffSections {
		items := *sec.get(h)
		var lines []string
		for _, it := range items {
			it = strings.TrimSpace(strings.ReplaceAll(it, "\r\n", "\n"))
			if it == "" {
				continue
			}
			// Continuation lines are indented so that they stay inside
			// their item.
			lines = append(lines, "- "+strings.ReplaceAll(it, "\n", "\n  "))
		}
		if len(lines) > 0 {
			b.WriteString("\n## " + sec.title + "\n\n" + strings.Join(lines, "\n") + "\n")
		}
	}
	if n := strings.TrimSpace(h.Notes); n != "" {
		b.WriteString("\n## Notes\n\n" + n + "\n")
	}
	return b.String()
}

// ParseHandoff reads a handoff written as markdown: the sections of its
// file (## Goal, ## Done, ## In progress, ## Next, ## Decisions, ## Files,
// ## Notes), in any order and any of them. Text outside a section, or
// markdown without them, is kept as its notes.
func ParseHandoff(text string) Handoff {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	body := text
	var pre []string
	for l := range strings.SplitSeq(text, "\n") {
		if t, ok := strings.CutPrefix(l, "## "); ok && isHandoffSection(strings.TrimSpace(t)) {
			break
		}
		pre = append(pre, l)
	}
	rest := strings.TrimSpace(strings.TrimPrefix(text, strings.Join(pre, "\n")))
	h, _ := decodeHandoff([]byte(rest)) // without a frontmatter, it cannot fail
	if lead := strings.TrimSpace(strings.Join(pre, "\n")); lead != "" && !strings.HasPrefix(lead, "# Handoff") {
		h.Notes = strings.TrimSpace(lead + "\n\n" + h.Notes)
	}
	if h.Goal == "" && h.Notes == "" && len(h.Done)+len(h.InProgress)+len(h.Next)+len(h.Decisions)+len(h.Files) == 0 {
		h.Notes = body
	}
	return *h
}

func decodeHandoff(data []byte) (*Handoff, error) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	h := &Handoff{}
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		end := -1
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
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
		if err := yaml.Unmarshal([]byte(strings.Join(lines[1:end], "\n")), &fm); err != nil {
			return nil, fmt.Errorf("invalid YAML frontmatter: %v", err)
		}
		h.Created = fm.Created.UTC()
		lines = lines[end+1:]
	}
	section := ""
	var text []string
	flush := func() {
		body := strings.TrimSpace(strings.Join(text, "\n"))
		text = nil
		switch section {
		case "Goal":
			h.Goal = body
		case "Notes":
			h.Notes = body
		default:
			for _, sec := range handoffSections {
				if sec.title == section {
					*sec.get(h) = listItems(body)
				}
			}
		}
	}
	for _, l := range lines {
		if t, ok := strings.CutPrefix(l, "## "); ok && section != "Notes" && isHandoffSection(strings.TrimSpace(t)) {
			flush()
			section = strings.TrimSpace(t)
			continue
		}
		if section != "" {
			text = append(text, l)
		}
	}
	flush()
	return h, nil
}

func isHandoffSection(t string) bool {
	if t == "Goal" || t == "Notes" {
		return true
	}
	for _, sec := range handoffSections {
		if sec.title == t {
			return true
		}
	}
	return false
}

// listItems reads "- item" lines, with indented continuation lines.
func listItems(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(l, "- "):
			out = append(out, strings.TrimSpace(l[2:]))
		case strings.HasPrefix(l, "  ") && len(out) > 0:
			out[len(out)-1] += "\n" + strings.TrimPrefix(l, "  ")
		case strings.TrimSpace(l) != "" && len(out) > 0:
			out[len(out)-1] += "\n" + l
		}
	}
	return out
}
