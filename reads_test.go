package rubi_test

import (
	"go/ast"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// rawReads are the places in core/, agent/ and plugins/ allowed to open a
// file for reading with os.ReadFile, os.Open, os.OpenFile or os.DirFS, by
// "file" (a whole file) or "file function". Every other read goes through
// core/store (ReadWithin, OpenWithin, ReadLeaf, OpenLeaf, ReadRegular,
// OpenRegular, Map): no link followed out of the project, regular files
// only, opened without blocking, a stated cap.
var rawReads = map[string]string{
	// The primitives themselves, and what they build on.
	"core/store/within.go OpenLeaf":           "the open every confined read makes: O_NOFOLLOW|O_NONBLOCK, then a regular file only",
	"core/store/owned_unix.go openRead":       "OpenRegular's open: O_NONBLOCK, then a regular file only",
	"core/store/owned_other.go openRead":      "OpenRegular's open where O_NONBLOCK does not exist",
	"core/store/read_other.go ReadInto":       "ReadInto where plain system calls are not used (the unix one opens with O_NOFOLLOW|O_NONBLOCK)",
	"core/store/heap_linux.go adviseHugeHeap": "/sys and /proc, the kernel's files",
	"core/store/sync_other.go":                "a file rubi just wrote, opened to flush it",
	// Folders, opened to list their names: no file's content is read.
	"core/store/batch.go syncDir":        "a folder opened to flush it",
	"core/store/sync_linux.go":           "a folder opened to flush it",
	"core/store/versions_unix.go":        "a folder listed",
	"core/walk/dir_other.go readDir":     "a folder listed",
	"core/pipeline/folder.go hasState":   "a folder listed (is there a first name)",
	"core/store/lock_unix.go repairLock": "a folder opened to hold its flock while a lock that is no file is replaced",
}

// No package of core/, agent/ or plugins/ (tests and bench aside) opens a
// file for reading but through core/store, outside rawReads: a raw read
// follows a committed link (.rubi/map.md -> ~/.aws/credentials), blocks
// on a FIFO and reads /dev/zero until the process runs out of memory.
func TestReadsGoThroughTheStore(t *testing.T) {
	fset, files := goFiles(t, "core", "agent", "plugins")
	used := map[string]bool{}
	for _, file := range slices.Sorted(maps.Keys(files)) {
		f := files[file]
		osName := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os" {
				osName = "os"
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		if osName == "" || osName == "_" {
			continue
		}
		for _, decl := range f.Decls {
			fn := "" // a package-level var or init: the file's name only
			if fd, ok := decl.(*ast.FuncDecl); ok {
				fn = fd.Name.Name
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != osName {
					return true
				}
				switch sel.Sel.Name {
				case "ReadFile", "Open", "DirFS":
				case "OpenFile":
					if len(call.Args) > 1 && writeOnly(call.Args[1]) {
						return true
					}
				default:
					return true
				}
				for _, key := range []string{file + " " + fn, file} {
					if _, ok := rawReads[key]; ok {
						used[key] = true
						return true
					}
				}
				t.Errorf("%s: %s calls os.%s: read through core/store (ReadWithin, OpenWithin, ReadLeaf, ReadRegular) with a stated cap, or add it to rawReads saying why",
					fset.Position(call.Pos()), orTop(fn), sel.Sel.Name)
				return true
			})
		}
	}
	var stale []string
	for key := range rawReads {
		if !used[key] {
			stale = append(stale, key)
		}
	}
	slices.Sort(stale)
	for _, key := range stale {
		t.Errorf("rawReads allows %q, which reads nothing raw now: take it out", key)
	}
}

// writeOnly reports whether an os.OpenFile flag expression opens for
// writing only (O_WRONLY, or O_APPEND without O_RDWR).
func writeOnly(flag ast.Expr) bool {
	var names []string
	ast.Inspect(flag, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			names = append(names, sel.Sel.Name)
		}
		return true
	})
	return !slices.Contains(names, "O_RDWR") && !slices.Contains(names, "O_RDONLY") &&
		(slices.Contains(names, "O_WRONLY") || slices.Contains(names, "O_APPEND"))
}

func orTop(fn string) string {
	if fn == "" {
		return "a package-level declaration"
	}
	return fn
}
