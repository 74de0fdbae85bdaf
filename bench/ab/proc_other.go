//go:build !unix

package main

import (
	"os"
	"os/exec"
)

// ownGroup: without process groups, the context's end kills the CLI only.
func ownGroup(cmd *exec.Cmd) {}

// killGroup kills the process pid.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// killPID kills one process.
func killPID(pid int) { killGroup(pid) }
