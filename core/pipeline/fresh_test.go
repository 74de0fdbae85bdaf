package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// hasWarning reports whether one of the warnings holds every part.
func hasWarning(warnings []string, parts ...string) bool {
	for _, w := range warnings {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w, p)
		}
		if all {
			return true
		}
	}
	return false
}

// Damaged notes from outside (an editor killed halfway through a save, a
// chunk file of 0 bytes, a .rubi/knowledge/ that is a file) are named
// with what is wrong, skipped, and the rest of the notes keep working:
// the notes-only refresh indexes them, and nothing is removed or
// rewritten.
func TestNotesRefreshSurvivesBadInput(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	ctx := context.Background()
	if _, err := e.project.Knowledge().Register(ctx, []knowledge.Input{{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "The discount ran before the total."}}); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	kdir := filepath.Join(root, ".rubi", "knowledge")
	half := "---\nid: gotcha-half\ntype: gotcha\ntitle: Half written\nfiles: [internal/dis"
	write(t, root, ".rubi/knowledge/gotcha-half.md", half)
	write(t, root, ".rubi/sessions/20260101-000000-00000000.md", "")
	if _, err := memory.Open(root).Save(ctx, memory.Input{Content: "The zebra importer stalls on batch three.", Summary: "zebra importer log"}); err != nil {
		t.Fatal(err)
	}
	stats, err := e.IndexNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(stats.Warnings, "gotcha-half.md", "frontmatter") {
		t.Errorf("the half-written node is not named: %q", stats.Warnings)
	}
	if !hasWarning(stats.Warnings, "20260101-000000-00000000.md", "empty") {
		t.Errorf("the empty chunk is not named: %q", stats.Warnings)
	}
	res, err := e.Retrieve(ctx, answer.Query{Text: "zebra importer stalls coupon applied twice", Kinds: []string{core.DocNode, core.DocChunk}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text(false)
	if !strings.Contains(text, "Coupon applied twice") || !strings.Contains(text, "zebra importer log") {
		t.Errorf("the good notes are not answered beside the bad ones:\n%s", text)
	}
	if data, _ := os.ReadFile(filepath.Join(kdir, "gotcha-half.md")); string(data) != half {
		t.Errorf("the half-written node was changed: %q", data)
	}

	// .rubi/knowledge/ replaced by a file: named, the chunks still
	// answered, and the file left as it is.
	if err := os.Rename(kdir, kdir+".away"); err != nil {
		t.Fatal(err)
	}
	write(t, root, ".rubi/knowledge", "not a folder")
	stats, err = e.IndexNotes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(stats.Warnings, kdir, "not a directory") {
		t.Errorf("the knowledge file is not named: %q", stats.Warnings)
	}
	if res, err = e.Retrieve(ctx, answer.Query{Text: "zebra importer stalls", Kinds: []string{core.DocChunk}}); err != nil || !strings.Contains(res.Text(false), "zebra importer log") {
		t.Errorf("chunks are not answered beside a knowledge file: %v %+v", err, res)
	}
	if data, _ := os.ReadFile(kdir); string(data) != "not a folder" {
		t.Errorf("the file in the knowledge folder's place was changed: %q", data)
	}
}

// A curated summary is in the map as soon as the command that wrote it
// returns (IndexNotes writes the maps), while a refresh after a changed
// note folder, which cannot change what the maps show, leaves them as
// they are.
func TestNotesIndexWritesTheMapsOnlyForASummary(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	ctx := context.Background()
	index(t, e)
	mapPath := filepath.Join(root, ".rubi", "map.md")
	if err := e.project.Knowledge().WriteSummary("map", "The shop sells zebra-striped umbrellas."); err != nil {
		t.Fatal(err)
	}
	if _, err := e.IndexNotes(ctx); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(mapPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "zebra-striped umbrellas") {
		t.Fatalf("the map lacks the summary just written:\n%s", data)
	}

	// A hand edit of the map stands through a notes-only refresh: it
	// rewrites nothing the notes do not feed.
	edited := string(data) + "\nhand-edited line\n"
	write(t, root, ".rubi/map.md", edited)
	write(t, root, ".rubi/knowledge/gotcha-coupon.md", "---\nid: gotcha-coupon\ntype: gotcha\ntitle: Coupon applied twice\n---\nThe discount ran before the total.\n")
	if _, refreshed, err := e.RefreshNotes(ctx); err != nil || !refreshed {
		t.Fatalf("refresh after a new note: refreshed %v, %v", refreshed, err)
	}
	if data, _ := os.ReadFile(mapPath); string(data) != edited {
		t.Errorf("the notes-only refresh rewrote the map")
	}
	res, err := e.Retrieve(ctx, answer.Query{Text: "coupon applied twice", Kinds: []string{core.DocNode}})
	if err != nil || len(res.Items) == 0 || res.Items[0].Title != "Coupon applied twice" {
		t.Errorf("the new note is not found after the refresh: %+v, %v", res, err)
	}
}

// index.module_roots and index.module_depth decide the map's modules, and
// a change of them alone (no file changed) moves the files on the next
// index run.
func TestModuleRulesFromRubiHCL(t *testing.T) {
	root := shop(t)
	modules := func(e *Engine) []string {
		t.Helper()
		g, err := e.Graph()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range g.Modules {
			out = append(out, m.Name)
		}
		slices.Sort(out)
		return out
	}
	write(t, root, "rubi.hcl", "index {\n  module_depth = 1\n}\n")
	e := engine(t, root)
	index(t, e)
	if got := modules(e); !slices.Contains(got, "internal") || slices.Contains(got, "internal/checkout") {
		t.Errorf("module_depth = 1: modules %q, want internal as one module", got)
	}
	write(t, root, "rubi.hcl", "index {\n  module_roots = [\"internal/*\", \"web/src\"]\n}\n")
	e = engine(t, root)
	index(t, e)
	got := modules(e)
	for _, want := range []string{"internal/checkout", "internal/discount", "web/src"} {
		if !slices.Contains(got, want) {
			t.Errorf("module_roots: modules %q lack %q", got, want)
		}
	}
	// The same tree, the rules from a file outside it: no file of the
	// project changed, and the modules follow the rules all the same.
	extra := filepath.Join(t.TempDir(), "extra.hcl")
	if err := os.WriteFile(extra, []byte("index {\n  module_roots = []\n  module_depth = 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: []string{extra}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e = New(cfg, Options{MaskComments: regex.MaskComments})
	t.Cleanup(e.Close)
	index(t, e)
	if got := modules(e); !slices.Contains(got, "internal") || slices.Contains(got, "internal/checkout") {
		t.Errorf("rules changed, no file changed: modules %q, want internal as one module again", got)
	}
}

// A refresh that finds every note's file as the last run left it (a stat
// of each: size, time, inode) reads none of them: a chunk's file
// overwritten in place by as many bytes, its time put back, goes unseen
// until a full index, which names it; after every note's file was touched
// (the notes as they were), the refresh that read them leaves the next
// one quick again. A note edited in place has a new
// time and is indexed by the next refresh; a note that does not read is
// named by every refresh, not only the first.
func TestUnchangedNotesAreNotReadAgain(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	ctx := context.Background()
	reg, err := e.project.Knowledge().Register(ctx, []knowledge.Input{{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "The discount ran before the total."}})
	if err != nil {
		t.Fatal(err)
	}
	saved, err := memory.Open(root).Save(ctx, memory.Input{Content: "The importer stalls on batch three.", Summary: "importer log"})
	if err != nil {
		t.Fatal(err)
	}
	index(t, e)
	rewrite := func(path string, edit func(string) string, at time.Time) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0) // in place: the same file
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Write([]byte(edit(string(data))))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	// Every note's file touched, the notes as they were (a checkout that
	// wrote them again, a copy back): the refresh reads them once, finds
	// nothing changed, and the next one is quick again.
	touched := time.Now().Add(2 * time.Second).Truncate(time.Second)
	for _, p := range []string{reg[0].Path, saved.Path} {
		if err := os.Chtimes(p, touched, touched); err != nil {
			t.Fatal(err)
		}
	}
	if stats := index(t, e); len(stats.Warnings) > 0 {
		t.Fatalf("warnings: %q", stats.Warnings)
	}
	fi, err := os.Stat(saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(saved.Path, func(s string) string { return strings.Repeat("x", len(s)) }, fi.ModTime())
	if stats := index(t, e); len(stats.Warnings) > 0 {
		t.Errorf("a refresh that found every note's file as it was read one: %q", stats.Warnings)
	}
	full, err := e.Index(ctx, IndexOptions{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(full.Warnings, filepath.Base(saved.Path)) {
		t.Errorf("a full index does not name the overwritten chunk: %q", full.Warnings)
	}

	// Edited in place: a new time, read by the next refresh.
	rewrite(reg[0].Path, func(s string) string { return strings.Replace(s, "ran before", "ran pelican before", 1) }, fi.ModTime().Add(3*time.Second))
	index(t, e)
	res, err := e.Retrieve(ctx, answer.Query{Text: "pelican", Kinds: answer.MemoryKinds})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 1 || res.Items[0].Title != "Coupon applied twice" {
		t.Errorf("a note edited in place is not indexed by the next refresh: %+v", res.Items)
	}

	// A note that does not read is named by every refresh.
	write(t, root, ".rubi/knowledge/gotcha-half.md", "---\nid: gotcha-half\ntype: gotcha\ntitle: Half written\nfiles: [internal/dis")
	for run := range 2 {
		if stats := index(t, e); !hasWarning(stats.Warnings, "gotcha-half.md", "frontmatter") {
			t.Errorf("refresh %d does not name the half-written note: %q", run+1, stats.Warnings)
		}
	}
}
