package memory

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// quickChunk reads a chunk's frontmatter as encode writes it: one
// "key: value" line per field, a value plain or in single quotes, the
// tags' and entities' lists as block sequences, indented by two. It
// reports false for anything else (double quotes, a block scalar, a
// comment, a key it does not know or one given twice, a value YAML would
// read as null), which the caller reads with the YAML decoder instead: a
// chunk file may have been edited by hand. What it reads is what the YAML
// decoder reads (FuzzQuickChunk). A recall shows a handful of chunks and
// an index run reads every changed one; decoding each with YAML took
// ten times as long.
func quickChunk(front []byte) (*Chunk, bool) {
	if bytes.ContainsAny(front, "\r\t") || !utf8.Valid(front) {
		return nil, false
	}
	c := &Chunk{}
	seen := map[string]bool{}
	top := ""          // the last key at the margin
	var list *[]string // the block sequence being read, if any
	listIndent := 0
	lines := strings.Split(strings.TrimSuffix(string(front), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if rest, ok := strings.CutPrefix(line, strings.Repeat(" ", listIndent)+"- "); ok && list != nil {
			v, ok := scalar(rest)
			if !ok {
				return nil, false
			}
			*list = append(*list, v)
			continue
		}
		list = nil
		indent := len(line) - len(strings.TrimLeft(line, " "))
		key, value, ok := strings.Cut(line[indent:], ":")
		at := line[:indent+len(key)] // the key with its indent
		if !ok || key == "" || seen[at] {
			return nil, false
		}
		seen[at] = true
		if indent == 0 {
			top = key
		}
		if value == "" {
			// A list, or the entities' map of lists.
			switch {
			case indent == 0 && key == "tags":
				list, listIndent = &c.Tags, 2
			case indent == 0 && key == "entities":
				if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "  ") {
					return nil, false // an empty map is written {}
				}
			case indent == 2 && top == "entities":
				if list = c.Entities.list(key); list == nil {
					return nil, false
				}
				listIndent = 4
			default:
				return nil, false
			}
			// The list holds an item at least (encode leaves empty ones
			// out, and YAML reads "key:" alone as null).
			if list != nil && (i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], strings.Repeat(" ", listIndent)+"- ")) {
				return nil, false
			}
			continue
		}
		if indent != 0 {
			return nil, false
		}
		v, ok := strings.CutPrefix(value, " ")
		if !ok {
			return nil, false
		}
		switch key {
		case "seq", "lines":
			n, ok := count(v)
			if !ok {
				return nil, false
			}
			if key == "seq" {
				c.Seq = n
			} else {
				c.Lines = n
			}
			continue
		case "created":
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil || !plain(v) {
				return nil, false
			}
			c.Created = t
			continue
		}
		s, ok := scalar(v)
		if !ok {
			return nil, false
		}
		switch key {
		case "id":
			c.ID = s
		case "type":
			c.Type = s
		case "summary":
			c.Summary = s
		case "project":
			c.Project = s
		case "domain":
			c.Domain = s
		case "ticket":
			c.Ticket = s
		case "session":
			c.Session = s
		case "hash":
			c.Hash = s
		default:
			return nil, false
		}
	}
	return c, true
}

// list returns the list of an entity kind's key, nil for another key.
func (e *Entities) list(key string) *[]string {
	switch key {
	case "files":
		return &e.Files
	case "versions":
		return &e.Versions
	case "modules":
		return &e.Modules
	case "tickets":
		return &e.Tickets
	case "functions":
		return &e.Functions
	}
	return nil
}

// count reads a non-negative decimal number as YAML writes one: digits,
// no leading zero but for 0 itself.
func count(v string) (int, bool) {
	if v == "" || len(v) > 1 && v[0] == '0' || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// scalar reads a string value: in single quotes (two standing for one),
// in double quotes without an escape (as numbers written as text are), or
// plain, as plain reports it safe.
func scalar(v string) (string, bool) {
	if q, ok := strings.CutPrefix(v, `"`); ok {
		q, ok = strings.CutSuffix(q, `"`)
		return q, ok && !strings.ContainsAny(q, `"\`) && printable(q)
	}
	if q, ok := strings.CutPrefix(v, "'"); ok {
		q, ok = strings.CutSuffix(q, "'")
		if !ok || strings.Contains(strings.ReplaceAll(q, "''", ""), "'") || !printable(q) {
			return "", false
		}
		return strings.ReplaceAll(q, "''", "'"), true
	}
	return v, plain(v)
}

// plain says a plain scalar is read as the same text by YAML: no
// indicator first, no ": " or " #" inside, no space at either end, and
// not a null.
func plain(v string) bool {
	if v == "" || v == "~" || strings.EqualFold(v, "null") || strings.ContainsAny(v[:1], "-?:,[]{}#&*!|>'\"%@` ") ||
		strings.HasSuffix(v, " ") || strings.HasSuffix(v, ":") || strings.Contains(v, ": ") || strings.Contains(v, " #") {
		return false
	}
	return printable(v)
}

// printable says v holds no character YAML writes escaped or reads as a
// line break (U+2028, U+2029).
func printable(v string) bool {
	for _, r := range v {
		if r < 0x20 || r == 0x7f || r == 0xfeff || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029 {
			return false
		}
	}
	return true
}
