package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// Quantized cosines stay within 0.01 of float32's.
func TestQuantizedCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a, b := make([]float32, 768), make([]float32, 768)
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())+0.5*a[i]
		}
		ua, ub := unit(a), unit(b)
		var exact float64
		for i := range ua {
			exact += float64(ua[i]) * float64(ub[i])
		}
		scale, q := quantize(b)
		if got := cosine(ua, &entry{Scale: scale, Vec: q}); math.Abs(got-exact) > 0.01 {
			t.Fatalf("cosine %v, exact %v", got, exact)
		}
	}
}

func randomVectors(n, dim int) *vectors {
	rng := rand.New(rand.NewPCG(3, 4))
	v := &vectors{Model: "m", Dim: dim, Total: n}
	for i := range n {
		vec := make([]float32, dim)
		for j := range vec {
			vec[j] = float32(rng.NormFloat64())
		}
		scale, q := quantize(vec)
		v.Entries = append(v.Entries, entry{ID: fmt.Sprintf("file:f%05d.go", i), Hash: rng.Uint64(), Scale: scale, Vec: q})
	}
	return v
}

func FuzzDecode(f *testing.F) {
	good, _ := randomVectors(3, 8).encode()
	empty, _ := (&vectors{Model: "m"}).encode()
	f.Add(good)
	f.Add(empty)
	f.Add([]byte("RUBIEMB\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil {
			return
		}
		// What decodes encodes to the same bytes.
		again, err := v.encode()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("re-encoded differently: %v", err)
		}
	})
}

// BenchmarkNearest is Rank's scan: every vector against the question.
func BenchmarkNearest(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		v := randomVectors(n, 768)
		q := make([]float32, 768)
		for i := range q {
			q[i] = float32(i%7) - 3
		}
		q = unit(q)
		b.Run(fmt.Sprintf("docs=%d/dim=768", n), func(b *testing.B) {
			for b.Loop() {
				v.nearest(q, core.Query{Limit: 50})
			}
		})
	}
}

// BenchmarkRank is a whole Rank call against the loopback fake: one
// request and the scan of 10,000 documents of the fake's dimension.
func BenchmarkRank(b *testing.B) {
	f := newFakeB(b)
	r := New()
	if err := r.Configure(context.Background(), core.Setup{StateDir: b.TempDir(), Settings: []byte(fmt.Sprintf(`{"endpoint": %q, "model": "fake-embed"}`, f.URL))}); err != nil {
		b.Fatal(err)
	}
	r.state = randomVectors(10_000, 256)
	r.state.Model = "fake-embed"
	for b.Loop() {
		if _, err := r.Rank(context.Background(), core.Query{Text: "where is the car repaired", Limit: 50}); err != nil {
			b.Fatal(err)
		}
	}
}
