package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/owner"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/trust"
)

// A hook is a process per prompt and per tool call (and a command's
// refresh a few milliseconds when nothing changed), and parsing the
// configuration's files was the largest part of most hooks (a quarter of
// PostToolUse's CPU, the built-in defaults and the project's rubi.hcl
// each lexed whole). LoadCached keeps what Load made of the same files in
// the user's state folder, never in the project: a file there would let
// a repository choose its own settings past every check of Load. An entry
// is taken only for exactly the bytes it was made from (every layer's,
// the trust record's), the same working folder (diagnostics name files
// relative to it) and the same rubi; the ownership of the project's
// rubi.hcl is asked again each time. Only a load with no diagnostic and
// no plugin is kept: a plugin's trust reads the plugin's file, which is
// Load's to do every time.

// cacheFormat names the entries' format and the rubi that wrote them.
const cacheFormat = "rubi-config 5 "

// maxCacheEntry bounds a read of an entry: the built-in defaults' stages
// and settings are some tens of KB.
const maxCacheEntry = 4 << 20

// cacheEntry is one project's configuration as Load made it, written and
// read as cachecodec.go lays it out.
type cacheEntry struct {
	Key    string
	Config *Config
	// Safe is the user's safe_directories, for the ownership check.
	Safe    owner.Safe
	Configs []trust.File
	Stages  cachedStages
	// Files are the layers' display names and what each holds: "" for
	// the built-in defaults, else the layer's path.
	Files map[string]string
	// Names are the files the stages' ranges name.
	Names []string
}

// cachedStage is what of a Stage the Config's fields leave out: its attributes, as
// where their expressions are in their files, and its ranges. A range is
// its file (an index in cacheEntry.Names) and its start and end (line,
// column, byte).
type cachedStage struct {
	Attrs  []cachedAttr
	Decl   words
	Plugin words // nil when the stage names no plugin
	// Settings are the built-in's settings as Stage.Settings made them
	// from the attributes, for the schema Schema (schemaKey) names; nil
	// when none were kept.
	Settings json.RawMessage
	Schema   string
}

// cachedAttr is an attribute: its name, and its range, its name's and its
// expression's, each as cachedStage's ranges are.
type cachedAttr struct {
	Name   string
	Ranges words
}

// words are a range's numbers (rangeWords), or an attribute's three
// ranges'.
type words []int

// cachedStages are an entry's stages, in the order of its Config's.
type cachedStages []cachedStage

// rangeWords is how many numbers a range takes.
const rangeWords = 7

func (e *cacheEntry) packRange(r hcl.Range, names map[string]int) words {
	i, ok := names[r.Filename]
	if !ok {
		i = len(e.Names)
		names[r.Filename] = i
		e.Names = append(e.Names, r.Filename)
	}
	return words{i, r.Start.Line, r.Start.Column, r.Start.Byte, r.End.Line, r.End.Column, r.End.Byte}
}

func (e *cacheEntry) unpackRange(w words) (hcl.Range, bool) {
	if len(w) != rangeWords || w[0] < 0 || w[0] >= len(e.Names) {
		return hcl.Range{}, false
	}
	return hcl.Range{Filename: e.Names[w[0]], Start: hcl.Pos{Line: w[1], Column: w[2], Byte: w[3]}, End: hcl.Pos{Line: w[4], Column: w[5], Byte: w[6]}}, true
}

// LoadCached is LoadChecked through a cache of its results in dir
// (CacheDir; "" keeps none). A cache that cannot be read or written only
// costs the load it would have spared.
func LoadCached(opts Options, dir string) (*Config, error) {
	cfg, diags := LoadThroughCache(opts, dir)
	if diags.HasErrors() {
		return nil, &LoadError{Diags: diags}
	}
	return cfg, nil
}

// LoadThroughCache is Load through LoadCached's cache in dir, for a
// program that prints the diagnostics (a command): an entry made of
// exactly these files is a configuration that had none; otherwise Load
// runs, and its configuration is kept for the next when it has none.
func LoadThroughCache(opts Options, dir string) (*Config, hcl.Diagnostics) {
	if dir == "" {
		return Load(opts)
	}
	in, err := cacheInputs(opts)
	if err != nil {
		return Load(opts)
	}
	path := filepath.Join(dir, in.entryName())
	if cfg, ok := in.take(path); ok {
		return cfg, nil
	}
	cfg, diags := Load(opts)
	// Kept only when the files are still the bytes the key was made of:
	// one edited while Load read it would otherwise give its new content
	// to its old bytes.
	if len(diags) == 0 {
		if again, err := cacheInputs(opts); err == nil && again.key == in.key {
			in.keep(path, cfg)
		}
	}
	return cfg, diags
}

// inputs are what a load reads: every layer's bytes, the trust record's,
// and what names them.
type inputs struct {
	opts    Options
	root    string
	project string // the project's rubi.hcl, "" without a project layer
	user    string // the user's own config, "" for none
	record  string
	files   map[string][]byte // path → bytes; nil bytes: no such file
	key     string
}

func cacheInputs(opts Options) (*inputs, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	in := &inputs{opts: opts, root: root, files: map[string][]byte{}}
	if in.user = opts.UserConfig; in.user == "" {
		in.user = UserConfigPath()
	}
	if in.user == "-" {
		in.user = ""
	}
	if !opts.NoProject {
		in.project = filepath.Join(root, FileName)
	}
	if in.record = opts.TrustFile; in.record == "" {
		in.record = TrustPath()
	}
	wd, _ := os.Getwd()
	h := sha256.New()
	// The trust record names projects by their real folder.
	fmt.Fprintf(h, "%s%s\x00%x\x00%s\x00%s\x00%s\x00%t\x00", cacheFormat, rubi.Version, sha256.Sum256(rubi.DefaultConfig), root, trust.Root(root), wd, opts.NoProject)
	read := func(path string, within bool) error {
		var data []byte
		var err error
		if within {
			data, err = store.ReadWithin(root, path, MaxFileSize)
		} else {
			data, err = store.ReadRegular(path, MaxFileSize)
		}
		switch {
		case errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(h, "%s\x00-\x00", path)
		case err != nil:
			return err
		default:
			in.files[path] = data
			fmt.Fprintf(h, "%s\x00%d:%x\x00", path, len(data), sha256.Sum256(data))
		}
		return nil
	}
	for _, p := range []string{in.user, in.project} {
		if p != "" {
			if err := read(p, p == in.project); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range opts.Extra {
		if err := read(p, false); err != nil {
			return nil, err
		}
	}
	if in.record != "-" && in.record != "" {
		if err := read(in.record, false); err != nil {
			return nil, err
		}
	}
	in.key = hex.EncodeToString(h.Sum(nil))
	return in, nil
}

// entryName is the project's entry in the cache folder.
func (in *inputs) entryName() string {
	sum := sha256.Sum256([]byte(in.root))
	return hex.EncodeToString(sum[:12]) + ".bin"
}

// take returns the entry at path when it was made from these inputs.
func (in *inputs) take(path string) (*Config, bool) {
	data, err := store.ReadRegular(path, maxCacheEntry)
	if err != nil {
		return nil, false
	}
	e, err := decodeEntry(data)
	if err != nil || e.Key != in.key || len(e.Stages) != len(e.Config.Stages) {
		return nil, false
	}
	if in.project != "" && owner.File(in.project, e.Safe) != nil {
		return nil, false // Load warns of it, and reads the file no more
	}
	cfg := e.Config
	cfg.Files = map[string]*hcl.File{}
	for name, path := range e.Files {
		src := rubi.DefaultConfig
		if path != "" {
			var ok bool
			if src, ok = in.files[path]; !ok || src == nil {
				return nil, false
			}
		}
		cfg.Files[name] = &hcl.File{Bytes: src}
	}
	cfg.Trust.configs, cfg.safe = e.Configs, e.Safe
	for i, st := range cfg.Stages {
		c := e.Stages[i]
		if st == nil || st.Plugin != "" {
			return nil, false
		}
		decl, ok := e.unpackRange(c.Decl)
		if !ok {
			return nil, false
		}
		st.DeclRange, st.PluginRange = decl, nil
		if c.Plugin != nil {
			r, ok := e.unpackRange(c.Plugin)
			if !ok {
				return nil, false
			}
			st.PluginRange = &r
		}
		st.Attrs = make(map[string]*hcl.Attribute, len(c.Attrs))
		for _, a := range c.Attrs {
			if len(a.Ranges) != 3*rangeWords {
				return nil, false
			}
			whole, ok1 := e.unpackRange(a.Ranges[:rangeWords])
			name, ok2 := e.unpackRange(a.Ranges[rangeWords : 2*rangeWords])
			at, ok3 := e.unpackRange(a.Ranges[2*rangeWords:])
			f := cfg.Files[at.Filename]
			if !ok1 || !ok2 || !ok3 || f == nil || at.Start.Byte < 0 || at.End.Byte > len(f.Bytes) || at.Start.Byte > at.End.Byte {
				return nil, false
			}
			expr := &keptExpr{src: f.Bytes[at.Start.Byte:at.End.Byte], at: at}
			st.Attrs[a.Name] = &hcl.Attribute{Name: a.Name, Expr: expr, Range: whole, NameRange: name}
		}
		if c.Settings != nil {
			st.settings = &keptSettings{schema: c.Schema, raw: c.Settings}
		}
	}
	return cfg, true
}

// keptExpr is an attribute's expression as a cached load keeps it: where
// it is in its file, parsed when first asked for. A hook uses few of the
// attributes (their settings are kept made), and parsing each was a
// fifth of taking the entry. The bytes are those Load parsed (the entry's
// key), so the parse holds; were it to fail, the value says so.
type keptExpr struct {
	src  []byte
	at   hcl.Range
	once sync.Once
	expr hcl.Expression
}

func (e *keptExpr) parsed() hcl.Expression {
	e.once.Do(func() {
		expr, diags := hclsyntax.ParseExpression(e.src, e.at.Filename, e.at.Start)
		if diags.HasErrors() {
			expr = &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: e.at}
			e.expr = brokenExpr{expr, diags}
			return
		}
		e.expr = expr
	})
	return e.expr
}

func (e *keptExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return e.parsed().Value(ctx)
}
func (e *keptExpr) Variables() []hcl.Traversal { return e.parsed().Variables() }
func (e *keptExpr) Range() hcl.Range           { return e.at }
func (e *keptExpr) StartRange() hcl.Range      { return e.parsed().StartRange() }

// UnwrapExpression lets hcl's helpers see the expression itself.
func (e *keptExpr) UnwrapExpression() hcl.Expression { return e.parsed() }

// brokenExpr is an expression that did not parse: its value is the
// parser's diagnostics.
type brokenExpr struct {
	hcl.Expression
	diags hcl.Diagnostics
}

func (e brokenExpr) Value(*hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, e.diags
}

// keep writes cfg as the entry at path, unless it runs a plugin.
func (in *inputs) keep(path string, cfg *Config) {
	if slices.ContainsFunc(cfg.Stages, func(st *Stage) bool { return st.Plugin != "" }) {
		return
	}
	e := cacheEntry{Key: in.key, Config: cfg, Configs: cfg.Trust.configs, Safe: cfg.safe, Files: map[string]string{}}
	paths := map[string]string{DefaultsName: ""}
	for p := range in.files {
		paths[displayName(p)] = p
	}
	for name := range cfg.Files {
		p, ok := paths[name]
		if !ok {
			return // a layer read from elsewhere: nothing to check it by
		}
		e.Files[name] = p
	}
	names := map[string]int{}
	for _, st := range cfg.Stages {
		c := cachedStage{Decl: e.packRange(st.DeclRange, names)}
		if st.PluginRange != nil {
			c.Plugin = e.packRange(*st.PluginRange, names)
		}
		for _, name := range sortedAttrNames(st.Attrs) {
			a := st.Attrs[name]
			r := append(append(e.packRange(a.Range, names), e.packRange(a.NameRange, names)...), e.packRange(a.Expr.Range(), names)...)
			c.Attrs = append(c.Attrs, cachedAttr{Name: name, Ranges: r})
		}
		if b, ok := core.LookupBuiltin(st.Name); ok && b.Kind == st.Kind {
			schema := b.Factory().Info().Schema
			if raw, diags := st.Settings(schema); len(diags) == 0 {
				c.Settings, c.Schema = raw, schemaKey(schema)
			}
		}
		e.Stages = append(e.Stages, c)
	}
	data, err := encodeEntry(&e)
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o700) == nil && store.WriteDerived(path, data, 0o600) == nil {
		// The project's entry as a rubi before cache format 5 wrote it
		// (JSON), which no rubi reads now.
		os.Remove(strings.TrimSuffix(path, ".bin") + ".json")
	}
}

// CacheDir is where LoadCached keeps its entries: config/ in the user's
// state folder (StateDir), "" when there is none.
func CacheDir() string {
	if dir := StateDir(); dir != "" {
		return filepath.Join(dir, "config")
	}
	return ""
}

// StateDir is rubi's folder in the user's state folder: $XDG_STATE_HOME/rubi
// (an absolute one), else ~/.local/state/rubi; "" when there is no home to
// put it in. It is outside every project, so no repository can write it.
func StateDir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "rubi")
}
