package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core/text"
)

func itoa(i int) string { return strconv.Itoa(i) }

// typeAliases maps accepted type names, including the Node.js version's
// Portuguese ones, to the canonical type.
var typeAliases = map[string]string{
	"decision": TypeDecision, "decisao": TypeDecision,
	"bug":    TypeBug,
	"gotcha": TypeGotcha, "armadilha": TypeGotcha,
	"concept": TypeConcept, "conceito": TypeConcept,
	"howto": TypeHowto, "how-to": TypeHowto, "como-fazer": TypeHowto,
	"preference": TypePreference, "preferencia": TypePreference,
	"task": TypeTask, "tarefa": TypeTask,
	"note": TypeNote, "nota": TypeNote,
}

func canonicalType(t string) (string, bool) {
	c, ok := typeAliases[text.Fold(strings.TrimSpace(t))]
	return c, ok
}

var statusAliases = map[string]string{
	"active": StatusActive, "ativo": StatusActive,
	"superseded": StatusSuperseded, "substituido": StatusSuperseded,
	"retracted": StatusRetracted, "retratado": StatusRetracted, "removido": StatusRetracted,
}

func canonicalStatus(s string) (string, bool) {
	c, ok := statusAliases[text.Fold(strings.TrimSpace(s))]
	return c, ok
}

// ByImportance orders nodes for a list without a query: critical first,
// then high, medium and low, the most recently updated first within a
// level, then by id.
func ByImportance(a, b *Node) int {
	if d := importanceRank[b.Importance] - importanceRank[a.Importance]; d != 0 {
		return d
	}
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

var importanceRank = map[string]int{
	ImportanceLow: 1, ImportanceMedium: 2, ImportanceHigh: 3, ImportanceCritical: 4,
}

var importanceAliases = map[string]string{
	"critical": ImportanceCritical, "critica": ImportanceCritical,
	"high": ImportanceHigh, "alta": ImportanceHigh,
	"medium": ImportanceMedium, "media": ImportanceMedium, "normal": ImportanceMedium,
	"low": ImportanceLow, "baixa": ImportanceLow,
}

func canonicalImportance(s string) (string, bool) {
	c, ok := importanceAliases[text.Fold(strings.TrimSpace(s))]
	return c, ok
}

// validateID checks a caller's id: it becomes a file name, so it must be a
// plain slug and nothing a path could be made of.
func validateID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("id is empty")
	case len(id) > MaxIDLen:
		return fmt.Errorf("id %q is %d bytes; the limit is %d", trunc(id, 40), len(id), MaxIDLen)
	case strings.ContainsAny(id, `/\`) || strings.Contains(id, ".."):
		return fmt.Errorf("id %q must not contain path separators or '..'", trunc(id, 40))
	case id[0] == '-' || id[len(id)-1] == '-':
		return fmt.Errorf("id %q must not start or end with '-'", trunc(id, 40))
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("id %q may only contain lowercase letters a-z, digits and '-'", trunc(id, 40))
		}
	}
	return nil
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// slug turns text into [a-z0-9-]: accents folded, anything else a '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range text.Fold(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

// makeID builds the id of a node from its type and title, at most max
// bytes, cut at a word boundary. Titles with nothing sluggable (all CJK,
// say) get a short hash so that the id stays stable.
func makeID(typ, title string, max int) string {
	sl := slug(title)
	if sl == "" {
		sum := sha256.Sum256([]byte(normTitle(title)))
		sl = hex.EncodeToString(sum[:4])
	}
	id := typ + "-" + sl
	if len(id) > max {
		id = id[:max]
		if i := strings.LastIndexByte(id, '-'); i > len(typ) {
			id = id[:i]
		}
		id = strings.TrimRight(id, "-")
	}
	return id
}

// normTitle is the identity of a title: folded, lowercase, punctuation and
// runs of spaces collapsed to one space. "Use JWT — instead of Session!"
// and "use jwt instead of session" are the same title.
func normTitle(s string) string {
	var b strings.Builder
	space := false
	for _, r := range text.Fold(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}

// oneLine collapses whitespace, newlines included, to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cleanRel normalizes a link relation: lowercase, spaces to '-', only
// [a-z0-9_-]; "" becomes "related".
func cleanRel(rel string) (string, error) {
	r := strings.ReplaceAll(strings.ToLower(oneLine(text.Fold(rel))), " ", "-")
	if r == "" {
		return "related", nil
	}
	if len(r) > 40 {
		return "", fmt.Errorf("link relation %q is longer than 40 bytes", trunc(rel, 40))
	}
	for _, c := range r {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", fmt.Errorf("link relation %q may only contain letters, digits, '-' and '_'", trunc(rel, 40))
		}
	}
	return r, nil
}

// cleanRef checks free text that ends up in a wiki-link or a YAML list:
// one line, no wiki-link syntax.
func cleanRef(what, s string) (string, error) {
	v := strings.TrimSpace(s)
	switch {
	case v == "":
		return "", fmt.Errorf("%s is empty", what)
	case len(v) > 300:
		return "", fmt.Errorf("%s %q is longer than 300 bytes", what, trunc(v, 40))
	case strings.ContainsAny(v, "\n\r\x00") || strings.Contains(v, "[[") || strings.Contains(v, "]]") || strings.Contains(v, "|"):
		return "", fmt.Errorf("%s %q must be one line without '[[', ']]' or '|'", what, trunc(v, 40))
	case !utf8.ValidString(v):
		// Written into the frontmatter, it would become !!binary.
		return "", fmt.Errorf("%s %q is not UTF-8 text", what, trunc(v, 40))
	}
	return v, nil
}

// cleanFile turns a caller's file path into a clean project-relative path
// with forward slashes, refusing anything outside the root.
func cleanFile(root, p string) (string, error) {
	v := strings.TrimSpace(p)
	if v == "" {
		return "", fmt.Errorf("file path is empty")
	}
	if strings.ContainsAny(v, "\n\r\x00") || strings.Contains(v, "[[") || strings.Contains(v, "]]") || strings.Contains(v, "|") {
		return "", fmt.Errorf("file %q: must be one line without '[[', ']]' or '|'", trunc(v, 60))
	}
	if filepath.IsAbs(v) {
		rel, err := filepath.Rel(root, v)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("file %q: must be a path inside the project", trunc(v, 60))
		}
		v = rel
	}
	v = strings.ReplaceAll(v, `\`, "/")
	if path.IsAbs(v) || len(v) >= 2 && v[1] == ':' {
		return "", fmt.Errorf("file %q: must be a path inside the project", trunc(p, 60))
	}
	c := path.Clean(v)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("file %q: must be a path inside the project", trunc(p, 60))
	}
	return c, nil
}

// cleanTag makes a tag Obsidian accepts: no leading '#', no spaces.
func cleanTag(t string) string {
	t = strings.TrimLeft(strings.TrimSpace(t), "#")
	return strings.Join(strings.Fields(t), "-")
}

// addUnique appends the values of add missing from list.
func addUnique[T comparable](list []T, add ...T) []T {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}
