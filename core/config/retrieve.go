package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
)

// The retrieve block of earlier versions switched some of the signals
// that order an answer and set two weights. Those signals are stages now,
// and each of its attributes is read as the setting of the stage that took
// it over, with a warning that names the new form; a later layer's stage
// block still overrides it, as it would the stage's own setting.
//
// retrieveForms maps each attribute to that stage and setting: a
// meta-argument ("enabled", "report_weight") or one of the stage's own.
var retrieveForms = map[string]struct {
	kind           core.Kind
	stage, setting string
}{
	"test_weight":         {core.KindReranker, "rerank.roles", "test_weight"},
	"role_priors":         {core.KindReranker, "rerank.roles", "role_priors"},
	"named_paths":         {core.KindRanker, "query.paths", "enabled"},
	"report_graph_weight": {core.KindRanker, "rank.ppr", "report_weight"},
	"units":               {core.KindReranker, "rerank.units", "enabled"},
	"lift_notes":          {core.KindReranker, "rerank.notes", "enabled"},
	"note_files":          {core.KindRanker, "notes.files", "enabled"},
	"dated_questions":     {core.KindRanker, "query.time", "enabled"},
}

// retrieve reads a layer's retrieve block into the stages' settings.
func (l *loader) retrieve(attrs hcl.Attributes, dir string) {
	names := make([]string, 0, len(retrieveForms))
	for n := range retrieveForms {
		names = append(names, n)
	}
	sort.Strings(names)
	schema := make(core.Schema, len(names))
	for i, n := range names {
		schema[i] = core.Attribute{Name: n}
	}
	for _, a := range sortedAttrs(attrs) {
		form, ok := retrieveForms[a.Name]
		if !ok {
			l.diags = append(l.diags, unknownAttr(a, `the "retrieve" block`, schema))
			continue
		}
		value := "..."
		if f := l.cfg.Files[a.Range.Filename]; f != nil {
			value = strings.TrimSpace(string(a.Expr.Range().SliceBytes(f.Bytes)))
		}
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  fmt.Sprintf("retrieve.%s is now a setting of the %s %q", a.Name, form.kind, form.stage),
			Detail:   fmt.Sprintf("The retrieve block is read for compatibility; write it as %s %q { %s = %s } (rubi config check lists the stages).", form.kind, form.stage, form.setting, value),
			Subject:  a.NameRange.Ptr(),
		})
		st := l.stageFor(form.kind, form.stage)
		moved := *a
		moved.Name = form.setting
		if form.setting == "enabled" || form.setting == "report_weight" {
			l.meta(st, &moved, dir)
		} else {
			st.Attrs[form.setting] = &moved
		}
	}
}
