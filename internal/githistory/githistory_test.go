package githistory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// code is a knowledge.CodeMap whose symbols come from the regex parser,
// as rubi's default pipeline parses files.
type code struct{}

func (code) FileHash(string) (string, bool)       { return "", false }
func (code) Symbol(string) (string, string, bool) { return "", "", false }
func (code) Symbols(p string, content []byte) ([]core.Symbol, bool) {
	facts, err := regex.New().Parse(context.Background(), []core.SourceFile{{Path: p, Language: core.DetectLanguage(p), Content: content}})
	if err != nil || len(facts) != 1 {
		return nil, false
	}
	return facts[0].Symbols, true
}

const v1 = `package calc

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Sub subtracts.
func Sub(a, b int) int {
	return a - b
}
`

type repo struct {
	t    *testing.T
	root string
	wt   *git.Worktree
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// commit commits the work tree and returns the short hash.
func (r *repo) commit(msg string) string {
	r.t.Helper()
	if err := r.wt.AddGlob("."); err != nil {
		r.t.Fatal(err)
	}
	h, err := r.wt.Commit(msg, &git.CommitOptions{Author: &object.Signature{Name: "t", Email: "t@example.com", When: time.Now()}})
	if err != nil {
		r.t.Fatal(err)
	}
	return h.String()[:7]
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// note writes a node file as rubi before code anchors wrote it: each
// file's whole SHA-256 as it was, and the commit then.
func (r *repo) note(id, body, commit string, anchors map[string]string) {
	r.t.Helper()
	var b strings.Builder
	b.WriteString("---\nid: " + id + "\ntype: note\nstatus: active\ntitle: " + id + "\nfiles: [calc/calc.go]\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\ncommit: \"" + commit + "\"\nanchors:\n")
	for k, v := range anchors {
		b.WriteString("    " + k + ": " + v + "\n")
	}
	b.WriteString("---\n# " + id + "\n\n" + body + "\n")
	r.write(".rubi/knowledge/"+id+".md", b.String())
}

// A note written against an old version of a file, then an edit to
// another function and a comment edit, committed: after the migration
// only what the note is about counts, computed from the file as the note
// knew it (found in git), not from today's file.
func TestMigrateFromGit(t *testing.T) {
	root := t.TempDir()
	g, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := g.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	r := &repo{t: t, root: root, wt: wt}
	r.write("calc/calc.go", v1)
	c1 := r.commit("one")
	r.note("about-add", "Add(a, b) sums.", c1, map[string]string{"calc/calc.go": sha(v1)})
	r.note("about-sub", "Sub(a, b) takes away.", c1, map[string]string{"calc/calc.go": sha(v1)})
	r.note("about-file", "Arithmetic.", c1, map[string]string{"calc/calc.go": sha(v1)})

	// Written while v1b was in the work tree, uncommitted: HEAD was c1,
	// and v1b was committed later.
	v1b := strings.Replace(v1, "// Sub subtracts.", "// Sub subtracts b.", 1)
	r.note("uncommitted", "Add(a, b) sums.", c1, map[string]string{"calc/calc.go": sha(v1b)})
	r.write("calc/calc.go", v1b)
	r.commit("two")

	// Never in git: kept.
	r.note("lost", "Add(a, b) sums.", c1, map[string]string{"calc/calc.go": sha("package calc\n")})

	v2 := strings.NewReplacer("// Add adds.", "// Add adds a and b.", "return a - b", "return b - a").Replace(v1b)
	r.write("calc/calc.go", v2)
	r.commit("three")

	s := knowledge.Open(knowledge.Options{Root: root, Code: code{}})
	stale := func() map[string][]string {
		out := map[string][]string{}
		nodes, probs := s.Nodes()
		if len(probs) > 0 {
			t.Fatalf("problems: %v", probs)
		}
		for _, n := range nodes {
			if st := s.Stale(n); len(st) > 0 {
				out[n.ID] = st
			}
		}
		return out
	}
	before := stale()
	if len(before) != 5 {
		t.Errorf("before the migration, every note is stale: %v", before)
	}
	res, err := s.Migrate(Open(root).Content)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 5 {
		t.Errorf("migrated %v", res)
	}
	want := map[string][]string{
		"about-sub":  {"Sub changed (calc/calc.go L9-11)"},
		"about-file": {"calc/calc.go: code changed"},
		"lost":       {"calc/calc.go changed since this note"},
	}
	if got := stale(); !reflect.DeepEqual(got, want) {
		t.Errorf("after the migration\n%v\nwant\n%v", got, want)
	}
	// Idempotent: nothing is tried again, the kept note included.
	res, _ = s.Migrate(Open(root).Content)
	if len(res) != 0 {
		t.Errorf("second run %v", res)
	}
}

// Outside a repository nothing is found, and nothing fails.
func TestNoRepository(t *testing.T) {
	if _, ok := Open(t.TempDir()).Content("a.go", sha("x"), "abcdef1"); ok {
		t.Error("found content outside git")
	}
}

// A repository whose objects are a link to another repository's (a
// cloned tarball's .git made to point elsewhere) finds nothing there: no
// link is followed out of the repository's folders.
func TestNoLinkOutOfTheRepository(t *testing.T) {
	elsewhere := t.TempDir()
	g, err := git.PlainInit(elsewhere, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := g.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	other := &repo{t: t, root: elsewhere, wt: wt}
	other.write("calc/calc.go", v1)
	c := other.commit("one")
	if _, ok := Open(elsewhere).Content("calc/calc.go", sha(v1), c); !ok {
		t.Fatal("the other repository's own history does not find its file")
	}

	root := t.TempDir()
	if _, err := git.PlainInit(root, false); err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(root, ".git")
	if err := os.RemoveAll(filepath.Join(gitDir, "objects")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, ".git", "objects"), filepath.Join(gitDir, "objects")); err != nil {
		t.Fatal(err)
	}
	if _, ok := Open(root).Content("calc/calc.go", sha(v1), c); ok {
		t.Error("a file was read through links out of the repository's folder")
	}
}
