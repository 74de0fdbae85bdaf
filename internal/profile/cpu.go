// Package profile writes profiles of one command, for the flags rubi's
// programs take for performance reports: --cpuprofile, where the time
// went, and --memprofile, what the heap held at its largest.
package profile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// CPU is one command's CPU profile; the zero value profiles nothing.
type CPU struct {
	stop func()
}

// Start profiles the process into the file path; with no path, it does
// nothing.
func (p *CPU) Start(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.stop = func() {
		pprof.StopCPUProfile()
		f.Close()
	}
	return nil
}

// Stop ends the profile and closes its file, once: later calls, and calls
// without a profile, do nothing.
func (p *CPU) Stop() {
	if p.stop != nil {
		p.stop()
		p.stop = nil
	}
}
