// Package perf holds what rubi's benchmark programs share: timing in
// turns, percentiles, child processes with their peak memory, corpora from
// the Go module proxy, and a project prepared with synthetic notes.
package perf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// TimeTurns runs each function n times, in turns, so that a slow spell of
// a shared machine falls on all of them alike, and returns each one's
// sorted durations; after, when set, runs untimed after each call. A first
// turn warms the page cache and is not counted.
func TimeTurns(n int, fns []func(), after func()) [][]time.Duration {
	call := func(fn func()) time.Duration {
		t := time.Now()
		fn()
		d := time.Since(t)
		if after != nil {
			after()
		}
		return d
	}
	for _, fn := range fns {
		call(fn)
	}
	out := make([][]time.Duration, len(fns))
	for range n {
		for i, fn := range fns {
			out[i] = append(out[i], call(fn))
		}
	}
	for _, ds := range out {
		slices.Sort(ds)
	}
	return out
}

// Pct is the p-th percentile of sorted durations.
func Pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, len(ds)*p/100)]
}

// Ms is d in milliseconds.
func Ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run is one finished child process.
type Run struct {
	Took time.Duration
	// PeakKB is the child's peak resident set, in KiB.
	PeakKB int64
	Stdout []byte
}

// Exec runs bin with args in dir, stdin on its standard input, and
// returns its time and peak memory; a failure is an error with its
// output.
func Exec(dir string, stdin []byte, bin string, args ...string) (Run, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Run{Took: time.Since(start), Stdout: out.Bytes()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.PeakKB = ru.Maxrss
		}
	}
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, errb.Bytes())
	}
	return r, nil
}

// Fetch copies a module from the Go module proxy (through the module
// cache) into dest, writable.
func Fetch(module, dest string) error {
	dl, err := os.MkdirTemp("", "rubi-bench-dl")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dl)
	if out, err := run(dl, "go", "mod", "init", "dl"); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = dl
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %v", module, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return fmt.Errorf("go mod download %s: %s %v", module, info.Error, err)
	}
	if out, err := run("", "cp", "-r", info.Dir, dest); err != nil {
		return fmt.Errorf("copy %s: %v: %s", module, err, out)
	}
	if out, err := run("", "chmod", "-R", "u+w", dest); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

func run(dir, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// WaitIndexers waits until no `rubi index` of root runs (the background
// refresh a session start leaves), at most a minute.
func WaitIndexers(root string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		busy := false
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.Contains(string(data), root) && strings.Contains(string(data), "\x00index") {
				busy = true
				break
			}
		}
		if !busy {
			return
		}
	}
}

// DirSize is the bytes of the regular files under dir.
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
