//go:build !unix

package perf

// Settle does nothing where there is no sync(2).
func Settle() {}
