package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Attribute is one setting a stage accepts in its rubi.hcl block.
type Attribute struct {
	Name string `json:"name"`
	// Type is an HCL type expression: string, number, bool, list(string),
	// map(number), ...
	Type     string `json:"type"`
	Required bool   `json:"required,omitempty"`
}

// Schema is the list of settings a stage accepts. The core validates a
// stage's block against it (unknown names and wrong types are errors with
// file:line) before the stage starts, whether it runs in-process or as a
// subprocess.
type Schema []Attribute

// Lookup returns the attribute called name.
func (s Schema) Lookup(name string) (Attribute, bool) {
	for _, a := range s {
		if a.Name == name {
			return a, true
		}
	}
	return Attribute{}, false
}

// CtyType parses the attribute's type expression.
func (a Attribute) CtyType() (cty.Type, error) {
	expr, diags := hclsyntax.ParseExpression([]byte(a.Type), "schema", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilType, fmt.Errorf("setting %q: bad type %q: %s", a.Name, a.Type, diags.Error())
	}
	ty, diags := typeexpr.TypeConstraint(expr)
	if diags.HasErrors() {
		return cty.NilType, fmt.Errorf("setting %q: bad type %q: %s", a.Name, a.Type, diags.Error())
	}
	return ty, nil
}

// SchemaOf derives a Schema from a pointer to a settings struct whose
// fields carry `hcl:"name"` or `hcl:"name,optional"` tags, the way gohcl
// reads them. Only attributes are supported: stage settings are flat.
func SchemaOf(settings any) (Schema, error) {
	rv := reflect.ValueOf(settings)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("settings must be a pointer to a struct, got %T", settings)
	}
	rt := rv.Elem().Type()
	var schema Schema
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		tag, ok := f.Tag.Lookup("hcl")
		if !ok {
			continue
		}
		name, opt, _ := strings.Cut(tag, ",")
		if opt != "" && opt != "optional" {
			return nil, fmt.Errorf("settings field %s: only attributes are supported, not %q", f.Name, opt)
		}
		ty, err := gocty.ImpliedType(reflect.Zero(f.Type).Interface())
		if err != nil {
			return nil, fmt.Errorf("settings field %s: %w", f.Name, err)
		}
		schema = append(schema, Attribute{Name: name, Type: typeexpr.TypeString(ty), Required: opt == ""})
	}
	return schema, nil
}

// MustSchemaOf is SchemaOf for built-in stages, whose settings structs are
// fixed at compile time.
func MustSchemaOf(settings any) Schema {
	s, err := SchemaOf(settings)
	if err != nil {
		panic(err)
	}
	return s
}

// DecodeSettings decodes a stage's Setup.Settings into a settings struct
// (the one given to SchemaOf). Fields absent from raw keep their values, so
// a stage sets its defaults before calling it.
func DecodeSettings(raw json.RawMessage, settings any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	f, diags := hcljson.Parse(raw, "settings.json")
	if diags.HasErrors() {
		return &SettingError{Message: diags.Error()}
	}
	if diags := gohcl.DecodeBody(f.Body, nil, settings); diags.HasErrors() {
		return &SettingError{Message: diags.Error()}
	}
	return nil
}
