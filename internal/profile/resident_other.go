//go:build !linux

package profile

// memoryInUse is the live heap the last collection found: the process's
// resident memory is Linux's to say (resident_linux.go).
func memoryInUse() uint64 { return liveHeap() }
