//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, so that the agent ending the
// hook's process group does not end it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
