package resolve

import (
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// kindCase is a resolveCase with an import kind and the expected
// classification: want nil with out unresolved or external.
type kindCase struct {
	name, from, lang, kind, spec string
	want                         []string // targets; nil when none
	out                          outcome  // ignored when want is set: then resolved
}

func (o outcome) String() string {
	return [...]string{"external", "unresolved", "resolved"}[o]
}

func runKindCases(t *testing.T, p *Project, fx *factIndex, cases []kindCase) {
	t.Helper()
	if fx == nil {
		fx = p.base
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kind := c.kind
			if kind == "" {
				kind = core.ImportStatic
			}
			got, out := p.lookup(fx, c.from, c.lang, core.Import{Spec: c.spec, Line: 1, Kind: kind})
			wantOut := c.out
			if c.want != nil {
				wantOut = resolved
			}
			if out != wantOut || !slices.Equal(got, c.want) {
				t.Errorf("lookup(%s, %s, %s %q) = %q, %v; want %q, %v", c.from, c.lang, kind, c.spec, got, out, c.want, wantOut)
			}
			// Resolve agrees when no facts are involved.
			if fx == p.base {
				r, ok := p.Resolve(c.from, c.lang, core.Import{Spec: c.spec, Kind: kind})
				if ok != (len(c.want) > 0) || !slices.Equal(r, c.want) {
					t.Errorf("Resolve = %q, %v; lookup %q", r, ok, got)
				}
			}
		})
	}
}

// noWarnings fails when building the project warned.
func noWarnings(t *testing.T, p *Project) {
	t.Helper()
	if w := p.Warnings(); len(w) > 0 {
		t.Errorf("unexpected warnings: %v", w)
	}
}
