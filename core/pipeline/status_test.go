package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/messages"
)

// A project never indexed, with nothing stored: the status says so, and
// taking it creates nothing.
func TestStatusOfAnEmptyProject(t *testing.T) {
	root := shop(t)
	s := engine(t, root).Status(context.Background(), time.Now())
	if s.Index.State != IndexNone || s.Knowledge.Project.Total != 0 || s.Memory == nil || s.Memory.Active != 0 || len(s.Problems) != 0 {
		t.Errorf("status of an empty project: %+v", s)
	}
	text := s.Text(messages.English)
	for _, want := range []string{"knowledge: no nodes in the project", "memory: 0 chunks active", "index: none yet (rubi index builds it", "last access: nothing stored yet"} {
		if !strings.Contains(text, want) {
			t.Errorf("the status lacks %q:\n%s", want, text)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi")); !os.IsNotExist(err) {
		t.Errorf("rubi status created .rubi/ (%v)", err)
	}
}

func TestStatusCountsAndRetention(t *testing.T) {
	ctx := context.Background()
	root := shop(t)
	e := engine(t, root)
	res, err := e.project.Knowledge().Register(ctx, []knowledge.Input{
		{Type: knowledge.TypeDecision, Title: "Money is stored in cents", Importance: knowledge.ImportanceCritical, Body: "Never floats."},
		{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "Apply coupons after the total.", Files: []string{"internal/discount/coupon.go"}},
		{Type: knowledge.TypeGotcha, Title: "Tax rounds per line", Importance: knowledge.ImportanceHigh, Body: "Round each line, then sum."},
		{Type: knowledge.TypePreference, Title: "I like table tests", Body: "Table-driven.", Personal: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.project.Knowledge().Forget(res[2].ID, false); err != nil {
		t.Fatal(err)
	}
	st, _ := e.project.Memory()
	day := 24 * time.Hour
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	save := func(summary string, age time.Duration, tags ...string) string {
		t.Helper()
		saved, err := st.Save(ctx, memory.Input{Type: memory.TypeDebug, Summary: summary, Content: summary + " happened", Tags: tags, Created: now.Add(-age)})
		if err != nil {
			t.Fatal(err)
		}
		return saved.ID
	}
	old := save("the old crash", 40*day)
	save("the kept crash", 50*day, "keep")
	soon := save("the recent crash", 20*day)
	gone := save("the archived crash", 100*day)
	if err := st.Archive(ctx, gone); err != nil {
		t.Fatal(err)
	}
	archived := filepath.Join(root, ".rubi", "sessions", "archive", gone+".md.gz")
	if err := os.Chtimes(archived, now.Add(-190*day), now.Add(-190*day)); err != nil {
		t.Fatal(err)
	}
	index(t, e)

	s := e.Status(ctx, now)
	p := s.Knowledge.Project
	if p.Total != 3 || p.Active != 2 || p.ByType["decision"] != 1 || p.ByType["gotcha"] != 1 || p.ByImportance["critical"] != 1 || p.ByImportance["medium"] != 1 || p.ByStatus["retracted"] != 1 {
		t.Errorf("project nodes: %+v", p)
	}
	if v := s.Knowledge.Personal; v == nil || v.Total != 1 || v.ByType["preference"] != 1 {
		t.Errorf("personal nodes: %+v", v)
	}
	m := s.Memory
	if m.Active != 3 || m.Archived != 1 || m.ByType["debug"] != 3 || m.Policy.ArchiveAfter != 30 || m.Policy.PurgeAfter != 180 {
		t.Errorf("memory: %+v", m)
	}
	if len(m.Due.Archive) != 1 || m.Due.Archive[0].ID != old || len(m.Due.Purge) != 1 || m.Due.Purge[0].ID != gone || len(m.Due.Kept) != 1 {
		t.Errorf("due: %+v", m.Due)
	}
	if m.NextArchive == nil || m.NextArchive.ID != soon || !m.NextArchive.At.Equal(now.Add(10*day)) {
		t.Errorf("next to archive: %+v, want %s in 10 days", m.NextArchive, soon)
	}
	if s.Index.State != IndexOK || s.Index.Files == 0 || s.Index.Nodes == 0 || len(s.Index.Rankers) == 0 {
		t.Errorf("index: %+v", s.Index)
	}
	if s.Sizes.Knowledge == 0 || s.Sizes.Sessions == 0 || s.Sizes.Index == 0 || s.Sizes.Vault == 0 || s.Sizes.Rubi < s.Sizes.Knowledge+s.Sizes.Sessions+s.Sizes.Index {
		t.Errorf("sizes: %+v", s.Sizes)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems: %q", s.Problems)
	}
	text := s.Text(messages.English)
	for _, want := range []string{
		"knowledge: 3 nodes, 2 active (1 decision, 1 gotcha; 1 critical, 1 medium), 1 superseded or retracted in the project",
		"personal vault", "1 node, 1 active (1 preference; 1 medium)",
		"memory: 3 chunks active (3 debug), 1 archived",
		"retention: archive after 30 days unused, purge 180 days after; due now: 1 to archive, 1 to purge, 1 old kept; next to archive: " + soon + " in 10 days",
		"index: ok, indexed",
		"last access: chunk " + soon + " saved 20 days ago",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the status lacks %q:\n%s", want, text)
		}
	}
	// A read counts as the last access, and moves the chunk's turn.
	if _, err := st.Read(ctx, soon); err != nil {
		t.Fatal(err)
	}
	s = e.Status(ctx, time.Now())
	if lr := s.Memory.LastRead; lr == nil || lr.ID != soon || s.Memory.Reads != 1 {
		t.Errorf("last read: %+v, reads %d", lr, s.Memory.Reads)
	}
}

// What cannot be read is in the status, which is still taken: a node file
// that does not parse, a chunk that is not one, a damaged ranker, a
// damaged manifest.
func TestStatusReportsWhatCannotBeRead(t *testing.T) {
	ctx := context.Background()
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	write(t, root, ".rubi/knowledge/gotcha-broken.md", "---\nid: [unclosed\n---\n")
	write(t, root, ".rubi/sessions/20261101-000000-deadbeef.md", "not a chunk\n")
	editSegment(t, root, func(data []byte) { data[len(data)/2] ^= 0x5a })
	s := engine(t, root).Status(ctx, time.Now())
	problems := strings.Join(s.Problems, "\n")
	for _, want := range []string{"gotcha-broken.md", "20261101-000000-deadbeef.md", "index: rank.bm25 is damaged (rubi index repairs it)"} {
		if !strings.Contains(problems, want) {
			t.Errorf("the problems lack %q: %q", want, s.Problems)
		}
	}
	if s.Index.State != IndexDamaged {
		t.Errorf("index state %q with a flipped segment", s.Index.State)
	}
	if text := s.Text(messages.English); !strings.Contains(text, "index: damaged") || !strings.Contains(text, "problems (3):") {
		t.Errorf("the text does not show the damage:\n%s", text)
	}
	// The status wrote nothing: the next index run still finds the damage
	// and repairs it.
	if st := index(t, engine(t, root)); st.Rankers["rank.bm25"] != "full" {
		t.Errorf("after the status, the index run did not rebuild bm25: %v", st.Rankers)
	}
	if s := engine(t, root).Status(ctx, time.Now()); s.Index.State == IndexDamaged {
		t.Errorf("after rubi index: %+v", s.Index)
	}

	write(t, root, ".rubi/index/manifest.bin", "garbage")
	s = engine(t, root).Status(ctx, time.Now())
	if s.Index.State != IndexDamaged || !strings.Contains(s.Text(messages.English), "index: damaged: rubi index rebuilds it") {
		t.Errorf("a damaged manifest: %+v\n%s", s.Index, s.Text(messages.English))
	}
}

// A ranker's files written by another version of rubi (another format
// version) are outdated, not damaged: nothing is lost, and the next index
// run rebuilds them.
func TestStatusOfAnotherVersionsIndex(t *testing.T) {
	ctx := context.Background()
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	editSegment(t, root, func(data []byte) {
		const magic = "rubi-bm25\n" // then the format version, a uvarint
		if !strings.HasPrefix(string(data), magic) {
			t.Fatalf("the segment does not start with %q", magic)
		}
		data[len(magic)] = 99
	})
	s := engine(t, root).Status(ctx, time.Now())
	if s.Index.State != IndexOutdated || len(s.Problems) != 0 {
		t.Errorf("index state %q, problems %q: want outdated and none", s.Index.State, s.Problems)
	}
	var bm25 RankerStatus
	for _, r := range s.Index.Rankers {
		if r.Name == "rank.bm25" {
			bm25 = r
		}
	}
	if bm25.State != IndexOutdated || !strings.Contains(bm25.Error, "99") {
		t.Errorf("rank.bm25: %+v", bm25)
	}
	if text := s.Text(messages.English); strings.Contains(text, "damaged") || !strings.Contains(text, "rank.bm25") {
		t.Errorf("the text should call rank.bm25 outdated:\n%s", text)
	}
	if st := index(t, engine(t, root)); st.Rankers["rank.bm25"] != "full" {
		t.Errorf("the next index run did not rebuild bm25: %v", st.Rankers)
	}
	if s := engine(t, root).Status(ctx, time.Now()); s.Index.State != IndexOK {
		t.Errorf("after rubi index: %+v", s.Index)
	}
}

// editSegment changes the bytes of the project's rank.bm25 segment in
// place, as damage or another version would leave them.
func editSegment(t *testing.T, root string, edit func([]byte)) {
	t.Helper()
	segs, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "rank.bm25", "seg-*.bm25"))
	if len(segs) == 0 {
		t.Fatal("no bm25 segment")
	}
	data, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	edit(data)
	if err := os.WriteFile(segs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Styled marks the status's headings, in every language, and changes
// nothing else: without the marks it is Text.
func TestStatusStyled(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	write(t, root, ".rubi/knowledge/gotcha-broken.md", "---\nid: [unclosed\n---\n")
	s := e.Status(context.Background(), time.Now())
	st := TextStyle{Heading: func(s string) string { return "<" + s + ">" }, Problems: func(s string) string { return "{" + s + "}" }}
	for l, want := range map[messages.Lang][]string{
		messages.English:    {"<rubi status of " + root + ">\n", "\n<knowledge:> ", "\n<memory:> ", "\n<index:> ", "\n<size:> ", "\n<last access:> ", "\n{problems (1):}\n", "\n  retention: "},
		messages.French:     {"\n<état de rubi :> " + root + "\n", "\n<connaissances :> ", "\n<index :> ", "\n{problèmes (1) :}\n"},
		messages.Portuguese: {"\n<índice:> ", "\n<tamanho:> "},
		messages.Japanese:   {"\n<知識:> プロジェクトに", "\n<インデックス:> "},
	} {
		styled := s.Styled(l, st)
		for _, w := range want {
			if !strings.Contains("\n"+styled, w) {
				t.Errorf("%s: the styled status lacks %q:\n%s", l, w, styled)
			}
		}
		plain := strings.NewReplacer("<", "", ">", "", "{", "", "}", "").Replace(styled)
		if plain != s.Text(l) {
			t.Errorf("%s: styled, less its marks, is not the text:\n%s\n---\n%s", l, plain, s.Text(l))
		}
	}
}
