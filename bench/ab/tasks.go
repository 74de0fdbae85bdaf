package main

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/internal/mockapi"
)

// A task set is an HCL file of chains. A chain is one repository at one
// revision and tasks asked in order, each in a new session in the same
// copy of the repository: a later task builds on what the earlier ones
// left on disk (the code they changed, the notes rubi's arms registered).
//
//	chain "requests-retries" {
//	  mirror = "psf/requests"          # OWNER/NAME under -mirrors, or
//	  # repo = "../.."                 # a git repository, relative to this file
//	  rev    = "v2.32.3"               # default HEAD
//	  knowledge = "seeds/requests"     # optional: the mature arm's graph
//	  task "where" {
//	    prompt = "Where are retries configured?"
//	    mock {                         # the scripted model of a mock run
//	      step "read"   { path = "src/requests/adapters.py" }
//	      step "answer" { text = "In HTTPAdapter." }
//	    }
//	  }
//	}

// taskSet is a parsed task file.
type taskSet struct {
	Path   string
	Chains []*chain
}

// chain is one repository and its tasks, in order.
type chain struct {
	Name string
	// Repo is a git repository's directory (absolute); Mirror names one
	// under the mirrors' directory (OWNER/NAME). One of them is set.
	Repo, Mirror string
	Rev          string
	// Knowledge is a folder of notes (absolute) that seeds the mature
	// arm's graph; empty: the graph the map arm's first run left.
	Knowledge string
	Tasks     []*task
	// Where is the chain's file:line, for messages.
	Where string
}

// task is one prompt of a chain and the mock's script for it.
type task struct {
	Name   string
	Prompt string
	Script []step
	Where  string
}

// step is one model turn of a mock script.
type step struct {
	// Kind is read (a file, whole), search (grep the tree), context
	// (rubi's context tool), register (rubi's register tool) or answer
	// (the last step: the turn's final text). context and register are
	// played only in the arms with rubi: the scripted model uses rubi's
	// tools when it has them.
	Kind string
	// Path (read), Pattern (search), Query (context), Text (answer).
	Path, Pattern, Query, Text string
	// Note is what register stores.
	Note note
	// Usage is what the response reports; nil lets the mock estimate it
	// from the request's size.
	Usage *mockapi.Usage
	Where string
}

// note is a knowledge node a register step stores.
type note struct {
	Type, Title, Body string
	Files             []string
}

// rubiOnly reports whether the step uses rubi's tools.
func (s step) rubiOnly() bool { return s.Kind == "context" || s.Kind == "register" }

var (
	fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "chain", LabelNames: []string{"name"}}}}

	chainSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "repo"}, {Name: "mirror"}, {Name: "rev"}, {Name: "knowledge"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "task", LabelNames: []string{"name"}}},
	}
	taskSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "prompt", Required: true}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "mock"}},
	}
	mockSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "step", LabelNames: []string{"kind"}}}}

	// stepAttrs are the attributes each kind of step takes (usage for
	// all), the first of each list required.
	stepAttrs = map[string][]string{
		"read":     {"path"},
		"search":   {"pattern"},
		"context":  {"query"},
		"register": {"title", "type", "body", "files"},
		"answer":   {"text"},
	}
)

// loadTasks reads and checks a task file. Every error names the file and
// line it is about.
func loadTasks(path string) (*taskSet, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the task file: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	d := &decoder{dir: filepath.Dir(abs)}
	ts := &taskSet{Path: abs}
	content, diags := f.Body.Content(fileSchema)
	d.diags = append(d.diags, diags...)
	names := map[string]string{}
	for _, b := range content.Blocks {
		c := d.chain(b)
		if c == nil {
			continue
		}
		if prev, ok := names[c.Name]; ok {
			d.errorf(b.LabelRanges[0], "Duplicate chain", "chain %q is already defined at %s; give each chain its own name.", c.Name, prev)
			continue
		}
		names[c.Name] = c.Where
		ts.Chains = append(ts.Chains, c)
	}
	if len(ts.Chains) == 0 && !d.diags.HasErrors() {
		d.errorf(f.Body.MissingItemRange(), "No chain", "the task file defines no chain block.")
	}
	if d.diags.HasErrors() {
		return nil, diagError(d.diags)
	}
	return ts, nil
}

// diagError joins diagnostics into one error, each "file:line: summary:
// detail".
func diagError(diags hcl.Diagnostics) error {
	var errs []error
	for _, dg := range diags {
		if dg.Severity != hcl.DiagError {
			continue
		}
		where := ""
		if dg.Subject != nil {
			where = fmt.Sprintf("%s:%d: ", dg.Subject.Filename, dg.Subject.Start.Line)
		}
		errs = append(errs, fmt.Errorf("%s%s: %s", where, dg.Summary, strings.TrimSuffix(dg.Detail, ".")))
	}
	return errors.Join(errs...)
}

type decoder struct {
	dir   string
	diags hcl.Diagnostics
}

func (d *decoder) errorf(rng hcl.Range, summary, format string, args ...any) {
	r := rng
	d.diags = append(d.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: &r})
}

func where(r hcl.Range) string { return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line) }

// str evaluates a string attribute; ok is false (and an error recorded)
// when it is not a string.
func (d *decoder) str(a *hcl.Attribute) (string, bool) {
	v, diags := a.Expr.Value(nil)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return "", false
	}
	if v.IsNull() || !v.Type().Equals(cty.String) {
		d.errorf(a.Expr.Range(), "Not a string", "%s must be a string.", a.Name)
		return "", false
	}
	return v.AsString(), true
}

// strs evaluates a list of strings.
func (d *decoder) strs(a *hcl.Attribute) []string {
	v, diags := a.Expr.Value(nil)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return nil
	}
	if v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
		d.errorf(a.Expr.Range(), "Not a list", "%s must be a list of strings.", a.Name)
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || !e.Type().Equals(cty.String) {
			d.errorf(a.Expr.Range(), "Not a string", "every item of %s must be a string.", a.Name)
			return nil
		}
		out = append(out, e.AsString())
	}
	return out
}

func (d *decoder) chain(b *hcl.Block) *chain {
	c := &chain{Name: b.Labels[0], Where: where(b.DefRange), Rev: "HEAD"}
	content, diags := b.Body.Content(chainSchema)
	d.diags = append(d.diags, diags...)
	if c.Name == "" {
		d.errorf(b.LabelRanges[0], "Empty chain name", "a chain needs a name.")
	}
	attr := content.Attributes
	if a := attr["repo"]; a != nil {
		if s, ok := d.str(a); ok {
			c.Repo = s
			if !filepath.IsAbs(s) {
				c.Repo = filepath.Join(d.dir, s)
			}
		}
	}
	if a := attr["mirror"]; a != nil {
		if s, ok := d.str(a); ok {
			if owner, name, found := strings.Cut(s, "/"); !found || owner == "" || name == "" || strings.Contains(name, "/") {
				d.errorf(a.Expr.Range(), "Bad mirror", "mirror is OWNER/NAME (a bare repository under -mirrors, in OWNER+NAME/repo); got %q.", s)
			} else {
				c.Mirror = s
			}
		}
	}
	if (attr["repo"] == nil) == (attr["mirror"] == nil) {
		d.errorf(b.DefRange, "Repository", "chain %q needs exactly one of repo (a git repository, relative to the task file) and mirror (OWNER/NAME under -mirrors).", c.Name)
	}
	if a := attr["rev"]; a != nil {
		if s, ok := d.str(a); ok && s != "" {
			c.Rev = s
		}
	}
	if a := attr["knowledge"]; a != nil {
		if s, ok := d.str(a); ok {
			c.Knowledge = s
			if !filepath.IsAbs(s) {
				c.Knowledge = filepath.Join(d.dir, s)
			}
			if st, err := os.Stat(c.Knowledge); err != nil || !st.IsDir() {
				d.errorf(a.Expr.Range(), "No knowledge folder", "%s is not a folder of notes.", c.Knowledge)
			}
		}
	}
	names := map[string]bool{}
	for _, tb := range content.Blocks {
		t := d.task(tb)
		if t == nil {
			continue
		}
		if names[t.Name] {
			d.errorf(tb.LabelRanges[0], "Duplicate task", "chain %q already has a task %q.", c.Name, t.Name)
			continue
		}
		names[t.Name] = true
		c.Tasks = append(c.Tasks, t)
	}
	if len(content.Blocks) == 0 {
		d.errorf(b.DefRange, "No task", "chain %q has no task block.", c.Name)
	}
	return c
}

func (d *decoder) task(b *hcl.Block) *task {
	t := &task{Name: b.Labels[0], Where: where(b.DefRange)}
	content, diags := b.Body.Content(taskSchema)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return nil
	}
	if s, ok := d.str(content.Attributes["prompt"]); ok {
		if strings.TrimSpace(s) == "" {
			d.errorf(content.Attributes["prompt"].Expr.Range(), "Empty prompt", "task %q has an empty prompt.", t.Name)
		}
		t.Prompt = s
	}
	switch len(content.Blocks) {
	case 0:
		// The model answers at once.
		t.Script = []step{{Kind: "answer", Text: "Done.", Where: t.Where}}
	case 1:
		t.Script = d.script(content.Blocks[0])
	default:
		d.errorf(content.Blocks[1].DefRange, "Second mock block", "task %q has more than one mock block.", t.Name)
	}
	return t
}

func (d *decoder) script(b *hcl.Block) []step {
	content, diags := b.Body.Content(mockSchema)
	d.diags = append(d.diags, diags...)
	var steps []step
	for i, sb := range content.Blocks {
		s, ok := d.step(sb)
		if !ok {
			continue
		}
		last := i == len(content.Blocks)-1
		if s.Kind == "answer" && !last {
			d.errorf(sb.DefRange, "Answer before the end", "the answer step ends the turn: it must be the mock's last step.")
		}
		steps = append(steps, s)
	}
	if n := len(content.Blocks); n == 0 || content.Blocks[n-1].Labels[0] != "answer" {
		d.errorf(b.DefRange, "No answer", "a mock block ends with a step \"answer\" { text = \"...\" }.")
	}
	return steps
}

func (d *decoder) step(b *hcl.Block) (step, bool) {
	s := step{Kind: b.Labels[0], Where: where(b.DefRange)}
	names, known := stepAttrs[s.Kind]
	if !known {
		d.errorf(b.LabelRanges[0], "Unknown step", "step %q is not one of read, search, context, register, answer.", s.Kind)
		return s, false
	}
	schema := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "usage"}}}
	for i, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n, Required: i == 0})
	}
	content, diags := b.Body.Content(schema)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return s, false
	}
	get := func(name string) string {
		if a := content.Attributes[name]; a != nil {
			v, _ := d.str(a)
			return v
		}
		return ""
	}
	switch s.Kind {
	case "read":
		s.Path = get("path")
		if filepath.IsAbs(s.Path) || strings.HasPrefix(filepath.Clean(s.Path), "..") {
			d.errorf(content.Attributes["path"].Expr.Range(), "Path outside the project", "path %q must be relative to the repository's root.", s.Path)
		}
	case "search":
		s.Pattern = get("pattern")
	case "context":
		s.Query = get("query")
	case "register":
		s.Note = note{Title: get("title"), Type: get("type"), Body: get("body")}
		if s.Note.Type == "" {
			s.Note.Type = "gotcha"
		} else if !knownType(s.Note.Type) {
			d.errorf(content.Attributes["type"].Expr.Range(), "Unknown note type", "type %q is not one of %s.", s.Note.Type, strings.Join(knowledge.Types, ", "))
		}
		if a := content.Attributes["files"]; a != nil {
			s.Note.Files = d.strs(a)
		}
	case "answer":
		s.Text = get("text")
	}
	if a := content.Attributes["usage"]; a != nil {
		s.Usage = d.usage(a)
	}
	return s, true
}

func knownType(t string) bool {
	for _, k := range knowledge.Types {
		if k == t {
			return true
		}
	}
	return false
}

// usage reads usage = { input = N, cache_read = N, cache_write = N,
// output = N }; a field left out is 0.
func (d *decoder) usage(a *hcl.Attribute) *mockapi.Usage {
	v, diags := a.Expr.Value(nil)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return nil
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		d.errorf(a.Expr.Range(), "Bad usage", "usage is an object: { input = 3, cache_read = 0, cache_write = 1200, output = 80 }.")
		return nil
	}
	u := &mockapi.Usage{}
	fields := map[string]*int64{"input": &u.Input, "cache_read": &u.CacheRead, "cache_write": &u.CacheWrite, "output": &u.Output}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		p, ok := fields[k.AsString()]
		if !ok {
			d.errorf(a.Expr.Range(), "Bad usage", "usage has no field %q: it takes input, cache_read, cache_write and output.", k.AsString())
			return nil
		}
		if e.IsNull() || !e.Type().Equals(cty.Number) {
			d.errorf(a.Expr.Range(), "Bad usage", "usage's %s must be a whole number of tokens.", k.AsString())
			return nil
		}
		n, acc := e.AsBigFloat().Int64()
		if acc != big.Exact || n < 0 {
			d.errorf(a.Expr.Range(), "Bad usage", "usage's %s must be a whole number of tokens, 0 or more.", k.AsString())
			return nil
		}
		*p = n
	}
	return u
}
