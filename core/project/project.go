// Package project is a project as rubi keeps it, apart from its index: its
// root and data folder (.rubi/), the knowledge its notes hold (with the
// personal vault), its conversation memory and its handoffs. The index
// engine (core/pipeline) reads the notes and chunks through it and lends
// it its view of the code; the command line, the hooks and the MCP server
// read and write through it.
//
// # Finding a project
//
// Find and FindRoot take the nearest folder up from where rubi runs that
// holds .rubi/, rubi.hcl or .git, else the start itself, but only among
// folders the user owns and that not every user may write (core/owner):
// another user's rubi.hcl in a shared folder such as /tmp must not decide
// what runs as this user. The user's own safe_directories lift that rule
// for the folders named.
//
// # The data folder
//
// Everything rubi keeps for a project is under its .rubi/ folder. What
// people write (notes, summaries, handoffs) is committed with the code;
// what rubi derives or records for one person is not, and rubi keeps its
// own lines last in .rubi/.gitignore (store.KeepIgnored) so that a
// committed "!*" cannot stage them:
//
//	.gitignore            written by rubi: index/, sessions/, hooks.log*, .lock
//	index/                derived and rebuildable; its files' formats are
//	                      documented by the packages that write them:
//	  manifest.bin,       core/manifest
//	  symbols-<gen>.jsonl
//	  .lock               the index lock (core/store)
//	  rank.bm25/ …        each stage's own state directory (its package)
//	  nodes.bin           the parsed knowledge nodes (core/notes)
//	  checks.bin          the notes' checks against the code (core/notes)
//	  critical.json       the active critical notes, newest first (core/notes)
//	  notes.bin, notes.edits, notes.stamp
//	                      the notes' part of the index (the notes index)
//	  sources/<name>.json each source's items as last read
//	  binary.json         the files found binary, passed unread (core/pipeline)
//	  dirs.bin            the walked directories, listed again only once changed (core/walk)
//	  vault.sum, vault.behind
//	                      what the Obsidian pages' last write left, and
//	                      that a recall left them to the next index (core/pipeline)
//	map.md                the level-0 map (core/codemap), derived
//	modules/<module>.md   the level-1 pages (core/codemap), derived
//	files/<path>.md       a page for each file a note names, for Obsidian
//	                      (core/codemap), derived
//	knowledge/<id>.md     knowledge nodes (core/knowledge), committed
//	summaries/            curated summaries of the map and modules, committed
//	handoffs/<date>.md    handoffs (core/knowledge), committed
//	sessions/             the conversation memory (core/memory), git-ignored:
//	  <yyyymmdd-hhmmss>-<hash>.md   a chunk, the hooks' pre-compaction records among them
//	  archive/<id>.md.gz  chunks retention archived
//	  usage.json          reads per chunk (retention keeps what is read)
//	  retention.log       what retention purged: ids and dates only
//	  state/<session>.json  the hooks' per-session state (agent/hooks)
//	hooks.log             the hooks' errors, rotated at 1 MiB
//
// The personal vault (RUBI_VAULT, else rubi.hcl's vault, ~/rubi-vault by
// default) keeps the user's own notes under personal/knowledge/, for
// every project (VaultPath, SetVault). Outside both, in the user's state
// folder ($XDG_STATE_HOME/rubi, else ~/.local/state/rubi), rubi keeps
// what no repository may write: the hashes of the notes it wrote for the
// user (OwnDir, core/knowledge's provenance) and the backups of project
// files rubi connect and rubi install changed.
//
// SaveHandoff writes a handoff's file and saves its text as a conversation
// chunk tagged handoff, so both the handoff tools and a search find it;
// the command line and the MCP server share it.
package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/owner"
)

// DataDir is rubi's folder in a project.
const DataDir = ".rubi"

// FindRoot returns the project around dir the way git finds its
// repository: the nearest directory from dir up holding .rubi/, rubi.hcl
// or .git of the user's, else dir itself (Find says what it passed over).
// dir should be absolute.
func FindRoot(dir string) string { return Find(dir).Root }

// Found is the outcome of the search for a project.
type Found struct {
	// Root is the project: the nearest folder from the search's start up
	// holding a marker (.rubi/, rubi.hcl, .git) of the user's, else the
	// start itself.
	Root string
	// Marker is the marker that made Root the project ("" when none did).
	Marker string
	// Refused says why Root is not the user's to use (nil when it is): the
	// start is another user's folder, or one every user may write, with no
	// project of the user's found; or Root's .rubi/ is another user's. Its
	// rubi.hcl, plugins and notes must not be used.
	Refused *owner.Problem
	// Ignored are the markers of other users passed over on the way up,
	// and those in the folder the search stopped at. Root's own rubi.hcl
	// is not among them: config.Load reports it.
	Ignored []*owner.Problem
}

// Warnings are the lines to show the user about what the search passed
// over and refused (config.OwnerWarning's, config.OwnerRefusal's).
func (f Found) Warnings() []string {
	var out []string
	for _, p := range f.Ignored {
		out = append(out, config.OwnerWarning(p))
	}
	if f.Refused != nil {
		out = append(out, config.OwnerRefusal(f.Refused))
	}
	return out
}

// IsProject reports whether the search found a project rubi works in
// without being told: a folder of the user's with a marker (Marker), and
// nothing refused. The home folder counts only with .rubi/ or rubi.hcl:
// its .git alone is a dotfiles repository, not a project to index. home
// is the user's home folder ("": none). The hooks stay out of a folder
// that is no project; the command line asks for --root there.
func (f Found) IsProject(home string) bool {
	if f.Refused != nil || f.Marker == "" {
		return false
	}
	return f.Marker != ".git" || home == "" || filepath.Clean(home) != f.Root
}

// markers make a folder a project, nearest first.
var markers = []string{DataDir, config.FileName, ".git"}

// Find searches for the project around dir (absolute) the way git finds
// its repository, and as git's safe.directory does, only among what the
// user owns: the search never goes up into a folder another user owns, nor
// into one every user may write (world-writable or sticky, as /tmp); a
// marker another user owns is passed over. Otherwise another local user
// who puts rubi.hcl, a plugin and a critical note in /tmp would have the
// plugin run, and the note injected, as whoever opens an agent in a
// folder below it. The user's safe_directories (config.SafeDirectories,
// read only when something is refused) names the folders of others they
// use. On Windows nothing is refused (package owner).
func Find(dir string) Found {
	var safe owner.Safe
	loaded := false
	check := func(f func(string, owner.Safe) *owner.Problem, path string) *owner.Problem {
		if f(path, nil) == nil {
			return nil
		}
		if !loaded {
			safe, loaded = config.SafeDirectories(), true
		}
		return f(path, safe)
	}
	found := Found{Root: dir}
	var ignored []*owner.Problem
	for d := dir; found.Marker == ""; d = filepath.Dir(d) {
		if p := check(owner.Folder, d); p != nil {
			// Whatever marks d was put there by its owner, or by anyone.
			for _, m := range markers[:2] {
				if _, err := os.Stat(filepath.Join(d, m)); err == nil {
					ignored = append(ignored, &owner.Problem{Path: filepath.Join(d, m), UID: p.UID, Shared: p.Shared, Dir: d})
				}
			}
			if d == dir {
				found.Refused = p
			}
			break
		}
		for _, m := range markers {
			path := filepath.Join(d, m)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			if p := check(owner.File, path); p != nil {
				ignored = append(ignored, p)
				continue
			}
			found.Root, found.Marker = d, m
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	// The project keeps its index, notes and sessions in .rubi/: another
	// user's cannot be passed over, as rubi would use it.
	if found.Refused == nil {
		found.Refused = check(owner.File, filepath.Join(found.Root, DataDir))
	}
	for _, p := range ignored {
		// Root's rubi.hcl is config.Load's to report, its .rubi/ Refused's.
		if p.Path != filepath.Join(found.Root, config.FileName) && p.Path != filepath.Join(found.Root, DataDir) {
			found.Ignored = append(found.Ignored, p)
		}
	}
	return found
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
	if dir := config.StateDir(); dir != "" {
		return filepath.Join(dir, "projects")
	}
	return ""
}

// Project is one project, as its configuration describes it.
type Project struct {
	cfg  *config.Config
	code knowledge.CodeMap
	mask core.CommentMasker

	mu sync.Mutex
	// vault is the personal vault SetVault named ("": VaultPath's).
	vault string
	// knowledge is the knowledge store, opened on first use.
	knowledge *knowledge.Store
}

// New returns the project cfg describes. code is the index's view of the
// project's files and symbols, with which the knowledge store checks the
// files and symbols notes name and anchors them (nil: on disk alone);
// mask blanks comments before code is hashed for anchors
// (knowledge.Options.MaskComments).
func New(cfg *config.Config, code knowledge.CodeMap, mask core.CommentMasker) *Project {
	return &Project{cfg: cfg, code: code, mask: mask}
}

// Dir is the project's data folder, .rubi/.
func (p *Project) Dir() string { return filepath.Join(p.cfg.Root, DataDir) }

// Knowledge returns the project's knowledge store: the project's notes
// and the personal vault's.
func (p *Project) Knowledge() *knowledge.Store {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.knowledge == nil {
		p.knowledge = knowledge.Open(knowledge.Options{Root: p.cfg.Root, Vault: p.vaultDirLocked(), Code: p.code, OwnDir: OwnDir(), Trusted: p.cfg.Trusted, MaskComments: p.mask})
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
