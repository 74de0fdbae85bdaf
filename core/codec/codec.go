// Package codec is the small binary encoding rubi's index files share:
// uvarint-prefixed strings and sections, little-endian fixed-width tables,
// and a CRC-32C trailer that tells a damaged file from a good one before
// anything is decoded. Each file format (the manifest, the BM25 segments,
// the names index, the graph) lays its own records out with it.
package codec

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"sync"
	"unsafe"
)

var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Seal appends the CRC-32C of b to b.
func Seal(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// Sum is the CRC-32C of b, for a file that checks a part of itself apart
// (Seal and Unseal check the whole).
func Sum(b []byte) uint32 { return crc32.Checksum(b, castagnoli()) }

// UvarintLen is the length of binary.AppendUvarint's encoding of v, for
// a writer that measures what it will lay out.
func UvarintLen(v uint64) int { return max(1, (bits.Len64(v)+6)/7) }

// Update is Sum continued over p: Update(Sum(a), b) is Sum of a and b
// together, for a file written in pieces (Sum(nil) is 0).
func Update(crc uint32, p []byte) uint32 { return crc32.Update(crc, castagnoli(), p) }

// Unseal checks the CRC-32C trailer of data and returns what it covers.
func Unseal(data []byte) ([]byte, bool) {
	if len(data) < 4 {
		return nil, false
	}
	body := data[:len(data)-4]
	return body, crc32.Checksum(body, castagnoli()) == binary.LittleEndian.Uint32(data[len(data)-4:])
}

// AppendString appends s as a uvarint length and its bytes.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Decoder reads a record stream, remembering the first failure so callers
// check once per record. On a failure every read returns a zero value and
// Err is Corrupt.
type Decoder struct {
	B       []byte
	Err     error
	Corrupt error // what Err becomes when the bytes do not decode
	// src is B as it was given to ViewDecoder, as one string.
	src string
}

// ViewDecoder is a Decoder of b whose View reads strings as views of b,
// which must not change afterwards: a file of thousands of ids and names
// read once would otherwise cost an allocation a string.
func ViewDecoder(b []byte, corrupt error) Decoder {
	return Decoder{B: b, Corrupt: corrupt, src: unsafe.String(unsafe.SliceData(b), len(b))}
}

func (d *Decoder) fail() {
	if d.Err == nil {
		d.Err = d.Corrupt
	}
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Varint reads a signed varint.
func (d *Decoder) Varint() int64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Varint(d.B)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if d.Err != nil || len(d.B) == 0 {
		d.fail()
		return 0
	}
	c := d.B[0]
	d.B = d.B[1:]
	return c
}

// Raw reads n bytes; they alias the input.
func (d *Decoder) Raw(n int) []byte {
	if d.Err != nil || n < 0 || len(d.B) < n {
		d.fail()
		return make([]byte, max(n, 0))
	}
	b := d.B[:n:n]
	d.B = d.B[n:]
	return b
}

// Bytes reads a uvarint length and that many bytes; they alias the input.
func (d *Decoder) Bytes() []byte {
	n := d.Uvarint()
	if d.Err != nil || n > uint64(len(d.B)) {
		d.fail()
		return nil
	}
	return d.Raw(int(n))
}

// String reads what AppendString wrote.
func (d *Decoder) String() string { return string(d.Bytes()) }

// View reads what AppendString wrote, as String does, as a view of the
// bytes a ViewDecoder was made of (a copy, from any other Decoder).
func (d *Decoder) View() string {
	b := d.Bytes()
	if d.Err != nil || len(b) == 0 {
		return ""
	}
	if d.src == "" {
		return string(b)
	}
	end := len(d.src) - len(d.B)
	return d.src[end-len(b) : end]
}

// Interned is String for a value that repeats from record to record: seen
// holds the strings read so far, so each distinct one is allocated once
// (with a nil seen, every time).
func (d *Decoder) Interned(seen map[string]string) string {
	b := d.Bytes()
	if seen == nil {
		return string(b)
	}
	if s, ok := seen[string(b)]; ok {
		return s
	}
	s := string(b)
	seen[s] = s
	return s
}

// Count reads the length of a list whose items take at least minSize
// bytes each, refusing lengths the remaining bytes cannot hold, so a
// damaged count cannot make a decoder allocate gigabytes.
func (d *Decoder) Count(minSize int) int {
	n := d.Uvarint()
	if d.Err != nil || minSize > 0 && n > uint64(len(d.B)/minSize) || n > uint64(len(d.B))*8+1 {
		d.fail()
		return 0
	}
	return int(n)
}
