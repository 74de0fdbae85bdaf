//go:build unix

package perf

import "syscall"

// Settle flushes written files to disk before a measure, so that a tree
// just fetched does not make the first measures pay for its writeback.
func Settle() { syscall.Sync() }
