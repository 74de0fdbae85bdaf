package profile

import (
	"bytes"
	"os"
	"strconv"
)

// memoryInUse is the process's resident memory, as the system counts it
// (/proc/self/statm's second field, in pages); the live heap when that
// cannot be read.
func memoryInUse() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err == nil {
		if f := bytes.Fields(data); len(f) > 1 {
			if pages, err := strconv.ParseUint(string(f[1]), 10, 64); err == nil {
				return pages * uint64(os.Getpagesize())
			}
		}
	}
	return liveHeap()
}
