package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi read takes a symbol after a note and a path: Type.method prints
// that method's body and not its decoy's (a method of the same name on
// another type), the bare name lists both, PATH::Name picks the one in
// that file, and a module qualifies (a Go package, a Python module).
func TestReadSymbol(t *testing.T) {
	root := rubitest.Project(t, rubitest.Decoys)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	read := func(args ...string) (int, string, string) {
		t.Helper()
		return runRubi(t, append([]string{"read", "--root", root}, args...)...)
	}
	for _, target := range []string{"Cart.Total", "(*Cart).Total", "shop.Cart.Total", "shop/cart.go::Total"} {
		if code, out, errOut := read(target); code != 0 || out != rubitest.CartTotal {
			t.Errorf("read %s: %d %s\n%s\nwant:\n%s", target, code, errOut, out, rubitest.CartTotal)
		}
	}
	for target, want := range map[string]string{
		"Total": "2 definitions of Total, best first; read one as path::Total or Type.Total:\n" +
			"  shop/cart.go:7 method Cart.Total\n" +
			"  shop/invoice.go:7 method Invoice.Total\n",
		"shop.Total": "2 definitions of Total, best first; read one as path::Total or Type.Total:\n" +
			"  shop/cart.go:7 method Cart.Total\n" +
			"  shop/invoice.go:7 method Invoice.Total\n",
		"shop/invoice.go::Total": "shop/invoice.go:7-9 method Invoice.Total\n" +
			"7\tfunc (i Invoice) Total() int {\n8\t\treturn len(i.lines) * 2\n9\t}\n",
		"Journal.post":        "billing/journal.py:4-5 method Journal.post\n4\t    def post(self, entry):\n5\t        self.entries.append(entry)\n",
		"journal.post":        "billing/journal.py:4-5 method Journal.post\n4\t    def post(self, entry):\n5\t        self.entries.append(entry)\n",
		"billing.Ledger.post": "billing/ledger.py:4-6 method Ledger.post\n4\t    def post(self, amount):\n5\t        self.balance += amount\n6\t        return self.balance\n",
	} {
		if code, out, errOut := read(target); code != 0 || out != want {
			t.Errorf("read %s: %d %s\n%s\nwant:\n%s", target, code, errOut, out, want)
		}
	}

	// A note id and a path still read as before.
	if code, _, errOut := runRubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Total skips discounts", "--id", "gotcha-total", "--symbol", "Total"); code != 0 {
		t.Fatalf("register: %d %s", code, errOut)
	}
	if code, out, _ := read("gotcha-total"); code != 0 || !strings.Contains(out, "title: Total skips discounts") {
		t.Errorf("read a note id: %d\n%s", code, out)
	}
	if code, out, _ := read("shop/cart.go:7-8"); code != 0 || out != "7\tfunc (c *Cart) Total() int {\n8\t\tn := 0\n" {
		t.Errorf("read a path: %d\n%q", code, out)
	}

	// Nothing found says what was tried, and exits 1.
	for target, want := range map[string]string{
		"Refund":                   `"Refund": no note has this id or title, it is no readable file (file does not exist), and the index knows no symbol Refund`,
		"Ledger.Total":             "none of the 2 symbols named Total is in Ledger",
		"billing/ledger.py::Total": "none of the 2 symbols named Total is in billing/ledger.py",
		"Ledger.Cart":              "the one symbol named Cart is not in Ledger",
	} {
		if code, out, errOut := read(target); code != 1 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("read %s: %d %q\n%s\nwant %q", target, code, out, errOut, want)
		}
	}

	// --json: the definition's fields and its text.
	code, out, _ := read("Invoice.Total", "--json")
	var got struct {
		Definition struct {
			Path, Kind, Name, Parent, Role string
			Line                           int
			EndLine                        int `json:"end_line"`
		}
		Text string
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("--json: %d %v\n%s", code, err, out)
	}
	if d := got.Definition; d.Path != "shop/invoice.go" || d.Kind != "method" || d.Name != "Total" || d.Parent != "Invoice" || d.Role != "code" || d.Line != 7 || d.EndLine != 9 || !strings.HasPrefix(got.Text, "7\tfunc (i Invoice) Total() int {\n") {
		t.Errorf("--json: %+v", got)
	}

	// In the user's language.
	t.Setenv("LC_ALL", "fr_FR.UTF-8")
	if _, out, _ := read("Total"); !strings.HasPrefix(out, "2 définitions de Total, la meilleure d'abord") {
		t.Errorf("read Total in French:\n%s", out)
	}
}

// A file changed since the index: read finds the definition again where
// it is now (the file parsed again, alone) rather than print the lines
// the index had, and says it moved; once gone, it says so and exits 1.
func TestReadSymbolOfAChangedFile(t *testing.T) {
	root := rubitest.Project(t, rubitest.Decoys)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	cart := filepath.Join(root, "shop", "cart.go")
	data, err := os.ReadFile(cart)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.Replace(string(data), "package shop\n", "package shop\n\n// Prices are in cents.\n// Totals never overflow.\n", 1)
	if err := os.WriteFile(cart, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "⚠ shop/cart.go changed since the index: Cart.Total is now at lines 10-16 (the index had 7-13).\n" +
		"shop/cart.go:10-16 method Cart.Total\n10\tfunc (c *Cart) Total() int {\n"
	code, out, errOut := runRubi(t, "read", "--root", root, "--no-refresh", "Cart.Total")
	if code != 0 || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "16\t}\n") {
		t.Errorf("moved: %d %s\n%s\nwant it to start:\n%s", code, errOut, out, want)
	}
	if err := os.WriteFile(cart, []byte(strings.Replace(moved, ") Total()", ") Sum()", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runRubi(t, "read", "--root", root, "--no-refresh", "Cart.Total")
	if code != 1 || out != "" || !strings.Contains(errOut, "shop/cart.go changed since the index and no longer defines Cart.Total") {
		t.Errorf("gone: %d %q\n%s", code, out, errOut)
	}
	// Refreshed (the default), the index knows the file as it is.
	if code, out, _ = runRubi(t, "read", "--root", root, "Cart.Sum"); code != 0 || !strings.HasPrefix(out, "shop/cart.go:10-16 method Cart.Sum\n") {
		t.Errorf("after a refresh: %d\n%s", code, out)
	}
}
