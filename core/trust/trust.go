// Package trust keeps the user's consent to run a project's code: the
// record `rubi trust` writes, in the user's own configuration folder, of
// each project the user trusted and the hash of every file the trust
// covers (the project's configuration files and the plugin executables
// inside it). A cloned repository's rubi.hcl can name a plugin, and a
// plugin is a program: rubi starts none that a project chose until the
// user has looked and said yes, and says yes again after any of those
// files changes (direnv's allow and mise's trust work the same way).
//
// The record is JSON, not HCL like the configuration beside it: rubi
// writes it and rewrites it whole (atomically, under a lock), the user
// never edits it by hand, and hashes are data, not settings.
package trust

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// FileName is the record's name in the user's configuration folder.
const FileName = "trust.json"

// version is the record's format.
const version = 1

// MaxSize caps the record as read: a few hundred bytes a project, so 4 MiB
// is tens of thousands of projects, and a record past it is damage.
const MaxSize = 4 << 20

// racyWindow is how recent a change leaves a file without a stamp
// (stampOf).
var racyWindow = 2 * time.Second

// lockTimeout bounds the wait for another rubi writing the record.
const lockTimeout = 10 * time.Second

// Record is the user's trust record.
type Record struct {
	Version  int       `json:"version"`
	Projects []Project `json:"projects"`
}

// Project is one trusted project: what the user trusted, as it was.
type Project struct {
	// Root is the project root, absolute, its links resolved.
	Root      string    `json:"root"`
	TrustedAt time.Time `json:"trusted_at"`
	// Configs are the configuration files inside the project that were
	// read (its rubi.hcl, a --config file inside it).
	Configs []File `json:"configs"`
	// Plugins are the plugin executables inside the project that its
	// configuration names.
	Plugins []File `json:"plugins"`
}

// File is one file a trust covers: its absolute path and the sha256 of
// its content, "" for a file that did not exist (a plugin not built yet:
// it must not appear unseen).
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Stamp identifies the version hashed without reading it (stampOf):
	// a plugin executable is tens of megabytes, and every prompt's hook
	// checks it. "" means hash it every time.
	Stamp string `json:"stamp,omitempty"`
}

// Read reads the record at path. A missing record is an empty one; a
// record that is not what rubi writes is an error naming it, and trusts
// nothing.
func Read(path string) (*Record, error) {
	data, err := store.ReadRegular(path, MaxSize)
	if errors.Is(err, os.ErrNotExist) {
		return &Record{Version: version}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust record %s: %w", path, err)
	}
	var r Record
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("trust record %s is damaged (%v): it trusts nothing until it is removed or rewritten with rubi trust", path, err)
	}
	if r.Version != version {
		return nil, fmt.Errorf("trust record %s has format %d, which this rubi does not read (it reads %d): it trusts nothing", path, r.Version, version)
	}
	for _, p := range r.Projects {
		if !filepath.IsAbs(p.Root) {
			return nil, fmt.Errorf("trust record %s is damaged (project root %q is not absolute): it trusts nothing until it is removed or rewritten with rubi trust", path, p.Root)
		}
	}
	return &r, nil
}

// Update changes the record at path under its lock: it reads the record,
// calls change, and writes the result atomically, mode 0600. Two rubi
// processes trusting two projects at once both keep their entry. A
// damaged record is an error and is left as it is (nothing is lost).
func Update(ctx context.Context, path string, change func(*Record) error) error {
	ctx, cancel := context.WithTimeout(ctx, lockTimeout)
	defer cancel()
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("trust record %s: %w", path, err)
	}
	lock, err := store.LockDir(ctx, filepath.Join(dir, ".trust-lock"))
	if err != nil {
		return fmt.Errorf("trust record %s: %w", path, err)
	}
	defer lock.Unlock()
	r, err := Read(path)
	if err != nil {
		return err
	}
	if err := change(r); err != nil {
		return err
	}
	slices.SortFunc(r.Projects, func(a, b Project) int { return strings.Compare(a.Root, b.Root) })
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteFile(path, append(data, '\n'), 0o600)
}

// Find returns the entry of the project at root (resolved as Root is),
// or nil.
func (r *Record) Find(root string) *Project {
	for i := range r.Projects {
		if r.Projects[i].Root == root {
			return &r.Projects[i]
		}
	}
	return nil
}

// Set records p, replacing the entry of its root.
func (r *Record) Set(p Project) {
	if old := r.Find(p.Root); old != nil {
		*old = p
		return
	}
	r.Projects = append(r.Projects, p)
}

// Remove forgets the project at root and reports whether it was there.
func (r *Record) Remove(root string) bool {
	n := len(r.Projects)
	r.Projects = slices.DeleteFunc(r.Projects, func(p Project) bool { return p.Root == root })
	return len(r.Projects) != n
}

// Config returns the recorded hash of the configuration file at path.
func (p *Project) Config(path string) (string, bool) { return lookup(p.Configs, path) }

// Plugin returns the record of the plugin executable at path.
func (p *Project) Plugin(path string) (File, bool) {
	for _, f := range p.Plugins {
		if f.Path == path {
			return f, true
		}
	}
	return File{}, false
}

func lookup(files []File, path string) (string, bool) {
	for _, f := range files {
		if f.Path == path {
			return f.SHA256, true
		}
	}
	return "", false
}

// Root is the form a project root takes in the record: absolute, every
// link resolved, so the same folder reached two ways is one project.
func Root(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return root
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// Sum is the hash the record keeps of data.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// PluginFile returns the File of the plugin executable at path as it is now:
// its hash and stamp.
func PluginFile(path string) (File, error) {
	stamp := stampOf(path, time.Now())
	sum, err := SumFile(path)
	if err != nil {
		return File{}, err
	}
	if sum == "" || stamp != stampOf(path, time.Now()) {
		stamp = "" // missing, or it changed while hashed
	}
	return File{Path: path, SHA256: sum, Stamp: stamp}, nil
}

// Matches reports whether the file at path is still the version f
// recorded: the same stamp, or else the same hash.
func (f File) Matches(path string) bool {
	if f.Stamp != "" && stampOf(path, time.Now()) == f.Stamp {
		return true
	}
	sum, err := SumFile(path)
	return err == nil && sum == f.SHA256
}

// SumFile hashes the regular file at path as exec would run it (a link
// followed), reading it as a stream: a plugin executable is tens of
// megabytes. A missing file hashes to "" (see File); a FIFO or a device is
// an error, not a wait.
func SumFile(path string) (string, error) {
	f, err := store.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
