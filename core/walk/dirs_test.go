package walk

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests shorten settleWindow to testSettle, and wait past it after
// changing a tree, so that the walk trusts the stamps of what they made:
// a walk trusts only stamps older than the window, whatever the clock's
// tick.
const testSettle = 40 * time.Millisecond

func shortSettle(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("directories have no stamps on %s: every walk lists every directory", runtime.GOOS)
	}
	old := settleWindow
	settleWindow = testSettle
	t.Cleanup(func() { settleWindow = old })
}

func settle() { time.Sleep(testSettle + 20*time.Millisecond) }

// countListings counts the directories listed (rather than reused), by
// their slash path below root.
func countListings(t *testing.T, root string) func() []string {
	t.Helper()
	var mu sync.Mutex
	var listed []string
	t.Cleanup(func() { listDir = readDir })
	listDir = func(dir string) ([]fs.DirEntry, func(), error) {
		rel, _ := filepath.Rel(root, dir)
		mu.Lock()
		listed = append(listed, filepath.ToSlash(rel))
		mu.Unlock()
		return readDir(dir)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Sorted(slices.Values(listed))
		listed = nil
		return out
	}
}

// walkFiles walks root with opts and returns its files and stats.
func walkFiles(t *testing.T, root string, opts Options) ([]File, Stats) {
	t.Helper()
	var files []File
	st, err := Walk(context.Background(), root, opts, func(f File) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	checkInvariant(t, st)
	return files, st
}

// walkRemembered walks root with the Dirs saved at file, and saves what
// the walk learned there, as an index run does.
func walkRemembered(t *testing.T, root, file string, opts Options) ([]File, Stats) {
	t.Helper()
	opts.Dirs = LoadDirs(file, false)
	files, st := walkFiles(t, root, opts)
	if opts.Dirs.Changed() {
		if err := opts.Dirs.Save(file); err != nil {
			t.Fatalf("save: %v", err)
		}
	}
	return files, st
}

func sameWalk(t *testing.T, what string, got []File, gotSt Stats, want []File, wantSt Stats) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b File) bool {
		return a.Path == b.Path && a.Size == b.Size && a.ModTime.Equal(b.ModTime)
	}) {
		var gp, wp []string
		for _, f := range got {
			gp = append(gp, fmt.Sprintf("%s:%d:%d", f.Path, f.Size, f.ModTime.UnixNano()))
		}
		for _, f := range want {
			wp = append(wp, fmt.Sprintf("%s:%d:%d", f.Path, f.Size, f.ModTime.UnixNano()))
		}
		t.Fatalf("%s: the remembering walk and a full walk disagree\n remembering only: %q\n       full only: %q", what, minus(gp, wp), minus(wp, gp))
	}
	if gotSt.Seen != wantSt.Seen || gotSt.Accepted != wantSt.Accepted || !maps.Equal(gotSt.Skipped, wantSt.Skipped) {
		t.Fatalf("%s: stats %+v, a full walk's %+v", what, gotSt, wantSt)
	}
}

// TestDirsUnchangedTreeListsNothing: once a walk remembers a tree, the
// next lists no directory when nothing changed, and only the directory
// that changed when one did; both find what a full walk finds.
func TestDirsUnchangedTreeListsNothing(t *testing.T) {
	shortSettle(t)
	root := mkTree(t, map[string]string{
		"a.go": "x", "src/b.go": "yy", "src/deep/c.go": "", "docs/d.md": "", ".gitignore": "*.log\n",
		"src/x.log": "", "node_modules/m.js": "",
	})
	file := filepath.Join(t.TempDir(), DirsFile)
	listed := countListings(t, root)
	settle()

	got, st := walkRemembered(t, root, file, Options{})
	want, wantSt := walkFiles(t, root, Options{})
	sameWalk(t, "first walk", got, st, want, wantSt)
	listed()

	got, st = walkRemembered(t, root, file, Options{})
	sameWalk(t, "unchanged", got, st, want, wantSt)
	if l := listed(); len(l) != 0 {
		t.Errorf("unchanged tree: listed %q, want none", l)
	}

	// A file edited keeps its directory's stamp: found all the same.
	if err := os.WriteFile(filepath.Join(root, "src", "deep", "c.go"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "new.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	settle()
	want, wantSt = walkFiles(t, root, Options{})
	listed()
	got, st = walkRemembered(t, root, file, Options{})
	sameWalk(t, "a file added and one edited", got, st, want, wantSt)
	if l := listed(); !slices.Equal(l, []string{"src"}) {
		t.Errorf("a file added to src: listed %q, want only src", l)
	}
	got, st = walkRemembered(t, root, file, Options{})
	sameWalk(t, "unchanged again", got, st, want, wantSt)
	if l := listed(); len(l) != 0 {
		t.Errorf("unchanged again: listed %q, want none", l)
	}

	// Other options: every directory is listed.
	opts := Options{Exclude: []string{"docs/"}}
	want, wantSt = walkFiles(t, root, opts)
	listed()
	got, st = walkRemembered(t, root, file, opts)
	sameWalk(t, "other options", got, st, want, wantSt)
	if l := listed(); !slices.Equal(l, []string{".", "src", "src/deep"}) {
		t.Errorf("other options: listed %q, want every directory walked", l)
	}
}

// TestDirsRecentChangeListedAgain: a directory that changed just before
// a walk is listed by the next walk too, since a change in the same tick
// of the file system's clock would leave its stamp as it was.
func TestDirsRecentChangeListedAgain(t *testing.T) {
	shortSettle(t)
	settleWindow = time.Hour
	root := mkTree(t, map[string]string{"a.go": "", "sub/b.go": ""})
	file := filepath.Join(t.TempDir(), DirsFile)
	listed := countListings(t, root)
	walkRemembered(t, root, file, Options{})
	listed()
	walkRemembered(t, root, file, Options{})
	if l := listed(); !slices.Equal(l, []string{".", "sub"}) {
		t.Errorf("listed %q, want every directory: none is settled", l)
	}
}

// TestDirsDamagedOrForged: a saved Dirs that is damaged, of another
// format, or names an entry that is no file name, is no Dirs: the walk
// lists every directory and finds what a full walk finds.
func TestDirsDamagedOrForged(t *testing.T) {
	shortSettle(t)
	root := mkTree(t, map[string]string{"a.go": "", "sub/b.go": "", "sub/c/d.go": ""})
	outside := mkTree(t, map[string]string{"secret.go": ""})
	file := filepath.Join(t.TempDir(), DirsFile)
	listed := countListings(t, root)
	settle()
	want, wantSt := walkFiles(t, root, Options{})
	walkRemembered(t, root, file, Options{})
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	// A forged record: an entry ".." (or a path out of the tree) in sub,
	// a directory to descend into.
	rel, err := filepath.Rel(filepath.Join(root, "sub"), outside)
	if err != nil {
		t.Fatal(err)
	}
	forge := func(name string) []byte {
		d := LoadDirs(file, false)
		rec := *d.byRel["sub"]
		rec.entries = append([]entry{{name: name, kind: kindDir, dir: true}}, rec.entries...)
		d.byRel["sub"] = &rec
		forged := filepath.Join(t.TempDir(), DirsFile)
		if err := d.Save(forged); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(forged)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	cases := map[string][]byte{
		"truncated":   good[:len(good)-3],
		"bit flipped": append(append([]byte{}, good[:20]...), append([]byte{good[20] ^ 1}, good[21:]...)...),
		"not ours":    []byte("not a dirs file at all"),
		"empty":       {},
		"dot-dot":     forge(".."),
		"a path":      forge(filepath.ToSlash(rel)),
	}
	for name, data := range cases {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		listed()
		got, st := walkRemembered(t, root, file, Options{})
		sameWalk(t, name, got, st, want, wantSt)
		if l := listed(); len(l) != 3 {
			t.Errorf("%s: listed %q, want every directory", name, l)
		}
	}
}

// TestDirsMatchFullWalk changes random trees at random, in every way a
// user or a tool changes a tree, and checks after each round that a walk
// remembering the last one finds exactly what a full walk finds: files,
// sizes, times, order and skip counts.
func TestDirsMatchFullWalk(t *testing.T) {
	shortSettle(t)
	for seed, opts := range []Options{
		{},
		{Include: []string{"**/*.go", "docs"}, Exclude: []string{"**/tmp/", "**/a_test.go"}, MaxFileSize: 3},
		{Exclude: []string{"**/keep/", "**/*.md"}, NoDefaultExcludes: true},
	} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			root := mkTree(t, scaleTree(80, true))
			outside := mkTree(t, map[string]string{"main.go": "outside", "sub/x.go": ""})
			if err := os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), DirsFile)
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			listed := countListings(t, root)
			settle()
			walkRemembered(t, root, file, opts)
			listed()
			reused, total := 0, 0
			for round := range 25 {
				var did []string
				for range 1 + rng.IntN(3) {
					did = append(did, mutate(t, rng, root, outside))
				}
				settle()
				want, wantSt := walkFiles(t, root, opts)
				all := len(listed())
				got, st := walkRemembered(t, root, file, opts)
				sameWalk(t, fmt.Sprintf("round %d after %q", round, did), got, st, want, wantSt)
				reused += all - len(listed())
				total += all
			}
			// Most rounds change a few directories of dozens.
			if reused < total/2 {
				t.Errorf("the walks reused %d directories of %d: the test tests little", reused, total)
			}
		})
	}
}

// mutate changes the tree at root in one random way and says how.
func mutate(t *testing.T, rng *rand.Rand, root, outside string) string {
	t.Helper()
	var dirs, files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			dirs = append(dirs, rel)
		case d.Type().IsRegular():
			files = append(files, rel)
		}
		return nil
	})
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	full := func(rel string) string { return filepath.Join(root, rel) }
	names := []string{"main.go", "new.go", "x.log", "keep.log", "n.md", "a_test.go", "tmp9.go", "z.gen.go", "README", "big.go", "img.png", "keep", "tmp", "docs"}
	patterns := []string{"*.log", "!keep.log", "tmp*", "*.md", "new.go", "!*.go", "*", "!*/", "docs/", "/main.go", "big.go"}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string, n int) { must(os.WriteFile(p, []byte(strings.Repeat("y", n)), 0o644)) }
	nonRoot := func() string {
		for range 20 {
			if d := pick(dirs); d != "." {
				return d
			}
		}
		return ""
	}
	switch op := rng.IntN(14); {
	case op == 0: // a file added to an old directory
		p := filepath.Join(pick(dirs), fmt.Sprintf("%d-%s", rng.IntN(100), pick(names)))
		write(full(p), rng.IntN(6))
		return "add " + p
	case op == 1: // a new directory with a file
		d := filepath.Join(pick(dirs), pick(names)+fmt.Sprint(rng.IntN(100)))
		must(os.MkdirAll(full(d), 0o755))
		write(filepath.Join(full(d), pick(names)), rng.IntN(6))
		return "add dir " + d
	case op == 2 && len(files) > 0: // a file removed
		p := pick(files)
		must(os.Remove(full(p)))
		return "remove " + p
	case op == 3: // a directory removed
		if d := nonRoot(); d != "" {
			must(os.RemoveAll(full(d)))
			return "remove dir " + d
		}
	case op == 4: // an ignore file edited in place, or made
		p := filepath.Join(pick(dirs), []string{".gitignore", ".ignore", ".rubiignore"}[rng.IntN(3)])
		f, err := os.OpenFile(full(p), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		must(err)
		_, err = f.WriteString(pick(patterns) + "\n")
		must(err)
		must(f.Close())
		return "ignore " + p
	case op == 5 && len(files) > 0: // a file renamed, perhaps to another directory
		p, q := pick(files), filepath.Join(pick(dirs), "r"+fmt.Sprint(rng.IntN(100))+"-"+pick(names))
		if os.Rename(full(p), full(q)) == nil {
			return "rename " + p + " " + q
		}
	case op == 6: // a directory renamed
		if d := nonRoot(); d != "" {
			q := filepath.Join(filepath.Dir(d), pick(names)+"-r"+fmt.Sprint(rng.IntN(100)))
			if os.Rename(full(d), full(q)) == nil {
				return "rename dir " + d + " " + q
			}
		}
	case op == 7 && len(files) > 0: // a file modified, the same size
		p := full(pick(files))
		info, err := os.Stat(p)
		must(err)
		must(os.WriteFile(p, []byte(strings.Repeat("z", int(info.Size()))), 0o644))
		return "modify " + p
	case op == 8 && len(files) > 0: // a file grown or shrunk past the size limit
		p := pick(files)
		write(full(p), rng.IntN(8))
		return "resize " + p
	case op == 9: // a directory replaced with a link out of the tree
		if d := nonRoot(); d != "" {
			must(os.RemoveAll(full(d)))
			must(os.Symlink(outside, full(d)))
			return "link dir " + d
		}
	case op == 10 && len(files) > 0: // a file replaced with a link
		p := pick(files)
		must(os.Remove(full(p)))
		must(os.Symlink(filepath.Join(outside, "main.go"), full(p)))
		return "link file " + p
	case op == 11: // .git/info/exclude edited
		f, err := os.OpenFile(filepath.Join(root, ".git", "info", "exclude"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		must(err)
		_, err = f.WriteString(pick(patterns) + "\n")
		must(err)
		must(f.Close())
		return "exclude"
	case op == 12: // a file added, the directory's times set back
		d := pick(dirs)
		info, err := os.Stat(full(d))
		must(err)
		p := filepath.Join(d, "hidden"+fmt.Sprint(rng.IntN(100))+".go")
		write(full(p), 1)
		must(os.Chtimes(full(d), info.ModTime(), info.ModTime()))
		return "add, times set back " + p
	case op == 13 && len(files) > 0: // a file's content replaced by a rename over it
		p := pick(files)
		tmp := full(p) + ".tmp"
		write(tmp, rng.IntN(4))
		must(os.Rename(tmp, full(p)))
		return "replace " + p
	}
	return "nothing"
}

// TestDirsSaveLoad: what a walk remembers reads back as it was saved.
func TestDirsSaveLoad(t *testing.T) {
	shortSettle(t)
	root := mkTree(t, scaleTree(40, true))
	settle()
	d := NewDirs()
	walkFiles(t, root, Options{Dirs: d})
	if !d.Changed() || len(d.byRel) < 10 {
		t.Fatalf("a first walk remembered %d directories, changed %v", len(d.byRel), d.Changed())
	}
	file := filepath.Join(t.TempDir(), DirsFile)
	if err := d.Save(file); err != nil {
		t.Fatal(err)
	}
	for _, oneShot := range []bool{false, true} {
		back := LoadDirs(file, oneShot)
		if back.fp != d.fp || !rulesEqual(back.exclude, d.exclude) || len(back.byRel) != len(d.byRel) {
			t.Fatalf("one-shot %v: read back %d directories, saved %d", oneShot, len(back.byRel), len(d.byRel))
		}
		for rel, rec := range d.byRel {
			got := back.byRel[rel]
			if got == nil || got.stamp != rec.stamp || got.settled != rec.settled || !slices.Equal(got.ignores, rec.ignores) ||
				!rulesEqual(got.rules, rec.rules) || !slices.Equal(got.entries, rec.entries) {
				t.Errorf("one-shot %v: %q: read back %+v, saved %+v", oneShot, rel, got, rec)
			}
		}
	}
}
