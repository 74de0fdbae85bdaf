package trust

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Two rubi processes trusting two projects at once both keep their
// entry: each update reads, changes and writes the record under its lock.
func TestConcurrentTrustsKeepEveryEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rubi", FileName)
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Update(context.Background(), path, func(r *Record) error {
				r.Set(Project{Root: fmt.Sprintf("/src/p%02d", i), Configs: []File{{Path: fmt.Sprintf("/src/p%02d/rubi.hcl", i), SHA256: Sum([]byte{byte(i)})}}})
				return nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	r, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Projects) != n {
		t.Fatalf("%d projects recorded, want %d: %+v", len(r.Projects), n, r.Projects)
	}
	for i := range n {
		p := r.Find(fmt.Sprintf("/src/p%02d", i))
		if p == nil {
			t.Fatalf("p%02d lost", i)
		}
		if sum, ok := p.Config(fmt.Sprintf("/src/p%02d/rubi.hcl", i)); !ok || sum != Sum([]byte{byte(i)}) {
			t.Errorf("p%02d's hash = %q", i, sum)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v, want 0600", fi.Mode().Perm())
	}
}

// A damaged record is an error naming it; it trusts nothing, and an
// update leaves it as it is rather than replace what it held.
func TestCorruptRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	for _, bad := range []string{`{"version":1,"projects":[{"root":"/a"`, `[]`, `{"version":7,"projects":[]}`, `{"version":1,"projects":[{"root":"rel"}]}`, `{"version":1,"projects":[],"extra":1}`} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Read(path)
		if err == nil || r != nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Read = %v, %v; want an error naming %s", bad, r, err, path)
		}
		err = Update(context.Background(), path, func(r *Record) error {
			r.Set(Project{Root: "/b"})
			return nil
		})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Update = %v", bad, err)
		}
		if got, _ := os.ReadFile(path); string(got) != bad {
			t.Errorf("%s: the damaged record was replaced by %s", bad, got)
		}
	}
}

func TestMissingRecordTrustsNothing(t *testing.T) {
	r, err := Read(filepath.Join(t.TempDir(), "none", FileName))
	if err != nil || len(r.Projects) != 0 || r.Find("/") != nil {
		t.Fatalf("Read = %+v, %v", r, err)
	}
}

func TestRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	ctx := context.Background()
	for _, root := range []string{"/a", "/b"} {
		if err := Update(ctx, path, func(r *Record) error { r.Set(Project{Root: root}); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	var removed, again bool
	Update(ctx, path, func(r *Record) error { removed = r.Remove("/a"); return nil })
	Update(ctx, path, func(r *Record) error { again = r.Remove("/a"); return nil })
	r, err := Read(path)
	if err != nil || !removed || again || r.Find("/a") != nil || r.Find("/b") == nil {
		t.Fatalf("removed %v, again %v, record %+v, %v", removed, again, r, err)
	}
}

func TestSumFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	if got, err := SumFile(p); err != nil || got != Sum([]byte("#!/bin/sh\n")) {
		t.Errorf("SumFile = %q, %v", got, err)
	}
	if got, err := SumFile(filepath.Join(dir, "none")); err != nil || got != "" {
		t.Errorf("missing: %q, %v", got, err)
	}
	if _, err := SumFile(dir); err == nil {
		t.Errorf("a folder hashed")
	}
}
