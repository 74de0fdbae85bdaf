package pipeline

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// Listing the references to a symbol: `rubi refs` takes the targets
// `rubi read` takes (Name, Type.method, pkg.Func, PATH::Name; see
// readsym.go) and answers from the table of references alone, found by
// the index run (references.go): the definitions of the name by binary
// search on the table, then the references to the one the target names.
// The symbols file is read for the definition's signature only, and each
// file with references for the lines quoted: a query costs a few reads
// whatever the project's size.

// ErrNoReferences says the index keeps no table of references: turned off
// in rubi.hcl (index.references), or no resolver in this program.
var ErrNoReferences = errors.New("the index keeps no references")

// maxNear is the most names a target that names no symbol suggests.
const maxNear = 3

// SymbolRefs is what listing a symbol's references found: its definition
// and the references to it, or the candidates of an ambiguous target, or
// nothing (Found).
type SymbolRefs struct {
	Target string `json:"target"`
	// Name is the symbol's own name, without qualifier or file.
	Name       string      `json:"name"`
	Definition *Definition `json:"definition,omitempty"`
	// Refs are the references listed, grouped by file (the files with
	// the most first, then by path), in line order within a file; Total
	// counts every one and Files their files, More those the limit left
	// out.
	Refs  []RefSite `json:"refs"`
	Total int       `json:"total"`
	Files int       `json:"files"`
	More  int       `json:"more,omitempty"`
	// Candidates, MoreCandidates, Defined and Within are as SymbolRead's.
	Candidates     []Definition `json:"candidates,omitempty"`
	MoreCandidates int          `json:"more_candidates,omitempty"`
	Defined        int          `json:"defined,omitempty"`
	Within         string       `json:"within,omitempty"`
	// Near are names the index defines that look like the target's,
	// when it defines none of that name.
	Near []string `json:"near,omitempty"`
}

// RefSite is one reference as `rubi refs` lists it: where it is, the
// definition it sits in, whether it calls, and its line's code as the
// file has it now (trimmed).
type RefSite struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	From string `json:"from,omitempty"`
	Call bool   `json:"call,omitempty"`
	// Impl marks the declaration of a method implementing the interface
	// method listed; Via names the interface method a call goes through
	// when it reaches the listed method by an interface it implements.
	Impl bool   `json:"impl,omitempty"`
	Via  string `json:"via,omitempty"`
	Code string `json:"code"`
}

// Found reports whether the target named one definition or candidates.
func (r *SymbolRefs) Found() bool { return r.Definition != nil || len(r.Candidates) > 0 }

// References lists the references to target's definition in the index as
// it stands (the caller refreshes it first, or not), at most limit of
// them (all for limit ≤ 0), or the candidates of an ambiguous target.
// ErrNoIndex before the first index, ErrNoReferences when the index keeps
// none.
func (e *Engine) References(target string, limit int) (*SymbolRefs, error) {
	out, err := e.references(target, limit)
	if errors.Is(err, fs.ErrNotExist) {
		// Another process indexed meanwhile and removed the table this
		// manifest names: read the new one.
		e.folder.set(nil)
		out, err = e.references(target, limit)
	}
	if errors.Is(err, refs.ErrDamaged) {
		return nil, fmt.Errorf("%w; the next index run (rubi index) builds it again", err)
	}
	return out, err
}

func (e *Engine) references(target string, limit int) (*SymbolRefs, error) {
	m, err := e.folder.indexed()
	if err != nil {
		return nil, err
	}
	if m.References == "" {
		return nil, ErrNoReferences
	}
	q, ok := parseSymbol(target, m.Has)
	out := &SymbolRefs{Target: target, Name: q.name, Refs: []RefSite{}}
	if !ok {
		return out, nil
	}
	rd, err := refs.Open(e.folder.dir, m.References, e.oneShot)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	targets, err := rd.Lookup(q.name)
	if err != nil {
		return nil, err
	}
	defs := make([]Definition, 0, len(targets))
	for _, t := range targets {
		d := Definition{Path: t.Path, Line: t.Line, EndLine: t.Line, Kind: t.Kind, Name: q.name, Exported: t.Exported}
		d.Parent = strings.TrimSuffix(strings.TrimSuffix(t.Name, q.name), ".")
		if rec, ok := m.File(t.Path); ok {
			d.Role, d.rank = rec.Role, rec.Rank
		}
		defs = append(defs, d)
	}
	out.Within = strings.Join(q.quals, ".")
	if q.file != "" {
		out.Within = strings.TrimSuffix(q.file+"::"+out.Within, "::")
	}
	fit := pick(defs, q, m)
	switch {
	case len(fit) == 0:
		out.Defined = len(defs)
		if len(defs) == 0 {
			out.Near, err = rd.Near(q.name, maxNear)
		}
		return out, err
	case len(fit) > 1:
		out.Candidates = fit[:min(len(fit), maxCandidates)]
		out.MoreCandidates = len(fit) - len(out.Candidates)
		return out, nil
	}
	d := fit[0]
	i := slices.IndexFunc(targets, func(t refs.Target) bool { return t.Path == d.Path && t.Name == d.Qualified() })
	if i < 0 {
		return nil, fmt.Errorf("%w: %s::%s", refs.ErrDamaged, d.Path, d.Qualified())
	}
	e.signature(m, &d)
	out.Definition = &d
	sites, err := rd.To(targets[i])
	if err != nil {
		return nil, err
	}
	via, err := throughInterfaces(rd, d)
	if err != nil {
		return nil, err
	}
	if len(via) > 0 {
		sites = append(sites, via...)
		slices.SortStableFunc(sites, func(a, b refs.Site) int {
			return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
	}
	out.Total = len(sites)
	out.Refs, out.Files, out.More = e.listRefs(sites, d, limit)
	return out, nil
}

// throughInterfaces returns the calls that reach method d through the
// interfaces it implements: the resolver records each pairing once, as a
// reference (Ref.Impl) at the method's declaration to the interface's
// method, rather than copying every call through an interface to each of
// its implementations; so the references to d are its own and those to
// each interface method it implements, less the other implementations'
// declarations. Each such site says which interface method it calls
// (Site.Name).
func throughInterfaces(rd *refs.Reader, d Definition) ([]refs.Site, error) {
	if d.Parent == "" {
		return nil, nil
	}
	own, err := rd.From(d.Path)
	if err != nil {
		return nil, err
	}
	var out []refs.Site
	seen := map[string]bool{}
	for _, r := range own {
		key := r.Path + "::" + r.Name
		if !r.Impl || r.From != d.Qualified() || seen[key] {
			continue
		}
		seen[key] = true
		ts, err := rd.Lookup(r.Name[strings.LastIndexByte(r.Name, '.')+1:])
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if t.Path != r.Path || t.Name != r.Name {
				continue
			}
			sites, err := rd.To(t)
			if err != nil {
				return nil, err
			}
			for _, s := range sites {
				if !s.Impl {
					out = append(out, s)
				}
			}
		}
	}
	return out, nil
}

// signature fills d's signature and end line from its file's symbols.
func (e *Engine) signature(m *manifest.Manifest, d *Definition) {
	rec, ok := m.File(d.Path)
	if !ok {
		return
	}
	f, err := m.OpenSymbols(e.folder.dir)
	if err != nil {
		return
	}
	sr := manifest.NewSymbolReader(f)
	defer sr.Close()
	e.symMu.Lock()
	defer e.symMu.Unlock()
	if sr.Read(rec) != nil {
		return
	}
	for _, s := range rec.Syms {
		if s.Name == d.Name && s.Parent == d.Parent {
			d.Signature, d.EndLine = s.Signature, max(s.EndLine, s.Line)
			if s.Line == d.Line {
				break
			}
		}
	}
}

// listRefs orders sites by file (the most references first, then by
// path), keeps the first limit (all for limit ≤ 0) and quotes each one's
// line as its file has it now. It returns them, the count of files
// referring, and the count left out.
func (e *Engine) listRefs(sites []refs.Site, d Definition, limit int) ([]RefSite, int, int) {
	var files [][]refs.Site
	for i := 0; i < len(sites); {
		j := i + 1
		for j < len(sites) && sites[j].File == sites[i].File {
			j++
		}
		files = append(files, sites[i:j])
		i = j
	}
	slices.SortStableFunc(files, func(a, b []refs.Site) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a[0].File, b[0].File))
	})
	out := []RefSite{}
	for _, group := range files {
		if limit > 0 && len(out) >= limit {
			break
		}
		lines := e.fileLines(group[0].File)
		for _, s := range group {
			if limit > 0 && len(out) >= limit {
				break
			}
			code := ""
			if s.Line >= 1 && s.Line <= len(lines) {
				code = string(bytes.TrimSpace(lines[s.Line-1]))
				if len(code) > maxLineBytes {
					code = code[:maxLineBytes] + " …"
				}
			}
			site := RefSite{Path: s.File, Line: s.Line, Col: s.Col, From: s.From, Call: s.Call, Impl: s.Impl, Code: code}
			if s.Path != d.Path || s.Name != d.Qualified() {
				site.Via = s.Name
			}
			out = append(out, site)
		}
	}
	return out, len(files), len(sites) - len(out)
}

// fileLines reads a file of the project as rubi reads any (confined,
// capped) and splits it into lines; none when it cannot be read.
func (e *Engine) fileLines(p string) [][]byte {
	root := e.cfg.Root
	data, err := store.ReadWithin(root, filepath.Join(root, filepath.FromSlash(p)), maxSourceRead)
	if err != nil {
		return nil
	}
	return bytes.Split(data, []byte("\n"))
}

// Render is the listing as rubi shows it, in l: the definition as
// "path:line: signature", then each file's references as
// "path:line: code", a blank line between files, and more (a message of
// two counts: those left out, all of them) when the limit left some out;
// or the candidates one a line. Everything the repository supplied is
// escaped.
func (r *SymbolRefs) Render(l messages.Lang, more messages.Key) string {
	var b strings.Builder
	if d := r.Definition; d != nil {
		sig := d.Signature
		if sig == "" {
			sig = d.Kind + " " + d.Qualified()
		}
		fmt.Fprintf(&b, "%s:%d: %s\n", text.Escape(d.Path), d.Line, text.Escape(sig))
		if r.Total == 0 {
			b.WriteString(l.Format(messages.RefsNone, text.Escape(d.Qualified())) + "\n")
			return b.String()
		}
		for i, s := range r.Refs {
			if i == 0 || s.Path != r.Refs[i-1].Path {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s:%d: %s", text.Escape(s.Path), s.Line, text.Escape(s.Code))
			switch {
			case s.Via != "":
				b.WriteString("  " + l.Format(messages.RefsThrough, text.Escape(s.Via)))
			case s.Impl:
				b.WriteString("  " + l.Get(messages.RefsImplements))
			}
			b.WriteString("\n")
		}
		if r.More > 0 {
			b.WriteString("\n" + l.Format(more, r.More, r.Total) + "\n")
		}
		return b.String()
	}
	if len(r.Candidates) == 0 {
		return ""
	}
	b.WriteString(l.Format(messages.RefsCandidates, len(r.Candidates)+r.MoreCandidates, text.Escape(r.Name)) + "\n")
	for _, d := range r.Candidates {
		fmt.Fprintf(&b, "  %s:%d %s %s\n", text.Escape(d.Path), d.Line, d.Kind, text.Escape(d.Qualified()))
	}
	if r.MoreCandidates > 0 {
		b.WriteString(l.Format(messages.ReadSymbolMore, r.MoreCandidates) + "\n")
	}
	return b.String()
}

// NotFound says, in l, why the target names no definition: none of its
// name (and the names near it), or none where its qualifier or file says.
func (r *SymbolRefs) NotFound(l messages.Lang) string {
	if r.Defined > 0 && r.Within != "" {
		return l.Format(messages.RefsNoQualified, r.Defined, text.Escape(r.Name), text.Escape(r.Within))
	}
	if len(r.Near) > 0 {
		near := make([]string, len(r.Near))
		for i, n := range r.Near {
			near[i] = text.Escape(n)
		}
		return l.Format(messages.RefsNoSymbolNear, text.Escape(r.Target), strings.Join(near, ", "))
	}
	return l.Format(messages.RefsNoSymbol, text.Escape(r.Target))
}
