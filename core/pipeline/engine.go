package pipeline

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/notesindex"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/refs"
)

// Engine runs the pipelines of one project. It is the package's face:
// it holds what lives as long as the engine (the configuration, the
// stages it opened, the index folder with the manifest in hand, the
// notes) and hands each call to the type whose job it is: an index run
// to indexRun, a refresh of the notes to notesRun, the maps to codeMaps.
type Engine struct {
	cfg    *config.Config
	host   *host.Host
	logger hclog.Logger
	// oneShot is Options.OneShot.
	oneShot bool
	// resolvers are Options.Resolvers.
	resolvers []refs.Resolver
	// limitMemory is Options.LimitMemory.
	limitMemory func(mib int) (release func())

	stages *stageSet
	folder *indexFolder
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
	// roles says which files index.hidden_roles keeps out of search.
	roles roles
	// maps writes and reads .rubi/map.md and the modules' pages.
	maps *codeMaps
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
	h := host.New(cfg, host.Options{Logger: logger, Launcher: o.Launcher, OneShot: o.OneShot})
	e := &Engine{cfg: cfg, host: h, logger: logger, oneShot: o.OneShot, resolvers: o.Resolvers, limitMemory: o.LimitMemory, stages: newStageSet(cfg, h), folder: newIndexFolder(cfg.Root, o.OneShot)}
	e.roles = roles{ix: &cfg.Index}
	e.sources.dir = filepath.Join(e.folder.dir, sourcesDir)
	e.project = project.New(cfg, &indexCodeMap{e: e}, o.MaskComments)
	e.maps = &codeMaps{cfg: cfg, project: e.project, roles: e.roles, indexDir: e.folder.dir}
	if e.referencesOn() {
		e.maps.refLangs = map[string]bool{}
		for _, r := range e.resolvers {
			for _, lang := range r.Languages() {
				e.maps.refLangs[lang] = true
			}
		}
	}
	e.nodes = notes.NewNodes(e.project.Knowledge, cfg.Root, e.folder.dir, logger, o.OneShot)
	e.chunks = notes.NewChunks(cfg.Root)
	e.notes = notesindex.New(notesindex.Options{Dir: e.folder.dir, Nodes: e.nodes, Chunks: e.chunks, Settings: &cfg.Index, Logger: logger, OneShot: o.OneShot})
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

// OpenAll opens every enabled stage, which validates each one's settings
// against its schema (starting subprocess plugins to ask for theirs).
func (e *Engine) OpenAll(ctx context.Context) error { return e.stages.openAll(ctx) }
