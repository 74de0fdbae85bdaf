//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/tokens"
)

// What the model receives of a rubi tool call stays within the budget the
// call names, whichever copy of the result its client forwards. Each real
// CLI is scripted to call rubi's context tool with budget 600 in a project
// whose answer fills it; the tool result in the next request the mock
// receives is counted with rubi's own estimator. What they forward (seen
// here): Claude Code 2.1.328 the structured content alone, as its JSON;
// Codex 0.169.0 the structured content alone, after a "Wall time" line;
// Gemini CLI 0.61.0 the text alone, as {"output": "<untrusted_context>…"}.

const (
	// budgetQuery is the question of the scripted context call; its answer
	// in budgetProject fills any budget of a few hundred tokens.
	budgetQuery = "where is the coupon discount applied and the checkout total recomputed"
	// callBudget is the budget the call names; deliveredLimit is what may
	// reach the model for it (the bound: 10% over, for what the
	// client wraps around the result).
	callBudget     = 600
	deliveredLimit = 660
	// budgetPrompt starts the scripted turn.
	budgetPrompt = "Ask rubi about the coupon rules."
)

// budgetProject is shopProject with more than a budget of 600 tokens can
// hold about coupons: a file of rules per kind of coupon and notes about
// them.
func budgetProject(t *testing.T, env []string) string {
	t.Helper()
	dir := shopProject(t, env)
	files := map[string]string{}
	for i, kind := range []string{"percent", "fixed", "seasonal", "loyalty", "referral", "bundle", "shipping", "student", "employee", "welcome", "birthday", "clearance"} {
		files[fmt.Sprintf("checkout/coupon_%s.go", kind)] = fmt.Sprintf(`package checkout

import "example.com/shop/cart"

// %[1]sCoupon is the discount of a %[2]s coupon, in cents, applied to the
// checkout total once per order.
func %[1]sCoupon(c *cart.Cart, code string) int {
	total := c.Total()
	if total < %[3]d {
		return 0
	}
	return total / %[4]d
}

// recompute%[1]sTotal recomputes the checkout total after the %[2]s coupon
// discount was applied.
func recompute%[1]sTotal(c *cart.Cart, code string) int {
	return c.Total() - %[1]sCoupon(c, code)
}
`, strings.ToUpper(kind[:1])+kind[1:], kind, 100*(i+1), 10+i)
	}
	writeFiles(t, dir, files)
	for _, kind := range []string{"percent", "seasonal", "loyalty", "referral"} {
		runRubi(t, dir, env, "register", "--type", "gotcha", "--title", "The "+kind+" coupon discount and the checkout total",
			"--file", "checkout/coupon_"+kind+".go",
			"--body", "The "+kind+" coupon discount is applied to the checkout total once per order; recomputing the total after the discount was applied "+
				"applies it a second time. Apply the coupon after the cart total is final, and never recompute the checkout total with the discount in it.")
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "coupons")
	return dir
}

// contextArgs are the arguments of the scripted context call.
var contextArgs = map[string]any{"query": budgetQuery, "budget": callBudget}

// checkDelivered counts what the model received of the context call
// (result, as the request carries it) and fails past deliveredLimit. It
// also wants the answer to have used most of the budget: a small answer
// would prove nothing.
func checkDelivered(t *testing.T, client, result string) {
	t.Helper()
	n := tokens.Estimate(result)
	t.Logf("%s: the context call with budget %d reached the model as %d tokens:\n%s", client, callBudget, n, result)
	if n > deliveredLimit {
		t.Errorf("%s: the context call with budget %d reached the model as %d tokens, over %d", client, callBudget, n, deliveredLimit)
	}
	if n < callBudget/2 {
		t.Errorf("%s: the answer is %d tokens, under half the budget: the fixture no longer fills it", client, n)
	}
	if !strings.Contains(result, "coupon") {
		t.Errorf("%s: the tool result is not rubi's answer about coupons", client)
	}
}

// TestBudgetClaudeCode: Claude Code with rubi's plugin.
func TestBudgetClaudeCode(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project := budgetProject(t, env)
	const tool = "mcp__plugin_rubi_rubi__context"
	api := newMockAPI(t, func(r apiRequest) reply {
		if !strings.Contains(r.Prompt(), budgetPrompt) || !r.HasTool("Read") {
			return reply{Text: "Noted."}
		}
		if len(r.ToolResults()) == 0 {
			return reply{ToolName: tool, ToolInput: contextArgs}
		}
		return reply{Text: "Done."}
	})
	s := newClaudeSession(t, claude, api, project, env, "--plugin-dir", repoRoot, "--allowedTools", tool)
	r := s.run(t, budgetPrompt)
	var results []string
	for _, q := range r.requests {
		for _, b := range q.ToolResults() {
			results = append(results, b.ResultText())
		}
	}
	if len(results) == 0 {
		t.Fatalf("no request carried the context call's result; claude printed %q", r.out)
	}
	checkDelivered(t, "Claude Code", results[0])
}

// TestBudgetCodex: Codex with rubi mcp from the example config.
func TestBudgetCodex(t *testing.T) {
	codex := codexCLI(t)
	env := rubiEnv(t)
	project := budgetProject(t, env)
	api := newMockResponses(t, func(r responsesRequest) reply {
		if !strings.Contains(r.Prompt(), budgetPrompt) {
			return reply{Text: "Noted."}
		}
		if len(r.Outputs()) == 0 {
			return reply{ToolName: "context", ToolNamespace: "mcp__rubi", ToolInput: contextArgs}
		}
		return reply{Text: "Done."}
	})
	s := newCodexSession(t, codex, api, project, env)
	r := s.run(t, budgetPrompt)
	last := r.requests[len(r.requests)-1]
	outs := last.Outputs()
	if len(outs) == 0 {
		t.Fatalf("no request carried the context call's result; codex printed %q", r.out)
	}
	checkDelivered(t, "Codex", outs[0].OutputText())
}

// TestBudgetGemini: Gemini CLI connected with rubi connect gemini.
func TestBudgetGemini(t *testing.T) {
	s := newGeminiSessionIn(t, "--global", budgetProject)
	s.api.script = func(r geminiRequest) map[string]any {
		if !strings.Contains(r.raw, budgetPrompt) || len(r.responses()) > 0 {
			return nil
		}
		return map[string]any{"functionCall": map[string]any{"name": "mcp_rubi_context", "args": contextArgs}}
	}
	reqs := s.run(t, budgetPrompt)
	var got []string
	for _, r := range reqs {
		got = append(got, r.responses()...)
	}
	if len(got) == 0 {
		t.Fatal("no request carried the context call's result")
	}
	var fr struct {
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal([]byte(got[0]), &fr); err != nil {
		t.Fatal(err)
	}
	checkDelivered(t, "Gemini CLI", string(fr.Response))
}
