package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// indexAnswer asks the project's index as another process finds it (a
// hook, another server), refreshing nothing.
func indexAnswer(t *testing.T, root, query, kind string) string {
	t.Helper()
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments})
	defer eng.Close()
	res, err := eng.Retrieve(context.Background(), answer.Query{Text: query, Kinds: []string{kind}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Text(false)
}

// register, forget and memory save through the server leave the index up
// to date before the call returns, for the other processes that read it.
func TestWritesReachTheIndexBeforeTheCallReturns(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: time.Hour})
	c := connect(t, s)
	ok(t, c, "context", map[string]any{"query": "orders"}) // the first index
	ok(t, c, "register", map[string]any{"nodes": []any{
		map[string]any{"type": "gotcha", "title": "Zebra orders vanish on retry", "body": "The retry dropped the order id."},
	}})
	if out := indexAnswer(t, root, "zebra orders vanish", core.DocNode); !strings.Contains(out, "Zebra orders vanish on retry") {
		t.Errorf("register: not in the index:\n%s", out)
	}
	ok(t, c, "register", map[string]any{"retract": []string{"gotcha-zebra-orders-vanish-on-retry"}, "hard": true})
	if out := indexAnswer(t, root, "zebra orders vanish", core.DocNode); strings.Contains(out, "Zebra orders") {
		t.Errorf("forget: still in the index:\n%s", out)
	}
	ok(t, c, "memory", map[string]any{"action": "save", "text": "The quokka migration stalls on the third batch.", "summary": "quokka migration log"})
	if out := indexAnswer(t, root, "quokka migration stalls", core.DocChunk); !strings.Contains(out, "quokka migration log") {
		t.Errorf("memory save: not in the index:\n%s", out)
	}
}
