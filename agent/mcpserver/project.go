package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	proj "github.com/rubi-dev/rubi/core/project"

	"github.com/hashicorp/go-hclog"
	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
)

// rootsKey names the roots request in an input-required result.
const rootsKey = "roots"

// project is one open project: its engine, kept for the server's life, and
// the state of its index refresh.
type project struct {
	root  string
	every time.Duration

	// mu serializes refreshes; eng and stamp change only under it.
	mu    sync.Mutex
	eng   *pipeline.Engine
	stamp string // the configuration files' sizes and times when eng was made
	last  time.Time
	// writes counts writes through the server; indexed is the count the
	// last refresh saw, so a write forces the next refresh.
	writes  atomic.Int64
	indexed int64

	open func() (*pipeline.Engine, string, error)
}

// engine returns the project's engine, reopening it when a configuration
// file changed since it was made.
func (p *project) engine() (*pipeline.Engine, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.engineLocked()
}

func (p *project) engineLocked() (*pipeline.Engine, error) {
	if p.eng != nil && p.stamp == configStamp(p.eng.Config()) {
		return p.eng, nil
	}
	eng, stamp, err := p.open()
	if err != nil {
		return nil, err
	}
	if p.eng != nil {
		p.eng.Close()
	}
	p.eng, p.stamp, p.last = eng, stamp, time.Time{}
	return eng, nil
}

// refresh brings the index up to date unless it was refreshed less than
// every ago and nothing was written since. It returns the engine.
func (p *project) refresh(ctx context.Context) (*pipeline.Engine, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	eng, err := p.engineLocked()
	if err != nil {
		return nil, err
	}
	writes := p.writes.Load()
	if writes == p.indexed && time.Since(p.last) < p.every {
		return eng, nil
	}
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		return nil, err
	}
	p.last, p.indexed = time.Now(), writes
	return eng, nil
}

// wrote records a write through the server, so the next query refreshes.
func (p *project) wrote() { p.writes.Add(1) }

// indexWritten brings the notes' part of the index up to date with what a
// call just wrote (pipeline.Engine.IndexNotes: the changed notes and
// chunks, the maps for a summary; no walk of the code). The write stands
// whatever happens here; a failure is logged, and the next query's
// refresh tries again.
func (p *project) indexWritten(ctx context.Context, logger hclog.Logger) {
	p.mu.Lock()
	defer p.mu.Unlock()
	eng, err := p.engineLocked()
	if err == nil {
		_, err = eng.IndexNotes(ctx)
	}
	if err != nil && !errors.Is(err, pipeline.ErrIndexOutdated) {
		logger.Warn("the index was not updated after a write", "root", p.root, "error", err)
	}
}

func (p *project) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.eng != nil {
		p.eng.Close()
		p.eng = nil
	}
}

// configStamp identifies the configuration files behind cfg (the personal
// layer and the project's rubi.hcl, present or not) by size and time.
func configStamp(cfg *config.Config) string {
	paths := append([]string{config.UserConfigPath(), filepath.Join(cfg.Root, config.FileName)}, cfg.Layers...)
	// rubi trust (or --revoke) takes effect on the next call, and so does
	// a change to a plugin executable inside the project: it is no longer
	// trusted, and its process stops with the engine.
	if cfg.Trust.Record != "" {
		paths = append(paths, cfg.Trust.Record)
	}
	for _, p := range cfg.Trust.Plugins {
		if p.Inside {
			paths = append(paths, p.Path)
		}
	}
	var b strings.Builder
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%s/%d/%d;", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// openProject returns the open project rooted at root, opening it first.
func (s *Server) openProject(root string) (*project, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the server is shutting down")
	}
	if p, ok := s.projects[root]; ok {
		return p, nil
	}
	p := &project{root: root, every: s.opts.RefreshEvery}
	p.open = func() (*pipeline.Engine, string, error) {
		cfg, err := config.LoadChecked(config.Options{Root: root, Extra: s.opts.Configs})
		if err != nil {
			return nil, "", fmt.Errorf("the configuration of %s has errors; fix them and call again:\n%w", root, err)
		}
		// An untrusted project's plugins were left out (core/config): the
		// server says so on its log (stderr, which the client keeps for
		// the user), once for each configuration it opens, and answers
		// with the built-in stages; the agent's answers do not carry it.
		if line := cfg.LeftOutLine(s.opts.Language); line != "" {
			s.logger.Warn(line)
		}
		return s.newEngine(cfg), configStamp(cfg), nil
	}
	// Open now: a broken rubi.hcl is reported on this call and the
	// project is not kept, so the next call tries again.
	if _, err := p.engine(); err != nil {
		return nil, err
	}
	s.projects[root] = p
	s.logger.Info("project opened", "root", root)
	return p, nil
}

// resolve finds the project of a call: the vault (VaultOnly), else the
// project argument (Multi), then ProjectDir, then the client's roots, then
// the project around WorkDir.
// When the client's roots are needed and not known yet, it returns the
// input-required result that asks for them: a client on protocol
// 2026-07-28 answers it and calls again; for older clients mcp-go sends
// them roots/list and calls the tool again with the answer.
func (s *Server) resolve(ctx context.Context, req mcp.CallToolRequest, named string) (*project, *mcp.CallToolResult, error) {
	if s.opts.VaultOnly {
		p, err := s.vaultProject()
		return p, nil, err
	}
	if s.opts.Multi && strings.TrimSpace(named) != "" {
		p, err := s.namedProject(ctx, strings.TrimSpace(named))
		return p, nil, err
	}
	if s.opts.ProjectDir != "" {
		p, err := s.openProject(s.opts.ProjectDir)
		return p, nil, err
	}
	dir, ask, err := s.clientRoot(ctx, req)
	if err != nil || ask != nil {
		return nil, ask, err
	}
	if dir == "" {
		if dir, err = s.findRoot(s.opts.WorkDir); err != nil {
			return nil, nil, err
		}
	}
	p, err := s.openProject(dir)
	return p, nil, err
}

// clientRoot returns the project named by the client's roots ("" if none
// is usable or the client has no roots), or the result asking for them,
// or the error saying the project there is not the user's (findRoot).
func (s *Server) clientRoot(ctx context.Context, req mcp.CallToolRequest) (string, *mcp.CallToolResult, error) {
	if !clientHasRoots(ctx) {
		return "", nil, nil
	}
	id := sessionID(ctx)
	if answer := mcpgo.RootsResponse(req.Params.InputResponses, rootsKey); answer != nil {
		dir := rootDir(answer.Roots)
		if dir != "" {
			root, err := s.findRoot(dir)
			if err != nil {
				return "", nil, err
			}
			dir = root
		}
		if id != "" {
			s.mu.Lock()
			s.roots[id] = dir
			s.mu.Unlock()
		}
		if dir == "" {
			s.logger.Debug("the client's roots name no local directory; using the working directory", "roots", answer.Roots)
		}
		return dir, nil, nil
	}
	if id != "" {
		s.mu.Lock()
		dir, ok := s.roots[id]
		s.mu.Unlock()
		if ok {
			return dir, nil, nil
		}
	}
	return "", mcpgo.NewInputRequestBuilder("").Roots(rootsKey).ToolResult(), nil
}

// findRoot is the project around dir (proj.Find), its warnings logged; an
// error, naming the folder and the way out, when that is another user's
// folder or one every user may write: its rubi.hcl, plugins and notes are
// not the user's to run and read.
func (s *Server) findRoot(dir string) (string, error) {
	found := proj.Find(dir)
	for _, w := range found.Warnings() {
		s.logger.Warn(w)
	}
	if found.Refused != nil {
		return "", errors.New(config.OwnerRefusal(found.Refused))
	}
	return found.Root, nil
}

// clientHasRoots reports whether the client declared the roots capability:
// in the request itself (protocol 2026-07-28), or at initialize.
func clientHasRoots(ctx context.Context) bool {
	if info := mcpgo.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.ClientCapabilities != nil && info.ClientCapabilities.Roots != nil
	}
	if sess, ok := mcpgo.ClientSessionFromContext(ctx).(mcpgo.SessionWithClientInfo); ok {
		return sess.GetClientCapabilities().Roots != nil
	}
	return false
}

// rootDir is the first root that is a local directory.
func rootDir(roots []mcp.Root) string {
	for _, r := range roots {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
			continue
		}
		p := u.Path
		if runtime.GOOS == "windows" {
			p = strings.TrimPrefix(p, "/")
		}
		p = filepath.Clean(filepath.FromSlash(p))
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && filepath.IsAbs(p) {
			return p
		}
	}
	return ""
}

// namedProject finds a project by root or name among the open ones, or
// opens the project around an absolute directory inside an allowed folder
// (allowedRoots).
func (s *Server) namedProject(ctx context.Context, name string) (*project, error) {
	s.mu.Lock()
	var found []*project
	for root, p := range s.projects {
		if root == filepath.Clean(name) || filepath.Base(root) == name {
			found = append(found, p)
		}
	}
	open := s.openRoots()
	s.mu.Unlock()
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		roots := make([]string, len(found))
		for i, p := range found {
			roots[i] = p.root
		}
		sort.Strings(roots)
		return nil, fmt.Errorf("project %q could be %s; pass its full path", name, strings.Join(roots, " or "))
	}
	if filepath.IsAbs(name) {
		fi, err := os.Stat(name)
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("project %q is not a directory on the server's machine; pass the absolute path of a project directory", name)
		}
		root, err := s.findRoot(filepath.Clean(name))
		if err != nil {
			return nil, err
		}
		allowed := s.allowedRoots(ctx)
		if !slices.ContainsFunc(allowed, func(base string) bool { return store.Inside(base, root) }) {
			return nil, fmt.Errorf("project %q is outside the folders this server may open (%s); start it with --allow DIR to serve projects there", name, strings.Join(allowed, ", "))
		}
		return s.openProject(root)
	}
	if len(open) == 0 {
		return nil, fmt.Errorf("no open project is called %q; pass the absolute path of a project directory", name)
	}
	return nil, fmt.Errorf("no open project is called %q (open: %s); pass one of those or the absolute path of a project directory", name, strings.Join(open, ", "))
}

// allowedRoots lists the folders inside which a project may be opened by
// path: Options.Allow, ProjectDir, the project around WorkDir and the
// project this session's client roots named, each with its links
// resolved.
func (s *Server) allowedRoots(ctx context.Context) []string {
	dirs := append([]string(nil), s.opts.Allow...)
	if s.opts.ProjectDir != "" {
		dirs = append(dirs, s.opts.ProjectDir)
	}
	if s.opts.WorkDir != "" {
		// Quietly: findRoot logs its warnings when the working
		// directory's project is opened.
		if found := proj.Find(s.opts.WorkDir); found.Refused == nil {
			dirs = append(dirs, found.Root)
		}
	}
	if id := sessionID(ctx); id != "" {
		s.mu.Lock()
		if dir := s.roots[id]; dir != "" {
			dirs = append(dirs, dir)
		}
		s.mu.Unlock()
	}
	var out []string
	for _, d := range dirs {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// openRoots lists the open projects' roots; s.mu must be held.
func (s *Server) openRoots() []string {
	roots := make([]string, 0, len(s.projects))
	for root := range s.projects {
		roots = append(roots, root)
	}
	sort.Strings(roots)
	return roots
}
