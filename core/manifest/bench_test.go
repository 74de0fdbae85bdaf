package manifest

import (
	"fmt"
	"testing"
)

// benchIndex saves a synthetic manifest of n files, with their symbols
// and import edges, to a directory of its own.
func benchIndex(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	if err := synthetic(n).Save(dir, nil); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkManifestLoadWhole is an index run's load of a manifest of
// 5000 files: checked whole, every record decoded.
func BenchmarkManifestLoadWhole(b *testing.B) {
	dir := benchIndex(b, 5000)
	for b.Loop() {
		m, err := Load(dir, true, false)
		if err != nil || len(m.Records()) != 5000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkManifestLoadQuery is a query's load of the same manifest: the
// head, then a few records by path.
func BenchmarkManifestLoadQuery(b *testing.B) {
	dir := benchIndex(b, 5000)
	for b.Loop() {
		m, err := Load(dir, false, false)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 20 {
			if _, ok := m.File(fmt.Sprintf("pkg%02d/sub%d/file%05d.go", (i*211)%40, (i*211)%7, i*211)); !ok {
				b.Fatal("record not found")
			}
		}
	}
}

// BenchmarkManifestEncode encodes the manifest an index run writes.
func BenchmarkManifestEncode(b *testing.B) {
	dir := benchIndex(b, 5000)
	m, err := Load(dir, true, false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.encode(); err != nil {
			b.Fatal(err)
		}
	}
}
