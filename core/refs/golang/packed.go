package golang

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"

	"github.com/rubi-dev/rubi/core/refs"
)

// packed is one file's references as a run keeps them until it ends (in
// memory, or in its spill: spilled): the
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
	call, impl       bool
}

// pack makes rs, references the collector found and the pairings of
// methods (Impl), a packed list in t.
func pack(t *refs.Strings, rs []refs.Ref) packed {
	out := packed{strs: t}
	if rs == nil {
		return out
	}
	out.refs = make([]packedRef, len(rs))
	for i, r := range rs {
		out.refs[i] = packedRef{line: int32(r.Line), col: int32(r.Col), path: t.ID(r.Path), name: t.ID(r.Name), from: t.ID(r.From), call: r.Call, impl: r.Impl}
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
		out[i] = refs.Ref{Line: int(r.line), Col: int(r.col), Path: s.At(r.path), Name: s.At(r.name), From: s.At(r.from), Call: r.call, Impl: r.impl}
	}
	return out
}

// packedSize is the bytes a packedRef takes in a spill: five numbers
// and a byte of flags.
const packedSize = 4*5 + 1

// The flags of a packedRef in a spill.
const (
	spillCall = 1 << iota
	spillImpl
)

// spill is where a run puts the references it found, packed, until it
// ends (refs.Spiller): a large project's were a tenth of the run's peak
// (44 MB on six copies of kubernetes), and grow with it.
type spill struct {
	f      *os.File
	end    int64
	buf    []byte
	broken bool // a write failed: put is not called again
}

// spilled is where a file's packed references are in a spill.
type spilled struct {
	off int64
	n   int
}

// put appends p's references to the spill.
func (s *spill) put(p packed) (spilled, error) {
	s.buf = s.buf[:0]
	for _, r := range p.refs {
		s.buf = binary.LittleEndian.AppendUint32(s.buf, uint32(r.line))
		s.buf = binary.LittleEndian.AppendUint32(s.buf, uint32(r.col))
		s.buf = binary.LittleEndian.AppendUint32(s.buf, r.path)
		s.buf = binary.LittleEndian.AppendUint32(s.buf, r.name)
		s.buf = binary.LittleEndian.AppendUint32(s.buf, r.from)
		flags := byte(0)
		if r.call {
			flags |= spillCall
		}
		if r.impl {
			flags |= spillImpl
		}
		s.buf = append(s.buf, flags)
	}
	at := spilled{off: s.end, n: len(p.refs)}
	if _, err := s.f.WriteAt(s.buf, s.end); err != nil {
		return spilled{}, err
	}
	s.end += int64(len(s.buf))
	return at, nil
}

// get reads back the references put at at, as packed in strs.
func (s *spill) get(at spilled, strs *refs.Strings) (packed, error) {
	out := packed{strs: strs}
	if at.n == 0 {
		return out, nil
	}
	b := make([]byte, at.n*packedSize)
	if _, err := s.f.ReadAt(b, at.off); err != nil {
		return out, fmt.Errorf("references spilled: %w", err)
	}
	out.refs = make([]packedRef, at.n)
	for i := range out.refs {
		e := b[i*packedSize:]
		out.refs[i] = packedRef{
			line: int32(binary.LittleEndian.Uint32(e)),
			col:  int32(binary.LittleEndian.Uint32(e[4:])),
			path: binary.LittleEndian.Uint32(e[8:]),
			name: binary.LittleEndian.Uint32(e[12:]),
			from: binary.LittleEndian.Uint32(e[16:]),
			call: e[20]&spillCall != 0,
			impl: e[20]&spillImpl != 0,
		}
	}
	return out, nil
}

// answer is a run's references, packed (refs.Answer).
type answer struct {
	strs    *refs.Strings
	found   map[string]packed
	spill   *spill
	spilled map[string]spilled
	paths   []string
	targets []string
}

func newAnswer(r *run) *answer {
	a := &answer{strs: &r.strs, found: r.found, spill: r.spill, spilled: r.spilled}
	a.paths = make([]string, 0, len(r.found)+len(r.spilled))
	for f := range r.found {
		a.paths = append(a.paths, f)
	}
	for f := range r.spilled {
		a.paths = append(a.paths, f)
	}
	slices.Sort(a.paths)
	for id := range r.targets {
		a.targets = append(a.targets, r.strs.At(id))
	}
	slices.Sort(a.targets)
	return a
}

func (a *answer) Paths() []string   { return a.paths }
func (a *answer) Targets() []string { return a.targets }

// Refs returns a file's references, and lets go of them: each file's
// are asked once.
func (a *answer) Refs(path string) ([]refs.Ref, error) {
	if p, ok := a.found[path]; ok {
		delete(a.found, path)
		return p.unpack(), nil
	}
	at, ok := a.spilled[path]
	if !ok {
		return nil, nil
	}
	delete(a.spilled, path)
	p, err := a.spill.get(at, a.strs)
	if err != nil {
		return nil, err
	}
	return p.unpack(), nil
}

// Close closes the spill, which no name leads to: its space is freed.
func (a *answer) Close() error {
	if a.spill == nil {
		return nil
	}
	return a.spill.f.Close()
}
