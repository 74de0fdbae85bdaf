package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
)

// handOvers records Env.HandOver's calls and answers as told.
type handOvers struct {
	calls    []string
	payloads []string
	ran      bool
	err      error
}

func (h *handOvers) handOver(_ context.Context, event string, payload []byte, stdout io.Writer) (bool, error) {
	h.calls = append(h.calls, event)
	h.payloads = append(h.payloads, string(payload))
	if h.ran && h.err == nil {
		io.WriteString(stdout, `{"from":"rubi-full"}`)
	}
	return h.ran, h.err
}

// A project whose rubi.hcl names a ranker plugin gets its recall from the
// program that starts plugins: the payload as read, the event as named,
// its answer in this one's place. Hooks that open no stage, and projects
// whose only plugin is a parser, are answered here.
func TestRecallHandedOverForPluginRankers(t *testing.T) {
	p := newProject(t, knowledge.Input{Type: "gotcha", Title: "Coupon applied twice", Body: "The coupon discount ran twice at checkout.", Files: []string{"internal/discount/coupon.go"}})
	plugin := filepath.Join(t.TempDir(), "rubi-rank-mine")
	if err := os.WriteFile(plugin, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig := func(src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		// The user trusts the project's plugins, as rubi trust does.
		if _, err := config.TrustProject(context.Background(), config.Options{Root: p.root, UserConfig: "-", TrustFile: p.root + ".trust.json"}); err != nil {
			t.Fatal(err)
		}
	}
	h := &handOvers{ran: true}
	p.env.HandOver = h.handOver
	prompt := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice at checkout?"})

	writeConfig("ranker \"rank.mine\" {\n  plugin = \"" + plugin + "\"\n}\n")
	if a := p.hook(UserPromptSubmit, prompt); a.raw != `{"from":"rubi-full"}` {
		t.Errorf("answer %q, want the other program's", a.raw)
	}
	if len(h.calls) != 1 || h.calls[0] != UserPromptSubmit || h.payloads[0] != prompt {
		t.Fatalf("hand-overs %q with %q", h.calls, h.payloads)
	}
	p.hook(Stop, p.payload("claude-code/Stop.json", nil))
	p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	if len(h.calls) != 1 {
		t.Errorf("hooks that open no stage were handed over: %q", h.calls)
	}

	// The other program could not start: the built-ins answer, and the
	// log says why.
	h.ran, h.err = false, errors.New("rubi-full is not installed")
	if a := p.hook(UserPromptSubmit, prompt); !strings.Contains(a.Specific.Context, "Coupon applied twice") {
		t.Errorf("the built-ins did not answer: %q", a.raw)
	}
	if log := p.logText(); !strings.Contains(log, "rubi.hcl names a plugin: rubi-full is not installed; answering with the built-in stages") {
		t.Errorf("hooks.log:\n%s", log)
	}

	// A parser plugin does not take part in recall.
	h.calls = nil
	writeConfig("parser \"lang.mine\" {\n  plugin = \"" + plugin + "\"\n  languages = [\"go\"]\n}\n")
	if a := p.hook(UserPromptSubmit, prompt); !strings.Contains(a.Specific.Context, "Coupon applied twice") || len(h.calls) != 0 {
		t.Errorf("answer %q, hand-overs %q", a.raw, h.calls)
	}
}

// An untrusted project's plugin never starts: recall is answered here by
// the built-ins and handed to no program that would start it, and the
// session's first hook tells the user (its systemMessage and hooks.log),
// not the model.
func TestUntrustedPluginsLeftOut(t *testing.T) {
	p := newProject(t, knowledge.Input{Type: "gotcha", Title: "Coupon applied twice", Body: "The coupon discount ran twice at checkout.", Files: []string{"internal/discount/coupon.go"}})
	os.MkdirAll(filepath.Join(p.root, "bin"), 0o755)
	os.WriteFile(filepath.Join(p.root, "bin", "x"), []byte("#!/bin/sh\nexit 1\n"), 0o755)
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n}\n"), 0o644)
	h := &handOvers{ran: true}
	p.env.HandOver = h.handOver

	prompt := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice at checkout?"})
	if a := p.hook(UserPromptSubmit, prompt); !strings.Contains(a.Specific.Context, "Coupon applied twice") || len(h.calls) != 0 {
		t.Errorf("answer %q, hand-overs %q", a.raw, h.calls)
	}
	a := p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	var notice struct {
		SystemMessage string `json:"systemMessage"`
	}
	json.Unmarshal([]byte(a.raw), &notice)
	if !strings.HasPrefix(notice.SystemMessage, "rubi: ranker rank.evil (rubi.hcl:2) did not run") || !strings.Contains(notice.SystemMessage, "rubi trust "+p.root) {
		t.Errorf("SessionStart: %s", a.raw)
	}
	if strings.Contains(a.Specific.Context, "rubi trust") {
		t.Errorf("the notice reached the model: %s", a.Specific.Context)
	}
	if log := p.logText(); strings.Count(log, "rubi trust "+p.root) != 1 {
		t.Errorf("hooks.log:\n%s", log)
	}
}
