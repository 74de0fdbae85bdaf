package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/tokens"
)

// What the hooks inject speaks the locale of the agent's environment:
// under LANG=fr_FR.UTF-8 the recall, the map and the critical notes'
// headers, the read guard, the meter and the harvest are French. The notes
// and the answer's format (kinds, files, reasons) are as written.
func TestHooksSpeakTheLocale(t *testing.T) {
	p := newProject(t, couponNote, ruleNote)
	p.vars["LANG"] = "fr_FR.UTF-8"

	a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice at checkout?"}))
	if !strings.HasPrefix(a.Specific.Context, "rubi (rappel) : notes de la mémoire du projet sur cette demande (ouvrez-en une avec l'outil read de rubi) :\n") ||
		!strings.Contains(a.Specific.Context, "Coupon applied twice") || !strings.Contains(a.Specific.Context, "files: internal/discount/coupon.go") {
		t.Errorf("French recall:\n%s", a.Specific.Context)
	}

	a = p.hook(SessionStart, p.payload("claude-code/SessionStart.json", nil))
	for _, want := range []string{"rubi : la carte du projet (.rubi/map.md).", "# Map of", "rubi : notes critiques (toujours valables) :\n- decision: Money is stored in cents"} {
		if !strings.Contains(a.Specific.Context, want) {
			t.Errorf("French session start lacks %q:\n%s", want, a.Specific.Context)
		}
	}

	big := filepath.Join(p.root, "internal", "generated.go")
	os.WriteFile(big, []byte(strings.Repeat("var x = 1\n", 5000)), 0o644)
	a = p.hook(PreToolUse, p.payload("claude-code/PreToolUse.json", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": big}, "session_id": "fr1"}))
	if want := "rubi (garde de lecture) : internal/generated.go est volumineux (5000 lignes, 49 KB) ; le lire en entier remplirait le contexte. " +
		"Trouvez d'abord la partie utile (Grep, ou grep -n PATTERN internal/generated.go), puis lisez-la avec Read, offset et limit"; !strings.HasPrefix(a.Specific.Why, want) {
		t.Errorf("French read guard:\n%s\nwant it to start with\n%s", a.Specific.Why, want)
	}

	tr := filepath.Join(t.TempDir(), "s.jsonl")
	writeTranscript(t, tr, 125_000)
	a = p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Bash", map[string]any{"command": "go build ./..."}, tr))
	if !strings.HasPrefix(a.Specific.Context, "rubi (jauge) : le contexte contient 125k tokens, 83 % de la fenêtre de compaction de 150k tokens.") {
		t.Errorf("French meter:\n%s", a.Specific.Context)
	}
}

// language in rubi.hcl wins over the locale: a Japanese project under a
// French LANG speaks Japanese.
func TestHooksSpeakTheConfiguredLanguage(t *testing.T) {
	p := newProject(t, couponNote)
	p.vars["LANG"] = "fr_FR.UTF-8"
	if err := os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("language = \"ja\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "why is the coupon applied twice at checkout?"}))
	if !strings.HasPrefix(a.Specific.Context, "rubi(想起): この依頼に関するプロジェクトの記憶のメモです(rubiのreadツールで開けます):\n") || !strings.Contains(a.Specific.Context, "Coupon applied twice") {
		t.Errorf("Japanese recall:\n%s", a.Specific.Context)
	}
	a = p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Write", map[string]any{"file_path": filepath.Join(p.root, "CLAUDE.md")}, ""))
	if !strings.HasPrefix(a.Specific.Context, "rubi: CLAUDE.mdはあなた自身のメモリです。") {
		t.Errorf("Japanese nudge:\n%s", a.Specific.Context)
	}
	// Three days after the last handoff it is pointed to, its age in
	// Japanese.
	eng := p.engine()
	if _, err := eng.Project().Knowledge().SaveHandoff(knowledge.Handoff{Goal: "Ship the coupon fix", Next: []string{"test Apply"}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	p.env.Now = func() time.Time { return time.Now().Add(72 * time.Hour) }
	a = p.hook(SessionStart, p.payload("claude-code/SessionStart.json", map[string]any{"source": "compact"}))
	if !strings.Contains(a.Specific.Context, "(3日前)のものです。この作業に関するものなら、rubiのmemoryツール(action last)で読んでください。") {
		t.Errorf("Japanese old handoff:\n%s", a.Specific.Context)
	}
}

// The harvest blocks the stop with its request in Portuguese.
func TestHarvestInPortuguese(t *testing.T) {
	p := newProject(t)
	p.vars["LC_ALL"] = "pt_BR.UTF-8"
	p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "explain the checkout", "session_id": "sess-1"}))
	for range 12 {
		p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Read", map[string]any{"file_path": "internal/discount/coupon.go"}, ""))
	}
	a := p.hook(Stop, p.payload("claude-code/Stop.json", map[string]any{"session_id": "sess-1"}))
	if a.Decision != "block" || !strings.HasPrefix(a.Reason, "rubi (colheita): esta resposta levou 12 leituras e buscas e nada foi registrado.") {
		t.Errorf("Portuguese harvest: %q", a.raw)
	}
}

// A handoff cut to its budget says what it left out in the session's
// language, and the cut text with its note stays within the budget.
func TestCutHandoffInEveryLanguage(t *testing.T) {
	var b strings.Builder
	b.WriteString("## Goal\n\nShip the coupon fix.\n\n## Done\n\n")
	for i := range 400 {
		b.WriteString("- finished step number " + strings.Repeat("x", i%40) + "\n")
	}
	b.WriteString("\n## Next\n\n- the regression test\n")
	for _, l := range messages.Langs {
		got := cutHandoff(l, b.String(), handoffBudget)
		if n := tokens.Estimate(got); n > handoffBudget {
			t.Errorf("%s: the cut handoff is %d tokens, over its budget of %d", l, n, handoffBudget)
		}
		note := got[strings.LastIndex(got, "\n…"):]
		if !strings.Contains(note, `"Done"`) || !strings.Contains(note, `"Next"`) || !strings.Contains(note, "action last") {
			t.Errorf("%s: the note does not say what was cut: %q", l, note)
		}
		t.Logf("%s: %s", l, strings.TrimSpace(note))
	}
}
