package pipeline

import (
	"context"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
)

// BenchmarkRetrieve is a query of the indexed shop: warm, with the
// engine's manifest in hand, and cold, reading it again.
func BenchmarkRetrieve(b *testing.B) {
	e := engine(b, shop(b))
	index(b, e)
	q := answer.Query{Text: "how is a coupon applied at checkout"}
	for _, cold := range []bool{false, true} {
		b.Run(map[bool]string{false: "warm", true: "cold"}[cold], func(b *testing.B) {
			for b.Loop() {
				if cold {
					e.setManifest(nil)
				}
				if _, err := e.Retrieve(context.Background(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
