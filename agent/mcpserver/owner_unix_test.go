//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// foreignProject is a project another user owns (uid 65534; the tests run
// as root, who owns nothing of another uid either), with a rubi.hcl and a
// .rubi/ of theirs.
func foreignProject(t *testing.T) string {
	t.Helper()
	root := writeProject(t, rubitest.GoProject)
	writeFile(t, filepath.Join(root, "rubi.hcl"), "")
	if err := os.Mkdir(filepath.Join(root, ".rubi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	return root
}

// The server takes no project from another user's folder, however it is
// named (the working directory, the client's roots, the project argument):
// a tool error names the folder, its owner and safe_directories.
func TestOtherUsersFoldersAreNotProjects(t *testing.T) {
	isolate(t)
	foreign := foreignProject(t)
	want := []string{foreign, "uid 65534", "safe_directories"}

	s, _ := newServer(t, Options{WorkDir: filepath.Join(foreign, "store")})
	fails(t, connect(t, s), "context", map[string]any{"query": "orders"}, want...)

	s, _ = newServer(t, Options{})
	roots := &rootsClient{dir: foreign}
	fails(t, connect(t, s, client.WithRootsHandler(roots)), "context", map[string]any{"query": "orders"}, want...)

	s, _ = newServer(t, Options{Multi: true, Allow: []string{filepath.Dir(foreign)}})
	fails(t, connect(t, s), "context", map[string]any{"query": "orders", "project": foreign}, want...)

	if _, err := os.Stat(filepath.Join(foreign, ".rubi", "index")); err == nil {
		t.Error("the server indexed another user's project")
	}

	// Named in the user's own safe_directories, it is a project again.
	writeFile(t, filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "rubi", "config.hcl"), "safe_directories = [\""+foreign+"\"]\n")
	s, _ = newServer(t, Options{WorkDir: filepath.Join(foreign, "store")})
	ok(t, connect(t, s), "context", map[string]any{"query": "orders"})
}
