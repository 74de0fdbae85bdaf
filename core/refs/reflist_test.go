package refs

import (
	"math/rand/v2"
	"testing"
)

// lists are the references as the draft first kept them, a slice each:
// what the format's reference encoder (encodeAssembled) reads.
func (l *refList) lists() (refT []uint32, refR []rec, refFile []uint32) {
	l.each(func(file, t uint32, r rec) {
		refT, refR, refFile = append(refT, t), append(refR, r), append(refFile, file)
	})
	return refT, refR, refFile
}

// A refList gives back every reference as added, in order, whatever the
// values: lines out of order within a file, the largest numbers, files
// skipped, and enough references to fill several chunks.
func TestRefListKeepsEveryReference(t *testing.T) {
	type entry struct {
		file, target uint32
		r            rec
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var want []entry
	var l refList
	file := uint32(0)
	big := []uint32{0, 1, 127, 128, 1<<32 - 1, 1 << 31, 16383, 16384}
	pick := func() uint32 {
		if rng.IntN(4) == 0 {
			return big[rng.IntN(len(big))]
		}
		return rng.Uint32N(5000)
	}
	for range 200_000 {
		switch rng.IntN(20) {
		case 0:
			file += 1 + rng.Uint32N(3)
		case 1:
			file = max(file, pick())
		}
		e := entry{file, pick(), rec{line: pick(), col: pick(), from: rng.Uint32N(1 << 30), how: uint8(rng.IntN(4))}}
		want = append(want, e)
		l.add(e.file, e.target, e.r)
	}
	if l.len() != len(want) {
		t.Fatalf("len %d, want %d", l.len(), len(want))
	}
	if len(l.chunks) < 3 {
		t.Fatalf("%d chunks: the test should fill several", len(l.chunks))
	}
	i := 0
	l.each(func(file, target uint32, r rec) {
		if i < len(want) && (entry{file, target, r}) != want[i] {
			t.Fatalf("reference %d: got %v %v %+v, want %+v", i, file, target, r, want[i])
		}
		i++
	})
	if i != len(want) {
		t.Fatalf("each gave %d references, want %d", i, len(want))
	}
	for _, c := range l.chunks {
		if cap(c) > maxChunk {
			t.Fatalf("a chunk of %d bytes, the most is %d", cap(c), maxChunk)
		}
	}
}
