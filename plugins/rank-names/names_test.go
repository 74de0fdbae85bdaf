package names

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
)

func file(path string, names ...string) core.Document {
	return core.Document{ID: core.DocID(core.DocFile, path), Kind: core.DocFile, Path: path, Title: filepath.Base(path), Names: names}
}

func node(id, title string, names ...string) core.Document {
	return core.Document{ID: core.DocID(core.DocNode, id), Kind: core.DocNode, Title: title, Names: append([]string{id}, names...)}
}

func corpus() []core.Document {
	return []core.Document{
		file("core/host/host.go", "Host", "Open", "LoadPlugin", "pluginPath"),
		file("core/host/guard.go", "guard", "Fallback"),
		file("web/checkout/CheckoutService.ts", "CheckoutService", "applyCoupon"),
		file("web/checkout/cupom.ts", "aplicarCupom", "validarCupom"),
		file("core/net/receive.go", "ReceiveMessage", "validation"),
		file("docs/business.md"),
		{ID: "module:core/host", Kind: core.DocModule, Path: "core/host", Title: "core/host"},
		node("gotcha-coupon-applied-twice", "Coupon applied twice", "applyCoupon"),
	}
}

func configured(t testing.TB, dir, settings string) *Ranker {
	t.Helper()
	r := New()
	setup := core.Setup{Root: "/p", StateDir: dir}
	if settings != "" {
		setup.Settings = json.RawMessage(settings)
	}
	if err := r.Configure(context.Background(), setup); err != nil {
		t.Fatal(err)
	}
	return r
}

func indexed(t testing.TB, settings string) *Ranker {
	t.Helper()
	r := configured(t, t.TempDir(), settings)
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: corpus()}); err != nil {
		t.Fatal(err)
	}
	return r
}

func rank(t testing.TB, r *Ranker, q core.Query) []core.Hit {
	t.Helper()
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func top(t *testing.T, r *Ranker, q string) (string, string) {
	t.Helper()
	hits := rank(t, r, core.Query{Text: q, Limit: 5})
	if len(hits) == 0 {
		return "", ""
	}
	return hits[0].ID, hits[0].Reason
}

func TestMatches(t *testing.T) {
	r := indexed(t, "")
	cases := []struct{ query, want, reason string }{
		{"where is LoadPlugin defined", "file:core/host/host.go", `named in the question: "LoadPlugin"`},
		{"how does load plugin work", "file:core/host/host.go", `named in the question: "load plugin"`},
		{"load_plugin", "file:core/host/host.go", `named in the question: "load_plugin"`},
		{"open host.go", "file:core/host/host.go", `named in the question: "host.go"`},
		{"the Checkout page", "file:web/checkout/CheckoutService.ts", `a name starts with "Checkout"`},
		{"recieve message handling", "file:core/net/receive.go", `a name close to "recieve"`},
		{"validaton errors", "file:core/net/receive.go", `a name close to "validaton"`},
		{"buisness rules", "file:docs/business.md", `a name close to "buisness"`},
		{"coupon applied twice", "node:gotcha-coupon-applied-twice", `named in the question: "coupon applied twice"`},
		{"all the plugins", "", ""}, // a plural of no name, and no prefix of one
		// Words of a sentence are not taken for names; the same word
		// alone, or written as a name, is.
		{"how are the guards set up", "", ""},
		{"guards", "file:core/host/guard.go", `named in the question: "guards"`},
		{"where is Fallback set up", "file:core/host/guard.go", `named in the question: "Fallback"`},
		{"cupom", "file:web/checkout/cupom.ts", `named in the question: "cupom"`},
	}
	for _, c := range cases {
		id, why := top(t, r, c.query)
		if id != c.want || why != c.reason {
			t.Errorf("%q: top %s (%s), want %s (%s)", c.query, id, why, c.want, c.reason)
		}
	}
}

func TestPluralAndKinds(t *testing.T) {
	r := indexed(t, "")
	if id, _ := top(t, r, "guards"); id != "file:core/host/guard.go" {
		t.Errorf("plural: %s", id)
	}
	hits := rank(t, r, core.Query{Text: "host", Kinds: []string{core.DocModule}, Limit: 5})
	if len(hits) != 1 || hits[0].ID != "module:core/host" {
		t.Errorf("kinds: %v", hits)
	}
	if hits := rank(t, r, core.Query{Text: "host", Limit: 1}); len(hits) != 1 {
		t.Errorf("limit: %v", hits)
	}
	// The agent's terms count too, a little less than the question.
	hits = rank(t, r, core.Query{Text: "how does it start", Terms: []string{"LoadPlugin"}, Limit: 5})
	if len(hits) == 0 || hits[0].ID != "file:core/host/host.go" {
		t.Errorf("terms: %v", hits)
	}
}

func TestTyposSetting(t *testing.T) {
	r := indexed(t, `{"typos": false}`)
	if id, _ := top(t, r, "recieve"); id != "" {
		t.Errorf("typos off still matched %s", id)
	}
	if err := New().Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(`{"min_prefix": 1}`)}); err == nil {
		t.Error("min_prefix 1 accepted")
	}
}

// An incremental corpus carries names only for changed documents; the
// others keep theirs, removed ones go.
func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	r := configured(t, dir, "")
	ctx := context.Background()
	if err := r.Index(ctx, &core.Corpus{Full: true, Documents: corpus()}); err != nil {
		t.Fatal(err)
	}
	docs := corpus()[:5] // business.md, the module and the node are gone
	for i := range docs {
		docs[i].Names = nil
	}
	docs[1] = file("core/host/guard.go", "Watchdog")
	if err := configured(t, dir, "").Index(ctx, &core.Corpus{Documents: docs, Changed: []string{docs[1].ID}}); err != nil {
		t.Fatal(err)
	}
	fresh := configured(t, dir, "") // another process reads the file
	if id, _ := top(t, fresh, "LoadPlugin"); id != "file:core/host/host.go" {
		t.Errorf("an unchanged document lost its names: %s", id)
	}
	if id, _ := top(t, fresh, "watchdog"); id != "file:core/host/guard.go" {
		t.Errorf("a changed document's new name: %s", id)
	}
	if id, _ := top(t, fresh, "fallback"); id != "" {
		t.Errorf("a changed document kept an old name: %s", id)
	}
	if hits := rank(t, fresh, core.Query{Text: "coupon applied twice business", Limit: 10}); slices.ContainsFunc(hits, func(h core.Hit) bool { return strings.HasPrefix(h.ID, "node:") || h.ID == "file:docs/business.md" }) {
		t.Errorf("removed documents found: %v", hits)
	}
	// The long-lived ranker notices the other process's index.
	if id, _ := top(t, r, "watchdog"); id != "file:core/host/guard.go" {
		t.Errorf("stale index in the first process: %s", id)
	}
	// An unknown document not marked changed asks for a full corpus.
	err := r.Index(ctx, &core.Corpus{Documents: append(docs, file("new.go"))})
	if !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("unknown document: %v", err)
	}
	if err := configured(t, t.TempDir(), "").Index(ctx, &core.Corpus{Documents: docs}); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("no index yet: %v", err)
	}
}

func TestBadFile(t *testing.T) {
	r := indexed(t, "")
	var good [numParts][]byte
	for p, name := range partFiles {
		data, err := os.ReadFile(filepath.Join(r.stateDir, name))
		if err != nil {
			t.Fatal(err)
		}
		good[p] = data
	}
	// Either part damaged, the other sound.
	for p, name := range partFiles {
		flipped := slices.Clone(good[p])
		flipped[len(flipped)/2] ^= 1
		version := slices.Clone(good[p])
		version[len(magic)] = formatVersion + 1
		for damage, data := range map[string][]byte{"flipped": flipped, "truncated": good[p][:len(good[p])/2], "version": version, "garbage": []byte("x"), "missing": nil} {
			dir := t.TempDir()
			for o := range numParts {
				if o != p {
					if err := os.WriteFile(filepath.Join(dir, partFiles[o]), good[o], 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if data != nil {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := configured(t, dir, "").Rank(context.Background(), core.Query{Text: "host"})
			if err == nil || !strings.Contains(err.Error(), "rubi index") {
				t.Errorf("%s %s: %v", name, damage, err)
			}
		}
	}
	if _, err := configured(t, t.TempDir(), "").Rank(context.Background(), core.Query{Text: "host"}); err == nil || !strings.Contains(err.Error(), "rubi index") {
		t.Errorf("no index: %v", err)
	}
}

// An update that changes no name leaves the files as they were, and one
// that changes a name rewrites the part of the document alone.
func TestUnchangedNamesNotRewritten(t *testing.T) {
	dir := t.TempDir()
	r := configured(t, dir, "")
	ctx := context.Background()
	if err := r.Index(ctx, &core.Corpus{Full: true, Documents: corpus()}); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1, 0)
	touched := func() (parts []string) {
		for _, name := range partFiles {
			file := filepath.Join(dir, name)
			if fi, _ := os.Stat(file); !fi.ModTime().Equal(old) {
				parts = append(parts, name)
			}
			if err := os.Chtimes(file, old, old); err != nil {
				t.Fatal(err)
			}
		}
		return parts
	}
	touched()
	docs := corpus()
	docs[0].Body = "a new body"
	if err := r.Index(ctx, &core.Corpus{Documents: docs, Changed: []string{docs[0].ID}}); err != nil {
		t.Fatal(err)
	}
	if parts := touched(); len(parts) != 0 {
		t.Errorf("an edit that renamed nothing rewrote %v", parts)
	}
	docs[0].Names = append(docs[0].Names, "Reload")
	if err := r.Index(ctx, &core.Corpus{Documents: docs, Changed: []string{docs[0].ID}}); err != nil {
		t.Fatal(err)
	}
	if parts := touched(); !slices.Equal(parts, []string{partFiles[partRest]}) {
		t.Errorf("a file's new name rewrote %v", parts)
	}
	if hits := rank(t, configured(t, dir, ""), core.Query{Text: "Reload", Limit: 1}); len(hits) != 1 || hits[0].ID != "file:core/host/host.go" {
		t.Errorf("a new name was not indexed: %v", hits)
	}
	n := len(docs) - 1
	docs[n].Names = append(docs[n].Names, "Refund")
	if err := r.Index(ctx, &core.Corpus{Documents: docs, Changed: []string{docs[n].ID}}); err != nil {
		t.Fatal(err)
	}
	if parts := touched(); !slices.Equal(parts, []string{partFiles[partNotes]}) {
		t.Errorf("a note's new name rewrote %v", parts)
	}
	if hits := rank(t, configured(t, dir, ""), core.Query{Text: "Refund", Limit: 1}); len(hits) != 1 || hits[0].ID != docs[n].ID {
		t.Errorf("a note's new name was not indexed: %v", hits)
	}
}

// A one-shot process that indexes in full (an index run) keeps no view of
// the parts it wrote; a question it is asked after reads them from their
// files, and ranks as a long-running process that kept them.
func TestOneShotFullIndexKeepsNoView(t *testing.T) {
	q := core.Query{Text: "where is LoadPlugin defined", Limit: 10}
	var answers [2][]core.Hit
	for k, oneShot := range []bool{false, true} {
		r := New()
		if err := r.Configure(context.Background(), core.Setup{Root: "/p", StateDir: t.TempDir(), OneShot: oneShot}); err != nil {
			t.Fatal(err)
		}
		if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: corpus()}); err != nil {
			t.Fatal(err)
		}
		for p := range numParts {
			if kept := r.idx[p] != nil; kept == oneShot {
				t.Errorf("one-shot %v: part %d kept in memory after a full index: %v", oneShot, p, kept)
			}
		}
		answers[k] = rank(t, r, q)
	}
	if len(answers[0]) == 0 || !slices.Equal(answers[0], answers[1]) {
		t.Errorf("one-shot ranks\n%v\nlong-running ranked\n%v", answers[1], answers[0])
	}
}
