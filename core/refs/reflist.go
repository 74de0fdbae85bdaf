package refs

import "encoding/binary"

// refList is a draft's references in the order they are added: file by
// file, in the files' order, each file's by line, column and target,
// which is the forward section's order. They are packed as varints, a
// reference's file and line as the differences from the last one's: about
// 8 bytes a reference, where a slice each of targets, files and the rest
// took 24 (6.6 million references at 200,000 files: 157 MB). They are
// only read in order (each).
type refList struct {
	chunks   [][]byte
	n        int
	next     int // the capacity of the next chunk
	lastFile uint32
	lastLine uint32
}

// Chunks start small, for the many small tables of incremental runs
// and tests, and double up to maxChunk: no chunk is copied as it grows,
// and none wastes more than its own size.
const (
	minChunk = 4 << 10
	maxChunk = 1 << 20
	// maxRefLen is the longest entry: five varints of at most 35 bits.
	maxRefLen = 5 * binary.MaxVarintLen32
)

// add appends the reference of file to target; file is no smaller than
// the last one's.
func (l *refList) add(file, target uint32, r rec) {
	if len(l.chunks) == 0 || cap(l.chunks[len(l.chunks)-1])-len(l.chunks[len(l.chunks)-1]) < maxRefLen {
		l.next = min(max(l.next*2, minChunk), maxChunk)
		l.chunks = append(l.chunks, make([]byte, 0, l.next))
	}
	line := uint64(r.line)
	if file == l.lastFile && l.n > 0 {
		// Zigzag, should a file's lines not come in order.
		line = uint64(int64(r.line)-int64(l.lastLine))<<1 ^ uint64((int64(r.line)-int64(l.lastLine))>>63)
	} else {
		line <<= 1
	}
	c := l.chunks[len(l.chunks)-1]
	c = binary.AppendUvarint(c, uint64(file-l.lastFile))
	c = binary.AppendUvarint(c, uint64(target))
	c = binary.AppendUvarint(c, line)
	c = binary.AppendUvarint(c, uint64(r.col))
	c = binary.AppendUvarint(c, uint64(r.from)<<howBits|uint64(r.how))
	l.chunks[len(l.chunks)-1] = c
	l.lastFile, l.lastLine = file, r.line
	l.n++
}

// len is the number of references.
func (l *refList) len() int { return l.n }

// each calls fn with every reference, in the order they were added.
func (l *refList) each(fn func(file, target uint32, r rec)) {
	var file, line uint32
	first := true
	for _, c := range l.chunks {
		for len(c) > 0 {
			var v [5]uint64
			for i := range v {
				x, k := binary.Uvarint(c)
				v[i], c = x, c[k:]
			}
			df := uint32(v[0])
			if df == 0 && !first {
				line += uint32(int64(v[2]>>1) ^ -int64(v[2]&1))
			} else {
				line = uint32(v[2] >> 1)
			}
			file += df
			first = false
			fn(file, uint32(v[1]), rec{line: line, col: uint32(v[3]), from: uint32(v[4] >> howBits), how: uint8(v[4] & (1<<howBits - 1))})
		}
	}
}
