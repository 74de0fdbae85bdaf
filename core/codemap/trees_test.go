package codemap

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The modules of real trees, as the map lists them, against
// testdata/trees/NAME.modules.golden (go test ./core/codemap -update
// rewrites them): pip.paths is Debian's python3-pip 23.0.1 (every file
// under dist-packages/pip but __pycache__), rubi.paths this repository
// (git ls-files), a Go project with test fixtures holding npm packages.
func TestModulesOfTrees(t *testing.T) {
	for _, name := range []string{"pip", "rubi"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "trees", name+".paths"))
			if err != nil {
				t.Fatal(err)
			}
			paths := strings.Fields(string(data))
			checkTreeGolden(t, name+".modules.golden", renderModules(paths))
		})
	}
}

// renderModules lists the map's modules of a tree, one line each: the
// name and its number of files, with the default hidden roles (vendored
// and generated) hidden.
func renderModules(paths []string) string {
	roots := Roots(paths)
	var files []*File
	for _, p := range paths {
		role := RoleOf(p, "", nil, false)
		files = append(files, &File{Path: p, Module: ModuleOf(p, roots), Hidden: role == RoleVendored || role == RoleGenerated})
	}
	m := Build(files, nil)
	var b strings.Builder
	names := make([]string, 0, len(m.Modules))
	for _, mod := range m.Modules {
		names = append(names, mod.Name)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "%d modules\n", len(names))
	for _, name := range names {
		mod, _ := m.Module(name)
		fmt.Fprintf(&b, "%-48s %4d\n", name, len(mod.Files))
	}
	return b.String()
}

func checkTreeGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", "trees", name)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./core/codemap -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s changed; review and run go test ./core/codemap -update if intended.\n--- got\n%s--- want\n%s", golden, got, want)
	}
}
