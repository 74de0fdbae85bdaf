package perf

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// Checkout is the rubi checkout around the working directory: the nearest
// directory whose go.mod declares rubi's module. The benchmarks, a module
// of their own in its bench/ folder, run from inside it and build rubi,
// find their data and write their reports relative to this directory.
func Checkout() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && modfile.ModulePath(data) == "github.com/rubi-dev/rubi" {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("run the benchmarks from a rubi checkout: no go.mod of github.com/rubi-dev/rubi around %s", wd)
		}
	}
}
