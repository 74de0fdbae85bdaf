// Package config reads rubi.hcl. Layers are read in order, each overriding
// the attributes it sets: the built-in defaults (the embedded rubi.hcl), the
// personal ~/.config/rubi/config.hcl, the project's rubi.hcl, then the
// --config files; a command's flags (--budget, --limit, …) override the
// result.
//
// Reading happens in two phases. The first reads each file's skeleton with
// hclsyntax: the root schema (vault, language, safe_directories; the
// index, budgets, hooks and memory sections, checked against their Go
// structs; stage blocks source, parser, ranker, fuser and reranker "NAME";
// and the retrieve block of earlier versions, read as the stages'
// settings with a warning naming the new form, retrieve.go), and for each
// stage block its meta-arguments (plugin, enabled, timeout; weight and
// report_weight for rankers; languages for parsers). The stage's own
// attributes are kept undecoded, as hcl.Attributes with their source
// ranges, merged by name across layers. The second phase happens when a
// stage is opened: its attributes are converted to the types of the
// schema the stage publishes (core.SchemaOf derives it from a Go struct
// with hcl tags for built-ins and SDK plugins; a subprocess sends it in
// Info) and handed over as a JSON object that core.DecodeSettings turns
// back into the struct. The core sections go through the same
// conversion, so every mistake reads the same, whichever layer wrote it:
// "rubi.hcl:12:3: error: Summary", a sentence saying how to fix it, and the
// source line. A stage's rejection of a value (core.SettingError) is
// mapped back to that attribute's line. A diagnostic names only what the
// user wrote: a section's attributes decode one by one, each checked
// against its rule (sections.go), so a bad value is one error at its own
// line and never a check of the defaults' values; a plugin that takes a
// built-in's name over is not given the defaults' settings it does not
// take.
//
// A parser declared later (or in a later layer) takes over the languages
// it names. Exactly one fuser is enabled. A reranker is a built-in: plugin
// on one is an error at its line.
//
// A cloned repository's rubi.hcl is untrusted input, so limits apply
// before any work: at most MaxFileSize (1 MiB) and MaxNesting (64) levels,
// counted by a scanner that does not recurse, since the HCL parser
// recurses once per level and a deep enough file would overflow the stack
// (shape.go); budgets lie in [MinBudget, MaxBudget].
//
// Trust and ownership (trust.go, owner.go). A stage whose plugin a project
// layer names or sets up, or whose executable lies inside the project, is
// replaced by its built-in of the same name (or left out) unless the
// user's trust record (core/trust) matches every hashed file: cloning a
// repository must not run its code. Config.Trust.LeftOut is what each
// entry point says once (the CLI on stderr, the hooks in hooks.log and the
// answer's systemMessage, the MCP server's log, rubi doctor); left-out
// plugins are gone from the Config, so no hand-over to rubi-full happens
// for them. Another user's rubi.hcl or .rubi/ is ignored with a warning
// (OwnerWarning, OwnerRefusal), and safe_directories is read only from the
// user's own configuration.
//
// The test fixtures carry their expected errors inline ("# ERROR: text");
// a test checks that each lands on its line and nothing else errs. Fuzz
// targets: FuzzLoad and FuzzCheckShape.
package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/owner"
	"github.com/rubi-dev/rubi/core/store"
)

// FileName is the project configuration file, at the project root.
const FileName = "rubi.hcl"

// DefaultsName is how diagnostics and Config.Layers name the built-in
// defaults, the embedded rubi.hcl.
const DefaultsName = "(built-in defaults)/" + FileName

// Index says what the index pipeline walks.
type Index struct {
	Include         []string `hcl:"include,optional" json:"include"`
	Exclude         []string `hcl:"exclude,optional" json:"exclude"`
	DefaultExcludes bool     `hcl:"default_excludes,optional" json:"default_excludes"`
	MaxFileSize     int64    `hcl:"max_file_size,optional" json:"max_file_size"`
	// HiddenRoles are the file roles (codemap.Roles) kept out of search
	// and of the map's centrality: the files are still walked, parsed and
	// listed, but rank for nothing. Empty brings every file back.
	HiddenRoles []string `hcl:"hidden_roles,optional" json:"hidden_roles"`
	// LinkSessions links the notes and conversation chunks written one
	// after the other in one session (a chunk's session; notes written
	// minutes apart), so the graph goes from a matching turn to the ones
	// around it.
	LinkSessions bool `hcl:"link_sessions,optional" json:"link_sessions"`
	// LinkEntities links the notes and chunks that name the same entity
	// (a person, place, product, ticket, file or symbol) when at most
	// this many of them name it; 0 turns it off. A name many notes share
	// says little and would make a hub.
	LinkEntities int `hcl:"link_entities,optional" json:"link_entities"`
	// SessionContext indexes each conversation chunk with the start of
	// the one before it in its session: an answer is found by the words
	// of the question it answers.
	SessionContext bool `hcl:"session_context,optional" json:"session_context"`
	// ModuleRoots are doublestar globs of directories that are modules of
	// the map, beside those a package manifest or a Python package makes
	// one ("services/*", "libs/**/src"). The deepest root holding a file
	// is its module.
	ModuleRoots []string `hcl:"module_roots,optional" json:"module_roots"`
	// ModuleDepth is how many leading directories name the module of a
	// file no root holds (0 is the default, 2).
	ModuleDepth int `hcl:"module_depth,optional" json:"module_depth"`
	// References keeps the references between the project's definitions
	// (who calls a function, who uses a type), found by the program's
	// resolvers in every index run, for `rubi refs`. Off, the index run
	// skips the step and keeps no table of them.
	References bool `hcl:"references,optional" json:"references"`
	// ReferenceEdges is the weight, beside an import's 1, of a file's
	// uses of another file's definitions in the files' centrality (the
	// map's order, a file's PageRank): log2(1+uses) times it. Every file
	// of a Go package imports what the others do, so only its
	// references tell which file the package's others lean on. 0 leaves
	// the centrality to the imports alone.
	ReferenceEdges float64 `hcl:"reference_edges,optional" json:"reference_edges"`
	// MemoryLimit caps, in MiB, the memory an index run aims to stay
	// under: the runtime's soft limit while the run lasts, which makes
	// the garbage collector work harder as the heap nears it instead of
	// letting it grow as its pacing would (internal/programs.LimitMemory).
	// 0: no cap.
	MemoryLimit int `hcl:"memory_limit,optional" json:"memory_limit"`
}

// minMemoryLimit is the smallest index.memory_limit (MiB): below it the
// process's own code and a small project's index are already most of it,
// and the collector would run without pause.
const minMemoryLimit = 64

// maxReferenceEdges bounds index.reference_edges: past it the imports
// would no longer count.
const maxReferenceEdges = 10

// maxModuleDepth bounds index.module_depth.
const maxModuleDepth = 8

// maxLinkEntities bounds index.link_entities: the links of one name grow
// with the square of the notes that share it.
const maxLinkEntities = 64

// The bounds of a token budget: below MinBudget no item fits, above
// MaxBudget an answer would outgrow any agent's context.
const (
	MinBudget = 100
	MaxBudget = 1 << 20
)

// Budgets are token budgets.
type Budgets struct {
	Context int `hcl:"context,optional" json:"context"`
	Recall  int `hcl:"recall,optional" json:"recall"`
	Map     int `hcl:"map,optional" json:"map"`
}

// Hooks are the agent hooks' thresholds.
type Hooks struct {
	CompactWindow  int `hcl:"compact_window,optional" json:"compact_window"`
	WarnPercent    int `hcl:"warn_percent,optional" json:"warn_percent"`
	HarvestMin     int `hcl:"harvest_min,optional" json:"harvest_min"`
	ReadGuardLines int `hcl:"read_guard_lines,optional" json:"read_guard_lines"`
	ReadGuardBytes int `hcl:"read_guard_bytes,optional" json:"read_guard_bytes"`
}

// Memory is the conversation memory's limits and retention.
type Memory struct {
	// MaxChunkSize is the largest chunk saved, in bytes.
	MaxChunkSize int `hcl:"max_chunk_size,optional" json:"max_chunk_size"`
	// ArchiveAfter is the days a chunk may go unused before retention
	// archives it (gzip); PurgeAfter the days an archive is kept.
	ArchiveAfter int `hcl:"archive_after,optional" json:"archive_after"`
	PurgeAfter   int `hcl:"purge_after,optional" json:"purge_after"`
	// KeepTags, KeepReads and KeepKeywords make chunks immune: a tag, a
	// number of reads, a word in the text.
	KeepTags     []string `hcl:"keep_tags,optional" json:"keep_tags"`
	KeepReads    int      `hcl:"keep_reads,optional" json:"keep_reads"`
	KeepKeywords []string `hcl:"keep_keywords,optional" json:"keep_keywords"`
}

// Config is the resolved configuration of one project.
type Config struct {
	// Root is the absolute project root.
	Root  string `json:"root"`
	Vault string `json:"vault"`
	// Language is the language setting, as a code of the catalog
	// (messages.Codes: en, pt, fr or ja), "" when no layer sets one: the
	// locale chooses (messages.Choose).
	Language string  `json:"language,omitempty"`
	Index    Index   `json:"index"`
	Budgets  Budgets `json:"budgets"`
	Hooks    Hooks   `json:"hooks"`
	Memory   Memory  `json:"memory"`
	// Trusted says the user trusted this project with rubi trust, and
	// nothing the trust covers changed since.
	Trusted bool `json:"trusted"`
	// Stages in declaration order (layer by layer), enabled or not.
	Stages []*Stage `json:"stages"`
	// Layers lists the files read, first to last.
	Layers []string `json:"layers"`
	// Files holds the parsed sources, for rendering diagnostics.
	Files map[string]*hcl.File `json:"-"`
	// Trust is what the project's trust covers and, untrusted, the
	// stages that ran without their plugin (trust.go).
	Trust Trust `json:"trust"`

	// safe is the user's safe_directories, as the load read them.
	safe owner.Safe
}

// Stage is one stage block after layering.
type Stage struct {
	Kind core.Kind `json:"kind"`
	Name string    `json:"name"`
	// Plugin is the executable of a subprocess plugin ("" for a built-in):
	// a path made absolute against the declaring file's directory, or a
	// bare name to look up on PATH.
	Plugin  string        `json:"plugin,omitempty"`
	Enabled bool          `json:"enabled"`
	Timeout time.Duration `json:"timeout"`
	Weight  float64       `json:"weight,omitempty"`
	// ReportWeight scales a ranker's weight for a question that reads as
	// a bug report (report_weight; 1 unless set): the graph's walk from
	// a report's many matches crowds out the files it is about.
	ReportWeight float64  `json:"report_weight,omitempty"`
	Languages    []string `json:"languages,omitempty"`
	// Attrs are the stage's own settings, merged across layers.
	Attrs map[string]*hcl.Attribute `json:"-"`
	// DeclRange is the block header of the last layer that declared it.
	DeclRange hcl.Range `json:"-"`
	// PluginRange locates the plugin attribute, when set.
	PluginRange *hcl.Range `json:"-"`
	// settings is Settings' result for a built-in's schema as a cached
	// load kept it (LoadCached): decoding the attributes against their
	// schema again was a tenth of a hook's work.
	settings *keptSettings
}

// keptSettings are a stage's settings as Settings made them for the
// schema schemaKey names.
type keptSettings struct {
	schema string
	raw    json.RawMessage
}

// schemaKey is what of a schema a stage's settings depend on.
func schemaKey(schema core.Schema) string {
	var b strings.Builder
	for _, a := range schema {
		b.WriteString(strconv.Quote(a.Name))
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(a.Type))
		b.WriteString(strconv.FormatBool(a.Required))
		b.WriteByte('\n')
	}
	return b.String()
}

// DefaultTimeout is a stage's per-call timeout unless it sets one.
const DefaultTimeout = 10 * time.Second

// metaAttrs are reserved in every stage block: they configure how the core
// runs the stage, not the stage itself.
var metaAttrs = map[core.Kind][]string{
	core.KindSource: {"plugin", "enabled", "timeout"},
	core.KindParser: {"plugin", "enabled", "timeout", "languages"},
	core.KindRanker: {"plugin", "enabled", "timeout", "weight", "report_weight"},
	core.KindFuser:  {"plugin", "enabled", "timeout"},
	// A reranker is a built-in: plugin is read only to say so.
	core.KindReranker: {"plugin", "enabled", "timeout"},
}

// Options say where the layers come from.
type Options struct {
	// Root is the project root; its rubi.hcl is the project layer.
	Root string
	// UserConfig is the personal layer. Empty means the default
	// ($XDG_CONFIG_HOME or ~/.config)/rubi/config.hcl; "-" skips it.
	UserConfig string
	// Extra files are read after the project layer, in order.
	Extra []string
	// NoProject leaves out the project layer: the settings that hold
	// before there is a project (the personal vault of rubi mcp --vault).
	NoProject bool
	// TrustFile is the trust record (core/trust). Empty means the
	// default, TrustPath(); "-" reads none: nothing is trusted.
	TrustFile string
}

// UserConfigPath returns the default personal config path.
func UserConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "rubi", "config.hcl")
}

// Load reads every layer and returns the resolved configuration. Errors
// are diagnostics with file and line; the returned Config is nil when there
// is any error.
func Load(opts Options) (*Config, hcl.Diagnostics) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid project root", Detail: err.Error()}}
	}
	l := &loader{cfg: &Config{Root: root, Files: map[string]*hcl.File{}}, stages: map[string]*Stage{}, sections: map[string]map[string]*hcl.Attribute{},
		root: root, projectLayers: map[string]bool{}}

	// Parsing is most of the loading (a hook's), and each file's parse
	// needs nothing of the others': the project's file and the extra
	// ones are read and parsed while the defaults are, then layered in
	// order. Which safe directories the user's file names is known only
	// once it is layered, so whose the project's file is is asked after.
	extras := make([]<-chan readFile, len(opts.Extra))
	for i, extra := range opts.Extra {
		extras[i] = readAhead(root, extra)
	}
	user := opts.UserConfig
	if user == "" {
		user = UserConfigPath()
	}
	var userFile <-chan readFile
	if user != "-" && user != "" {
		userFile = readAhead(root, user)
	}
	path := filepath.Join(root, FileName)
	var projectFile <-chan readFile
	if !opts.NoProject {
		projectFile = readAhead(root, path)
	}
	l.layer(DefaultsName, "", rubi.DefaultConfig, parseDefaults)
	if userFile != nil {
		l.user = displayName(user)
		l.layerFile(user, <-userFile, false, layerUser)
	}
	if !opts.NoProject {
		l.project = displayName(path)
		read := <-projectFile
		if p := owner.File(path, l.safe); p != nil {
			// Another user's rubi.hcl (a shared folder, a checkout of
			// theirs) would choose the plugins rubi runs as this user.
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: OwnerWarning(p)})
		} else {
			l.layerFile(path, read, false, layerProject)
		}
	}
	for i, extra := range opts.Extra {
		l.layerFile(extra, <-extras[i], true, layerExtra)
	}
	// Decoding still runs after errors in the skeleton so that one run
	// reports every mistake it can.
	l.finish()
	if l.diags.HasErrors() {
		return nil, l.diags
	}
	record := opts.TrustFile
	if record == "" {
		record = TrustPath()
	}
	l.applyTrust(record)
	l.cfg.safe = l.safe
	return l.cfg, l.diags
}

type loader struct {
	cfg      *Config
	diags    hcl.Diagnostics
	stages   map[string]*Stage                    // kind/name → stage
	sections map[string]map[string]*hcl.Attribute // section → merged attributes
	vault    *hcl.Attribute
	language *hcl.Attribute // the last layer's
	project  string         // the project's rubi.hcl, as diagnostics name it
	user     string         // the user's own config, as diagnostics name it
	// safe is the user's safe_directories: folders of others the user
	// uses, whose rubi.hcl is read.
	safe owner.Safe
	// defaultVault is the built-in defaults' vault expression, as
	// written: a project's rubi.hcl that repeats it chooses nothing.
	defaultVault string
	// root is the project root; projectLayers names the configuration
	// files inside it (as diagnostics name them): what they set up needs
	// the user's trust (trust.go).
	root          string
	projectLayers map[string]bool
}

// displayName is how a config file is named in diagnostics: relative to
// the working directory when it is below it, so "rubi.hcl:12" reads as the
// user typed it.
func displayName(path string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// The layers read from files: whose they are decides what needs the
// user's trust (trust.go).
const (
	layerUser    = iota // the personal config: the user's own, wherever it is
	layerProject        // the project's rubi.hcl
	layerExtra          // a --config file: the project's when inside it
)

// layerFile reads the layer at path, of the given kind, up to MaxFileSize
// and without blocking on a FIFO: the project's rubi.hcl as every file a
// repository supplies (store.ReadWithin: never a link, nothing out of the
// project), the user's and --config's following their links as the user
// made them.
// readFile is a configuration file read and parsed (parsed), or why it
// could not be read.
type readFile struct {
	src    []byte
	err    error
	parsed parsed
}

// parsed is a file's parse: its shape's check, then HCL's.
type parsed struct {
	f     *hcl.File
	diags hcl.Diagnostics
}

func parse(name string, src []byte) parsed {
	if diags := CheckShape(name, src); diags.HasErrors() {
		return parsed{diags: diags}
	}
	f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	return parsed{f: f, diags: diags}
}

// parseDefaults is the defaults' parse, made once in a process.
var parseDefaults = sync.OnceValue(func() parsed { return parse(DefaultsName, rubi.DefaultConfig) })

// readAhead reads and parses the configuration file at path in the
// background: the project's rubi.hcl, under root, as the repository's
// files are read (inside it, no link); any other, as a regular file.
func readAhead(root, path string) <-chan readFile {
	out := make(chan readFile, 1)
	go func() {
		var r readFile
		if path == filepath.Join(root, FileName) {
			r.src, r.err = store.ReadWithin(root, path, MaxFileSize)
		} else {
			r.src, r.err = store.ReadRegular(path, MaxFileSize)
		}
		if r.err == nil {
			r.parsed = parse(displayName(path), r.src)
		}
		out <- r
	}()
	return out
}

func (l *loader) layerFile(path string, read readFile, mustExist bool, kind int) {
	src, err := read.src, read.err
	if os.IsNotExist(err) && !mustExist {
		return
	}
	if errors.Is(err, store.ErrTooLarge) {
		// As CheckShape says it of a file read whole.
		name := displayName(path)
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Configuration file too large",
			Detail:   fmt.Sprintf("%s is over %d bytes, the most rubi reads of a configuration file. A rubi.hcl needs a few hundred bytes: check what it holds.", name, MaxFileSize),
			Subject:  &hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos},
		})
		return
	}
	if err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot read configuration file",
			Detail:   fmt.Sprintf("%s. Check the path and its permissions.", err),
		})
		return
	}
	name := displayName(path)
	if abs, err := filepath.Abs(path); err == nil && l.layer(name, filepath.Dir(path), src, func() parsed { return read.parsed }) && kind != layerUser {
		l.noteLayer(abs, name, src, kind == layerProject)
	}
}

var rootSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "vault"}, {Name: "language"}, {Name: SafeDirectoriesName}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "index"}, {Type: "budgets"}, {Type: "retrieve"}, {Type: "hooks"}, {Type: "memory"},
		{Type: string(core.KindSource), LabelNames: []string{"name"}},
		{Type: string(core.KindParser), LabelNames: []string{"name"}},
		{Type: string(core.KindRanker), LabelNames: []string{"name"}},
		{Type: string(core.KindFuser), LabelNames: []string{"name"}},
		{Type: string(core.KindReranker), LabelNames: []string{"name"}},
	},
}

// sectionTargets maps each core section to the struct it decodes into.
func (l *loader) sectionTargets() map[string]any {
	return map[string]any{"index": &l.cfg.Index, "budgets": &l.cfg.Budgets, "hooks": &l.cfg.Hooks, "memory": &l.cfg.Memory}
}

// layer reads one file's skeleton and merges it over the earlier layers,
// and reports whether it parsed. dir resolves relative plugin paths (""
// for the built-in defaults).
func (l *loader) layer(name, dir string, src []byte, parse func() parsed) bool {
	p := parse()
	f := p.f
	l.diags = append(l.diags, p.diags...)
	if p.diags.HasErrors() {
		return false
	}
	l.cfg.Files[name] = f
	l.cfg.Layers = append(l.cfg.Layers, name)
	content, diags := f.Body.Content(rootSchema)
	l.misplaced(f, diags)
	l.diags = append(l.diags, diags...)
	if a, ok := content.Attributes["vault"]; ok {
		written := strings.TrimSpace(string(a.Expr.Range().SliceBytes(src)))
		if dir == "" {
			l.defaultVault = written
		}
		if name == l.project && written == l.defaultVault {
			// A copy of the defaults (rubi's own rubi.hcl is one) names
			// the vault the defaults name: nothing to warn about.
		} else if name == l.project {
			// The vault is the user's own folder: a repository just cloned
			// must not point rubi's personal notes (reads and writes) at
			// a folder of its choosing.
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "vault ignored",
				Detail:   "A project's rubi.hcl cannot choose the personal vault; set vault in your own " + UserConfigPath() + " or RUBI_VAULT.",
				Subject:  a.NameRange.Ptr(),
			})
		} else {
			l.vault = a
		}
	}
	if a, ok := content.Attributes["language"]; ok {
		l.language = a
	}
	if a, ok := content.Attributes[SafeDirectoriesName]; ok {
		if name == l.user {
			var dirs []string
			l.diags = append(l.diags, decodeExpr(a.Expr, &dirs)...)
			l.safe = dirs
		} else {
			// Which folders of others rubi may use is the user's own
			// choice: a repository cannot vouch for itself.
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  SafeDirectoriesName + " ignored",
				Detail:   "Only your own " + UserConfigPath() + " can name safe_directories.",
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		key := b.Type
		if len(b.Labels) > 0 {
			key += " " + b.Labels[0]
		}
		if prev, dup := seen[key]; dup {
			l.diags = append(l.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate block",
				Detail:   fmt.Sprintf("A %s block is already declared in this file at line %d. Merge the two blocks into one.", describeBlock(b), prev.Start.Line),
				Subject:  b.DefRange.Ptr(),
			})
			continue
		}
		seen[key] = b.DefRange
		attrs, diags := b.Body.JustAttributes()
		l.diags = append(l.diags, diags...)
		if diags.HasErrors() {
			continue
		}
		if b.Type == "retrieve" {
			l.retrieve(attrs, dir)
		} else if len(b.Labels) == 0 {
			l.section(b.Type, attrs)
		} else {
			l.stage(core.Kind(b.Type), b, attrs, dir)
		}
	}
	return true
}

func describeBlock(b *hcl.Block) string {
	if len(b.Labels) == 0 {
		return fmt.Sprintf("%q", b.Type)
	}
	return fmt.Sprintf("%s %q", b.Type, b.Labels[0])
}

func (l *loader) section(name string, attrs hcl.Attributes) {
	schema := core.MustSchemaOf(l.sectionTargets()[name])
	merged := l.sections[name]
	if merged == nil {
		merged = map[string]*hcl.Attribute{}
		l.sections[name] = merged
	}
	for _, a := range sortedAttrs(attrs) {
		if _, ok := schema.Lookup(a.Name); !ok {
			l.diags = append(l.diags, unknownAttr(a, fmt.Sprintf("the %q block", name), schema))
			continue
		}
		merged[a.Name] = a
	}
}

func (l *loader) stage(kind core.Kind, b *hcl.Block, attrs hcl.Attributes, dir string) {
	name := b.Labels[0]
	if err := core.ValidStageName(name, kind); err != nil {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid stage name",
			Detail:   fmt.Sprintf("The %s name %s. Use a namespaced name such as \"lang.regex\", \"rank.bm25\" or \"fuse.rrf\".", kind, strings.TrimPrefix(err.Error(), fmt.Sprintf("stage name %q ", name))),
			Subject:  b.LabelRanges[0].Ptr(),
		})
		return
	}
	st := l.stageFor(kind, name)
	st.DeclRange = b.DefRange
	meta := map[string]bool{}
	for _, m := range metaAttrs[kind] {
		meta[m] = true
	}
	for _, a := range sortedAttrs(attrs) {
		if !meta[a.Name] {
			st.Attrs[a.Name] = a
			continue
		}
		l.meta(st, a, dir)
	}
}

// stageFor returns the stage kind/name, declared on first use.
func (l *loader) stageFor(kind core.Kind, name string) *Stage {
	key := string(kind) + "/" + name
	st := l.stages[key]
	if st == nil {
		st = &Stage{Kind: kind, Name: name, Enabled: true, Timeout: DefaultTimeout, Attrs: map[string]*hcl.Attribute{}}
		if kind == core.KindRanker {
			st.Weight, st.ReportWeight = 1, 1
		}
		l.stages[key] = st
		l.cfg.Stages = append(l.cfg.Stages, st)
	}
	return st
}

// meta decodes one meta-argument into st.
func (l *loader) meta(st *Stage, a *hcl.Attribute, dir string) {
	var diags hcl.Diagnostics
	switch a.Name {
	case "plugin":
		if st.Kind == core.KindReranker {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Rerankers are built-in",
				Detail:   fmt.Sprintf("The reranker %q cannot run as a plugin: rerankers weigh what the engine knows of the project (roles, notes, matches), which the plugin protocol does not carry. Remove plugin, or declare a ranker plugin instead.", st.Name),
				Subject:  a.Range.Ptr(),
			})
			break
		}
		var p string
		if diags = decodeExpr(a.Expr, &p); !diags.HasErrors() {
			if p == "" {
				// An explicit empty plugin brings back the built-in.
				st.Plugin, st.PluginRange = "", nil
				break
			}
			st.Plugin, st.PluginRange = resolvePlugin(p, dir), a.Range.Ptr()
		}
	case "enabled":
		diags = decodeExpr(a.Expr, &st.Enabled)
	case "timeout":
		var s string
		if diags = decodeExpr(a.Expr, &s); !diags.HasErrors() {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				diags = diags.Append(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid timeout",
					Detail:   fmt.Sprintf("%q is not a positive duration. Write it like \"500ms\", \"10s\" or \"2m\".", s),
					Subject:  a.Expr.Range().Ptr(),
				})
				break
			}
			st.Timeout = d
		}
	case "weight":
		if diags = decodeExpr(a.Expr, &st.Weight); !diags.HasErrors() && st.Weight < 0 {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid weight",
				Detail:   "A ranker's weight scales its vote in the fusion and cannot be negative. Use 0 to mute it or enabled = false to switch it off.",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
	case "report_weight":
		if diags = decodeExpr(a.Expr, &st.ReportWeight); !diags.HasErrors() && (st.ReportWeight < 0 || st.ReportWeight > 1) {
			diags = diags.Append(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid report_weight",
				Detail:   "report_weight scales a ranker's vote for bug reports and must be between 0 (no vote) and 1 (its own weight).",
				Subject:  a.Expr.Range().Ptr(),
			})
		}
	case "languages":
		diags = decodeExpr(a.Expr, &st.Languages)
	}
	l.diags = append(l.diags, diags...)
}

func resolvePlugin(p, dir string) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[2:])
		}
	}
	if !strings.ContainsRune(p, '/') || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// finish decodes the merged sections and checks the pipeline as a whole.
func (l *loader) finish() {
	if l.vault != nil {
		l.diags = append(l.diags, decodeExpr(l.vault.Expr, &l.cfg.Vault)...)
	}
	if l.language != nil {
		l.decodeLanguage(l.language)
	}
	l.decodeSections()
	var fusers []*Stage
	for _, st := range l.cfg.Stages {
		if st.Enabled && st.Kind == core.KindFuser {
			fusers = append(fusers, st)
		}
	}
	switch {
	case len(fusers) == 0:
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "No fuser enabled",
			Detail:   "The retrieve pipeline needs exactly one enabled fuser block. Enable one, for example fuser \"fuse.rrf\" {}.",
		})
	case len(fusers) > 1:
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "More than one fuser enabled",
			Detail:   fmt.Sprintf("Fusers %q and %q are both enabled; the retrieve pipeline takes one. Set enabled = false on the one you do not want.", fusers[0].Name, fusers[1].Name),
			Subject:  fusers[1].DeclRange.Ptr(),
		})
	}
}

// decodeLanguage reads the language setting into Config.Language: a
// language rubi speaks, as a BCP 47 tag ("ja", "pt-BR") or a locale name
// ("fr_FR.UTF-8").
func (l *loader) decodeLanguage(a *hcl.Attribute) {
	var s string
	diags := decodeExpr(a.Expr, &s)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return
	}
	lang, ok := messages.Parse(s)
	if !ok {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported language",
			Detail: fmt.Sprintf("%q is not a language rubi speaks. Use one of %s (a tag such as \"pt-BR\" works too), or leave language out to follow the locale (LC_ALL, LC_MESSAGES, LANG).",
				s, messages.Codes()),
			Subject: a.Expr.Range().Ptr(),
		})
		return
	}
	l.cfg.Language = lang.String()
}

// Settings decodes the stage's own attributes against the schema it
// publishes and returns them as the JSON object Setup.Settings carries.
//
// The built-in defaults' settings of a stage are the built-in's: a plugin
// that takes the stage's name over (plugin = in a later layer) gets those
// it accepts, and the others are left out, not blamed on lines of the
// defaults the user never wrote.
func (st *Stage) Settings(schema core.Schema) (json.RawMessage, hcl.Diagnostics) {
	if k := st.settings; k != nil && st.Plugin == "" && k.schema == schemaKey(schema) {
		return k.raw, nil
	}
	attrs := st.Attrs
	if st.Plugin != "" {
		attrs = make(map[string]*hcl.Attribute, len(st.Attrs))
		for name, a := range st.Attrs {
			if a.Range.Filename != DefaultsName || fits(a, schema) {
				attrs[name] = a
			}
		}
	}
	raw, diags := decodeValues(attrs, schema, fmt.Sprintf("%s %q", st.Kind, st.Name))
	for _, attr := range schema {
		if _, ok := st.Attrs[attr.Name]; attr.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The %s %q needs %s (%s). Add %s = ... to its block.", st.Kind, st.Name, attr.Name, attr.Type, attr.Name),
				Subject:  st.DeclRange.Ptr(),
			})
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return raw, diags
}

// fits reports whether a's value is one schema takes under a's name.
func fits(a *hcl.Attribute, schema core.Schema) bool {
	attr, ok := schema.Lookup(a.Name)
	if !ok {
		return false
	}
	ty, err := attr.CtyType()
	if err != nil {
		return false
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return false
	}
	_, err = convert.Convert(v, ty)
	return err == nil
}

// decodeExpr evaluates expr (no variables, no functions) into target, a
// pointer, converting the value to target's type as HCL converts values.
func decodeExpr(expr hcl.Expression, target any) hcl.Diagnostics {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	ty, err := gocty.ImpliedType(target)
	if err == nil {
		v, err = convert.Convert(v, ty)
	}
	if err == nil {
		err = gocty.FromCtyValue(v, target)
	}
	if err != nil {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsuitable value type",
			Detail:   "Unsuitable value: " + err.Error(),
			Subject:  expr.StartRange().Ptr(),
			Context:  expr.Range().Ptr(),
		})
	}
	return diags
}

// checkValues checks attrs against schema (names and types, each error at
// its own line) and returns the values, converted to the schema's types.
// Core sections and stage settings both go through here, so their
// mistakes read the same.
func checkValues(attrs map[string]*hcl.Attribute, schema core.Schema, where string) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vals := map[string]cty.Value{}
	for _, a := range sortedAttrs(attrs) {
		attr, ok := schema.Lookup(a.Name)
		if !ok {
			diags = append(diags, unknownAttr(a, where, schema))
			continue
		}
		ty, err := attr.CtyType()
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid plugin schema",
				Detail:   fmt.Sprintf("%s publishes an unreadable schema (%s). Report it to the plugin's author.", where, err),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		v, vd := a.Expr.Value(nil)
		diags = append(diags, vd...)
		if vd.HasErrors() {
			continue
		}
		cv, err := convert.Convert(v, ty)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Incorrect attribute value type",
				Detail:   fmt.Sprintf("%s expects %s: %s. Change the value to a %s.", a.Name, attr.Type, err, attr.Type),
				Subject:  a.Expr.Range().Ptr(),
			})
			continue
		}
		if !cv.IsNull() {
			vals[a.Name] = float64Numbers(cv)
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return vals, diags
}

// decodeValues is checkValues with the values encoded as a JSON object,
// the form a stage receives its settings in.
func decodeValues(attrs map[string]*hcl.Attribute, schema core.Schema, where string) (json.RawMessage, hcl.Diagnostics) {
	vals, diags := checkValues(attrs, schema, where)
	if diags.HasErrors() {
		return nil, diags
	}
	obj := cty.EmptyObjectVal
	if len(vals) > 0 {
		obj = cty.ObjectVal(vals)
	}
	raw, err := ctyjson.Marshal(obj, obj.Type())
	if err != nil {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot encode settings", Detail: err.Error()})
	}
	return raw, diags
}

// float64Numbers gives the numbers in v float64 precision. HCL reads a
// number with 512 bits of it, and writing such a number as JSON (finding
// its shortest decimal form) cost more than the rest of loading the
// configuration; settings are float64s and ints once decoded anyway.
func float64Numbers(v cty.Value) cty.Value {
	out, err := cty.Transform(v, func(_ cty.Path, v cty.Value) (cty.Value, error) {
		if v.Type() != cty.Number || !v.IsKnown() || v.IsNull() {
			return v, nil
		}
		f, _ := v.AsBigFloat().Float64()
		return cty.NumberFloatVal(f), nil
	})
	if err != nil {
		return v
	}
	return out
}

// SettingDiagnostic turns a stage's rejection of a setting into a
// diagnostic at the line that set it.
func (st *Stage) SettingDiagnostic(err *core.SettingError) *hcl.Diagnostic {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid setting for %s %q", st.Kind, st.Name),
		Detail:   err.Message,
		Subject:  st.DeclRange.Ptr(),
	}
	if a, ok := st.Attrs[err.Setting]; ok && a.Range.Filename == DefaultsName && st.DeclRange.Filename != DefaultsName {
		// The built-in defaults' value, rejected by the stage a later
		// layer set up: the fix is in that layer's block.
		d.Summary = fmt.Sprintf("Invalid %s for %s %q", err.Setting, st.Kind, st.Name)
		d.Detail = fmt.Sprintf("%s: %s (rubi's built-in default was rejected; set %s in this block)", err.Setting, err.Message, err.Setting)
	} else if ok {
		d.Summary = fmt.Sprintf("Invalid %s for %s %q", err.Setting, st.Kind, st.Name)
		d.Subject = a.Expr.Range().Ptr()
	} else if err.Setting != "" {
		d.Detail = fmt.Sprintf("%s: %s (the stage's default value was rejected; set %s in this block)", err.Setting, err.Message, err.Setting)
	}
	if !strings.HasSuffix(d.Detail, ".") {
		d.Detail += "."
	}
	return d
}

func unknownAttr(a *hcl.Attribute, where string, schema core.Schema) *hcl.Diagnostic {
	names := make([]string, 0, len(schema))
	for _, s := range schema {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	detail := fmt.Sprintf("An argument named %q is not expected in %s.", a.Name, where)
	if s := Suggest(a.Name, names); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	} else if len(names) > 0 {
		detail += " Valid arguments are: " + strings.Join(names, ", ") + "."
	} else {
		detail += " It takes no arguments; remove this one."
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: detail, Subject: a.NameRange.Ptr()}
}

func sortedAttrs(attrs map[string]*hcl.Attribute) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}

// Stage returns the enabled stage of kind called name, or nil.
func (c *Config) Stage(kind core.Kind, name string) *Stage {
	for _, st := range c.Stages {
		if st.Kind == kind && st.Name == name && st.Enabled {
			return st
		}
	}
	return nil
}

// Enabled returns the enabled stages of kind in declaration order.
func (c *Config) Enabled(kind core.Kind) []*Stage {
	var out []*Stage
	for _, st := range c.Stages {
		if st.Kind == kind && st.Enabled {
			out = append(out, st)
		}
	}
	return out
}

// Fingerprint identifies st's configuration: its name, its plugin (path,
// size and modification time of the executable) and the source text of
// each of its settings. The index rebuilds a ranker whose fingerprint
// changed; computing it starts nothing.
func (c *Config) Fingerprint(st *Stage) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", st.Kind, st.Name, st.Plugin)
	if st.Plugin == "" {
		// A built-in changes with rubi itself.
		fmt.Fprintf(h, "%s\x00", rubi.Version)
	} else {
		if path, err := FindPlugin(st.Plugin); err == nil {
			if fi, err := os.Stat(path); err == nil {
				fmt.Fprintf(h, "%d\x00%d\x00", fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	for _, a := range sortedAttrNames(st.Attrs) {
		r := st.Attrs[a].Expr.Range()
		var src []byte
		if f, ok := c.Files[r.Filename]; ok && r.End.Byte <= len(f.Bytes) {
			src = f.Bytes[r.Start.Byte:r.End.Byte]
		}
		fmt.Fprintf(h, "%s=%s\x00", a, src)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func sortedAttrNames(attrs map[string]*hcl.Attribute) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
