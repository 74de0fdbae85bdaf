package golang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/types"
	"runtime"

	"golang.org/x/tools/go/gcexportdata"
)

// cacheVersion changes when what a key covers or what the cache holds
// does.
const cacheVersion = "golang-refs-1"

// key is u's cache key: its non-test files' paths and contents (nil for
// one that could not be read), the build, the Go release whose go/types
// checked it, and the keys of the packages they import, which got theirs
// before it: what its declarations, as importers see them, depend on.
func (r *run) key(u *unit, srcs [][]byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s/%s cgo=%v %v\x00%s\x00", cacheVersion, runtime.Version(), r.build.GOOS, r.build.GOARCH, r.build.CgoEnabled, r.build.BuildTags, u.dir)
	for i, f := range u.files {
		if !isTest(f) {
			fmt.Fprintf(h, "%s\x00%d\x00", f, len(srcs[i]))
			h.Write(srcs[i])
		}
	}
	for _, d := range u.apiDeps {
		fmt.Fprintf(h, "%s\x00%s\x00", d.dir, d.key)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cached reads the declarations stored under key, or returns nil.
func (r *run) cached(key, pkgPath string) (pkg *types.Package) {
	data, ok := r.opts.Cache.Get(key)
	if !ok {
		return nil
	}
	defer func() {
		if recover() != nil {
			pkg = nil // damaged data: checked from source instead
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	pkg, err := gcexportdata.Read(bytes.NewReader(data), r.fset, r.imports, pkgPath)
	if err != nil {
		return nil
	}
	return pkg
}

// store writes pkg's declarations under key; a package the writer
// cannot encode is not cached.
func (r *run) store(key string, pkg *types.Package) {
	defer func() { _ = recover() }()
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, r.fset, pkg); err == nil {
		r.opts.Cache.Put(key, buf.Bytes())
	}
}
