package config

import "testing"

func BenchmarkTmpLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, diags := Load(Options{Root: "/tmp/k8s-bench"})
		if diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}
