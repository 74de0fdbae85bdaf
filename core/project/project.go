// Package project is a project as rubi keeps it, apart from its index: its
// root and data folder (.rubi/), the knowledge its notes hold (with the
// personal vault), its conversation memory and its handoffs. The index
// engine (core/pipeline) reads the notes and chunks through it and lends
// it its view of the code; the command line, the hooks and the MCP server
// read and write through it.
package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// DataDir is rubi's folder in a project.
const DataDir = ".rubi"

// FindRoot returns the project around dir the way git finds its
// repository: the nearest directory from dir up holding .rubi/, rubi.hcl
// or .git, else dir itself. dir should be absolute.
func FindRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, marker := range []string{DataDir, config.FileName, ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// VaultPath is the personal vault when the configuration names
// configured: RUBI_VAULT, else configured, with ~ expanded.
func VaultPath(configured string) string {
	v := os.Getenv("RUBI_VAULT")
	if v == "" {
		v = configured
	}
	if rest, ok := strings.CutPrefix(v, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			v = filepath.Join(home, rest)
		}
	}
	return v
}

// OwnDir is the folder of the records of what rubi wrote for this user,
// one file per project (knowledge.Options.OwnDir): projects/ in the
// user's state folder, $XDG_STATE_HOME/rubi, else ~/.local/state/rubi.
// It is outside every project, so no repository can write it. "" when
// there is no home to put it in: every note is then the repository's.
func OwnDir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "rubi", "projects")
}

// Project is one project, as its configuration describes it.
type Project struct {
	cfg  *config.Config
	code knowledge.CodeMap

	mu sync.Mutex
	// vault is the personal vault SetVault named ("": VaultPath's).
	vault string
	// knowledge is the knowledge store, opened on first use.
	knowledge *knowledge.Store
}

// New returns the project cfg describes. code is the index's view of the
// project's files and symbols, with which the knowledge store checks the
// files and symbols notes name and anchors them (nil: on disk alone).
func New(cfg *config.Config, code knowledge.CodeMap) *Project {
	return &Project{cfg: cfg, code: code}
}

// Dir is the project's data folder, .rubi/.
func (p *Project) Dir() string { return filepath.Join(p.cfg.Root, DataDir) }

// Knowledge returns the project's knowledge store: the project's notes
// and the personal vault's.
func (p *Project) Knowledge() *knowledge.Store {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.knowledge == nil {
		p.knowledge = knowledge.Open(knowledge.Options{Root: p.cfg.Root, Vault: p.vaultDirLocked(), Code: p.code, OwnDir: OwnDir(), Trusted: p.cfg.Trusted})
	}
	return p.knowledge
}

// VaultDir is the personal vault: the one SetVault named, else
// RUBI_VAULT, else rubi.hcl's vault, with ~ expanded.
func (p *Project) VaultDir() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.vaultDirLocked()
}

func (p *Project) vaultDirLocked() string {
	if p.vault != "" {
		return p.vault
	}
	return VaultPath(p.cfg.Vault)
}

// SetVault makes dir the personal vault whatever RUBI_VAULT and the
// configuration say (rubi mcp --vault). Call it before the knowledge is
// first used.
func (p *Project) SetVault(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.vault = dir
}

// Memory returns the project's conversation memory with rubi.hcl's limits,
// and the retention policy rubi.hcl asks for.
func (p *Project) Memory() (*memory.Store, memory.Policy) {
	return memory.Configured(p.cfg.Root, p.cfg.Memory)
}

// HandoffTag tags the chunk that keeps a handoff in the conversation
// memory.
const HandoffTag = "handoff"

// SaveHandoff writes a handoff to .rubi/handoffs/ and keeps its text in
// the conversation memory too, as a session chunk tagged handoff, so grep,
// list and context find it among the rest. It returns the handoff's file
// and the chunk (a duplicate when the same handoff was saved before).
func (p *Project) SaveHandoff(ctx context.Context, h knowledge.Handoff) (string, *memory.Saved, error) {
	if h.Created.IsZero() {
		h.Created = time.Now()
	}
	h.Created = h.Created.UTC().Truncate(time.Second)
	if err := h.Settle(); err != nil { // the goal names the chunk
		return "", nil, err
	}
	path, err := p.Knowledge().SaveHandoff(h)
	if err != nil {
		return "", nil, err
	}
	summary := "Handoff"
	if g := strings.TrimSpace(h.Goal); g != "" {
		summary += ": " + strings.Join(strings.Fields(g), " ")
		if r := []rune(summary); len(r) > 120 {
			summary = string(r[:119]) + "…"
		}
	}
	s, _ := p.Memory()
	chunk, err := s.Save(ctx, memory.Input{Type: memory.TypeSession, Summary: summary, Tags: []string{HandoffTag}, Content: h.Markdown(), Created: h.Created})
	if err != nil {
		return path, nil, fmt.Errorf("the handoff is saved in %s, but not in the conversation memory: %w", path, err)
	}
	return path, chunk, nil
}
