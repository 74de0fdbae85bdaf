package walk

import (
	"os"
	"testing"
)

func BenchmarkDecodeDirsK8s(b *testing.B) {
	data, err := os.ReadFile("/tmp/refresh-pfiz/dirs.bin")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := decodeDirs(data); !ok {
			b.Fatal("bad")
		}
	}
}
