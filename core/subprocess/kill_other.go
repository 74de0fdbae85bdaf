//go:build !unix

package subprocess

import "os"

// killPID ends the process at once (TerminateProcess on Windows).
func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
