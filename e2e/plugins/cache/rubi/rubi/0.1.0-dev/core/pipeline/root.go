package pipeline

import (
	"os"
	"path/filepath"

	"github.com/rubi-dev/rubi/core/config"
)

// FindRoot returns the project around dir the way git finds its
// repository: the nearest directory from dir up holding .rubi/, rubi.hcl
// or .git, else dir itself. dir should be absolute.
func FindRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, marker := range []string{DataDir, config.FileName, ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
