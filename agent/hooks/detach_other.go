//go:build !unix

package hooks

import "os/exec"

// detach leaves cmd as it is where sessions do not exist.
func detach(*exec.Cmd) {}
