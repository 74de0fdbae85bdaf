// Package cpuprofile writes a CPU profile of one command, for the hidden
// --cpuprofile flag rubi's programs take for performance reports.
package cpuprofile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// Start profiles the process into the file path and returns what stops
// the profile and closes the file; with no path, it does nothing.
func Start(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
