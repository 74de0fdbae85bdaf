package codec

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"unsafe"
)

var errBad = errors.New("bad")

func TestRoundTripAndDamage(t *testing.T) {
	b := AppendString(nil, "hello")
	b = append(b, 7)
	b = append(b, 0x80, 0x01) // uvarint 128
	b = append(b, 0x03)       // varint -2
	b = Seal(b)
	body, ok := Unseal(b)
	if !ok {
		t.Fatal("a sealed buffer does not unseal")
	}
	d := Decoder{B: body, Corrupt: errBad}
	if s, c, u, v := d.String(), d.Byte(), d.Uvarint(), d.Varint(); s != "hello" || c != 7 || u != 128 || v != -2 || d.Err != nil || len(d.B) != 0 {
		t.Errorf("decoded %q %d %d %d, err %v, %d bytes left", s, c, u, v, d.Err, len(d.B))
	}
	b[2] ^= 1
	if _, ok := Unseal(b); ok {
		t.Error("a flipped bit unsealed")
	}
	if _, ok := Unseal([]byte{1, 2}); ok {
		t.Error("a short buffer unsealed")
	}
	short := Decoder{B: []byte{10, 'a'}, Corrupt: errBad}
	if s := short.String(); s != "" || !errors.Is(short.Err, errBad) {
		t.Errorf("a truncated string: %v", short.Err)
	}
	huge := Decoder{B: []byte{0xff, 0xff, 0x7f, 1, 2}, Corrupt: errBad}
	if n := huge.Count(1); n != 0 || !errors.Is(huge.Err, errBad) {
		t.Errorf("an impossible count was accepted: %d", n)
	}
	empty := Decoder{Corrupt: errBad}
	if c := empty.Byte(); c != 0 || !errors.Is(empty.Err, errBad) {
		t.Error("reading past the end did not fail")
	}
}

// Interned reads the same strings as String, a repeated one allocated once.
func TestInterned(t *testing.T) {
	var b []byte
	for _, s := range []string{"gotcha", "bug", "gotcha"} {
		b = AppendString(b, s)
	}
	d := Decoder{B: b}
	seen := map[string]string{}
	a, x, c := d.Interned(seen), d.Interned(seen), d.Interned(seen)
	if a != "gotcha" || x != "bug" || c != "gotcha" || d.Err != nil || len(seen) != 2 {
		t.Fatalf("%q %q %q %v %v", a, x, c, d.Err, seen)
	}
	if unsafe.StringData(a) != unsafe.StringData(c) {
		t.Error("the repeated string was allocated twice")
	}
	d = Decoder{B: AppendString(nil, "x")}
	if s := d.Interned(nil); s != "x" {
		t.Errorf("without a map: %q", s)
	}
}

// View reads what String reads, from a ViewDecoder or any other, and
// nothing once the bytes fail to decode.
func TestView(t *testing.T) {
	var b []byte
	for _, s := range []string{"node:coupon", "", "pkg/kubelet/kubelet.go", "Maria"} {
		b = AppendString(b, s)
	}
	bad := errors.New("bad")
	plain, view := Decoder{B: b, Corrupt: bad}, ViewDecoder(b, bad)
	for range 4 {
		if p, v := plain.String(), view.View(); p != v {
			t.Fatalf("View read %q, String %q", v, p)
		}
	}
	if v := view.View(); v != "" || view.Err != bad {
		t.Errorf("past the end: %q, %v", v, view.Err)
	}
	other := Decoder{B: AppendString(nil, "copied"), Corrupt: bad}
	if v := other.View(); v != "copied" {
		t.Errorf("View of a plain Decoder read %q", v)
	}
}

// UvarintLen is the length binary.AppendUvarint writes, at every
// boundary of its 7-bit groups.
func TestUvarintLen(t *testing.T) {
	for shift := range 64 {
		for _, v := range []uint64{1<<shift - 1, 1 << shift, 1<<shift + 1} {
			if got, want := UvarintLen(v), len(binary.AppendUvarint(nil, v)); got != want {
				t.Errorf("UvarintLen(%d) = %d, want %d", v, got, want)
			}
		}
	}
	if got := UvarintLen(math.MaxUint64); got != binary.MaxVarintLen64 {
		t.Errorf("UvarintLen(MaxUint64) = %d", got)
	}
}
