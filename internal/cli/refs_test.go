package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/internal/rubitest"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// panicky is a resolver that fails on every file it is given.
type panicky struct{}

func (panicky) Languages() []string                          { return []string{"python"} }
func (panicky) Version() string                              { return "1" }
func (panicky) Affected(_ refs.Project, c []string) []string { return c }
func (panicky) Refs(context.Context, refs.Project, []string) (map[string][]refs.Ref, error) {
	panic("a resolver's bug")
}

// runWith runs rubi with resolvers, as a program whose main hands them.
func runWith(t *testing.T, resolvers []refs.Resolver, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := command(nil, resolvers)(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// cartTotal is `rubi refs Cart.Total` on rubitest.Callers: the definition,
// then its three callers, the file with two first; not Invoice.Total's.
const cartTotal = `shop/cart.go:7: func (c *Cart) Total() int {

shop/checkout.go:5: total := c.Total()
shop/checkout.go:10: if c.Total() > 100 {

shop/bill.go:5: return i.Total() + c.Total()
`

// rubi refs lists exactly a method's callers, not those of its decoy (a
// method of the same name on another type), in every form of target
// rubi read takes; a bare name with two definitions lists them and exits
// 1; a name the index does not define suggests the one meant.
func TestRefs(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	resolvers := []refs.Resolver{rubitest.GoCalls{}}
	rubi := func(args ...string) (int, string, string) {
		t.Helper()
		return runWith(t, resolvers, append([]string{"--root", root}, args...)...)
	}
	code, out, errOut := rubi("index", "--json")
	var stats struct {
		References struct {
			State    string
			Found    int
			Resolved int
		}
	}
	if err := json.Unmarshal([]byte(out), &stats); code != 0 || err != nil {
		t.Fatalf("index: %d %v %s", code, err, errOut)
	}
	// Checkout's and fee's call of Cart.Total, Bill's of both Totals and
	// Checkout's of fee: five references in four Go files resolved.
	if r := stats.References; r.State != "full" || r.Found != 5 || r.Resolved != 4 {
		t.Errorf("index stats: %+v", r)
	}
	for _, target := range []string{"Cart.Total", "(*Cart).Total", "shop.Cart.Total", "shop/cart.go::Total"} {
		if code, out, errOut := rubi("refs", target); code != 0 || out != cartTotal {
			t.Errorf("refs %s: %d %s\n%s\nwant:\n%s", target, code, errOut, out, cartTotal)
		}
	}
	want := "shop/invoice.go:7: func (i Invoice) Total() int {\n\nshop/bill.go:5: return i.Total() + c.Total()\n"
	if code, out, _ := rubi("refs", "Invoice.Total", "--no-refresh"); code != 0 || out != want {
		t.Errorf("refs Invoice.Total: %d\n%s\nwant:\n%s", code, out, want)
	}
	// The limit keeps the first references in order, and says how many
	// it left out.
	code, out, _ = rubi("refs", "Cart.Total", "--limit", "1")
	if wantStart := "shop/cart.go:7: func (c *Cart) Total() int {\n\nshop/checkout.go:5: total := c.Total()\n\n… 2 more of 3 references"; code != 0 || !strings.HasPrefix(out, wantStart) {
		t.Errorf("--limit 1: %d\n%s", code, out)
	}
	// A definition nobody calls.
	if code, out, _ := rubi("refs", "Checkout"); code != 0 || out != "shop/checkout.go:4: func Checkout(c *Cart) int {\nno references to Checkout in the index\n" {
		t.Errorf("refs Checkout: %d\n%s", code, out)
	}
	// Ambiguous: the candidates, as read lists them, and exit 1.
	code, out, _ = rubi("refs", "Total")
	wantAmbiguous := "2 definitions of Total, best first; name one as path::Total or Type.Total:\n" +
		"  shop/cart.go:7 method Cart.Total\n" +
		"  shop/invoice.go:7 method Invoice.Total\n"
	if code != 1 || out != wantAmbiguous {
		t.Errorf("refs Total: %d\n%s\nwant:\n%s", code, out, wantAmbiguous)
	}
	for target, wantErr := range map[string]string{
		"Totl":         "rubi: no symbol named Totl; did you mean Total?",
		"total":        "rubi: no symbol named total; did you mean Total?",
		"Refund":       "rubi: no symbol named Refund\n",
		"Ledger.Total": "rubi: none of the 2 symbols named Total is in Ledger",
	} {
		if code, out, errOut := rubi("refs", target, "--no-refresh"); code != 1 || out != "" || !strings.Contains(errOut, wantErr) {
			t.Errorf("refs %s: %d %q\n%s\nwant %q", target, code, out, errOut, wantErr)
		}
	}
}

// --json gives the definition and each reference with its place, the
// definition it sits in, whether it calls, and its code.
func TestRefsJSON(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	code, out, errOut := runWith(t, []refs.Resolver{rubitest.GoCalls{}}, "refs", "--root", root, "Cart.Total", "--json")
	if code != 0 {
		t.Fatalf("refs --json: %d %s", code, errOut)
	}
	var got struct {
		Definition struct {
			Path, Kind, Name, Parent, Signature string
			Line                                int
		}
		Refs []struct {
			Path, From, Code string
			Line, Col        int
			Call             bool
		}
		Total, Files int
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := got.Definition; d.Path != "shop/cart.go" || d.Line != 7 || d.Kind != "method" || d.Name != "Total" || d.Parent != "Cart" || d.Signature != "func (c *Cart) Total() int {" {
		t.Errorf("definition: %+v", d)
	}
	if got.Total != 3 || got.Files != 2 || len(got.Refs) != 3 {
		t.Fatalf("refs: %+v", got)
	}
	bill := got.Refs[2]
	if bill.Path != "shop/bill.go" || bill.Line != 5 || bill.Col != 23 || bill.From != "Bill" || !bill.Call || bill.Code != "return i.Total() + c.Total()" {
		t.Errorf("Bill's call: %+v", bill)
	}
	if fee := got.Refs[1]; fee.From != "fee" || fee.Line != 10 {
		t.Errorf("fee's call: %+v", fee)
	}
}

// An edit that adds a call shows on the next refs (which refreshes the
// index first): only the edited file's package is resolved again, and
// the other files keep their references.
func TestRefsAfterAnEdit(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	var asked [][]string
	resolvers := []refs.Resolver{rubitest.GoCalls{Asked: &asked}}
	if code, _, errOut := runWith(t, resolvers, "index", "--root", root); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	refund := "package shop\n\n// Refund gives a cart's money back.\nfunc Refund(c *Cart) int { return -c.Total() }\n"
	if err := os.WriteFile(filepath.Join(root, "shop", "refund.go"), []byte(refund), 0o644); err != nil {
		t.Fatal(err)
	}
	asked = nil
	code, out, errOut := runWith(t, resolvers, "refs", "--root", root, "Cart.Total")
	want := cartTotal + "\nshop/refund.go:4: func Refund(c *Cart) int { return -c.Total() }\n"
	if code != 0 || out != want {
		t.Errorf("after adding a call: %d %s\n%s\nwant:\n%s", code, errOut, out, want)
	}
	if wantAsked := [][]string{{"shop/bill.go", "shop/cart.go", "shop/checkout.go", "shop/invoice.go", "shop/refund.go"}}; !slices.EqualFunc(asked, wantAsked, slices.Equal) {
		t.Errorf("resolved again: %v, want %v", asked, wantAsked)
	}
	// Nothing changed since: the table stands, nothing is resolved.
	asked = nil
	code, out, _ = runWith(t, resolvers, "index", "--root", root, "--json")
	if code != 0 || len(asked) != 0 || !strings.Contains(out, `"state": "up to date"`) {
		t.Errorf("a run with nothing changed: %d, resolved %v\n%s", code, asked, out)
	}
}

// A damaged table is an error a query reports, never a panic, and the
// next index run builds it again; a resolver that panics costs its own
// files' references, not the index, and is a problem of the run.
func TestRefsDamagedAndFailing(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	resolvers := []refs.Resolver{rubitest.GoCalls{}, panicky{}}
	code, out, errOut := runWith(t, resolvers, "index", "--root", root, "--json")
	if code != 0 || !strings.Contains(out, "the resolver of references for python failed, its files keep no references: a resolver's bug") {
		t.Fatalf("index with a failing resolver: %d %s\n%s", code, errOut, out)
	}
	if code, out, _ := runWith(t, resolvers, "refs", "--root", root, "--no-refresh", "Cart.Total"); code != 0 || out != cartTotal {
		t.Errorf("refs after a resolver failed: %d\n%s", code, out)
	}
	tables, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "refs-*.bin"))
	if len(tables) != 1 {
		t.Fatalf("tables: %v", tables)
	}
	data, err := os.ReadFile(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := len(refs.Magic) + 40; i < len(data)-4; i += 7 {
		data[i] ^= 0xa5
	}
	if err := os.WriteFile(tables[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runWith(t, resolvers, "refs", "--root", root, "--no-refresh", "Cart.Total")
	if code != 1 || out != "" || !strings.Contains(errOut, "the references table is damaged") || !strings.Contains(errOut, "the next index run (rubi index) builds it again") {
		t.Errorf("refs on a damaged table: %d %q %q", code, out, errOut)
	}
	// The refresh finds it damaged and builds it again.
	if code, out, errOut := runWith(t, resolvers, "refs", "--root", root, "Cart.Total"); code != 0 || out != cartTotal {
		t.Errorf("refs after the refresh: %d %s\n%s", code, errOut, out)
	}
	// Without resolvers (or with index.references = false) the table
	// goes, and refs says why it has nothing.
	if code, _, errOut := runWith(t, nil, "index", "--root", root); code != 0 {
		t.Fatalf("index without resolvers: %d %s", code, errOut)
	}
	if tables, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "refs-*.bin")); len(tables) != 0 {
		t.Errorf("a table stayed: %v", tables)
	}
	if code, _, errOut := runWith(t, nil, "refs", "--root", root, "Cart.Total"); code != 1 || !strings.Contains(errOut, "rubi: this index keeps no references") {
		t.Errorf("refs without references: %d %s", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte("index {\n  references = false\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runWith(t, resolvers, "refs", "--root", root, "Cart.Total"); code != 1 || !strings.Contains(errOut, "index.references is false") {
		t.Errorf("refs with references off: %d %s", code, errOut)
	}
}

// The resolvers every program hands (Go through go/types, Python from
// the types its code states) give exact references over a project with
// decoys: a method's callers, not those of a same-named method of another
// type, in Go and in Python, and never a name in a comment or a string.
func TestRefsWithTheStandardResolvers(t *testing.T) {
	files := map[string]string{
		"billing/close.py": `from billing.ledger import Ledger
from billing.journal import Journal


def close(amount):
    ledger = Ledger()
    ledger.post(amount)  # not journal.post
    return ledger


def note(j: Journal, entry):
    j.post(entry)
    print("ledger.post(1)")
`,
	}
	for p, c := range rubitest.Callers {
		files[p] = c
	}
	root := rubitest.Project(t, files)
	rubi := func(args ...string) (int, string, string) {
		t.Helper()
		return runWith(t, standard.Resolvers(), append([]string{"--root", root}, args...)...)
	}
	if code, _, errOut := rubi("index"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	if code, out, errOut := rubi("refs", "Cart.Total"); code != 0 || out != cartTotal {
		t.Errorf("rubi refs Cart.Total: %d %s\n%s\nwant:\n%s", code, errOut, out, cartTotal)
	}
	want := "billing/ledger.py:4: def post(self, amount):\n\nbilling/close.py:7: ledger.post(amount)  # not journal.post\n"
	if code, out, errOut := rubi("refs", "Ledger.post"); code != 0 || out != want {
		t.Errorf("rubi refs Ledger.post: %d %s\n%s\nwant:\n%s", code, errOut, out, want)
	}
	want = "billing/journal.py:4: def post(self, entry):\n\nbilling/close.py:12: j.post(entry)\n"
	if code, out, errOut := rubi("refs", "Journal.post"); code != 0 || out != want {
		t.Errorf("rubi refs Journal.post: %d %s\n%s\nwant:\n%s", code, errOut, out, want)
	}
}

// A note anchored to methods by their bare names, registered while Go was
// parsed by lang.regex (which gives methods no receiver), stays fresh
// once lang.go parses Go and names them Cart.Total: an anchor names the
// declarations its symbol names in its file, whatever a parser calls
// them; and it turns stale when the method's body changes.
func TestAnchorsSurviveReceivers(t *testing.T) {
	files := map[string]string{"rubi.hcl": "parser \"lang.go\" {\n  enabled = false\n}\n"}
	for p, c := range rubitest.Decoys {
		files[p] = c
	}
	root := rubitest.Project(t, files)
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runRubi(t, append(args, "--root", root)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args, code, errOut)
		}
		return out
	}
	stale := func() int {
		t.Helper()
		var st struct {
			Knowledge struct {
				Stale int `json:"stale"`
			} `json:"knowledge"`
		}
		if err := json.Unmarshal([]byte(run("status", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		return st.Knowledge.Stale
	}
	run("index")
	run("register", "--type", "gotcha", "--title", "Cart total ignores discounts", "--body", "Total sums raw items.",
		"--file", "shop/cart.go", "--symbol", "Total")
	if err := os.Remove(filepath.Join(root, "rubi.hcl")); err != nil {
		t.Fatal(err)
	}
	run("index")
	if n := stale(); n != 0 {
		t.Errorf("after lang.go took Go over, %d notes are stale", n)
	}
	cart := filepath.Join(root, "shop", "cart.go")
	b, err := os.ReadFile(cart)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cart, bytes.Replace(b, []byte("n += v"), []byte("n += 2 * v"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	run("index")
	if n := stale(); n != 1 {
		t.Errorf("after Cart.Total's body changed, %d notes are stale, want 1", n)
	}
}
