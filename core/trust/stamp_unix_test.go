//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"testing"
)

// A plugin whose stamp is unchanged is not read again; any write changes
// the stamp, and then the hash decides.
func TestStampSparesTheHash(t *testing.T) {
	racyWindow = 0
	t.Cleanup(func() { racyWindow = 2e9 })
	path := filepath.Join(t.TempDir(), "x")
	os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	f, err := PluginFile(path)
	if err != nil || f.Stamp == "" || f.SHA256 != Sum([]byte("#!/bin/sh\nexit 0\n")) {
		t.Fatalf("PluginFile = %+v, %v", f, err)
	}
	// The stamp alone vouches: a record with another hash still matches.
	spared := f
	spared.SHA256 = Sum([]byte("something else"))
	if !spared.Matches(path) {
		t.Error("an unchanged stamp was not taken")
	}
	// Same size, new content: the stamp changes, the hash differs.
	os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755)
	if f.Matches(path) {
		t.Error("a rewritten plugin still matches")
	}
	os.Chmod(path, 0o700)
	os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	if !f.Matches(path) {
		t.Error("the same content, rewritten, no longer matches by its hash")
	}
}
