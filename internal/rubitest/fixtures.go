package rubitest

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Project writes files (slash paths to contents) into a new directory and
// returns it. The user's personal configuration, vault and state are kept
// out of the test ($XDG_CONFIG_HOME, $RUBI_VAULT and $XDG_STATE_HOME point
// at empty directories).
func Project(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		path := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("RUBI_VAULT", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return root
}

// GoProject is a small project for Project: a Go module with a store
// package and a little JavaScript. Tests read it; none may change it.
var GoProject = map[string]string{
	"go.mod":                "module example.com/app\n\ngo 1.22\n",
	"main.go":               "package main\n\nimport \"example.com/app/store\"\n\nfunc main() { store.Open(\"db\") }\n",
	"store/store.go":        "// Package store keeps orders in a database.\npackage store\n\n// Open connects to the order database.\nfunc Open(dsn string) error { return nil }\n",
	"store/migrate.go":      "package store\n\n// Migrate upgrades the database schema.\nfunc Migrate() error { return nil }\n",
	"web/handlers/order.js": "import { fetchOrders } from '../api.js';\nexport function renderOrders() { return fetchOrders(); }\n",
	"web/api.js":            "export async function fetchOrders() { return fetch('/orders'); }\n",
}

// ClaudeSample and CodexSample are real session logs captured from Claude
// Code and Codex (agent/transcript/testdata), as absolute paths.
var ClaudeSample, CodexSample = sample("claude-code-2.1.328.jsonl"), sample("codex-0.169.0.jsonl")

func sample(name string) string {
	return filepath.Join(repo, "agent", "transcript", "testdata", name)
}

// AgentHomes lays the two sample logs out where Claude Code and Codex
// keep theirs, modified at mod, and points $CLAUDE_CONFIG_DIR,
// $CODEX_HOME and $HOME there.
func AgentHomes(t testing.TB, mod time.Time) {
	t.Helper()
	home := t.TempDir()
	for src, dst := range map[string]string{
		ClaudeSample: "claude/projects/-home-dev-project/fb8b07ed-43f1-4f11-8556-ee3bf452f7db.jsonl",
		CodexSample:  "codex/sessions/2026/11/29/rollout-2026-11-29T14-05-13-01a2279f-ca04-7bc3-baff-8285562be50b.jsonl",
	} {
		dst = filepath.Join(home, dst)
		copyFile(t, src, dst)
		if err := os.Chtimes(dst, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex"))
	t.Setenv("HOME", home)
}

// XrayFixtures lays out the sessions agent/xray's tests work out by hand
// as the agents keep them, in a new temporary directory, and returns it:
// Claude Code's two (agent/xray/testdata/claude) under claude/projects/,
// and Codex's legacy rollout (agent/transcript/testdata/codex-legacy.jsonl)
// under codex/sessions/YYYY/MM/DD/, named by its start and session id.
func XrayFixtures(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "claude"), os.DirFS(filepath.Join(repo, "agent", "xray", "testdata", "claude"))); err != nil {
		t.Fatal(err)
	}
	copyFile(t, sample("codex-legacy.jsonl"), filepath.Join(dir, "codex", "sessions", "2026", "10", "02", "rollout-2026-10-02T09-00-00-0199a0b1-c2d3-7e4f-8a9b-0c1d2e3f4a5b.jsonl"))
	return dir
}

// copyFile copies the file src to dst, making dst's directories.
func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Decoys is a Go and Python project where each method has a decoy: a
// method of the same name on another type (Cart.Total and Invoice.Total
// in one Go package, Ledger.post and Journal.post in two Python modules),
// for reading symbols (rubi read, the MCP read tool). CartTotal is
// Cart.Total's definition as `rubi read Cart.Total` prints it.
var Decoys = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"shop/cart.go": `package shop

// Cart holds the items of an order.
type Cart struct{ items []int }

// Total sums the cart's items.
func (c *Cart) Total() int {
	n := 0
	for _, v := range c.items {
		n += v
	}
	return n
}
`,
	"shop/invoice.go": `package shop

// Invoice is what a customer pays.
type Invoice struct{ lines []int }

// Total is the invoice's amount, tax included.
func (i Invoice) Total() int {
	return len(i.lines) * 2
}
`,
	"billing/ledger.py": `class Ledger:
    """Money in."""

    def post(self, amount):
        self.balance += amount
        return self.balance
`,
	"billing/journal.py": `class Journal:
    """What happened, in order."""

    def post(self, entry):
        self.entries.append(entry)
`,
}

// Callers is Decoys with calls of both Total methods, for listing
// references (rubi refs): Cart.Total is called in Checkout and fee
// (shop/checkout.go lines 5 and 10) and in Bill (shop/bill.go line 5,
// beside a call of Invoice.Total on the same line), Invoice.Total in
// Bill alone.
var Callers = withFiles(Decoys, map[string]string{
	"shop/checkout.go": `package shop

// Checkout charges a cart.
func Checkout(c *Cart) int {
	total := c.Total()
	return total + fee(c)
}

func fee(c *Cart) int {
	if c.Total() > 100 {
		return 0
	}
	return 5
}
`,
	"shop/bill.go": `package shop

// Bill is what an invoice and a cart come to.
func Bill(i Invoice, c *Cart) int {
	return i.Total() + c.Total()
}
`,
})

// withFiles returns the files of base and more in one new map.
func withFiles(base, more map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(more))
	maps.Copy(out, base)
	maps.Copy(out, more)
	return out
}

// CartTotal is `rubi read Cart.Total` on Decoys.
const CartTotal = `shop/cart.go:7-13 method Cart.Total
 7	func (c *Cart) Total() int {
 8		n := 0
 9		for _, v := range c.items {
10			n += v
11		}
12		return n
13	}
`
