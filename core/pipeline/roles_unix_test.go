//go:build unix

package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
)

// Units come from the index alone when a file cannot be read: a file
// replaced by a FIFO since the index must not block the answer, and the
// spans the parser gave stay whole.
func TestUnitsOfUnreadableFile(t *testing.T) {
	root := pyProject(t)
	e := engine(t, root)
	index(t, e)
	p := filepath.Join(root, "pkg", "session.py")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "where is `Session.send`", Kinds: []string{"file"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].Path != "pkg/session.py" {
		t.Fatalf("files = %v", fileIDs(res))
	}
	if u := res.Items[0].Units; len(u) == 0 || u[0].Name != "Session.send" || u[0].Line != 8 || u[0].EndLine != 10 {
		t.Errorf("units = %+v, want Session.send at lines 8-10 from the index", u)
	}
}
