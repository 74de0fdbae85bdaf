package knowledge

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// realHandoffs are handoffs as agents and people write them: the tool's
// own sections with prose where a list was expected, nested lists, code,
// sections rubi does not know, Windows line ends, other languages.
var realHandoffs = []struct{ name, text string }{
	{"issue example", "## Goal\n\nAdd a second coupon type\n\n## Next\n\nWire the endpoint zebra-42\n\n## Notes\nsomething else"},
	{"lists", "## Goal\nShip coupons\n\n## Done\n- percent coupons\n- fixed coupons\n\n## In progress\n- refunds\n\n## Next\n- Wire the endpoint\n- Add a test\n  for refunds\n\n## Decisions\n- amounts in cents\n\n## Files\n- store/store.go\n- web/api.js"},
	{"prose only", "Halfway through the coupon work.\n\nThe endpoint is next; the refund path is untested."},
	{"mixed", "## Next\n\nFirst the endpoint, because the UI waits on it:\n\n- wire POST /coupons\n- return 409 on a duplicate code\n\nThen ask Ana about the refund rules.\n\n## Done\n* parser\n1. store\n2) cache"},
	{"nested lists", "## Done\n- coupons\n  - percent\n    - capped at 100%\n  - fixed\n\t- tab-indented child\n- refunds\n\n## Next\n- [ ] checkbox item\n- [x] done item"},
	{"fenced code", "## Goal\nFix the double discount\n\n## Notes\nThe failing call:\n\n```go\n// ## Next is not a heading in here\nfunc apply(c Coupon) {\n\n    total -= c.Amount\n}\n```\n\n~~~\n## Done\n- not an item\n~~~\n\n## Next\n- test apply twice"},
	{"unknown headings", "# Coupon work\n\nSome context before any section.\n\n## Goal\nShip it\n\n## Risks\nThe refund path shares the total.\n\n### Sub-risk\nRounding.\n\n## Open questions\n- who owns checkout?\n\n## Next\n- ask"},
	{"crlf", "## Goal\r\nShip coupons\r\n\r\n## Next\r\nWire the endpoint\r\n- then the test\r\n"},
	{"non-ASCII", "## Objetivo\n\nCupom de 20% — aplicar só uma vez ✓\n\n## Next\n- 日本語のテスト\n- Ελληνικά\n\n## Notes\nemoji 🎟️ and ß"},
	{"indented start", "    indented first line, kept as written\n\n## Next\n- go on"},
	{"repeated section", "## Next\n- one\n\n## Notes\nmiddle\n\n## Next\n- two"},
	{"heading-like lines", "## Goal\n##Goal without a space\n #### deep\n## \n##\n- dash item outside any section?\n\n## Notes\n---\nnot a frontmatter, a rule\n---"},
}

var knownHeading = regexp.MustCompile(`(?i)^## (Goal|Done|In progress|Next|Decisions|Files|Notes)\s*$`)

// normalized is what a handoff text keeps: the text itself, with Windows
// line ends made \n, blank lines before it and white space after it
// dropped. Nothing inside changes.
func normalized(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimRight(s, " \t\n\r")
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimSpace(s[:i]) != "" {
			return s
		}
		s = s[i+1:]
	}
}

// Every real-looking handoff comes back whole, in order: from its file,
// from LastHandoff's text, and from the markdown the conversation memory
// keeps; saving what LastHandoff gave back (an agent copying the last
// handoff into a new one) keeps the same text again.
func TestHandoffRoundTrip(t *testing.T) {
	for _, c := range realHandoffs {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			want := normalized(c.text)
			h := ParseHandoff(c.text)
			h.Created = t0
			p, err := s.SaveHandoff(h)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			file := "---\ncreated: 2026-10-17T15:30:00Z\n---\n# Handoff 2026-10-17 15:30 UTC\n\n" + want + "\n"
			if string(data) != file {
				t.Errorf("the file holds\n%q\nwant\n%q", data, file)
			}
			last, err := s.LastHandoff()
			if err != nil {
				t.Fatal(err)
			}
			if last.Text != want {
				t.Errorf("LastHandoff's text\n%q\nwant\n%q", last.Text, want)
			}
			if md := last.Markdown(); md != "# Handoff 2026-10-17 15:30 UTC\n\n"+want+"\n" {
				t.Errorf("markdown\n%q", md)
			}
			// The whole file, frontmatter and title included, pasted back.
			again := ParseHandoff(string(data))
			if again.Text != want {
				t.Errorf("the file pasted as a new handoff reads as\n%q\nwant\n%q", again.Text, want)
			}
		})
	}
}

// The fields are read from the text and lose none of its words either:
// prose under a list section is an item, unknown sections are notes.
func TestHandoffFieldsKeepEveryWord(t *testing.T) {
	h := ParseHandoff(realHandoffs[0].text)
	if h.Goal != "Add a second coupon type" || !slices.Equal(h.Next, []string{"Wire the endpoint zebra-42"}) || h.Notes != "something else" {
		t.Errorf("issue example: %+v", h)
	}
	for _, c := range realHandoffs {
		h := ParseHandoff(c.text)
		fields := strings.Join(slices.Concat([]string{h.Goal, h.Notes}, h.Done, h.InProgress, h.Next, h.Decisions, h.Files), "\n")
		var prose []string // the text less the headings of the sections rubi knows
		for l := range strings.SplitSeq(h.Text, "\n") {
			if !knownHeading.MatchString(l) {
				prose = append(prose, l)
			}
		}
		for _, w := range strings.Fields(strings.Join(prose, "\n")) {
			if w == "##" || w == "-" || w == "*" || w == "1." || w == "2)" || strings.HasPrefix(w, "```") || w == "~~~" {
				continue
			}
			if !strings.Contains(fields, w) {
				t.Errorf("%s: %q is in the text but in no field: %+v", c.name, w, h)
			}
		}
	}
	h = ParseHandoff(realHandoffs[3].text) // mixed
	if want := []string{"First the endpoint, because the UI waits on it:", "wire POST /coupons", "return 409 on a duplicate code", "Then ask Ana about the refund rules."}; !slices.Equal(h.Next, want) {
		t.Errorf("mixed Next: %q", h.Next)
	}
	if want := []string{"parser", "store", "cache"}; !slices.Equal(h.Done, want) {
		t.Errorf("mixed Done: %q", h.Done)
	}
	h = ParseHandoff(realHandoffs[5].text) // fenced code
	if !slices.Equal(h.Next, []string{"test apply twice"}) || len(h.Done) != 0 || !strings.Contains(h.Notes, "## Next is not a heading") {
		t.Errorf("a heading inside a code block was read as one: %+v", h)
	}
}

// A handoff made of fields (the command line's flags, a JSON object) is
// written as their sections and reads back as the same fields; text and
// fields that disagree are refused rather than one dropped.
func TestHandoffFromFields(t *testing.T) {
	s := newStore(t)
	h := Handoff{Goal: "Ship coupons", Done: []string{"fixed the bug", "two\nlines"}, Next: []string{"tests"},
		Files: []string{"src/cart.ts"}, Notes: "free text", Created: t0}
	if _, err := s.SaveHandoff(h); err != nil {
		t.Fatal(err)
	}
	last, err := s.LastHandoff()
	if err != nil {
		t.Fatal(err)
	}
	want := "## Goal\n\nShip coupons\n\n## Done\n\n- fixed the bug\n- two\n  lines\n\n## Next\n\n- tests\n\n## Files\n\n- src/cart.ts\n\n## Notes\n\nfree text"
	if last.Text != want || last.Goal != h.Goal || !slices.Equal(last.Done, h.Done) || last.Notes != h.Notes {
		t.Errorf("from fields: %+v\ntext %q", last, last.Text)
	}
	// The JSON `rubi handoff last --json` prints saves again as it is.
	if _, err := s.SaveHandoff(*last); err != nil {
		t.Errorf("a handoff as LastHandoff returned it: %v", err)
	}
	bad := Handoff{Text: "## Goal\nA", Goal: "B", Created: t0}
	if _, err := s.SaveHandoff(bad); err == nil || !strings.Contains(err.Error(), "goal") {
		t.Errorf("text and fields that disagree: %v", err)
	}
	if _, err := s.SaveHandoff(Handoff{Created: t0}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty handoff: %v", err)
	}
}

// Handoffs lists every handoff, the last first, as LastHandoff orders
// them; one that cannot be read is told and left out, not the end of the
// listing.
func TestHandoffsListsEveryHandoff(t *testing.T) {
	s := newStore(t)
	var paths []string
	for i, goal := range []string{"first", "second", "third"} {
		p, err := s.SaveHandoff(Handoff{Goal: goal, Created: t0.Add(time.Duration(i-3) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	damaged := filepath.Join(filepath.Dir(paths[0]), t0.Add(-5*time.Hour).Format("2006-01-02-1504")+".md")
	if err := os.WriteFile(damaged, []byte("---\ncreated: [not a time\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var bad []string
	hs, err := s.Handoffs(0, func(p string, _ error) { bad = append(bad, p) })
	if err != nil {
		t.Fatal(err)
	}
	var goals []string
	for _, h := range hs {
		goals = append(goals, h.Goal)
	}
	if !slices.Equal(goals, []string{"third", "second", "first"}) || !slices.Equal(bad, []string{damaged}) || hs[0].Path != paths[2] {
		t.Errorf("goals %q, unreadable %q, last %+v", goals, bad, hs[0])
	}
	if hs, err := s.Handoffs(2, nil); err != nil || len(hs) != 2 || hs[1].Goal != "second" {
		t.Errorf("limit 2: %v %+v", err, hs)
	}
	last, err := s.LastHandoff()
	if err != nil || last.Goal != "third" {
		t.Errorf("LastHandoff: %v %+v", err, last)
	}
}
