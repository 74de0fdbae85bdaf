package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/examples/rank-embed/embedtest"
)

// synonyms stage meaning for the fake: a car is an automobile, a basket a
// cart.
var synonyms = map[string]string{"car": "automobile", "vehicle": "automobile", "basket": "cart", "trolley": "cart"}

func newFake(t *testing.T) *embedtest.Server {
	t.Helper()
	f := embedtest.New("fake-embed", synonyms)
	t.Cleanup(f.Close)
	return f
}

func newFakeB(b *testing.B) *embedtest.Server {
	f := embedtest.New("fake-embed", synonyms)
	b.Cleanup(f.Close)
	return f
}

// configured returns a rank.embed talking to f, with state in dir.
func configured(t *testing.T, f *embedtest.Server, dir string, extra string) *Ranker {
	t.Helper()
	r := New()
	settings := fmt.Sprintf(`{"endpoint": %q, "model": "fake-embed"%s}`, f.URL, extra)
	if err := r.Configure(context.Background(), core.Setup{StateDir: dir, Settings: json.RawMessage(settings)}); err != nil {
		t.Fatal(err)
	}
	return r
}

func doc(id, title, body string) core.Document {
	kind, key, _ := strings.Cut(id, ":")
	d := core.Document{ID: id, Kind: kind, Title: title, Body: body}
	if kind == core.DocFile {
		d.Path = key
	}
	return d
}

var shop = []core.Document{
	doc("file:fleet/garage.go", "garage.go", "package fleet\n// Service an automobile: oil, tyres, brakes."),
	doc("file:shop/checkout.go", "checkout.go", "package shop\n// Total the cart and charge the card."),
	doc("file:shop/stock.go", "stock.go", "package shop\n// Count what the warehouse holds."),
	doc("node:decision-1", "Payments go through one provider", "We charge cards through one provider only."),
	doc("module:shop", "shop", "checkout.go stock.go"),
}

func rankIDs(t *testing.T, r *Ranker, q core.Query) []string {
	t.Helper()
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// A question finds the document that means the same though it shares no
// word with it; modules are not embedded by default.
func TestRankFindsByMeaning(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	r := configured(t, f, dir, "")
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop}); err != nil {
		t.Fatal(err)
	}
	if got := len(f.Inputs()); got != 4 {
		t.Errorf("embedded %d texts, want the 4 files and notes (no module)", got)
	}
	hits, err := r.Rank(context.Background(), core.Query{Text: "where is the car repaired", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].ID != "file:fleet/garage.go" || !strings.HasPrefix(hits[0].Reason, "close in meaning (cosine 0.") {
		t.Fatalf("hits = %+v", hits)
	}
	if got := rankIDs(t, r, core.Query{Text: "what is in the basket", Limit: 1, Kinds: []string{"file"}}); !slices.Equal(got, []string{"file:shop/checkout.go"}) {
		t.Errorf("basket → %v", got)
	}
	// Kinds restrict the answer; a kind not embedded costs no request.
	if got := rankIDs(t, r, core.Query{Text: "charge cards", Limit: 5, Kinds: []string{"node"}}); !slices.Equal(got, []string{"node:decision-1"}) {
		t.Errorf("nodes only → %v", got)
	}
	f.Reset()
	if got := rankIDs(t, r, core.Query{Text: "shop", Limit: 5, Kinds: []string{"module"}}); len(got) != 0 || len(f.Requests()) != 0 {
		t.Errorf("modules only → %v after %d requests", got, len(f.Requests()))
	}
	// A fresh process ranks from the persisted vectors, one request.
	fresh := configured(t, f, dir, "")
	if got := rankIDs(t, fresh, core.Query{Text: "vehicle", Limit: 1}); !slices.Equal(got, []string{"file:fleet/garage.go"}) {
		t.Errorf("fresh → %v", got)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("a question took %d requests, want 1", n)
	}
}

// An incremental corpus embeds the changed documents only, drops the
// removed ones, and an unchanged text is never embedded again.
func TestIncremental(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	r := configured(t, f, dir, "")
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop}); err != nil {
		t.Fatal(err)
	}
	f.Reset()
	// stock.go now speaks of trolleys; checkout.go is gone. The others
	// come without bodies, as rubi sends them.
	var docs []core.Document
	for _, d := range shop {
		switch d.ID {
		case "file:shop/checkout.go":
			continue
		case "file:shop/stock.go":
			d.Body = "package shop\n// Count each trolley in the warehouse."
		default:
			d.Body = ""
		}
		docs = append(docs, d)
	}
	inc := &core.Corpus{Documents: docs, Changed: []string{"file:shop/stock.go"}, Removed: []string{"file:shop/checkout.go"}}
	if err := r.Index(context.Background(), inc); err != nil {
		t.Fatal(err)
	}
	inputs := f.Inputs()
	if len(inputs) != 1 || !strings.Contains(inputs[0], "trolley") {
		t.Fatalf("incremental index sent %q, want only stock.go's new text", inputs)
	}
	if got := rankIDs(t, r, core.Query{Text: "cart", Limit: 10}); len(got) == 0 || got[0] != "file:shop/stock.go" || slices.Contains(got, "file:shop/checkout.go") {
		t.Errorf("after the change, cart → %v", got)
	}
	// A full corpus with the same texts, in a fresh process: nothing to embed.
	f.Reset()
	docs[slices.IndexFunc(docs, func(d core.Document) bool { return d.ID == "file:shop/stock.go" })].Body = "package shop\n// Count each trolley in the warehouse."
	full := slices.Clone(shop)
	full[2].Body = "package shop\n// Count each trolley in the warehouse."
	full = slices.Delete(full, 1, 2)
	if err := configured(t, f, dir, "").Index(context.Background(), &core.Corpus{Full: true, Documents: full}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.Inputs()); n != 0 {
		t.Errorf("re-embedded %d unchanged texts: %q", n, f.Inputs())
	}
	// A fresh process with no vectors asks for a full corpus.
	if err := configured(t, f, t.TempDir(), "").Index(context.Background(), inc); err != core.ErrFullIndexNeeded {
		t.Errorf("incremental index without state: %v, want ErrFullIndexNeeded", err)
	}
}

// A damaged vector file never crashes: the question says what happened
// and the file is removed (rubi's next index then rebuilds in full); an
// incremental index asks for a full corpus, which rebuilds it.
func TestDamagedVectorFile(t *testing.T) {
	for _, damage := range []struct {
		name string
		fn   func([]byte) []byte
	}{
		{"flipped", func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-7] }},
		{"empty", func([]byte) []byte { return nil }},
		{"other file", func([]byte) []byte { return []byte(`{"files": {}}`) }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			f := newFake(t)
			dir := t.TempDir()
			if err := configured(t, f, dir, "").Index(context.Background(), &core.Corpus{Full: true, Documents: shop}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, vectorFile)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, damage.fn(slices.Clone(data)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = configured(t, f, dir, "").Rank(context.Background(), core.Query{Text: "car", Limit: 3})
			if err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "rebuilds") {
				t.Errorf("rank over a damaged file: %v", err)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the damaged file is still there: %v", err)
			}
			if err := os.WriteFile(path, damage.fn(slices.Clone(data)), 0o644); err != nil {
				t.Fatal(err)
			}
			r := configured(t, f, dir, "")
			if err := r.Index(context.Background(), &core.Corpus{Documents: shop, Changed: []string{"file:shop/stock.go"}}); err != core.ErrFullIndexNeeded {
				t.Fatalf("incremental index over a damaged file: %v", err)
			}
			f.Reset()
			if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop}); err != nil {
				t.Fatal(err)
			}
			if n := len(f.Inputs()); n != 4 {
				t.Errorf("rebuild embedded %d texts, want 4", n)
			}
			if got := rankIDs(t, configured(t, f, dir, ""), core.Query{Text: "car", Limit: 1}); !slices.Equal(got, []string{"file:fleet/garage.go"}) {
				t.Errorf("after the rebuild, car → %v", got)
			}
		})
	}
}

// With the endpoint down, Index and Rank say so in words that name it;
// what was embedded before it went down is kept, and the next full run
// embeds only what is missing.
func TestEndpointDown(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	r := configured(t, f, dir, `, "batch_size": 2`)
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop[:2]}); err != nil {
		t.Fatal(err)
	}
	f.Fail(true)
	err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop})
	if err == nil || !strings.Contains(err.Error(), "embeddings endpoint "+f.URL+"/embeddings unavailable: 503") || !strings.Contains(err.Error(), "2 of 4 documents have vectors") {
		t.Errorf("index with the endpoint failing: %v", err)
	}
	f.Fail(false)
	f.Reset()
	if err := configured(t, f, dir, "").Index(context.Background(), &core.Corpus{Full: true, Documents: shop}); err != nil {
		t.Fatal(err)
	}
	if got := f.Inputs(); len(got) != 2 || !strings.Contains(got[0]+got[1], "warehouse") || !strings.Contains(got[0]+got[1], "provider") {
		t.Errorf("after the outage, embedded %q; want only stock.go and the note", got)
	}

	url := f.URL
	f.Close()
	_, err = configured(t, f, dir, "").Rank(context.Background(), core.Query{Text: "car", Limit: 3})
	if err == nil || !strings.Contains(err.Error(), "embeddings endpoint "+url+"/embeddings unavailable") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("rank with no endpoint: %v", err)
	}
	err = configured(t, f, t.TempDir(), "").Index(context.Background(), &core.Corpus{Full: true, Documents: shop})
	if err == nil || !strings.Contains(err.Error(), "unavailable") || !strings.Contains(err.Error(), "0 of 4 documents have vectors") {
		t.Errorf("first index with no endpoint: %v", err)
	}
}

// An index that would outlive the call's deadline stops first and keeps
// what it embedded.
func TestIndexStopsBeforeDeadline(t *testing.T) {
	f := newFake(t)
	r := configured(t, f, t.TempDir(), "")
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := r.Index(ctx, &core.Corpus{Full: true, Documents: shop})
	if err == nil || !strings.Contains(err.Error(), "raise timeout in the rank.embed block") {
		t.Errorf("err = %v", err)
	}
	if len(f.Requests()) != 0 {
		t.Errorf("sent %d requests with no time left", len(f.Requests()))
	}
}

// A server's wrong answers are errors, not vectors.
func TestWrongModelIsAnError(t *testing.T) {
	f := newFake(t)
	r := New()
	settings := fmt.Sprintf(`{"endpoint": %q, "model": "not-pulled"}`, f.URL)
	if err := r.Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(settings)}); err != nil {
		t.Fatal(err)
	}
	err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop})
	if err == nil || !strings.Contains(err.Error(), `404 Not Found: {"error":"model \"not-pulled\" not found, try pulling it first"}`) {
		t.Errorf("err = %v", err)
	}
}

// rubi sends nothing off the machine unless the block allows it.
func TestNonLoopbackRefused(t *testing.T) {
	for _, endpoint := range []string{"http://192.0.2.10:11434/v1", "https://api.openai.com/v1", "http://ollama.internal:11434/v1"} {
		err := New().Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(fmt.Sprintf(`{"endpoint": %q}`, endpoint))})
		var se *core.SettingError
		if !errors.As(err, &se) || se.Setting != "endpoint" || !strings.Contains(se.Message, "allow_remote = true") {
			t.Errorf("%s: %v", endpoint, err)
		}
		if err := New().Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(fmt.Sprintf(`{"endpoint": %q, "allow_remote": true}`, endpoint))}); err != nil {
			t.Errorf("%s with allow_remote: %v", endpoint, err)
		}
	}
	for _, endpoint := range []string{"http://127.0.0.1:11434/v1", "http://localhost:8080/v1", "http://[::1]:1234/v1", "http://127.1.2.3/v1"} {
		if err := New().Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(fmt.Sprintf(`{"endpoint": %q}`, endpoint))}); err != nil {
			t.Errorf("%s: %v", endpoint, err)
		}
	}
	// The address dialled is checked too, whatever the name said: the
	// connection is refused before any packet leaves.
	c, err := newClient("http://localhost:9/v1", "m", time.Second, false)
	if err != nil {
		t.Fatal(err)
	}
	c.url = "http://192.0.2.10:9/v1/embeddings"
	if _, err := c.embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("dial to a remote address: %v", err)
	}
}

func TestConfigureRejectsBadSettings(t *testing.T) {
	for raw, setting := range map[string]string{
		`{"endpoint": "ftp://127.0.0.1/v1"}`: "endpoint",
		`{"model": " "}`:                     "model",
		`{"batch_size": 0}`:                  "batch_size",
		`{"max_chars": 3}`:                   "max_chars",
		`{"request_timeout": "soon"}`:        "request_timeout",
		`{"kinds": []}`:                      "kinds",
		`{"kinds": ["file", "symbol"]}`:      "kinds",
	} {
		err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(raw)})
		var se *core.SettingError
		if !errors.As(err, &se) || se.Setting != setting {
			t.Errorf("%s: err = %v, want a SettingError on %s", raw, err, setting)
		}
	}
}

// Reasons say how much of the corpus has vectors when not all of it does.
func TestCoverageInReasons(t *testing.T) {
	f := newFake(t)
	dir := t.TempDir()
	r := configured(t, f, dir, `, "batch_size": 2`)
	if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop[:2]}); err != nil {
		t.Fatal(err)
	}
	f.Fail(true)
	r.Index(context.Background(), &core.Corpus{Full: true, Documents: shop})
	f.Fail(false)
	hits, err := configured(t, f, dir, "").Rank(context.Background(), core.Query{Text: "car", Limit: 1})
	if err != nil || len(hits) != 1 || !strings.HasSuffix(hits[0].Reason, "; 2 of 4 documents embedded)") {
		t.Errorf("hits = %+v, %v", hits, err)
	}
}
