package config

import (
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
)

// The core sections (index, budgets, hooks, memory) are merged across
// layers attribute by attribute, and decoded one attribute at a time: a
// value that does not fit is one error, at the line that wrote it, naming
// the setting and what it takes. The others still decode, so no check
// runs on the zero a failed decoding would leave, and no diagnostic ever
// blames a line the user did not write (the built-in defaults' above all).

// rule is what one section setting takes beyond its type.
type rule struct {
	// takes says what the setting is, after "is": "a whole number of
	// tokens between 100 and 1048576".
	takes string
	// broken says why the decoded value breaks the rule, "" when it
	// keeps it.
	broken func(c *Config) string
}

// budgetRule is the rule of each token budget.
func budgetRule(get func(c *Config) int) rule {
	return rule{
		takes: fmt.Sprintf("a whole number of tokens between %d (room for one item) and %d", MinBudget, MaxBudget),
		broken: func(c *Config) string {
			switch v := get(c); {
			case v < MinBudget:
				return fmt.Sprintf("%d is below %d: no item of an answer fits in fewer tokens", v, MinBudget)
			case v > MaxBudget:
				return fmt.Sprintf("%d is above %d: more than any agent's context holds", v, MaxBudget)
			}
			return ""
		},
	}
}

// between says why v is outside [lo, hi], "" when it is inside.
func between[T int | int64 | float64](v, lo, hi T) string {
	switch {
	case v < lo:
		return fmt.Sprintf("%v is below %v", v, lo)
	case v > hi:
		return fmt.Sprintf("%v is above %v", v, hi)
	}
	return ""
}

// sectionRules are the section settings that take less than their type
// allows, by "section.name".
var sectionRules = map[string]rule{
	"budgets.context": budgetRule(func(c *Config) int { return c.Budgets.Context }),
	"budgets.recall":  budgetRule(func(c *Config) int { return c.Budgets.Recall }),
	"budgets.map":     budgetRule(func(c *Config) int { return c.Budgets.Map }),
	"index.max_file_size": {
		takes: "a size in bytes, 0 (no limit) or more",
		broken: func(c *Config) string {
			if c.Index.MaxFileSize < 0 {
				return fmt.Sprintf("%d cannot be negative", c.Index.MaxFileSize)
			}
			return ""
		},
	},
	"index.link_entities": {
		takes:  fmt.Sprintf("how many notes may share a name for it to link them, between 0 (no links) and %d (more would link every note to every other through common words)", maxLinkEntities),
		broken: func(c *Config) string { return between(c.Index.LinkEntities, 0, maxLinkEntities) },
	},
	"index.reference_edges": {
		takes:  fmt.Sprintf("the weight of the references between two files beside an import's 1, between 0 (imports alone) and %d", maxReferenceEdges),
		broken: func(c *Config) string { return between(c.Index.ReferenceEdges, 0, maxReferenceEdges) },
	},
	"index.memory_limit": {
		takes: fmt.Sprintf("a size in MiB, 0 (no cap) or at least %d", minMemoryLimit),
		broken: func(c *Config) string {
			if m := c.Index.MemoryLimit; m != 0 && m < minMemoryLimit {
				return fmt.Sprintf("%d is below %d", m, minMemoryLimit)
			}
			return ""
		},
	},
	"index.module_depth": {
		takes:  fmt.Sprintf("how many leading directories name a module, between 1 and %d (0: the default, 2)", maxModuleDepth),
		broken: func(c *Config) string { return between(c.Index.ModuleDepth, 0, maxModuleDepth) },
	},
	"index.module_roots": {
		takes: "a list of globs of directories relative to the project root (doublestar syntax: services/*, libs/**/src)",
		broken: func(c *Config) string {
			for _, g := range c.Index.ModuleRoots {
				if g == "" || !doublestar.ValidatePattern(g) || strings.HasPrefix(g, "/") {
					return fmt.Sprintf("%q is not one", g)
				}
			}
			return ""
		},
	},
	"index.hidden_roles": {
		takes: "a list of file roles: " + strings.Join(codemap.Roles, ", "),
		broken: func(c *Config) string {
			for _, r := range c.Index.HiddenRoles {
				if !slices.Contains(codemap.Roles, r) {
					return fmt.Sprintf("%q is not a file role", r)
				}
			}
			return ""
		},
	},
}

// decodeSections decodes the merged sections into the Config, each
// attribute on its own.
func (l *loader) decodeSections() {
	targets := l.sectionTargets()
	for _, name := range slices.Sorted(maps.Keys(targets)) {
		schema := core.MustSchemaOf(targets[name])
		for _, a := range sortedAttrs(l.sections[name]) {
			if d := l.sectionSetting(name, a, schema, targets[name]); d != nil {
				l.diags = append(l.diags, d)
			}
		}
	}
}

// sectionSetting decodes one attribute of a section into target and
// checks its rule; it returns the diagnostic of a value that does not fit.
func (l *loader) sectionSetting(section string, a *hcl.Attribute, schema core.Schema, target any) *hcl.Diagnostic {
	attr, _ := schema.Lookup(a.Name) // section() let only known names in
	r, hasRule := sectionRules[section+"."+a.Name]
	if !hasRule {
		r.takes = typePhrase(target, a.Name, attr.Type)
	}
	bad := func(why string) *hcl.Diagnostic {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Invalid %s.%s", section, a.Name),
			Detail:   fmt.Sprintf("%s in the %q block is %s; %s.", a.Name, section, r.takes, why),
			Subject:  a.Expr.Range().Ptr(),
		}
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		// HCL's own words (a variable or a function where a value goes).
		d := diags[0]
		d.Detail = strings.TrimSuffix(d.Detail, ".") + ". " + fmt.Sprintf("%s in the %q block is %s.", a.Name, section, r.takes)
		return d
	}
	ty, _ := attr.CtyType() // a Go struct's schema always parses
	cv, err := convert.Convert(v, ty)
	if err != nil {
		return bad(fmt.Sprintf("%s is not one (%s)", l.written(a), err))
	}
	if cv.IsNull() {
		return nil
	}
	if whole, ok := wholeField(target, a.Name); ok && whole && cv.Type() == cty.Number {
		if !cv.AsBigFloat().IsInt() {
			return bad(l.written(a) + " is not a whole number")
		}
		if _, acc := cv.AsBigFloat().Int64(); acc != big.Exact {
			return bad(l.written(a) + " is far too large")
		}
	}
	if err := core.SetSettings(map[string]cty.Value{a.Name: float64Numbers(cv)}, target); err != nil {
		return bad(fmt.Sprintf("%s is not one (%s)", l.written(a), err))
	}
	if hasRule {
		if why := r.broken(l.cfg); why != "" {
			return bad(why)
		}
	}
	return nil
}

// written is an attribute's value as its file writes it.
func (l *loader) written(a *hcl.Attribute) string {
	if f := l.cfg.Files[a.Range.Filename]; f != nil {
		return strings.TrimSpace(string(a.Expr.Range().SliceBytes(f.Bytes)))
	}
	return "the value"
}

// field returns the struct field of target tagged hcl:"name".
func field(target any, name string) (reflect.StructField, bool) {
	rt := reflect.TypeOf(target).Elem()
	for i := range rt.NumField() {
		if tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("hcl"), ","); tag == name {
			return rt.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// wholeField reports whether the setting name of target is an integer.
func wholeField(target any, name string) (whole, ok bool) {
	f, ok := field(target, name)
	if !ok {
		return false, false
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true, true
	}
	return false, true
}

// typePhrase says what a setting without a rule takes: its type, in
// words.
func typePhrase(target any, name, hclType string) string {
	if whole, _ := wholeField(target, name); whole {
		return "a whole number"
	}
	switch hclType {
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "list(string)":
		return "a list of strings"
	}
	return "a value of type " + hclType
}

// sectionOf returns the section that has a setting called name, "" when
// none has: a setting written at the top level of a file, out of its
// block.
func (l *loader) sectionOf(name string) string {
	targets := l.sectionTargets()
	for _, n := range slices.Sorted(maps.Keys(targets)) {
		if _, ok := core.MustSchemaOf(targets[n]).Lookup(name); ok {
			return n
		}
	}
	return ""
}

// misplaced rewrites HCL's "Unsupported argument" for a section's
// setting written at the top level of a file (recall = 50): it names the
// block it belongs in and what it takes.
func (l *loader) misplaced(f *hcl.File, diags hcl.Diagnostics) {
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, d := range diags {
		if d.Summary != "Unsupported argument" || d.Subject == nil {
			continue
		}
		for name, a := range body.Attributes {
			if a.NameRange != *d.Subject {
				continue
			}
			section := l.sectionOf(name)
			if section == "" {
				break
			}
			target := l.sectionTargets()[section]
			attr, _ := core.MustSchemaOf(target).Lookup(name)
			takes := typePhrase(target, name, attr.Type)
			if r, ok := sectionRules[section+"."+name]; ok {
				takes = r.takes
			}
			value := strings.TrimSpace(string(a.Expr.Range().SliceBytes(f.Bytes)))
			d.Summary = fmt.Sprintf("%s belongs in the %q block", name, section)
			d.Detail = fmt.Sprintf("%s is a setting of the %q block, not of the file's top level: write %s { %s = %s }. It is %s.", name, section, section, name, value, takes)
		}
	}
}
