//go:build !linux

package store

// adviseHugeHeap is Linux's; elsewhere the heap keeps the system's pages.
func adviseHugeHeap(int) bool { return false }
