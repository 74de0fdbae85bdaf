package cli

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// callersProject is rubitest.Callers with a caller of Invoice.Total alone
// (Refund) and a Python caller of Ledger.post, not of its decoy
// Journal.post.
func callersProject(t *testing.T) string {
	t.Helper()
	files := maps.Clone(rubitest.Callers)
	files["shop/refund.go"] = "package shop\n\n// Refund gives an invoice's money back.\nfunc Refund(i Invoice) int { return -i.Total() }\n"
	files["billing/pay.py"] = "from billing.ledger import Ledger\n\n\ndef pay(amount):\n    ledger = Ledger()\n    return ledger.post(amount)\n"
	return rubitest.Project(t, files)
}

// contextAnswer is a compact answer split into what a reader looks at:
// the units listed to open first ("path:lines Name — why") and the files
// of the items, in order.
type contextAnswer struct {
	first []string
	files []string
}

var itemFile = regexp.MustCompile(`^\d+\. \[file\] (\S+)`)

func parseContext(out string) contextAnswer {
	var a contextAnswer
	inFirst := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case line == "open first:":
			inFirst = true
		case inFirst && strings.HasPrefix(line, "   "):
			a.first = append(a.first, strings.TrimSpace(line))
			continue
		}
		if m := itemFile.FindStringSubmatch(line); m != nil {
			inFirst = false
			a.files = append(a.files, m[1])
		}
	}
	return a
}

// "what calls Cart.Total" is answered with Cart.Total's callers, through
// the standard resolvers: the files that call it lead the answer, the
// one with two calls first, their calling functions lead the units to
// open, each with the line it calls at, and Cart.Total's definition
// follows them; Refund, which calls Invoice.Total alone, is no caller.
// The other languages' forms and a Python method are answered alike.
func TestContextWhatCalls(t *testing.T) {
	root := callersProject(t)
	rubi := func(args ...string) string {
		t.Helper()
		code, out, errOut := runWith(t, standard.Resolvers(), append([]string{"--root", root}, args...)...)
		if code != 0 {
			t.Fatalf("%v: %d %s", args, code, errOut)
		}
		return out
	}
	rubi("index")
	wantFirst := []string{
		"shop/checkout.go:4-7 Checkout — calls Cart.Total at line 5",
		"shop/bill.go:4-6 Bill — calls Cart.Total at line 5",
		"shop/checkout.go:9-14 fee — calls Cart.Total at line 10",
	}
	const definition = "shop/cart.go:7-13 Cart.Total — defines Cart.Total, "
	for _, q := range []string{"what calls Cart.Total", "where is `Cart.Total` called?", "quem chama Cart.Total"} {
		out := rubi("context", q, "--no-refresh")
		a := parseContext(out)
		if len(a.first) <= len(wantFirst) || !slices.Equal(a.first[:len(wantFirst)], wantFirst) || !strings.HasPrefix(a.first[len(wantFirst)], definition) {
			t.Errorf("%q: open first\n%s\nwant the callers\n%s\nthen the definition", q, strings.Join(a.first, "\n"), strings.Join(wantFirst, "\n"))
		}
		if len(a.files) < 3 || !slices.Equal(a.files[:2], []string{"shop/checkout.go", "shop/bill.go"}) || a.files[2] != "shop/cart.go" {
			t.Errorf("%q: files %v, want the callers checkout.go and bill.go, then the definition\n%s", q, a.files, out)
		}
		if strings.Contains(out, "calls Invoice.Total") {
			t.Errorf("%q: lists a caller of Invoice.Total\n%s", q, out)
		}
	}

	// Invoice.Total's callers are Refund and Bill, not Checkout.
	a := parseContext(rubi("context", "what calls Invoice.Total", "--no-refresh"))
	if len(a.first) < 2 || !strings.HasSuffix(a.first[0], "— calls Invoice.Total at line 4") && !strings.HasSuffix(a.first[1], "— calls Invoice.Total at line 4") ||
		slices.ContainsFunc(a.first, func(s string) bool { return strings.Contains(s, "calls Cart.Total") }) {
		t.Errorf("what calls Invoice.Total: %v", a.first)
	}
	if len(a.files) < 2 || !slices.Contains(a.files[:2], "shop/refund.go") || !slices.Contains(a.files[:2], "shop/bill.go") {
		t.Errorf("what calls Invoice.Total: files %v", a.files)
	}

	// A bare name defined twice stands for both, each use saying which.
	a = parseContext(rubi("context", "what calls Total", "--no-refresh"))
	callers := 0
	for _, u := range a.first {
		if strings.Contains(u, "— calls Cart.Total at line") || strings.Contains(u, "— calls Invoice.Total at line") {
			callers++
		} else {
			break
		}
	}
	if callers != 4 {
		t.Errorf("what calls Total: the first units are not the four callers of both Totals: %v", a.first)
	}

	// Python, through its resolver: pay calls Ledger.post, nobody calls
	// Journal.post.
	a = parseContext(rubi("context", "where is Ledger.post used?", "--no-refresh"))
	if len(a.first) == 0 || a.first[0] != "billing/pay.py:4-6 pay — calls Ledger.post at line 6" || len(a.files) == 0 || a.files[0] != "billing/pay.py" {
		t.Errorf("where is Ledger.post used: %v %v", a.first, a.files)
	}

	// --explain shows the stage's list and the caller's part of a unit's
	// score.
	out := rubi("context", "what calls Cart.Total", "--no-refresh", "--explain")
	for _, want := range []string{
		"fused from query.callers 2,",
		"Checkout — calls Cart.Total at line 5 (score ",
		"caller_weight 4 + ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--explain lacks %q:\n%s", want, out)
		}
	}

	// A question that asks no callers is answered as without the stage.
	out = rubi("context", "how is the cart total computed", "--no-refresh", "--explain")
	if strings.Contains(out, "query.callers") || strings.Contains(out, "caller_weight") || strings.Contains(out, "calls Cart.Total") {
		t.Errorf("a question that asks no callers shows them:\n%s", out)
	}
}

// rubi config check lists query.callers with its settings, and names a
// setting out of range, of the stage and of rerank.units' caller part.
func TestConfigCheckCallers(t *testing.T) {
	root := rubitest.Project(t, map[string]string{"a.go": "package a\n"})
	code, out, errOut := runWith(t, standard.Resolvers(), "--root", root, "config", "check")
	if code != 0 || !regexp.MustCompile(`(?m)^  ranker +query\.callers +built-in .* weight 4 +\{"max_files":50,"max_names":4\}$`).MatchString(out) ||
		!strings.Contains(out, `"caller_weight":4`) {
		t.Errorf("config check: %d %s\n%s", code, errOut, out)
	}
	bad := "ranker \"query.callers\" {\n  max_names = 0\n}\nreranker \"rerank.units\" {\n  caller_weight = -1\n}\n"
	if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runWith(t, standard.Resolvers(), "--root", root, "config", "check")
	for _, want := range []string{`Invalid max_names for ranker "query.callers"`, `Invalid caller_weight for reranker "rerank.units"`} {
		if code == 0 || !strings.Contains(out+errOut, want) {
			t.Errorf("config check with %q: %d, lacks %q\n%s%s", bad, code, want, out, errOut)
		}
	}
}
