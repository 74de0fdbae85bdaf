// Package manifesttest helps tests forge index manifests (core/manifest)
// as a cloned repository could hold them.
package manifesttest

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/rubi-dev/rubi/core/codec"
)

// magic is manifest.Magic, which this package cannot import (the
// manifest's own tests import it); they check Reseal follows the layout.
const magic = "rubi-manifest\n"

// Reseal returns data with both checksums of a manifest recomputed (the
// head's and the whole file's), so that a fuzzer's change reaches the
// decoding past them; data as is when its head does not even parse.
func Reseal(data []byte) []byte {
	if len(data) < len(magic)+4 || string(data[:len(magic)]) != magic {
		return data
	}
	d := codec.Decoder{B: data[len(magic):], Corrupt: errors.New("damaged")}
	d.Uvarint()
	d.Varint()
	d.Bytes()
	d.Uvarint()
	d.Bytes()     // roles
	d.Bytes()     // references
	for range 3 { // rankers, parsers, node stamps
		for range d.Count(2) {
			d.Bytes()
			d.Bytes()
		}
	}
	for range d.Count(1) {
		d.Bytes()
	}
	for range 3 { // the resolution
		for range d.Count(2) {
			d.Bytes()
			d.Uvarint()
		}
	}
	for range d.Count(3) {
		d.Bytes()
		d.Uvarint()
		for range d.Count(1) {
			d.Bytes()
		}
	}
	d.Raw(4 * d.Count(4))
	head := len(data) - len(d.B)
	if d.Err != nil || len(d.B) < 8 {
		return data
	}
	out := bytes.Clone(data)
	binary.LittleEndian.PutUint32(out[head:], codec.Sum(out[:head]))
	binary.LittleEndian.PutUint32(out[len(out)-4:], codec.Sum(out[:len(out)-4]))
	return out
}
