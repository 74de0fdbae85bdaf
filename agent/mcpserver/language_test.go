package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/core/messages"
)

// The fixed cost is measured in each language the server speaks, and in
// each it stays within CostLimit: over stdio and over HTTP (Multi), each
// with and without the opt-in xray action, and for the vault alone. The
// figures are in docs/architecture.md.
func TestFixedCostInEveryLanguage(t *testing.T) {
	modes := []struct {
		name string
		opts Options
	}{
		{"stdio", Options{}},
		{"stdio+xray", Options{Xray: true}},
		{"http", Options{Multi: true}},
		{"http+xray", Options{Multi: true, Xray: true}},
		{"vault", Options{VaultOnly: true}},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-4s", "")
	for _, m := range modes {
		fmt.Fprintf(&table, " %10s", m.name)
	}
	table.WriteString("\n")
	for _, l := range messages.Langs {
		fmt.Fprintf(&table, "%-4s", l)
		for _, m := range modes {
			o := m.opts
			o.Language = l
			s, _ := newServer(t, o)
			c, err := s.FixedCost()
			if err != nil {
				t.Fatal(err)
			}
			if c.Language != l.String() {
				t.Errorf("%s %s: the cost says language %q", l, m.name, c.Language)
			}
			if c.Total > CostLimit || c.Limit != CostLimit {
				t.Errorf("%s %s: the fixed cost is %d tokens, over the limit of %d (it says %d)", l, m.name, c.Total, CostLimit, c.Limit)
			}
			fmt.Fprintf(&table, " %10d", c.Total)
		}
		table.WriteString("\n")
	}
	t.Logf("fixed cost in tokens, by language and mode (limit %d):\n%s", CostLimit, table.String())
}

// A client of a server started in Portuguese reads the instructions and
// every tool's description in Portuguese, with the tools, their arguments
// and the actions named as in English.
func TestToolsInPortuguese(t *testing.T) {
	s, _ := newServer(t, Options{Language: messages.Portuguese, Xray: true})
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init, err := c.Initialize(ctx, mcp.InitializeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(init.Instructions, "rubi guarda o mapa do código") || !strings.Contains(init.Instructions, "chame context com terms antes de explorar arquivos") {
		t.Errorf("instructions:\n%s", init.Instructions)
	}
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"context":  "Busca no código e no conhecimento do projeto",
		"register": "Salva o que aprendeu, com seus arquivos",
		"read":     `Lê "map", "module:NAME", nó (id ou título), chunk:ID[:START-END], path[:START-END], símbolo (Type.method) ou seus usos (refs:Type.method).`,
		"memory":   "Memória das conversas: save, grep, list",
	}
	for _, tool := range list.Tools {
		if w, ok := want[tool.Name]; !ok || !strings.HasPrefix(tool.Description, w) {
			t.Errorf("%s: %q", tool.Name, tool.Description)
		}
		delete(want, tool.Name)
		switch tool.Name {
		case "context":
			if d := description(tool, "terms"); d != "sinônimos, palavras afins, identificadores prováveis" {
				t.Errorf("context's terms: %q", d)
			}
		case "memory":
			if d := description(tool, "since"); d != "2026-11-01 ou 7d" {
				t.Errorf("memory's since: %q", d)
			}
			if _, ok := tool.InputSchema.Properties["action"]; !ok {
				t.Errorf("memory's arguments are renamed: %v", tool.InputSchema.Properties)
			}
			if !strings.HasSuffix(tool.Description, " xray, se pedido: tokens gastos por sessão (since: 30d ou all; project).") {
				t.Errorf("memory's description does not offer xray in Portuguese: %q", tool.Description)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("tools missing: %v", want)
	}
}

// description is an argument's description in a tool's input schema.
func description(tool mcp.Tool, arg string) string {
	p, _ := tool.InputSchema.Properties[arg].(map[string]any)
	d, _ := p["description"].(string)
	return d
}

// A Japanese server's vault instructions are Japanese; results stay in
// English whatever the language (a tool result is not translated).
func TestVaultInstructionsInJapanese(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{Language: messages.Japanese, VaultOnly: true, Vault: t.TempDir()})
	c := connect(t, s)
	res, err := c.Initialize(context.Background(), mcp.InitializeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Instructions, "rubiはユーザー個人の記憶") {
		t.Errorf("instructions: %q", res.Instructions)
	}
	out, _ := ok(t, c, "memory", map[string]any{"action": "last"})
	if out != "no handoff has been saved in this project yet\n" {
		t.Errorf("memory last: %q", out)
	}
}
