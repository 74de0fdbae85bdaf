package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// The LoCoMo benchmark (Maharana et al., ACL 2024): long conversations
// between two speakers over many dated sessions, and questions whose
// evidence is a set of turns named by dia_id ("D3:7": session 3, turn 7).

// conversation is one LoCoMo sample.
type conversation struct {
	ID        string
	Sessions  []session
	Questions []question
}

// session is one dated sitting of a conversation.
type session struct {
	N        int
	DateTime string    // as written: "1:56 pm on 8 May, 2023"
	Time     time.Time // zero when DateTime does not parse
	Turns    []turn
}

// turn is one utterance.
type turn struct {
	Speaker string
	DiaID   string
	Text    string
	// Caption describes the photo the speaker shared, when there is one.
	Caption string
}

// question is one QA item; only questions with evidence are scored.
type question struct {
	Text     string
	Category int
	Evidence []string
}

// Categories of LoCoMo questions, by their number in the data.
var categoryNames = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

// loadLoCoMo reads the dataset: a JSON list of samples, each with a
// conversation (session_N turn lists and session_N_date_time strings) and
// its qa list. Sessions come out in order; a date without turns is no
// session.
func loadLoCoMo(r io.Reader) ([]conversation, error) {
	var raw []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
		QA           []struct {
			Question string   `json:"question"`
			Category int      `json:"category"`
			Evidence []string `json:"evidence"`
		} `json:"qa"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("decode LoCoMo: %w", err)
	}
	var out []conversation
	for i, s := range raw {
		c := conversation{ID: s.SampleID}
		if c.ID == "" {
			c.ID = fmt.Sprintf("sample-%d", i+1)
		}
		for key, val := range s.Conversation {
			rest, ok := strings.CutPrefix(key, "session_")
			if !ok || strings.HasSuffix(rest, "_date_time") {
				continue
			}
			n, err := strconv.Atoi(rest)
			if err != nil {
				continue
			}
			var turns []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
				Caption string `json:"blip_caption"`
			}
			if err := json.Unmarshal(val, &turns); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", c.ID, key, err)
			}
			if len(turns) == 0 {
				continue
			}
			se := session{N: n}
			if dt, ok := s.Conversation[key+"_date_time"]; ok {
				_ = json.Unmarshal(dt, &se.DateTime)
				se.Time = parseSessionTime(se.DateTime)
			}
			for _, t := range turns {
				se.Turns = append(se.Turns, turn{Speaker: t.Speaker, DiaID: t.DiaID, Text: t.Text, Caption: t.Caption})
			}
			c.Sessions = append(c.Sessions, se)
		}
		sort.Slice(c.Sessions, func(a, b int) bool { return c.Sessions[a].N < c.Sessions[b].N })
		for _, q := range s.QA {
			c.Questions = append(c.Questions, question{Text: q.Question, Category: q.Category, Evidence: normalizeEvidence(q.Evidence)})
		}
		out = append(out, c)
	}
	return out, nil
}

// parseSessionTime reads LoCoMo's "1:56 pm on 8 May, 2023".
func parseSessionTime(s string) time.Time {
	t, err := time.Parse("3:04 pm on 2 January, 2006", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

var diaID = regexp.MustCompile(`^D(\d+):(\d+)$`)

// normalizeEvidence cleans the few malformed evidence entries of the
// published data the same way for every system: "D8:6; D9:17" is two
// turns, "D:11:26" is D11:26, and an entry that names no turn ("D") is
// dropped. Ids that are well formed but name no turn are kept: they count
// as missed for everyone.
func normalizeEvidence(ev []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range ev {
		for _, part := range strings.FieldsFunc(e, func(r rune) bool { return r == ';' || r == ',' || unicode.IsSpace(r) }) {
			part = strings.Replace(part, "D:", "D", 1)
			if !diaID.MatchString(part) || seen[part] {
				continue
			}
			seen[part] = true
			out = append(out, part)
		}
	}
	return out
}

// turnTitle is a turn's title as an agent would write a note about it:
// the speaker and the start of what was said, cut at a word boundary.
func turnTitle(t turn) string {
	text := strings.Join(strings.Fields(t.Text), " ")
	if text == "" {
		text = t.Caption
	}
	const max = 80
	if len(text) > max {
		cut := strings.LastIndexByte(text[:max], ' ')
		if cut < max/2 {
			cut = max
			for cut > 0 && text[cut]&0xC0 == 0x80 {
				cut--
			}
		}
		text = strings.TrimRight(text[:cut], " ,.;:") + "…"
	}
	return t.Speaker + ": " + text
}

// turnBody is a turn's note body: who spoke and when, what was said, and
// the photo shared.
func turnBody(t turn, s session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s (session %d, %s):\n%s", t.Speaker, s.DateTime, s.N, t.DiaID, t.Text)
	if t.Caption != "" {
		fmt.Fprintf(&b, "\n[%s shared %s]", t.Speaker, t.Caption)
	}
	return b.String()
}

// turnID is a turn's node id: a slug of its dia_id ("D3:7" → "turn-d3-7").
func turnID(dia string) string {
	return "turn-" + strings.ToLower(strings.ReplaceAll(dia, ":", "-"))
}
