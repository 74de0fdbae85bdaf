package pipeline

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rubi-dev/rubi/core"
)

// setStage sets one setting of a stage of e's configuration, as a
// project's rubi.hcl would ("enabled" switches it), and has the engine
// open the stage again with it.
func setStage(t testing.TB, e *Engine, kind core.Kind, name, setting, value string) {
	t.Helper()
	for _, st := range e.cfg.Stages {
		if st.Kind != kind || st.Name != name {
			continue
		}
		if setting == "enabled" {
			st.Enabled = value == "true"
			return
		}
		expr, diags := hclsyntax.ParseExpression([]byte(value), "test.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		st.Attrs[setting] = &hcl.Attribute{Name: setting, Expr: expr, Range: expr.Range(), NameRange: expr.Range()}
		e.stages.mu.Lock()
		delete(e.stages.opened, st)
		e.stages.mu.Unlock()
		return
	}
	t.Fatalf("no %s %q in the configuration", kind, name)
}
