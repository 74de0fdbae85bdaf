package config

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FindPlugin locates a plugin executable named by a block's plugin
// attribute (already resolved against its rubi.hcl's directory): that
// path, or the bare name on PATH; failing those, a file of the same base
// name next to the running rubi binary, where `go install` and release
// archives put plugins beside it.
func FindPlugin(p string) (string, error) {
	path, err := exec.LookPath(p)
	if err == nil {
		return path, nil
	}
	looked := []string{p}
	if !strings.ContainsRune(p, '/') {
		looked = []string{p + " on PATH"}
	}
	if self, serr := os.Executable(); serr == nil {
		dir := filepath.Dir(self)
		if resolved, rerr := filepath.EvalSymlinks(self); rerr == nil {
			dir = filepath.Dir(resolved)
		}
		beside := filepath.Join(dir, filepath.Base(p))
		if path, err := exec.LookPath(beside); err == nil {
			return path, nil
		}
		looked = append(looked, beside)
	}
	return "", &PluginNotFoundError{Looked: looked, Err: err}
}

// PluginNotFoundError says where FindPlugin looked.
type PluginNotFoundError struct {
	Looked []string
	Err    error
}

func (e *PluginNotFoundError) Error() string {
	why := "not found"
	if e.Err != nil && !errors.Is(e.Err, exec.ErrNotFound) && !errors.Is(e.Err, os.ErrNotExist) {
		why = e.Err.Error()
	}
	return fmt.Sprintf("%s (looked at %s)", why, strings.Join(e.Looked, ", "))
}

func (e *PluginNotFoundError) Unwrap() error { return e.Err }
