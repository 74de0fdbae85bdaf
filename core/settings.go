package core

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
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

// maxTypeLen bounds a setting's type expression.
const maxTypeLen = 512

// CtyType parses the attribute's type expression.
func (a Attribute) CtyType() (cty.Type, error) {
	// A plugin's schema is read from its process: a type of rubi's
	// settings is a few words, and the parser recurses per nesting level.
	if len(a.Type) > maxTypeLen {
		return cty.NilType, fmt.Errorf("setting %q: its type is %d bytes, more than %d", a.Name, len(a.Type), maxTypeLen)
	}
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
	rv, ok := settingsStruct(settings)
	if !ok {
		return nil, fmt.Errorf("settings must be a pointer to a struct, got %T", settings)
	}
	var schema Schema
	for _, f := range settingFields(rv.Type()) {
		if f.opt != "" && f.opt != "optional" {
			return nil, fmt.Errorf("settings field %s: only attributes are supported, not %q", f.Name, f.opt)
		}
		ty, err := gocty.ImpliedType(reflect.Zero(f.Type).Interface())
		if err != nil {
			return nil, fmt.Errorf("settings field %s: %w", f.Name, err)
		}
		schema = append(schema, Attribute{Name: f.name, Type: typeexpr.TypeString(ty), Required: f.opt == ""})
	}
	return schema, nil
}

// settingField is a field of a settings struct that carries an hcl tag:
// the setting's name, and the tag's option ("optional"; "" for a
// required setting).
type settingField struct {
	reflect.StructField
	name, opt string
}

// settingFields are the hcl-tagged fields of the settings struct type t.
func settingFields(t reflect.Type) []settingField {
	var out []settingField
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, ok := f.Tag.Lookup("hcl"); ok {
			name, opt, _ := strings.Cut(tag, ",")
			out = append(out, settingField{f, name, opt})
		}
	}
	return out
}

// settingsStruct is the struct a settings pointer points to.
func settingsStruct(settings any) (reflect.Value, bool) {
	rv := reflect.ValueOf(settings)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return rv.Elem(), true
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
// a stage sets its defaults before calling it. Each setting is converted to
// its field's type as HCL converts values (a number from "2", say); one
// that cannot be, a required one missing and an unknown one are errors
// naming the setting.
func DecodeSettings(raw json.RawMessage, settings any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(raw, &given); err != nil {
		return &SettingError{Message: "settings are not a JSON object: " + err.Error()}
	}
	if setPlain(given, settings) {
		return nil
	}
	return setConverted(given, settings)
}

// setConverted is DecodeSettings through HCL's values: each setting
// converted to its field's type as HCL converts values.
func setConverted(given map[string]json.RawMessage, settings any) error {
	vals := make(map[string]cty.Value, len(given))
	for name, data := range given {
		ty, err := ctyjson.ImpliedType(data)
		if err == nil {
			vals[name], err = ctyjson.Unmarshal(data, ty)
		}
		if err != nil {
			return &SettingError{Setting: name, Message: fmt.Sprintf("%s: %v", name, err)}
		}
	}
	return SetSettings(vals, settings)
}

// setPlain sets settings from given when every setting is a value its
// field takes as it is: a JSON string for a string, a number for a number
// (a whole one for an integer), a boolean, a list of strings, an object of
// such values; the settings rubi's configuration hands its stages are all
// of that form, and HCL's conversions would change none of them. It sets
// nothing and reports false when one is not, or when a setting is
// unknown or a required one missing: DecodeSettings then converts them as
// HCL does, and says what is wrong.
func setPlain(given map[string]json.RawMessage, settings any) bool {
	rv, ok := settingsStruct(settings)
	if !ok {
		return false
	}
	type set struct {
		field reflect.Value
		value reflect.Value
	}
	sets := make([]set, 0, len(given))
	for _, f := range settingFields(rv.Type()) {
		data, ok := given[f.name]
		if !ok {
			if f.opt == "" {
				return false
			}
			continue
		}
		if !plainJSON(f.Type, data) {
			return false
		}
		v := reflect.New(f.Type)
		if json.Unmarshal(data, v.Interface()) != nil {
			return false
		}
		sets = append(sets, set{rv.FieldByIndex(f.Index), v.Elem()})
	}
	if len(sets) != len(given) {
		return false // a setting no field takes
	}
	for _, s := range sets {
		s.field.Set(s.value)
	}
	return true
}

// plainJSON reports whether data is a JSON value of t's kind that
// encoding/json reads as HCL's conversion would: no null anywhere (each
// value, an item of a list or an object's included, starts as its kind
// does), whole numbers for integers (json refuses the others), strings
// for strings.
func plainJSON(t reflect.Type, data []byte) bool {
	if len(data) == 0 {
		return false
	}
	switch c := data[0]; t.Kind() {
	case reflect.String:
		return c == '"'
	case reflect.Bool:
		return c == 't' || c == 'f'
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		return c == '-' || '0' <= c && c <= '9'
	case reflect.Slice:
		return c == '[' && t.Elem().Kind() == reflect.String && allStrings(data)
	case reflect.Map:
		if c != '{' || t.Key().Kind() != reflect.String {
			return false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return false
		}
		for _, v := range m {
			if !plainJSON(t.Elem(), v) {
				return false
			}
		}
		return true
	}
	return false
}

// allStrings reports whether data is a JSON array of strings only.
func allStrings(data []byte) bool {
	var items []json.RawMessage
	if json.Unmarshal(data, &items) != nil {
		return false
	}
	for _, it := range items {
		if len(it) == 0 || it[0] != '"' {
			return false
		}
	}
	return true
}

// SetSettings is DecodeSettings for values already in HCL's form, by
// setting name.
func SetSettings(vals map[string]cty.Value, settings any) error {
	rv, ok := settingsStruct(settings)
	if !ok {
		return fmt.Errorf("settings must be a pointer to a struct, got %T", settings)
	}
	known := make(map[string]bool, len(vals))
	for _, f := range settingFields(rv.Type()) {
		name := f.name
		known[name] = true
		v, ok := vals[name]
		if !ok {
			if f.opt == "" {
				return &SettingError{Setting: name, Message: fmt.Sprintf("the setting %q is required", name)}
			}
			continue
		}
		field := rv.FieldByIndex(f.Index).Addr().Interface()
		ty, err := gocty.ImpliedType(field)
		if err != nil {
			return fmt.Errorf("settings field %s: %w", name, err)
		}
		if v, err = convert.Convert(v, ty); err == nil {
			err = gocty.FromCtyValue(v, field)
		}
		if err != nil {
			return &SettingError{Setting: name, Message: fmt.Sprintf("%s: %v", name, err)}
		}
	}
	for name := range vals {
		if !known[name] {
			return &SettingError{Setting: name, Message: fmt.Sprintf("no setting is called %q", name)}
		}
	}
	return nil
}

// DefaultMaxSymbols is a parser's max_symbols when its block does not set
// it: enough for any hand-written file, too few for a generated one to
// flood the index.
const DefaultMaxSymbols = 2000

// ParserSettings are the settings of rubi's own parsers, lang.regex and
// lang.treesitter, which read the same block: one of them can take over
// the other's languages without a word of rubi.hcl changing.
type ParserSettings struct {
	// MaxSymbols caps the symbols reported per file; the first ones in
	// source order are kept.
	MaxSymbols int `hcl:"max_symbols,optional"`
}

// Decode reads a parser's Setup.Settings over s, whose fields hold the
// defaults. A setting that is unknown, of the wrong type or out of range
// is a *SettingError, and leaves s as it was.
func (s *ParserSettings) Decode(raw json.RawMessage) error {
	v := *s
	if err := DecodeSettings(raw, &v); err != nil {
		return err
	}
	if v.MaxSymbols < 1 {
		return &SettingError{Setting: "max_symbols", Message: fmt.Sprintf("must be at least 1 (default %d), got %d", DefaultMaxSymbols, v.MaxSymbols)}
	}
	*s = v
	return nil
}
