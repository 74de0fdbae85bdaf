// Package pipeline runs rubi's two pipelines over one project, as
// rubi.hcl declares them:
//
//	index:    walk → parse (by language) → resolve imports → graph and
//	          PageRank → documents → each ranker's Index → .rubi/index/
//	retrieve: query + terms → rankers in parallel (seeded rankers after
//	          the others) → fuser → packer (token budget, reasons)
//
// Stages are opened lazily through the host, once per Engine, so a
// retrieve that finds the index fresh never starts a parser.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
)

// DataDir is rubi's directory in a project.
const DataDir = ".rubi"

// dataGitignore keeps derived and private data out of the team's commits.
const dataGitignore = `# Written by rubi. The knowledge in this folder is meant to be committed;
# the derived index, automatic session records and the lock are not.
index/
sessions/
.lock
`

// Engine runs the pipelines of one project.
type Engine struct {
	cfg    *config.Config
	host   *host.Host
	logger hclog.Logger

	mu     sync.Mutex
	stages map[*config.Stage]core.Stage
}

// New returns an engine for cfg. Close stops any plugin it started.
func New(cfg *config.Config, logger hclog.Logger) *Engine {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Engine{cfg: cfg, host: host.New(cfg, logger), logger: logger, stages: map[*config.Stage]core.Stage{}}
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

func (e *Engine) dataDir() string  { return filepath.Join(e.cfg.Root, DataDir) }
func (e *Engine) indexDir() string { return filepath.Join(e.cfg.Root, host.StateDir) }

// ensureDataDir creates .rubi/ and its .gitignore.
func (e *Engine) ensureDataDir() error {
	if err := os.MkdirAll(e.indexDir(), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", e.indexDir(), err)
	}
	gi := filepath.Join(e.dataDir(), ".gitignore")
	if _, err := os.Stat(gi); os.IsNotExist(err) {
		if err := os.WriteFile(gi, []byte(dataGitignore), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return nil
}

// fingerprint identifies how a ranker is configured; when it changes the
// ranker's persisted state no longer matches and it is indexed in full.
func fingerprint(st *config.Stage, info core.Info, settings []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", info.Name, info.Version, st.Plugin)
	h.Write(settings)
	return hex.EncodeToString(h.Sum(nil))[:16]
}
