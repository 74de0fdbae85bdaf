package config

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/rubi-dev/rubi/core"
)

// Settings reach stages as JSON with the numbers a float64 holds: the
// shortest form of each, exact for integers and for decimals like 0.1.
func TestSettingNumbers(t *testing.T) {
	var settings struct {
		Weight float64   `hcl:"weight,optional"`
		Budget int       `hcl:"budget,optional"`
		Steps  []float64 `hcl:"steps,optional"`
		Huge   float64   `hcl:"huge,optional"`
	}
	schema := core.MustSchemaOf(&settings)
	for src, want := range map[string]string{
		"weight = 0.1\nbudget = 1500\nsteps = [0.85, 2, 1e-6]\n": `{"budget":1500,"steps":[0.85,2,0.000001],"weight":0.1}`,
		"weight = 1/3\n":              `{"weight":0.3333333333333333}`,
		"budget = 9007199254740993\n": `{"budget":9007199254740992}`,
	} {
		f, diags := hclsyntax.ParseConfig([]byte(src), "rubi.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		attrs, _ := f.Body.JustAttributes()
		raw, diags := decodeValues(attrs, schema, "test")
		if diags.HasErrors() || string(raw) != want {
			t.Errorf("%q:\ngot  %s %v\nwant %s", src, raw, diags, want)
		}
	}
	f, _ := hclsyntax.ParseConfig([]byte("huge = 1e400\n"), "rubi.hcl", hcl.InitialPos)
	attrs, _ := f.Body.JustAttributes()
	if _, diags := decodeValues(attrs, schema, "test"); !diags.HasErrors() {
		t.Error("a number past float64 was accepted")
	}
}
