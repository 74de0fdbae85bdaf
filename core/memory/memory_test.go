package memory

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s := Open(filepath.Join(t.TempDir(), "shop"))
	now := time.Date(2026, 11, 29, 15, 30, 0, 0, time.UTC)
	s.Now = func() time.Time { now = now.Add(time.Minute); return now }
	return s
}

func save(t *testing.T, s *Store, in Input) *Saved {
	t.Helper()
	r, err := s.Save(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSaveKeepsATypedChunk(t *testing.T) {
	s := newStore(t)
	r := save(t, s, Input{Type: "debug", Tags: []string{"Checkout", "checkout"}, Domain: "payments", Ticket: "SHOP-42",
		Content: "# Coupon bug\n\nApply() ran before total() in internal/discount/coupon.go (v1.4.2)."})
	c, err := s.Get(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Type != TypeDebug || c.Project != "shop" || c.Domain != "payments" || c.Ticket != "SHOP-42" || strings.Join(c.Tags, ",") != "checkout" {
		t.Errorf("%+v", c)
	}
	if c.Summary != "Coupon bug" || c.Lines != 3 || !strings.HasPrefix(c.ID, "20261129-153100-") {
		t.Errorf("summary %q, lines %d, id %s", c.Summary, c.Lines, c.ID)
	}
	if strings.Join(c.Entities.Files, ",") != "internal/discount/coupon.go" || strings.Join(c.Entities.Versions, ",") != "v1.4.2" ||
		strings.Join(c.Entities.Functions, ",") != "Apply,total" {
		t.Errorf("entities %+v", c.Entities)
	}
	if filepath.Dir(c.Path) != filepath.Join(s.root, ".rubi", "sessions") {
		t.Errorf("path %s", c.Path)
	}
	// The default type is session.
	r = save(t, s, Input{Content: "notes of the afternoon"})
	if c, _ := s.Get(r.ID); c.Type != TypeSession {
		t.Errorf("default type %q", c.Type)
	}
}

func TestSaveRefusesBadInput(t *testing.T) {
	s := newStore(t)
	s.MaxSize = 1024
	for _, tc := range []struct {
		in   Input
		want string
	}{
		{Input{Type: "diary", Content: "x"}, `unknown chunk type "diary": use snapshot, session, debug`},
		{Input{Content: "  \n "}, "the chunk is empty"},
		{Input{Content: strings.Repeat("x", 2000)}, "the chunk is 2 KiB, over the limit of 1 KiB"},
		{Input{Project: "../../etc", Content: "x"}, `project "../../etc": use a plain name`},
		{Input{Project: "a/b", Content: "x"}, `project "a/b"`},
		{Input{Domain: `..\x`, Content: "x"}, `domain "..\\x"`},
	} {
		_, err := s.Save(context.Background(), tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.in, err, tc.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(s.root, ".rubi", "sessions")); len(entries) != 0 {
		t.Errorf("a refused chunk left files: %v", entries)
	}
	if _, err := s.Get("../../x"); err == nil {
		t.Error("Get accepted a path as an id")
	}
}

func TestDuplicatesAreFoundWhateverTheCaseAndSpacing(t *testing.T) {
	s := newStore(t)
	first := save(t, s, Input{Content: "The Coupon is applied twice\nwhen the cart changes."})
	again := save(t, s, Input{Type: "debug", Content: "the coupon   is APPLIED twice when\n\nthe cart changes.  "})
	if !again.Duplicate || again.ID != first.ID {
		t.Errorf("duplicate: %+v, first %+v", again, first)
	}
	if all, _ := s.List(Filter{}); len(all) != 1 {
		t.Errorf("%d chunks after a duplicate", len(all))
	}
}

func TestPeekReadsExactLines(t *testing.T) {
	s := newStore(t)
	r := save(t, s, Input{Content: "one\ntwo\nthree\nfour\nfive"})
	for _, tc := range []struct {
		from, to int
		want     string
	}{{2, 4, "two\nthree\nfour"}, {1, 1, "one"}, {4, 0, "four\nfive"}, {3, 99, "three\nfour\nfive"}} {
		got, total, err := s.Peek(context.Background(), r.ID, tc.from, tc.to)
		if err != nil || got != tc.want || total != 5 {
			t.Errorf("peek %d:%d = %q (%d lines), %v; want %q", tc.from, tc.to, got, total, err, tc.want)
		}
	}
	if _, _, err := s.Peek(context.Background(), r.ID, 6, 7); err == nil || !strings.Contains(err.Error(), "has 5 lines") {
		t.Errorf("past the end: %v", err)
	}
	if _, _, err := s.Peek(context.Background(), r.ID, 4, 2); err == nil {
		t.Error("4:2 accepted")
	}
	if _, _, err := s.Peek(context.Background(), "20261129-000000-deadbeef", 1, 2); err == nil || !strings.Contains(err.Error(), "no such chunk") {
		t.Errorf("missing chunk: %v", err)
	}
}

func TestGrepByPatternAndWithTypos(t *testing.T) {
	s := newStore(t)
	a := save(t, s, Input{Project: "shop", Domain: "payments", Content: "input validation failed for the coupon\nwe receive the webhook twice"})
	b := save(t, s, Input{Project: "blog", Content: "business rules live in rules.go\nno validation here"})

	res, err := s.Grep(`coupon|webhook`, GrepOptions{})
	if err != nil || res.Total != 2 || res.Matches[0].ID != a.ID || res.Matches[0].Line != 1 || res.Matches[1].Line != 2 {
		t.Fatalf("regex: %+v %v", res, err)
	}
	for _, tc := range []struct {
		pattern string
		want    string
	}{{"validaton", "validation"}, {"recieve", "receive"}, {"buisness", "business"}, {"Validátion faild", "validation"}} {
		res, err := s.Grep(tc.pattern, GrepOptions{Fuzzy: true})
		if err != nil || res.Total == 0 || !strings.Contains(strings.ToLower(res.Matches[0].Text), tc.want) {
			t.Errorf("fuzzy %q: %+v %v", tc.pattern, res, err)
		}
	}
	// A short word allows no typo; the threshold can be lowered.
	if res, _ := s.Grep("lvie", GrepOptions{Fuzzy: true}); res.Total != 0 {
		t.Errorf("4-letter word with a typo matched: %+v", res)
	}
	if res, _ := s.Grep("validaton", GrepOptions{Fuzzy: true, MaxTypos: 1}); res.Total != 2 {
		t.Errorf("explicit threshold: %+v", res)
	}
	if res, _ := s.Grep("valdaton", GrepOptions{Fuzzy: true, MaxTypos: 1}); res.Total != 0 {
		t.Errorf("two typos under a threshold of one: %+v", res)
	}
	// Filters apply before the search and its limit.
	res, _ = s.Grep("validation", GrepOptions{Filter: Filter{Project: "BLOG"}, Limit: 1})
	if res.Total != 1 || res.Chunks != 1 || res.Matches[0].ID != b.ID {
		t.Errorf("project filter: %+v", res)
	}
	res, _ = s.Grep("validation", GrepOptions{Limit: 1})
	if res.Total != 2 || len(res.Matches) != 1 {
		t.Errorf("limit: %+v", res)
	}
	if _, err := s.Grep("(unclosed", GrepOptions{}); err == nil || !strings.Contains(err.Error(), "fuzzy") {
		t.Errorf("bad regex: %v", err)
	}
	// Go's regular expressions do not backtrack: a pathological pattern
	// costs linear time.
	save(t, s, Input{Content: strings.Repeat("a", 5000) + "!"})
	if res, err := s.Grep(`(a+)+$`, GrepOptions{}); err != nil || res.Total != 0 {
		t.Errorf("pathological pattern: %+v %v", res, err)
	}
}

func TestFiltersAreInclusiveAndCaseInsensitive(t *testing.T) {
	s := newStore(t)
	day := func(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }
	save(t, s, Input{Created: day(1), Content: "first: SHOP-7 in cart.ts"})
	save(t, s, Input{Created: day(2), Content: "second: nothing named"})
	save(t, s, Input{Created: day(3), Type: "debug", Content: "third: Cart.TS again"})
	list := func(f Filter) string {
		cs, err := s.List(f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.Summary[:strings.IndexByte(c.Summary, ':')])
		}
		return strings.Join(out, ",")
	}
	if got := list(Filter{Since: day(1), Until: day(2)}); got != "second,first" {
		t.Errorf("inclusive bounds: %s", got)
	}
	if got := list(Filter{Entity: "cart.ts"}); got != "third,first" {
		t.Errorf("entity: %s", got)
	}
	if got := list(Filter{Entity: "shop-7"}); got != "first" {
		t.Errorf("ticket entity: %s", got)
	}
	if got := list(Filter{Type: "DEBUG"}); got != "third" {
		t.Errorf("type: %s", got)
	}
}

func TestEntitiesLeaveOutLookAlikes(t *testing.T) {
	e := Extract("Read it as UTF-8 (not ISO-8859-1), hash with SHA-256, then fix PAY-1234 in github.com/acme/pay/v2 " +
		"and src/checkout/Cart.tsx; see RFC-7231. Call parseConfig(path) if (x) { return(1) }. Upgrade to v1.31.0.")
	if got := strings.Join(e.Tickets, ","); got != "PAY-1234" {
		t.Errorf("tickets %q", got)
	}
	if got := strings.Join(e.Modules, ","); got != "github.com/acme/pay/v2" {
		t.Errorf("modules %q", got)
	}
	if got := strings.Join(e.Files, ","); got != "src/checkout/Cart.tsx" {
		t.Errorf("files %q", got)
	}
	if got := strings.Join(e.Functions, ","); got != "parseConfig" {
		t.Errorf("functions %q", got)
	}
	if got := strings.Join(e.Versions, ","); got != "v1.31.0" {
		t.Errorf("versions %q", got)
	}
}

// Chunks saved in the same second (a conversation saved a turn a call,
// or imported with one date) keep the order they were saved in: each
// takes the next place in its session, and List shows them newest first
// in that order, whatever their ids.
func TestSaveKeepsTheOrderOfASession(t *testing.T) {
	s := newStore(t)
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	turns := []string{"Caroline: I went to the support group yesterday.", "Melanie: How did it go?", "Caroline: It was powerful.", "Melanie: I'm so glad!", "Caroline: Thanks, Mel.", "Melanie: Painting next week?"}
	var ids []string
	for i, text := range turns[:4] {
		ids = append(ids, save(t, s, Input{Session: "conv-1", Content: text, Created: at}).ID)
		if i == 1 {
			save(t, s, Input{Session: "other", Content: "a turn of another session", Created: at})
		}
	}
	saved, errs, err := s.SaveAll(context.Background(), []Input{{Session: "conv-1", Content: turns[4], Created: at}, {Session: "conv-1", Content: turns[5], Created: at}})
	if err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatal(err, errs)
	}
	ids = append(ids, saved[0].ID, saved[1].ID)
	list, err := s.List(Filter{Session: "conv-1"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, c := range list {
		got = append(got, c.ID)
		if want := len(turns) - i; c.Seq != want {
			t.Errorf("%s (%q) is at place %d of its session, want %d", c.ID, c.Summary, c.Seq, want)
		}
	}
	slices.Reverse(ids)
	if !slices.Equal(got, ids) {
		t.Errorf("listed newest first\n%s\nwant the reverse of the order saved\n%s", strings.Join(got, "\n"), strings.Join(ids, "\n"))
	}
	if other, _ := s.List(Filter{Session: "other"}); len(other) != 1 || other[0].Seq != 1 {
		t.Errorf("another session's chunk: %+v", other)
	}
}
