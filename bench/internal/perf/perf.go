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
	"strconv"
	"strings"
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
	// PeakKB is the child's peak resident set, in KiB (ExecPeak only).
	PeakKB int64
	Stdout []byte
}

// ExecPeak is Exec that also measures the child's peak resident set. The
// kernel's own figure for a child of this process is no use: Go starts
// children with vfork, and Linux carries the parent's high-water mark
// into the child's, so a small child of a big benchmark process reports
// the benchmark's memory. GNU time forks the child itself, so its figure
// is the child's alone; without it (Debian: time) PeakKB stays 0.
func ExecPeak(dir string, stdin []byte, bin string, args ...string) (Run, error) {
	gnuTime, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return Exec(dir, stdin, bin, args...)
	}
	out, err := os.CreateTemp("", "rubi-bench-rss")
	if err != nil {
		return Run{}, err
	}
	out.Close()
	defer os.Remove(out.Name())
	r, err := Exec(dir, stdin, gnuTime, append([]string{"-f", "%M", "-o", out.Name(), bin}, args...)...)
	if err != nil {
		return r, err
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return r, err
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return r, fmt.Errorf("GNU time wrote no peak memory for %s", bin)
	}
	r.PeakKB, err = strconv.ParseInt(fields[len(fields)-1], 10, 64)
	return r, err
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
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, errb.Bytes())
	}
	return r, nil
}

// Fetch copies a corpus into dest, writable: a Go module
// (MODULE@VERSION, through the module proxy and cache), an npm package
// (npm:NAME@VERSION, its published files) or a Debian package (deb:NAME,
// the files it installs).
func Fetch(corpus, dest string) error {
	if name, ok := strings.CutPrefix(corpus, "npm:"); ok {
		return fetchNpm(name, dest)
	}
	if name, ok := strings.CutPrefix(corpus, "deb:"); ok {
		return fetchDeb(name, dest)
	}
	return fetchModule(corpus, dest)
}

func fetchNpm(pkg, dest string) error {
	tmp, err := os.MkdirTemp("", "rubi-bench-npm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out, err := run(tmp, "npm", "pack", "--silent", pkg)
	if err != nil {
		return fmt.Errorf("npm pack %s: %v: %s", pkg, err, out)
	}
	tgz := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(tgz, '\n'); i >= 0 {
		tgz = tgz[i+1:]
	}
	if out, err := run(tmp, "tar", "xzf", tgz); err != nil {
		return fmt.Errorf("unpack %s: %v: %s", tgz, err, out)
	}
	return os.Rename(filepath.Join(tmp, "package"), dest)
}

func fetchDeb(pkg, dest string) error {
	tmp, err := os.MkdirTemp("", "rubi-bench-deb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if out, err := run(tmp, "apt-get", "download", pkg); err != nil {
		return fmt.Errorf("apt-get download %s: %v: %s", pkg, err, out)
	}
	debs, _ := filepath.Glob(filepath.Join(tmp, "*.deb"))
	if len(debs) != 1 {
		return fmt.Errorf("apt-get download %s: %d packages", pkg, len(debs))
	}
	if out, err := run("", "dpkg-deb", "-x", debs[0], dest); err != nil {
		return fmt.Errorf("dpkg-deb -x: %v: %s", err, out)
	}
	return nil
}

func fetchModule(module, dest string) error {
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
