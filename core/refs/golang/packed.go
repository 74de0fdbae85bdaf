package golang

import (
	"encoding/binary"
	"fmt"
	"os"

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
