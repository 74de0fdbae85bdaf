// Package pipeline runs rubi's two pipelines over one project, as
// rubi.hcl declares them:
//
//	index:    walk → parse (by language) → resolve imports → graph and
//	          PageRank → documents → each ranker's Index → .rubi/index/
//	retrieve: query + terms → rankers in parallel (seeded rankers after
//	          the others) → fuser → rerankers → packer (token budget,
//	          reasons)
//
// Stages are opened lazily through the host, once per Engine, so a
// retrieve that finds the index fresh never starts a parser.
package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/notesindex"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
)

// Engine runs the pipelines of one project.
type Engine struct {
	cfg    *config.Config
	host   *host.Host
	logger hclog.Logger
	// oneShot is Options.OneShot.
	oneShot bool

	mu     sync.Mutex
	stages map[*config.Stage]core.Stage
	// manifest is the index as this engine last wrote or read it, so a
	// refresh followed by a query decodes it once; stamp is the file's
	// size and mtime then, to notice another process re-indexing.
	manifest *manifest.Manifest
	stamp    string
	// symMu serializes reading symbols into the cached manifest's records.
	symMu sync.Mutex
	// project is the project's knowledge, memory and handoffs.
	project *project.Project
	// nodes and chunks are the project's notes as the index reads them
	// (core/notes).
	nodes  *notes.Nodes
	chunks *notes.Chunks
	// notes is the notes' part of the index: their state, its edits and
	// stamp, and the deltas a change to the notes gives the rankers.
	notes *notesindex.Index
	// editedDeltas counts the notes' deltas that read only the edited
	// notes (notesindex.Delta.Edited), for tests and debugging.
	editedDeltas atomic.Int64
	// textDeltas counts those of them that sent the rankers texts alone
	// (core.Corpus.TextsOnly).
	textDeltas atomic.Int64
	// indexMu serializes this engine's index runs (the directory lock does
	// it across processes); arena, the file contents a run read, is its.
	indexMu sync.Mutex
	arena   *store.Arena
	// sources caches the sources' states for queries.
	sources sourceCache
}

// New returns an engine for cfg, as the program's options o say. Close
// stops any plugin it started.
func New(cfg *config.Config, o Options) *Engine {
	logger := o.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	e := &Engine{cfg: cfg, host: host.New(cfg, host.Options{Logger: logger, Launcher: o.Launcher, OneShot: o.OneShot}), logger: logger, oneShot: o.OneShot, stages: map[*config.Stage]core.Stage{}}
	e.project = project.New(cfg, &indexCodeMap{e: e}, o.MaskComments)
	e.nodes = notes.NewNodes(e.project.Knowledge, cfg.Root, e.indexDir(), logger)
	e.chunks = notes.NewChunks(cfg.Root)
	e.notes = notesindex.New(notesindex.Options{Dir: e.indexDir(), Nodes: e.nodes, Chunks: e.chunks, Settings: &cfg.Index, Logger: logger, OneShot: o.OneShot})
	return e
}

// Close stops the engine's plugin processes.
func (e *Engine) Close() { e.host.Close() }

// Config returns the configuration the engine runs.
func (e *Engine) Config() *config.Config { return e.cfg }

// Opened lists the stages the engine has opened, and how they ran.
func (e *Engine) Opened() []host.Opened { return e.host.Opened() }

// Problems lists the plugin failures of this run, one line each.
func (e *Engine) Problems() []string { return e.host.Problems() }

// DiagnosticsError is a configuration mistake found while opening a stage.
type DiagnosticsError struct {
	Diags hcl.Diagnostics
	Files map[string]*hcl.File
}

func (e *DiagnosticsError) Error() string { return e.Diags.Error() }

// open returns the opened stage for st, opening it on first use. A nil
// stage with no error means a failed plugin with no fallback.
func (e *Engine) open(ctx context.Context, st *config.Stage) (core.Stage, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.stages[st]; ok {
		return s, nil
	}
	s, diags := e.host.Open(ctx, st)
	if diags.HasErrors() {
		return nil, &DiagnosticsError{Diags: diags, Files: e.cfg.Files}
	}
	e.stages[st] = s
	return s, nil
}

// OpenAll opens every enabled stage, which validates each one's settings
// against its schema (starting subprocess plugins to ask for theirs).
func (e *Engine) OpenAll(ctx context.Context) error {
	var diags hcl.Diagnostics
	for _, st := range e.cfg.Stages {
		if !st.Enabled {
			continue
		}
		if _, err := e.open(ctx, st); err != nil {
			if de, ok := err.(*DiagnosticsError); ok {
				diags = append(diags, de.Diags...)
				continue
			}
			return err
		}
	}
	if diags.HasErrors() {
		return &DiagnosticsError{Diags: diags, Files: e.cfg.Files}
	}
	return nil
}

func (e *Engine) setManifest(m *manifest.Manifest) {
	stamp := e.manifestStamp()
	e.mu.Lock()
	e.manifest, e.stamp = m, stamp
	e.mu.Unlock()
}

func (e *Engine) manifestStamp() string {
	fi, err := os.Stat(filepath.Join(e.indexDir(), manifest.FileName))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
}

// currentManifest returns the engine's manifest, reading it from disk the
// first time and whenever another process has rewritten it since.
func (e *Engine) currentManifest() (*manifest.Manifest, error) {
	e.mu.Lock()
	m, stamp := e.manifest, e.stamp
	e.mu.Unlock()
	if m != nil && stamp != "" && stamp == e.manifestStamp() {
		return m, nil
	}
	m, err := manifest.Load(e.indexDir(), false, e.oneShot)
	if err != nil {
		return nil, err
	}
	e.setManifest(m)
	return m, nil
}

func (e *Engine) dataDir() string  { return e.project.Dir() }
func (e *Engine) indexDir() string { return filepath.Join(e.cfg.Root, host.StateDir) }

// ensureDataDir creates .rubi/ and keeps its .gitignore.
func (e *Engine) ensureDataDir() error {
	if err := store.Confined(e.cfg.Root, e.indexDir()); err != nil {
		return err
	}
	if err := os.MkdirAll(e.indexDir(), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", e.indexDir(), err)
	}
	// Every run puts rubi's lines back at the end of .rubi/.gitignore: a
	// committed one may have dropped them or undone them with "!*".
	return store.KeepIgnored(e.cfg.Root, e.dataDir())
}
