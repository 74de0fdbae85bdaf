package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// mkTree creates files (slash path -> content) under a fresh temp dir.
func mkTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// walkAll walks root and returns the yielded paths, failing on error.
func walkAll(t *testing.T, root string, opts Options) ([]string, Stats) {
	t.Helper()
	var got []string
	st, err := Walk(context.Background(), root, opts, func(f File) error {
		got = append(got, f.Path)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	checkInvariant(t, st)
	return got, st
}

func checkInvariant(t *testing.T, st Stats) {
	t.Helper()
	sum := st.Accepted
	for _, n := range st.Skipped {
		sum += n
	}
	if st.Seen != sum {
		t.Errorf("Seen = %d, want Accepted + skipped = %d (%+v)", st.Seen, sum, st)
	}
}

func TestWalk(t *testing.T) {
	type skips = map[string]int
	tests := []struct {
		name    string
		files   map[string]string
		opts    Options
		want    []string
		skipped skips
	}{
		{
			name: "nested gitignore with negation and anchoring",
			files: map[string]string{
				".gitignore":           "# comment\n\n*.log\n!keep.log\n/build-out\nsecret/\n",
				"a.log":                "",
				"keep.log":             "",
				"main.go":              "",
				"local.txt":            "",
				"build-out/x.go":       "", // anchored: only the root's build-out
				"sub/build-out/y.go":   "",
				"sub/.gitignore":       "!*.log\n/local.txt\n",
				"sub/b.log":            "", // re-included by the deeper file
				"sub/local.txt":        "", // anchored to sub/
				"sub/deeper/local.txt": "",
				"secret/s.txt":         "", // dir-only pattern, directory
				"other/secret":         "", // dir-only pattern, file: kept
			},
			want: []string{
				".gitignore", "keep.log", "local.txt", "main.go", "other/secret",
				"sub/.gitignore", "sub/b.log", "sub/build-out/y.go", "sub/deeper/local.txt",
			},
			// a.log, build-out/ (once), secret/ (once), sub/local.txt
			skipped: skips{ReasonIgnored: 4},
		},
		{
			name: "whitelist idiom",
			files: map[string]string{
				".gitignore":  "*\n!*/\n!*.go\n",
				"a.go":        "",
				"a.txt":       "",
				"src/b.go":    "",
				"src/b.txt":   "",
				"src/d/c.go":  "",
				"src/d/c.txt": "",
			},
			want:    []string{"a.go", "src/b.go", "src/d/c.go"},
			skipped: skips{ReasonIgnored: 4}, // .gitignore itself and the three .txt
		},
		{
			name: "re-included directory does not re-include its files",
			files: map[string]string{
				".gitignore": "*.txt\n!keep/\n",
				"keep/a.txt": "",
				"keep/a.go":  "",
			},
			want:    []string{".gitignore", "keep/a.go"},
			skipped: skips{ReasonIgnored: 1},
		},
		{
			name: "double star and literal braces",
			files: map[string]string{
				".gitignore":     "docs/**/*.md\nlogs/**\n!logs/keep\n**/gen/**\n{a,b}.txt\n",
				"docs/a.md":      "",
				"docs/x/y/b.md":  "",
				"docs/c.txt":     "",
				"logs/x":         "",
				"logs/keep":      "", // "logs/**" leaves logs/ itself, so this can come back
				"pkg/gen/z.go":   "",
				"gen/w.go":       "",
				"a.txt":          "",
				"{a,b}.txt":      "",
				"pkg/general.go": "",
			},
			want:    []string{".gitignore", "a.txt", "docs/c.txt", "logs/keep", "pkg/general.go"},
			skipped: skips{ReasonIgnored: 6},
		},
		{
			name: "ignore, rubiignore and info/exclude",
			files: map[string]string{
				".git/info/exclude": "*.tmp\n",
				".gitignore":        "gen.go\n!b.tmp\n",
				".ignore":           "notes.md\n",
				".rubiignore":       "draft/\n!gen.go\n",
				"a.tmp":             "",
				"b.tmp":             "", // .gitignore overrides info/exclude
				"gen.go":            "", // .rubiignore overrides .gitignore
				"notes.md":          "",
				"draft/d.md":        "",
				"main.go":           "",
			},
			want:    []string{".gitignore", ".ignore", ".rubiignore", "b.tmp", "gen.go", "main.go"},
			skipped: skips{ReasonDefaultExcluded: 1, ReasonIgnored: 3},
		},
		{
			name: "include and exclude globs",
			files: map[string]string{
				"main.go":            "",
				"README.md":          "",
				"pkg/a.go":           "",
				"pkg/testdata/x.go":  "",
				"pkg/testdata/y.txt": "",
				"testdata/z.go":      "",
			},
			opts:    Options{Include: []string{"**/*.go"}, Exclude: []string{"**/testdata/**"}},
			want:    []string{"main.go", "pkg/a.go"},
			skipped: skips{ReasonExcluded: 2, ReasonNotIncluded: 1},
		},
		{
			name: "included directory admits its subtree",
			files: map[string]string{
				"core/a.go":     "",
				"core/x/b.txt":  "",
				"other/core.go": "",
				"top.txt":       "",
			},
			opts:    Options{Include: []string{"core"}},
			want:    []string{"core/a.go", "core/x/b.txt"},
			skipped: skips{ReasonNotIncluded: 2},
		},
		{
			name: "exclude dir-only pattern and leading ./",
			files: map[string]string{
				"gen/a.go":     "",
				"sub/gen/b.go": "",
				"sub/x/gen":    "", // a file: dir-only pattern does not apply
				"README.md":    "",
				"doc/x.md":     "",
			},
			opts:    Options{Exclude: []string{"**/gen/", "./README.md"}},
			want:    []string{"doc/x.md", "sub/x/gen"},
			skipped: skips{ReasonExcluded: 3},
		},
		{
			name: "default excludes",
			files: map[string]string{
				"node_modules/x/y.js": "",
				"vendor/v.go":         "",
				".git/config":         "",
				"sub/.git":            "gitdir: ../.git/modules/sub\n",
				"sub/target/t.rs":     "",
				"main.go":             "",
				"out":                 "", // a file, not a build directory
			},
			want:    []string{"main.go", "out"},
			skipped: skips{ReasonDefaultExcluded: 5},
		},
		{
			name: "no default excludes",
			files: map[string]string{
				"node_modules/x/y.js": "",
				"vendor/v.go":         "",
				".git/config":         "",
				"sub/.git":            "",
				"main.go":             "",
			},
			opts:    Options{NoDefaultExcludes: true},
			want:    []string{".git/config", "main.go", "node_modules/x/y.js", "sub/.git", "vendor/v.go"},
			skipped: skips{},
		},
		{
			name: "max file size",
			files: map[string]string{
				"small.txt": "12345",
				"exact.txt": "1234567890",
				"big.txt":   "12345678901",
			},
			opts:    Options{MaxFileSize: 10},
			want:    []string{"exact.txt", "small.txt"},
			skipped: skips{ReasonTooLarge: 1},
		},
		{
			name: "binary extensions",
			files: map[string]string{
				"img.PNG": "", "lib.so": "", "lib.a": "", "x.o": "", "app.jar": "",
				"m.wasm": "", "f.pyc": "", "doc.pdf": "", "font.woff2": "",
				"archive.tar.gz": "", "Main.class": "",
				"icon.svg": "", "main.go": "", ".a": "", "Makefile": "",
			},
			want:    []string{".a", "Makefile", "icon.svg", "main.go"},
			skipped: skips{ReasonBinary: 11},
		},
		{
			name: "lexical path order",
			files: map[string]string{
				"a.txt": "", "a/b.txt": "", "a-b/c.txt": "", "a0": "", "B.txt": "",
			},
			want:    []string{"B.txt", "a-b/c.txt", "a.txt", "a/b.txt", "a0"},
			skipped: skips{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := mkTree(t, tt.files)
			got, st := walkAll(t, root, tt.opts)
			if !slices.Equal(got, tt.want) {
				t.Errorf("paths:\n got %q\nwant %q", got, tt.want)
			}
			if !maps.Equal(st.Skipped, tt.skipped) {
				t.Errorf("skipped = %v, want %v", st.Skipped, tt.skipped)
			}
			if st.Accepted != len(tt.want) {
				t.Errorf("Accepted = %d, want %d", st.Accepted, len(tt.want))
			}
		})
	}
}

func TestWalkFileInfo(t *testing.T) {
	root := mkTree(t, map[string]string{"d/f.txt": "hello"})
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "d", "f.txt"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	var files []File
	if _, err := Walk(context.Background(), root, Options{}, func(f File) error {
		files = append(files, f)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "d/f.txt" || files[0].Size != 5 || !files[0].ModTime.Equal(mtime) {
		t.Errorf("got %+v", files)
	}
}

func TestWalkSymlinksNotFollowed(t *testing.T) {
	root := mkTree(t, map[string]string{"real/a.go": ""})
	for link, target := range map[string]string{
		"link":     "real",
		"loop":     ".",
		"flink":    filepath.Join("real", "a.go"),
		"dangling": "nope",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatalf("symlink: %v", err)
		}
	}
	got, st := walkAll(t, root, Options{})
	if want := []string{"real/a.go"}; !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if want := map[string]int{ReasonSymlink: 4}; !maps.Equal(st.Skipped, want) {
		t.Errorf("skipped = %v, want %v", st.Skipped, want)
	}
}

func TestWalkSymlinkedRoot(t *testing.T) {
	real := mkTree(t, map[string]string{"a.go": ""})
	root := filepath.Join(t.TempDir(), "root")
	if err := os.Symlink(real, root); err != nil {
		t.Fatalf("symlink: %v", err)
	}
	if got, _ := walkAll(t, root, Options{}); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("paths = %q", got)
	}
}

// fakeEntry is a DirEntry whose Info fails, as when a file vanishes mid-walk.
type fakeEntry struct{ name string }

func (e fakeEntry) Name() string               { return e.name }
func (e fakeEntry) IsDir() bool                { return false }
func (e fakeEntry) Type() fs.FileMode          { return 0 }
func (e fakeEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrNotExist }

func TestWalkUnreadable(t *testing.T) {
	root := mkTree(t, map[string]string{"ok.go": "", "locked/x.go": "", "open/y.go": ""})
	// Permissions cannot make a directory unreadable for root, so fail the
	// listing instead: locked/ fails outright, open/ lists y.go and a
	// vanished file before an error.
	t.Cleanup(func() { listDir = readDir })
	listDir = func(dir string) ([]fs.DirEntry, func(), error) {
		switch filepath.Base(dir) {
		case "locked":
			return nil, func() {}, fs.ErrPermission
		case "open":
			entries, release, _ := readDir(dir)
			return append(entries, fakeEntry{"gone.go"}), release, errors.New("i/o error")
		}
		return readDir(dir)
	}
	got, st := walkAll(t, root, Options{})
	if want := []string{"ok.go", "open/y.go"}; !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	// locked/ once, open/ once for its error, gone.go once.
	if want := map[string]int{ReasonUnreadable: 3}; !maps.Equal(st.Skipped, want) {
		t.Errorf("skipped = %v, want %v", st.Skipped, want)
	}

	listDir = func(string) ([]fs.DirEntry, func(), error) { return nil, func() {}, fs.ErrPermission }
	if _, err := Walk(context.Background(), root, Options{}, func(File) error { return nil }); !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), root) {
		t.Errorf("unreadable root: err = %v, want permission error naming %s", err, root)
	}
}

func TestWalkRootErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := Walk(context.Background(), missing, Options{}, func(File) error { return nil })
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing root: err = %v, want not-exist naming %s", err, missing)
	}

	file := filepath.Join(mkTree(t, map[string]string{"f": ""}), "f")
	_, err = Walk(context.Background(), file, Options{}, func(File) error { return nil })
	if err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("file root: err = %v, want error naming %s", err, file)
	}
}

func TestWalkInvalidPattern(t *testing.T) {
	root := t.TempDir()
	for _, opts := range []Options{{Include: []string{"[a-"}}, {Exclude: []string{"{a,"}}} {
		if _, err := Walk(context.Background(), root, opts, func(File) error { return nil }); err == nil {
			t.Errorf("%+v: want an invalid pattern error", opts)
		}
	}
}

func TestWalkStops(t *testing.T) {
	root := mkTree(t, map[string]string{"a": "", "b": "", "c/d": "", "e": ""})
	sentinel := errors.New("stop")

	t.Run("pre-cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		n := 0
		_, err := Walk(ctx, root, Options{}, func(File) error { n++; return nil })
		if !errors.Is(err, context.Canceled) || n != 0 {
			t.Errorf("err = %v, files = %d; want context.Canceled and none", err, n)
		}
	})
	t.Run("cancel mid-walk", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var got []string
		_, err := Walk(ctx, root, Options{}, func(f File) error {
			got = append(got, f.Path)
			cancel()
			return nil
		})
		if !errors.Is(err, context.Canceled) || !slices.Equal(got, []string{"a"}) {
			t.Errorf("err = %v, files = %q; want context.Canceled after a", err, got)
		}
	})
	t.Run("fn error", func(t *testing.T) {
		var got []string
		st, err := Walk(context.Background(), root, Options{}, func(f File) error {
			got = append(got, f.Path)
			if f.Path == "c/d" {
				return sentinel
			}
			return nil
		})
		if err != sentinel || !slices.Equal(got, []string{"a", "b", "c/d"}) || st.Accepted != 3 {
			t.Errorf("err = %v, files = %q, stats = %+v; want the sentinel after c/d", err, got, st)
		}
	})
	t.Run("fs.SkipAll", func(t *testing.T) {
		n := 0
		_, err := Walk(context.Background(), root, Options{}, func(File) error { n++; return fs.SkipAll })
		if err != nil || n != 1 {
			t.Errorf("err = %v, files = %d; want nil after one file", err, n)
		}
	})
}

// TestWalkMatchesGit checks the ignore semantics against git itself, which
// is the reference users have in mind.
func TestWalkMatchesGit(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test compares the walk with git, which is not installed: %v", err)
	}
	files := map[string]string{
		".gitignore": strings.Join([]string{
			"*.log", "!important.log", "/root-only.go", "build-dir/", "docs/**/*.md",
			"logs/**", "!logs/keep.go", "**/tmp", "a/**/z.go", `\#hash.go`,
			"trailing.go   ", "weird[0-9].go", "mid/dle.go", "*.secret",
			"!ok.secret",
		}, "\n") + "\n",
		"important.log": "", "x.log": "", "sub/y.log": "", "sub/important.log": "",
		"root-only.go": "", "sub/root-only.go": "",
		"build-dir/f.go": "", "sub/build-dir/f.go": "", "other/build-dir": "",
		"docs/a.md": "", "docs/x/y/b.md": "", "docs/c.go": "",
		"logs/x.go": "", "logs/keep.go": "", "logs/sub/x.go": "",
		"p/tmp/t.go": "", "tmp/t.go": "", "p/tmp.go": "",
		"a/z.go": "", "a/b/c/z.go": "", "b/a/z.go": "",
		"#hash.go": "", "trailing.go": "", "weird1.go": "", "weirdx.go": "",
		"mid/dle.go": "", "x/mid/dle.go": "",
		"s.secret": "", "ok.secret": "", "sub/ok.secret": "",
		"white/.gitignore": "*\n!*/\n!*.go\n",
		"white/a.go":       "", "white/a.md": "", "white/d/b.go": "", "white/d/b.md": "",
		"txt/.gitignore": "*.txt\n!keep/\n",
		"txt/a.txt":      "", "txt/keep/k.txt": "", "txt/keep/k.go": "",
		"neg/.gitignore": "!*.log\n/anch.go\n*.secret\n",
		"neg/n.log":      "", "neg/anch.go": "", "neg/d/anch.go": "", "neg/ok.secret": "",
		"ex/.gitignore": "*\n!.gitignore\n!keep/\n",
		"ex/a.go":       "", "ex/keep/b.go": "",
	}
	root := mkTree(t, files)
	git := func(args ...string) string {
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte("*.md\n!docs/c.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want []string
	for p := range strings.SplitSeq(git("ls-files", "-z", "--others", "--exclude-standard"), "\x00") {
		if p != "" {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	got, _ := walkAll(t, root, Options{})
	if !slices.Equal(got, want) {
		t.Errorf("walk and git disagree\n walk only: %q\n  git only: %q", minus(got, want), minus(want, got))
	}
}

// scaleTree returns about n directories nested up to five deep, holding
// files and directories whose names its ignore patterns select, with
// a .gitignore in about half the directories below the root, and as
// often a .ignore and a .rubiignore if allKinds (git reads only the
// first). The same n and allKinds give the same tree.
func scaleTree(n int, allKinds bool) map[string]string {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	// No name of DefaultExcludes: git would descend into those.
	dirNames := []string{"src", "pkg", "bld", "gen", "cache", "docs", "a", "b", "keep", "tmp", "out-x", "x.d", "a-b", "A", "é"}
	fileNames := []string{"main.go", "a_test.go", "x.log", "keep.log", "notes.md", "b.txt", "data.bak", "tmp1.go",
		"tmp-keep.go", "z.gen.go", "README", "a.b", "a0", "Zed.go", "ñ.go"}
	patterns := []string{"*.log", "!keep.log", "/bld/", "gen/", "tmp*", "!tmp-keep.go", "**/cache/**", "docs/*.md",
		"a/**/b.txt", "*.bak", "!data.bak", "*.gen.go", "keep/", "!keep/", "/*.md", "x.d/", "b/**", "!b/keep/", "*",
		"!*/", "!*.go", "A/", "!README"}
	ignoreNames := []string{".gitignore"}
	if allKinds {
		ignoreNames = append(ignoreNames, ".ignore", ".rubiignore")
	}
	files := map[string]string{}
	dirs := []string{""}
	seen := map[string]bool{"": true}
	for len(dirs) < n {
		parent := dirs[rng.IntN(len(dirs))]
		if strings.Count(parent, "/") >= 4 {
			continue
		}
		dir := path.Join(parent, dirNames[rng.IntN(len(dirNames))])
		if !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		for range 1 + rng.IntN(5) {
			files[path.Join(dir, fileNames[rng.IntN(len(fileNames))])] = strings.Repeat("x", rng.IntN(4))
		}
		for _, name := range ignoreNames {
			if dir != "" && rng.IntN(2) == 0 {
				var lines []string
				for range 1 + rng.IntN(3) {
					lines = append(lines, patterns[rng.IntN(len(patterns))])
				}
				files[path.Join(dir, name)] = strings.Join(lines, "\n") + "\n"
			}
		}
	}
	return files
}

// TestWalkMatchesGitAtScale compares the walk with git on a tree of many
// directories, where the workers list many directories at once: the same
// files, in byte-wise order.
func TestWalkMatchesGitAtScale(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("this test compares the walk with git, which is not installed: %v", err)
	}
	root := mkTree(t, scaleTree(600, false))
	git := func(args ...string) []string {
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		var paths []string
		for p := range strings.SplitSeq(string(out), "\x00") {
			if p != "" {
				paths = append(paths, p)
			}
		}
		return paths
	}
	git("init", "-q")
	want := git("ls-files", "-z", "--others", "--exclude-standard")
	slices.Sort(want)

	got, _ := walkAll(t, root, Options{})
	if !slices.IsSorted(got) {
		t.Errorf("paths are not in byte-wise order")
	}
	if !slices.Equal(got, want) {
		t.Errorf("walk and git disagree\n walk only: %q\n  git only: %q", minus(got, want), minus(want, got))
	}
	if len(got) < 400 {
		t.Errorf("only %d files: the tree is too small to test much", len(got))
	}
}

// TestWalkWorkersAgree walks the same tree with one worker, which lists one
// directory at a time, and with many: files, order and stats must be the
// same, including when fn stops the walk midway.
func TestWalkWorkersAgree(t *testing.T) {
	root := mkTree(t, scaleTree(600, true))
	t.Cleanup(func() { workers = defaultWorkers })
	walkWith := func(n int, opts Options, stopAt int) ([]File, Stats, error) {
		workers = func() int { return n }
		var files []File
		st, err := Walk(context.Background(), root, opts, func(f File) error {
			files = append(files, f)
			if len(files) == stopAt {
				return fs.SkipAll
			}
			return nil
		})
		return files, st, err
	}
	for _, opts := range []Options{
		{},
		{Include: []string{"**/*.go", "docs"}, Exclude: []string{"**/tmp/", "**/a_test.go"}, MaxFileSize: 2},
		{Exclude: []string{"**/keep/", "**/*.md"}},
	} {
		for _, stopAt := range []int{0, 1, 100} {
			want, wantSt, wantErr := walkWith(1, opts, stopAt)
			for _, n := range []int{3, 32} {
				got, st, err := walkWith(n, opts, stopAt)
				if err != nil || wantErr != nil {
					t.Fatalf("%+v: err = %v with %d workers, %v with one", opts, err, n, wantErr)
				}
				if !slices.Equal(got, want) || st.Seen != wantSt.Seen || st.Accepted != wantSt.Accepted || !maps.Equal(st.Skipped, wantSt.Skipped) {
					t.Errorf("%+v, stop at %d: %d workers give %d files, %+v; one gives %d files, %+v",
						opts, stopAt, n, len(got), st, len(want), wantSt)
				}
			}
			if stopAt == 0 && len(want) < 100 {
				t.Errorf("%+v: only %d files: the tree is too small to test much", opts, len(want))
			}
		}
	}
}

// TestWalkStopsAtScale stops a walk of many directories midway, by
// cancelling its context or with an error from fn, while workers are still
// listing directories: the walk must stop with what a sequential walk
// would have yielded until then, and leave no worker running.
func TestWalkStopsAtScale(t *testing.T) {
	root := mkTree(t, scaleTree(300, true))
	all, _ := walkAll(t, root, Options{})
	t.Cleanup(func() { listDir = readDir })
	listDir = func(dir string) ([]fs.DirEntry, func(), error) {
		time.Sleep(time.Millisecond) // a slow disk: the emitter catches up with the workers
		return readDir(dir)
	}
	sentinel := errors.New("stop")
	for _, stop := range []string{"cancel", "error"} {
		for _, at := range []int{1, 10, len(all) / 2} {
			ctx, cancel := context.WithCancel(context.Background())
			var got []string
			st, err := Walk(ctx, root, Options{}, func(f File) error {
				got = append(got, f.Path)
				if len(got) == at {
					if stop == "error" {
						return sentinel
					}
					cancel()
				}
				return nil
			})
			cancel()
			want := context.Canceled
			if stop == "error" {
				want = sentinel
			}
			if !errors.Is(err, want) || !slices.Equal(got, all[:at]) || st.Accepted != at {
				t.Errorf("%s after %d files: err = %v, %d files, %d accepted; want %v and the first %d files",
					stop, at, err, len(got), st.Accepted, want, at)
			}
			// Walk waits for its workers, so none may be left, even one
			// about to return.
			buf := make([]byte, 1<<20)
			if stacks := string(buf[:runtime.Stack(buf, true)]); strings.Contains(stacks, "(*walker).work") {
				t.Fatalf("%s after %d files: workers left running:\n%s", stop, at, stacks)
			}
		}
	}
}

// minus returns the elements of a not in b.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func TestIsBinary(t *testing.T) {
	latin1 := []byte("caf\xe9 na\xefve r\xe9sum\xe9 -- mostly ASCII text with a few Latin-1 accents")
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*131+7) | 1 // no NUL, mostly invalid UTF-8
	}
	cutRune := append([]byte(strings.Repeat("x", sniffLen-1)), "é"...) // é split by the window
	tests := []struct {
		name string
		head []byte
		want bool
	}{
		{"empty", nil, false},
		{"ascii source", []byte("package main\n\nfunc main() {}\n"), false},
		{"utf-8", []byte("// こんにちは, héllo, привет 👋\n"), false},
		{"ansi log", []byte("\x1b[31merror\x1b[0m\r\n\ttab\f"), false},
		{"latin-1 text", latin1, false},
		{"rune cut by window", cutRune, false},
		{"nul byte", []byte("abc\x00def"), true},
		{"png header", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), true},
		{"utf-16", []byte("\xff\xfeh\x00i\x00"), true},
		{"random bytes", random, true},
		{"control chars", []byte("\x01\x02\x03\x04abc"), true},
		{"nul after window", append([]byte(strings.Repeat("a", sniffLen)), 0), false},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.head); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// BenchmarkWalk walks two synthetic trees: "flat", 220 directories of 25
// files, and "deep", shaped like a large Go monorepo (kubernetes has ~1,700
// directories of ~5 files): 1,500 leaf directories of 7 files under three
// levels, 1,610 directories and 10,500 files in all. Both have nested
// .gitignore files that drop some files and directories.
func BenchmarkWalk(b *testing.B) {
	b.Run("flat", func(b *testing.B) {
		// 20 packages x 10 dirs x 25 files = 5,000 files, plus gen/ dirs
		// and .tmp files that nested .gitignores drop.
		files := map[string]string{".gitignore": "*.tmp\n!keep.tmp\n"}
		for i := range 20 {
			pkg := fmt.Sprintf("pkg%02d", i)
			files[pkg+"/.gitignore"] = "/gen/\n*.bak\n"
			for j := range 10 {
				for k := range 25 {
					ext := ".go"
					switch k % 10 {
					case 3:
						ext = ".tmp"
					case 7:
						ext = ".bak"
					}
					files[fmt.Sprintf("%s/d%d/f%02d%s", pkg, j, k, ext)] = "package x\n"
				}
			}
			for k := range 10 {
				files[fmt.Sprintf("%s/gen/g%d.go", pkg, k)] = ""
			}
		}
		benchWalk(b, mkTree(b, files))
	})
	b.Run("deep", func(b *testing.B) {
		files := map[string]string{".gitignore": "*.tmp\n/out-*/\n"}
		for i := range 10 {
			mod := fmt.Sprintf("mod%d", i)
			files[mod+"/.gitignore"] = "*.gen.go\n!keep.gen.go\n"
			files[mod+"/doc.go"] = "package x\n"
			for j := range 10 {
				pkg := fmt.Sprintf("%s/pkg%d", mod, j)
				files[pkg+"/pkg.go"] = "package x\n"
				for k := range 15 {
					dir := fmt.Sprintf("%s/sub%02d", pkg, k)
					for _, name := range []string{"a.go", "b.go", "c.go", "a_test.go", "README.md", "z.gen.go", "x.tmp"} {
						files[dir+"/"+name] = "package x\n"
					}
				}
			}
		}
		benchWalk(b, mkTree(b, files))
	})
}

func benchWalk(b *testing.B, root string) {
	b.ReportAllocs()
	var st Stats
	for b.Loop() {
		var err error
		st, err = Walk(context.Background(), root, Options{}, func(File) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Seen), "entries/op")
	b.ReportMetric(float64(st.Accepted), "files/op")
}
