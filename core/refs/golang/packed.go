package golang

import "github.com/rubi-dev/rubi/core/refs"

// packed is one file's references as a run keeps them until it ends: the
// strings they name (the target's file and name, the function they sit
// in) are kept once per run, in the run's table (the same names and
// files are the targets of many packages), which makes a reference 24
// bytes instead of refs.Ref's 72. Beside the declarations
// the packages' importers need, the references found are the largest
// part of what a check of a big tree holds at its peak (a third of it on
// kubernetes); they become refs.Ref once every package is checked and
// the type information is let go (run.finish).
type packed struct {
	strs *refs.Strings
	refs []packedRef
}

// packedRef is a refs.Ref whose strings are numbers in its table. Line
// and column fit: a file rubi reads is at most 256 MiB.
type packedRef struct {
	line, col        int32
	path, name, from uint32
	call             bool
}

// pack makes rs, references the collector found (none of them Impl), a
// packed list in t.
func pack(t *refs.Strings, rs []refs.Ref) packed {
	out := packed{strs: t}
	if rs == nil {
		return out
	}
	out.refs = make([]packedRef, len(rs))
	for i, r := range rs {
		out.refs[i] = packedRef{line: int32(r.Line), col: int32(r.Col), path: t.ID(r.Path), name: t.ID(r.Name), from: t.ID(r.From), call: r.Call}
	}
	return out
}

// unpack is the references p holds, as pack was given them.
func (p packed) unpack() []refs.Ref {
	if p.refs == nil {
		return nil
	}
	out := make([]refs.Ref, len(p.refs))
	s := p.strs
	for i, r := range p.refs {
		out[i] = refs.Ref{Line: int(r.line), Col: int(r.col), Path: s.At(r.path), Name: s.At(r.name), From: s.At(r.from), Call: r.call}
	}
	return out
}
