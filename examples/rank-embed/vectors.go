package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math"
)

// The vector file, vectors.bin in the ranker's state directory, little
// endian:
//
//	magic   "RUBIEMB" 0x01
//	dim     uint32: dimensions of every vector
//	total   uint32: documents of the embedded kinds in the last corpus
//	model   uint16 length + bytes: the model that made the vectors
//	count   uint32 entries, each:
//	          uint16 length + id bytes
//	          uint64 FNV-1a hash of the text that was embedded
//	          float32 scale
//	          dim int8 components (unit vector / scale, rounded)
//	crc     uint32 CRC-32C of everything before it
//
// A vector is normalized to unit length and quantized to int8 with its
// own scale (largest component / 127): a 768-dimension model takes 782
// bytes a document, and the cosine it gives differs from float32's by
// less than 0.01.
var magic = [8]byte{'R', 'U', 'B', 'I', 'E', 'M', 'B', 0x01}

const (
	maxDim   = 1 << 16
	maxIDLen = 1<<16 - 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// entry is one document's vector.
type entry struct {
	ID    string
	Hash  uint64
	Scale float32
	Vec   []int8
}

// vectors is the ranker's persisted state.
type vectors struct {
	Model   string
	Dim     int
	Total   int
	Entries []entry
}

// byID maps ids to their entry.
func (v *vectors) byID() map[string]*entry {
	m := make(map[string]*entry, len(v.Entries))
	for i := range v.Entries {
		m[v.Entries[i].ID] = &v.Entries[i]
	}
	return m
}

// textHash identifies the exact text sent for a document.
func textHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// quantize normalizes vec and turns it into int8 components and a scale.
// A zero vector (which no model should return) quantizes to zeros.
func quantize(vec []float32) (float32, []int8) {
	out := make([]int8, len(vec))
	var norm, peak float64
	for _, x := range vec {
		norm += float64(x) * float64(x)
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		return 0, out
	}
	for _, x := range vec {
		peak = math.Max(peak, math.Abs(float64(x)/norm))
	}
	scale := peak / 127
	for i, x := range vec {
		out[i] = int8(math.Round(float64(x) / norm / scale))
	}
	return float32(scale), out
}

// unit returns vec normalized to unit length, nil for a zero vector.
func unit(vec []float32) []float32 {
	var norm float64
	for _, x := range vec {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		return nil
	}
	inv := 1 / math.Sqrt(norm)
	out := make([]float32, len(vec))
	for i, x := range vec {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// cosine of a unit query and a quantized document vector.
func cosine(q []float32, e *entry) float64 {
	var s0, s1, s2, s3 float32
	v := e.Vec[:len(q)]
	i := 0
	for ; i+4 <= len(q); i += 4 {
		s0 += q[i] * float32(v[i])
		s1 += q[i+1] * float32(v[i+1])
		s2 += q[i+2] * float32(v[i+2])
		s3 += q[i+3] * float32(v[i+3])
	}
	for ; i < len(q); i++ {
		s0 += q[i] * float32(v[i])
	}
	return float64((s0 + s1 + s2 + s3) * e.Scale)
}

// encode writes the file's bytes.
func (v *vectors) encode() ([]byte, error) {
	if len(v.Model) > maxIDLen {
		return nil, fmt.Errorf("model name of %d bytes is too long", len(v.Model))
	}
	size := 8 + 4 + 4 + 2 + len(v.Model) + 4 + 4
	for _, e := range v.Entries {
		size += 2 + len(e.ID) + 8 + 4 + v.Dim
	}
	b := make([]byte, 0, size)
	b = append(b, magic[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(v.Dim))
	b = binary.LittleEndian.AppendUint32(b, uint32(v.Total))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(v.Model)))
	b = append(b, v.Model...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v.Entries)))
	for _, e := range v.Entries {
		if len(e.ID) > maxIDLen {
			return nil, fmt.Errorf("document id of %d bytes is too long", len(e.ID))
		}
		if len(e.Vec) != v.Dim {
			return nil, fmt.Errorf("%s: vector of %d dimensions in a file of %d", e.ID, len(e.Vec), v.Dim)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e.ID)))
		b = append(b, e.ID...)
		b = binary.LittleEndian.AppendUint64(b, e.Hash)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.Scale))
		for _, x := range e.Vec {
			b = append(b, byte(x))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// errDamaged is any file decode refuses.
var errDamaged = errors.New("damaged")

// decode reads what encode wrote; any other bytes are errDamaged.
func decode(data []byte) (*vectors, error) {
	bad := func(what string) error { return fmt.Errorf("vector file %w: %s", errDamaged, what) }
	if len(data) < 8+4+4+2+4+4 || [8]byte(data[:8]) != magic {
		return nil, bad("not a rank.embed vector file")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, bad("checksum mismatch")
	}
	r := reader{b: body[8:]}
	v := &vectors{Dim: int(r.u32()), Total: int(r.u32())}
	v.Model = string(r.bytes(int(r.u16())))
	count := int(r.u32())
	if r.short || v.Dim > maxDim || (v.Dim == 0 && count != 0) {
		return nil, bad("bad header")
	}
	// Every entry takes at least 14 bytes besides its vector.
	if count > len(r.b)/(14+v.Dim) {
		return nil, bad("more entries than bytes")
	}
	v.Entries = make([]entry, count)
	vecs := make([]int8, count*v.Dim)
	seen := make(map[string]bool, count)
	for i := range v.Entries {
		e := &v.Entries[i]
		e.ID = string(r.bytes(int(r.u16())))
		e.Hash = r.u64()
		e.Scale = math.Float32frombits(r.u32())
		raw := r.bytes(v.Dim)
		if r.short {
			return nil, bad("truncated entry")
		}
		if e.ID == "" || seen[e.ID] || math.IsNaN(float64(e.Scale)) || math.IsInf(float64(e.Scale), 0) || e.Scale < 0 {
			return nil, bad("bad entry")
		}
		seen[e.ID] = true
		e.Vec = vecs[i*v.Dim : (i+1)*v.Dim : (i+1)*v.Dim]
		for j, x := range raw {
			e.Vec[j] = int8(x)
		}
	}
	if len(r.b) != 0 {
		return nil, bad("trailing bytes")
	}
	return v, nil
}

// reader reads little-endian fields, remembering a short read.
type reader struct {
	b     []byte
	short bool
}

func (r *reader) bytes(n int) []byte {
	if r.short || n > len(r.b) {
		r.short = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u16() uint16 {
	if b := r.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
