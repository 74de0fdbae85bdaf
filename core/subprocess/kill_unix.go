//go:build unix

package subprocess

import "syscall"

// killPID sends SIGKILL: a hung plugin ignores the polite stop.
func killPID(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
