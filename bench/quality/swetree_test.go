package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// gitFixture is a repository with two commits: the second adds a file,
// changes two (one keeping its size), deletes one, turns a file into a
// directory and adds one whose blob is then removed. It returns the
// repository's git directory and the two commits.
func gitFixture(t *testing.T) (string, [2]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the tree tests need git:", err)
	}
	dir := t.TempDir()
	home := t.TempDir()
	date := "2024-01-01T00:00:00Z"
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(files map[string]string) {
		for p, c := range files {
			name := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("init", "-q", "-b", "main")
	write(map[string]string{
		"pkg/alpha.py": "def alpha():\n    return 'aardvark'\n",
		"pkg/beta.py":  "def beta():\n    return 'bbbbbbbb'\n",
		"gone.txt":     "soon deleted\n",
		"thing":        "a file that becomes a directory\n",
		".rubi/x":      "never written into the project's own state\n",
	})
	if err := os.Symlink("pkg/alpha.py", filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	c1 := git("rev-parse", "HEAD")
	date = "2024-02-01T00:00:00Z"
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "thing")); err != nil {
		t.Fatal(err)
	}
	write(map[string]string{
		"pkg/alpha.py":     "def alpha():\n    return 'aardvark'\n\ndef extra():\n    return 'porcupine'\n",
		"pkg/beta.py":      "def beta():\n    return 'zeppelin'\n", // same size as before
		"pkg/new.py":       "class Fresh:\n    pass\n",
		"thing/inside.txt": "now a directory\n",
	})
	write(map[string]string{"lost.dat": "a blob the snapshot lacks\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "two")
	// Take lost.dat's blob out, as the mirrors' snapshots lack the largest.
	blob := git("rev-parse", "HEAD:lost.dat")
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, ".git"), [2]string{c1, git("rev-parse", "HEAD")}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == ".rubi" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestProjectTreeSync(t *testing.T) {
	repo, commits := gitFixture(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "project")
	tree, err := newProjectTree(ctx, repo, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.close()

	st, err := tree.sync(ctx, commits[0])
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 4 || st.Written != 4 || st.Deleted != 0 || st.Links != 1 || st.Unsafe != 1 {
		t.Errorf("first sync: %+v", st)
	}
	if got := readTree(t, dir); len(got) != 4 || got["thing"] == "" || got["gone.txt"] == "" {
		t.Errorf("first tree: %v", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "link.py")); err == nil {
		t.Error("the symbolic link was materialized")
	}

	// rubi indexes the first tree, then follows the sync incrementally.
	h := &harness{logger: hclog.NewNullLogger()}
	eng, err := h.engine(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	beforeBeta, err := os.Stat(filepath.Join(dir, "pkg/beta.py"))
	if err != nil {
		t.Fatal(err)
	}

	st, err = tree.sync(ctx, commits[1])
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 4 || st.Written != 4 || st.Deleted != 2 || st.Missing != 1 {
		t.Errorf("second sync: %+v", st)
	}
	want := map[string]string{
		"pkg/alpha.py":     "def alpha():\n    return 'aardvark'\n\ndef extra():\n    return 'porcupine'\n",
		"pkg/beta.py":      "def beta():\n    return 'zeppelin'\n",
		"pkg/new.py":       "class Fresh:\n    pass\n",
		"thing/inside.txt": "now a directory\n",
	}
	if got := readTree(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("second tree:\n got %v\nwant %v", got, want)
	}
	afterBeta, err := os.Stat(filepath.Join(dir, "pkg/beta.py"))
	if err != nil {
		t.Fatal(err)
	}
	if afterBeta.Size() != beforeBeta.Size() || !afterBeta.ModTime().After(beforeBeta.ModTime()) {
		t.Errorf("beta.py: size %d → %d, mtime %v → %v; want the same size, a later time", beforeBeta.Size(), afterBeta.Size(), beforeBeta.ModTime(), afterBeta.ModTime())
	}

	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	g, err := eng.Graph()
	if err != nil {
		t.Fatal(err)
	}
	var indexed []string
	for _, f := range g.Files {
		indexed = append(indexed, f.Path)
	}
	slices.Sort(indexed)
	if want := []string{"pkg/alpha.py", "pkg/beta.py", "pkg/new.py", "thing/inside.txt"}; !slices.Equal(indexed, want) {
		t.Errorf("indexed %v, want %v", indexed, want)
	}
	// The rewritten files are searched by their new content, the one of
	// the same size too.
	for word, file := range map[string]string{"zeppelin": "pkg/beta.py", "porcupine": "pkg/alpha.py"} {
		res, err := eng.Retrieve(ctx, pipeline.Query{Text: word, Kinds: []string{core.DocFile}, Limit: 5, Budget: 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].Path != file {
			t.Errorf("%q found %v, want %s first", word, res.Items, file)
		}
	}
	res, err := eng.Retrieve(ctx, pipeline.Query{Text: "bbbbbbbb", Kinds: []string{core.DocFile}, Limit: 5, Budget: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) > 0 && res.Items[0].Path == "pkg/beta.py" {
		t.Error("beta.py is still found by its old content")
	}
}

func TestFindMirror(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"psf+requests/repo", "JaeHyuckSa+django/repo", "pallets+flask"} {
		for _, f := range []string{"objects"} {
			if err := os.MkdirAll(filepath.Join(dir, p, f), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, p, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for repo, want := range map[string]string{
		"psf/requests":  "psf+requests/repo",
		"django/django": "JaeHyuckSa+django/repo",
		"pallets/flask": "pallets+flask",
		"sympy/sympy":   "",
	} {
		got := findMirror(dir, repo)
		if want != "" {
			want = filepath.Join(dir, want)
		}
		if got != want {
			t.Errorf("findMirror(%s) = %q, want %q", repo, got, want)
		}
	}
}
