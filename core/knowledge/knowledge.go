// Package knowledge is rubi's temporal knowledge graph, kept as plain
// markdown that people, git and Obsidian read as easily as rubi does.
//
// # Layout
//
// Under the project's .rubi/ directory:
//
//	knowledge/<id>.md              one node per file; ids are <type>-<slug>
//	handoffs/<YYYY-MM-DD-HHMM>.md  where a session left off (UTC; -2, -3… when
//	                               two land in the same minute)
//	summaries/map.md               curated level-0 summary
//	summaries/modules/<slug>.md    curated module summaries
//
// and, in the personal vault, <vault>/personal/knowledge/<id>.md. Nodes of
// rubi's Node.js version (.rubi/conhecimento/, <vault>/pessoal/conhecimento/)
// are read too; a node of the same id under knowledge/ shadows them. Files
// whose name starts with '.' (the lock, store.WriteFile's temporaries) are
// never nodes.
//
// # Node file
//
//	---
//	id: decision-use-jwt-instead-of-session
//	type: decision
//	status: active
//	importance: high
//	title: Use JWT instead of session
//	files: [src/auth/login.ts]
//	symbols: [Login]
//	links: [{rel: about, target: concept-authentication}]
//	supersedes: [decision-session-cookie]
//	tags: [auth]
//	created: 2026-10-17T15:30:00Z
//	updated: 2026-10-17T15:30:00Z
//	commit: a1b2c3d
//	anchors:
//	    src/auth/login.ts#Login: body:60303ae…
//	    src/auth/session.ts: code:9f86d08…
//	---
//	# Use JWT instead of session
//
//	Stateless, so it runs on edge runtimes without a session store.
//
//	## Links
//
//	- about [[concept-authentication]]
//	- supersedes [[decision-session-cookie]]
//	- file [[src/auth/login.ts]]
//
// The frontmatter is written by a YAML library with the keys always in the
// order above (superseded_by and valid_until come after supersedes; empty
// fields are left out) and lists in flow style, so any YAML parser reads it
// and diffs stay small. Keys rubi does not know (added in Obsidian, say) are
// kept, after its own. The frontmatter is the source of truth; the "# Title"
// heading and the "## Links" section are generated from it on every write so
// that Obsidian's graph view shows the edges. Link lines added by hand to
// that section are read back as links (or files, or supersedes).
//
// Link targets are node ids, "file:<path>" for a project file and
// "symbol:<Name>" for a symbol of the code map; a target that resolves to
// nothing is kept as written and reported. In the wiki-links, files and
// symbols appear bare ([[src/auth/login.ts]]), which Obsidian shows as
// unresolved notes named after the file: still an edge in the graph.
//
// Anchors record the code the note is about as it was when the note was
// written or last confirmed (anchor.go): "PATH#Name: body:<sha256>" for a
// symbol it names (its declarations' lines, as the code map spans them,
// without comments and whitespace), "PATH: code:<sha256>" for a file of
// which it names no symbol (the file's code without comments and
// whitespace). Stale compares them with the code as it is now and says
// what changed in a line each; Confirm re-anchors. Anchors of the old kind
// ("PATH: <sha256 of the whole file>", "symbol:Name: <sha256 of its
// signature line>") are still read and checked, and Migrate turns them
// into the new kind from the files as they were then ("PATH: whole:
// <sha256>" when a file as it was is found nowhere).
//
// Code is hashed without its comments and whitespace, so a reworded
// comment or a reformat does not make a note stale: Go through go/scanner,
// the other languages through the regex parser's masking lexer
// (core.MaskComments), the rest by whitespace only. A stale note shows ⚠
// with one line per change ("Sub changed (calc/calc.go L9-11)",
// "calc/calc.go: code changed", "… no longer exists"); rubi status counts
// them, and rubi confirm (or the MCP register tool's confirm) re-anchors
// a note without rewriting its text. rubi index migrates the old anchors
// (Migrate) from each file as it was when the note was written: on disk
// if unchanged, else from git, read in process by internal/githistory
// (OldContent), which only the rubi command links.
//
// # Handoffs
//
// A handoff keeps its text as written (Handoff.Text): sections in order,
// unknown ones too, prose, lists and code; its fields are read from it.
// memory last, rubi handoff last and the hooks' session start show it
// whole; the session start cuts it to its 2,000-token budget and says how
// many lines and tokens, and which sections, it left out. A handoff dated
// in the future is clamped and never "the last".
//
// # Provenance
//
// A repository's .rubi/ holds notes a teammate, or the author of a
// repository just cloned, committed. rubi keeps a hash of each note,
// handoff and summary it wrote for this user outside the project (own.go,
// Options.OwnDir); the rest is the repository's, shown marked and quoted
// (text.Quote) where it reaches the agent, and its critical notes apply
// only when the user trusts the project.
//
// # Concurrency and safety
//
// Every write is atomic (temp file, fsync, rename; store.WriteFile), and a
// Register batch, Forget, a summary or a handoff holds store.LockDir on the
// directory it writes, so several processes can write at once. A batch of
// nodes pays one file-system sync for all its files (store.WriteFiles:
// the temporaries, syncfs, the renames, the directories' syncs). Nodes are
// read with their file and line on errors and skipped when malformed; the
// Portuguese keys of rubi's Node.js version are read too. Ids and paths
// from callers are validated before they become file names: nothing is
// ever written outside .rubi/ and the vault.
package knowledge

import (
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"go.yaml.in/yaml/v3"
)

// Node types.
const (
	TypeDecision   = "decision"
	TypeBug        = "bug"
	TypeGotcha     = "gotcha"
	TypeConcept    = "concept"
	TypeHowto      = "howto"
	TypePreference = "preference"
	TypeTask       = "task"
	TypeNote       = "note"
)

// Types lists the node types in the order they are documented.
var Types = []string{TypeDecision, TypeBug, TypeGotcha, TypeConcept, TypeHowto, TypePreference, TypeTask, TypeNote}

// Node statuses. Only active nodes take part in default recall, merging by
// title and near-duplicate detection.
const (
	StatusActive     = "active"
	StatusSuperseded = "superseded"
	StatusRetracted  = "retracted"
)

// Importance levels, highest first.
const (
	ImportanceCritical = "critical"
	ImportanceHigh     = "high"
	ImportanceMedium   = "medium"
	ImportanceLow      = "low"
)

// Result actions.
const (
	ActionCreated    = "created"
	ActionMerged     = "merged"
	ActionSuperseded = "superseded" // a new node was created and superseded at least one other
	ActionError      = "error"
)

// Limits on what a caller may register. They keep a single node readable
// and a runaway agent from filling the disk.
const (
	// DefaultMaxBody is Options.MaxBody when it is 0: 64 KiB of body text,
	// far more than a note needs and small enough to inject in part.
	DefaultMaxBody = 64 << 10

	// What is read of each file the store reads, every one of which the
	// repository may supply (store.ReadWithin: never through a link out
	// of the project or the vault, regular files only). A note's body is
	// at most MaxBody, but its front matter lists files and links: a
	// refactor's note listing 20,000 files is about 1 MiB, and 16 MiB is
	// room to spare. A handoff is a few paragraphs and lists; a curated
	// summary is a page. A file past its cap is a problem naming it.
	maxNoteFile    = 16 << 20
	maxHandoffFile = 4 << 20
	maxSummaryFile = 4 << 20
	// MaxIDLen is the longest id, in bytes.
	MaxIDLen = 80
	// MaxTitleLen is the longest title, in bytes.
	MaxTitleLen = 200
	// MaxListLen is the most files, symbols, tags, links or supersedes
	// one input may carry.
	MaxListLen = 200
	// MaxReadList is the most values a node file's list field (files,
	// symbols, links, supersedes, tags, anchors) is read with; the rest
	// are left out with a warning naming the file and line. Merges grow
	// a node's lists past MaxListLen, never near this; a list past it was
	// written to slow every reader down.
	MaxReadList = 10000
)

// ErrNotFound is returned by Get and Forget when no node matches.
var ErrNotFound = errors.New("knowledge node not found")

// ErrNoBody is the error of a Register input with NeedsBody that would
// create a node with nothing in it but its title.
var ErrNoBody = errors.New("a new note needs its text (body): nothing was written")

// Node is one knowledge node as stored.
//
// Nodes returned by Nodes and Get are shared with the store's cache: treat
// them as read-only (Clone one to change it).
type Node struct {
	ID         string   `json:"id"`
	Type       string   `json:"type"`
	Status     string   `json:"status"`
	Importance string   `json:"importance"`
	Title      string   `json:"title"`
	Files      []string `json:"files,omitempty"`
	Symbols    []string `json:"symbols,omitempty"`
	Links      []Link   `json:"links,omitempty"`
	Supersedes []string `json:"supersedes,omitempty"`
	// SupersededBy is the id of the node that replaced this one.
	SupersededBy string `json:"superseded_by,omitempty"`
	// ValidUntil is when the node was superseded.
	ValidUntil *time.Time `json:"valid_until,omitempty"`
	Tags       []string   `json:"tags,omitempty"`
	Created    time.Time  `json:"created"`
	Updated    time.Time  `json:"updated"`
	// Commit is the short git HEAD hash of the project at the last write,
	// when the project is a git repository.
	Commit string `json:"commit,omitempty"`
	// Anchors maps "<path>#<Name>" to "body:" and the hash of the symbol's
	// code, and a file path to "code:" and the hash of the file's code
	// (see anchor.go), as they were when the node was last anchored.
	// Anchors of older versions (a path to the whole file's SHA-256,
	// "symbol:<Name>" to its signature's) are kept until migrated.
	Anchors map[string]string `json:"anchors,omitempty"`
	// Body is the note's text, without the title heading and the generated
	// links section.
	Body string `json:"body,omitempty"`
	// Personal marks a node of the personal vault.
	Personal bool `json:"personal,omitempty"`
	// Path is the node's file (absolute). It is not serialized in the
	// node file.
	Path string `json:"path,omitempty"`

	// extra holds frontmatter keys rubi does not know, as key and value
	// nodes, so that rewriting the file keeps them.
	extra []*yaml.Node
}

// Link is a typed edge from a node to another node, a file or a symbol.
type Link struct {
	// Rel names the relation: about, causes, fixes, related… (lowercase
	// letters, digits, '-' and '_').
	Rel string `json:"rel" yaml:"rel"`
	// Target is a node id, "file:<path>", "symbol:<Name>", or the text as
	// given when it resolved to nothing.
	Target string `json:"target" yaml:"target"`
}

// Input is one node to register, as an agent sends it.
type Input struct {
	// ID is optional: given, it must be a valid slug and names the node to
	// create or merge into; otherwise the id is <type>-<slug of title>.
	ID    string `json:"id,omitempty"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Body  string `json:"body,omitempty"`
	// Files are project paths, relative to the root (absolute paths inside
	// the root are accepted and made relative).
	Files   []string `json:"files,omitempty"`
	Symbols []string `json:"symbols,omitempty"`
	// Links' targets may be ids, titles, file paths or symbol names.
	Links []Link `json:"links,omitempty"`
	// Supersedes names, by id or title, the nodes this one replaces.
	Supersedes []string `json:"supersedes,omitempty"`
	// Importance defaults to medium.
	Importance string     `json:"importance,omitempty"`
	Tags       []string   `json:"tags,omitempty"`
	Created    *time.Time `json:"created,omitempty"`
	// Personal stores the node in the personal vault.
	Personal bool `json:"personal,omitempty"`
	// NeedsBody refuses to create a node from the input when it brings
	// nothing but a title: no body, files, symbols, links or supersedes
	// (ErrNoBody). Merged into an existing node, it may still add as
	// little as a tag. The command line sets it, where a title alone is a
	// note whose text was left out; an agent may make a concept a node to
	// link to by its title alone.
	NeedsBody bool `json:"-"`
}

// Result reports what Register did with one Input.
type Result struct {
	// Action is created, merged, superseded or error.
	Action string `json:"action"`
	ID     string `json:"id,omitempty"`
	// Path is the node's file (absolute).
	Path string `json:"path,omitempty"`
	// Notes are things the agent may want to act on: "merged into X",
	// "similar: Y", "unresolved link: Z", "unknown file: f",
	// "unknown symbol: S", "superseded: W", "unresolved supersedes: V".
	Notes []string `json:"notes,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Problem is a node file that could not be read, or a value in it that was
// read with a fallback (the message says which).
type Problem struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return p.Path + ":" + itoa(p.Line) + ": " + p.Message
	}
	return p.Path + ": " + p.Message
}

// CodeMap is what the knowledge graph needs from the code index.
type CodeMap interface {
	// FileHash returns the SHA-256 (hex) of the content of the project
	// file at path (relative, forward slashes), and whether it is known.
	// It must agree with hashing the file on disk: rubi falls back to
	// that for files the code map does not cover.
	FileHash(path string) (string, bool)
	// Symbol returns the file defining the symbol name and its
	// signature (the definition's first line), and whether it is known.
	Symbol(name string) (file, signature string, ok bool)
	// A CodeMap that is also a SymbolSource anchors notes to the
	// symbols they name; without, to their files' code.
}

// Options configure a Store.
type Options struct {
	// Root is the project root; the graph lives in Root/.rubi.
	Root string
	// Vault is the personal vault directory; "" means none, and personal
	// nodes are refused.
	Vault string
	// Code checks files and symbols and supplies anchors. When nil, files
	// are checked and hashed on disk and symbols are not checked.
	Code CodeMap
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxBody is the largest body, in bytes, that a node may have; 0 means
	// DefaultMaxBody.
	MaxBody int
	// OwnDir is the folder, outside the project, of the record of the
	// files rubi wrote for this user (own.go); "" keeps none, and every
	// note of the project is the repository's.
	OwnDir string
	// Trusted takes every note, handoff and summary of the project as the
	// user's: the user trusted the project (config.Config.Trusted).
	Trusted bool
	// MaskComments blanks comments before code is hashed for anchors, so
	// that an edit to a comment does not make a note stale: the regex
	// parser's lexer, handed down by the program. Go is tokenized by
	// go/scanner whatever it is; nil normalizes other languages'
	// whitespace only.
	MaskComments core.CommentMasker
}

// Store reads and writes the knowledge graph of one project (and the
// personal vault). It is safe for concurrent use, and other processes may
// write the same directories at the same time.
type Store struct {
	opts    Options
	root    string
	rubiDir string
	project scope
	vault   *scope

	// writeMu serializes this process's writers before they take the
	// cross-process lock, which is enough on its own on Linux but not
	// everywhere.
	writeMu sync.Mutex

	mu    sync.Mutex
	cache map[string]*entry
	// intern holds the values that repeat from node to node in the
	// node cache's records (cache.go), decoded as they are asked for.
	intern map[string]string
	// cacheBehind counts the files parsed or dropped since the cache was
	// imported or last exported: what an export would bring up to date.
	cacheBehind int

	hashMu sync.Mutex
	hashes map[string]hashEntry
	codes  map[string]codeEntry
	// checks are the notes' kept checks against the code, made on
	// checksBasis (checks.go).
	checks      map[string]*Check
	checksBasis string

	// own is the record of the user's files last read (own.go), at
	// ownVersion of its file; s.mu guards both.
	own        *ownRecord
	ownVersion string
}

// scope is one place nodes live: the project or the vault.
type scope struct {
	personal bool
	base     string // what dir must stay inside: the project root, the vault
	dir      string // knowledge/, where nodes are written
	legacy   string // conhecimento/ of the Node.js version, read only
}

// Open returns the store of a project. It touches nothing on disk.
func Open(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	root := opts.Root
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	rubi := filepath.Join(root, ".rubi")
	s := &Store{
		opts:    opts,
		root:    root,
		rubiDir: rubi,
		project: scope{base: root, dir: filepath.Join(rubi, "knowledge"), legacy: filepath.Join(rubi, "conhecimento")},
		cache:   map[string]*entry{},
		intern:  map[string]string{},
		hashes:  map[string]hashEntry{},
		codes:   map[string]codeEntry{},
	}
	if opts.Vault != "" {
		v := opts.Vault
		if abs, err := filepath.Abs(v); err == nil {
			v = abs
		}
		s.vault = &scope{
			personal: true,
			base:     v,
			dir:      filepath.Join(v, "personal", "knowledge"),
			legacy:   filepath.Join(v, "pessoal", "conhecimento"),
		}
	}
	return s
}

// Dir returns the project's knowledge directory (.rubi/knowledge).
func (s *Store) Dir() string { return s.project.dir }

// Dirs lists every folder nodes are read from: the project's knowledge
// directory and its legacy one, then the vault's, when there is one.
func (s *Store) Dirs() []string {
	dirs := []string{s.project.dir, s.project.legacy}
	if s.vault != nil {
		dirs = append(dirs, s.vault.dir, s.vault.legacy)
	}
	return dirs
}

// now is the store's clock in UTC, to the second: node files show whole
// seconds, and what is written must equal what is read back.
func (s *Store) now() time.Time { return s.opts.Now().UTC().Truncate(time.Second) }

// Clone returns a deep copy of n.
func (n *Node) Clone() *Node {
	c := *n
	c.Files = cloneStrings(n.Files)
	c.Symbols = cloneStrings(n.Symbols)
	c.Tags = cloneStrings(n.Tags)
	c.Supersedes = cloneStrings(n.Supersedes)
	if n.Links != nil {
		c.Links = append([]Link(nil), n.Links...)
	}
	if n.ValidUntil != nil {
		v := *n.ValidUntil
		c.ValidUntil = &v
	}
	if n.Anchors != nil {
		c.Anchors = make(map[string]string, len(n.Anchors))
		for k, v := range n.Anchors {
			c.Anchors[k] = v
		}
	}
	if n.extra != nil {
		c.extra = append([]*yaml.Node(nil), n.extra...)
	}
	return &c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s...)
}
