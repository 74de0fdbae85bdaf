package config

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/trust"
)

// TrustPath returns the default trust record's path: trust.json beside
// the personal config (core/trust), in the user's own folder, where a
// repository cannot write it.
func TrustPath() string {
	p := UserConfigPath()
	if p == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(p), trust.FileName)
}

// Trust is what the trust of a project covers and what its absence left
// out, as Load found them.
type Trust struct {
	// Record is the trust record consulted ("" when none is).
	Record string `json:"record,omitempty"`
	// Stale says the user trusted the project once and a file the trust
	// covers changed since.
	Stale bool `json:"stale,omitempty"`
	// Error says the record could not be read: it trusts nothing.
	Error string `json:"error,omitempty"`
	// LeftOut are the stages that ran without their plugin because the
	// project is not trusted.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// Plugins are the plugins a trust covers: those the project's
	// configuration names or sets up, and those inside the project.
	Plugins []TrustedPlugin `json:"plugins,omitempty"`

	configs []trust.File // the configuration files inside the project, as read
}

// LeftOut is one stage an untrusted project's configuration wanted run by
// a plugin.
type LeftOut struct {
	Kind core.Kind `json:"kind"`
	Name string    `json:"name"`
	// Where is the file:line of the setting that needs the trust.
	Where string `json:"where"`
	// Instead is the built-in that runs in the plugin's place, "" when
	// the stage is left out.
	Instead string `json:"instead,omitempty"`
}

// TrustedPlugin is a plugin a project's trust covers.
type TrustedPlugin struct {
	Kind core.Kind `json:"kind"`
	Name string    `json:"name"`
	// Path is the executable, as found (or as written when it is not
	// found).
	Path string `json:"path"`
	// Inside says the executable lives inside the project: the trust
	// holds its hash.
	Inside bool   `json:"inside"`
	Where  string `json:"where"`
}

// noteLayer keeps the hash of a configuration file inside the project:
// the trust covers it.
func (l *loader) noteLayer(path, name string, src []byte, project bool) {
	if !project && !store.Inside(l.root, path) {
		return
	}
	l.projectLayers[name] = true
	l.cfg.Trust.configs = append(l.cfg.Trust.configs, trust.File{Path: trust.Root(path), SHA256: trust.Sum(src)})
}

// applyTrust sets Config.Trusted and, when the project is not trusted,
// takes out every plugin it needs the trust for: the stage's built-in of
// the same name runs in its place, or the stage is left out. The cost on
// a project without plugins is reading the record and the hashes of the
// configuration files already read; a plugin executable inside the
// project is hashed only when everything else matched.
func (l *loader) applyTrust(record string) {
	t := &l.cfg.Trust
	var gated []*Stage
	for _, st := range l.cfg.Stages {
		if !st.Enabled || st.Plugin == "" {
			continue
		}
		where := l.projectSetting(st)
		exe, err := FindPlugin(st.Plugin)
		if err != nil {
			exe = st.Plugin
		}
		inside := filepath.IsAbs(exe) && store.Inside(l.root, exe)
		if where == "" && !inside {
			continue // the user's own plugin, set up by the user alone
		}
		if where == "" {
			where = l.where(st.PluginRange, st.DeclRange)
		}
		gated = append(gated, st)
		t.Plugins = append(t.Plugins, TrustedPlugin{Kind: st.Kind, Name: st.Name, Path: exe, Inside: inside, Where: where})
	}
	if record != "-" && record != "" {
		t.Record = record
		l.cfg.Trusted = l.matches(record)
	}
	if l.cfg.Trusted || len(gated) == 0 {
		return
	}
	for i, st := range gated {
		lo := LeftOut{Kind: st.Kind, Name: st.Name, Where: t.Plugins[i].Where}
		if b, ok := core.LookupBuiltin(st.Name); ok && b.Kind == st.Kind {
			// The built-in of that name keeps running, with the settings
			// it knows; those meant for the plugin alone are dropped.
			schema := b.Factory().Info().Schema
			for name := range st.Attrs {
				if _, ok := schema.Lookup(name); !ok {
					delete(st.Attrs, name)
				}
			}
			st.Plugin, st.PluginRange = "", nil
			lo.Instead = st.Name
		} else {
			st.Enabled = false
		}
		t.LeftOut = append(t.LeftOut, lo)
	}
	// A pipeline needs its fuser, and the index its parser: the default
	// built-in of the kind comes back when the plugin left none.
	for _, d := range []struct {
		kind core.Kind
		name string
	}{{core.KindFuser, "fuse.rrf"}, {core.KindParser, "lang.regex"}} {
		if len(l.cfg.Enabled(d.kind)) > 0 {
			continue
		}
		st := l.stages[string(d.kind)+"/"+d.name]
		if st == nil {
			st = &Stage{Kind: d.kind, Name: d.name, Timeout: DefaultTimeout, Attrs: map[string]*hcl.Attribute{}}
			l.stages[string(d.kind)+"/"+d.name] = st
			l.cfg.Stages = append(l.cfg.Stages, st)
		}
		st.Enabled, st.Plugin, st.PluginRange = true, "", nil
		for i := range t.LeftOut {
			if t.LeftOut[i].Kind == d.kind && t.LeftOut[i].Instead == "" {
				t.LeftOut[i].Instead = d.name
			}
		}
	}
}

// matches reports whether the record trusts the project as it is now:
// its entry holds every configuration file inside the project that was
// read and every plugin inside it, with the same hashes.
func (l *loader) matches(record string) bool {
	t := &l.cfg.Trust
	rec, err := trust.Read(record)
	if err != nil {
		t.Error = err.Error()
		l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Trust record unreadable", Detail: err.Error() + "."})
		return false
	}
	entry := rec.Find(trust.Root(l.cfg.Root))
	if entry == nil {
		return false
	}
	for _, f := range t.configs {
		if sum, ok := entry.Config(f.Path); !ok || sum != f.SHA256 {
			t.Stale = true
			return false
		}
	}
	for _, p := range t.Plugins {
		if !p.Inside {
			continue
		}
		want, ok := entry.Plugin(trust.Root(p.Path))
		if !ok || !want.Matches(p.Path) {
			t.Stale = true
			return false
		}
	}
	return true
}

// projectSetting is the file:line of st's plugin or of its first setting
// when a configuration file inside the project wrote it, else "".
func (l *loader) projectSetting(st *Stage) string {
	if r := st.PluginRange; r != nil && l.projectLayers[r.Filename] {
		return l.where(r, st.DeclRange)
	}
	for _, a := range sortedAttrs(st.Attrs) {
		if l.projectLayers[a.Range.Filename] {
			return l.where(&a.Range, st.DeclRange)
		}
	}
	return ""
}

// where is r's file (relative to the project root when inside it, as the
// user would name it there) and line.
func (l *loader) where(r *hcl.Range, decl hcl.Range) string {
	if r == nil {
		r = &decl
	}
	name := r.Filename
	if abs, err := filepath.Abs(name); err == nil {
		if rel, err := filepath.Rel(l.root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			name = rel
		}
	}
	return fmt.Sprintf("%s:%d", name, r.Start.Line)
}

// TrustEntry is what `rubi trust` records of this project as it is now:
// the configuration files inside the project that were read and every
// plugin executable inside it, each with its hash.
func (c *Config) TrustEntry() (trust.Project, error) {
	p := trust.Project{Root: trust.Root(c.Root), TrustedAt: time.Now().UTC().Truncate(time.Second), Configs: append([]trust.File{}, c.Trust.configs...), Plugins: []trust.File{}}
	for _, pl := range c.Trust.Plugins {
		if !pl.Inside {
			continue
		}
		f, err := trust.PluginFile(pl.Path)
		if err != nil {
			return trust.Project{}, err
		}
		f.Path = trust.Root(pl.Path)
		p.Plugins = append(p.Plugins, f)
	}
	return p, nil
}

// Record writes p into the trust record this configuration was checked
// against (TrustPath unless Options.TrustFile chose another).
func (c *Config) Record(ctx context.Context, p trust.Project) error {
	if c.Trust.Record == "" {
		return fmt.Errorf("no trust record: the configuration was loaded without one")
	}
	return trust.Update(ctx, c.Trust.Record, func(r *trust.Record) error {
		r.Set(p)
		return nil
	})
}

// TrustProject trusts the project of opts as it is now, as `rubi trust`
// does, and returns the entry recorded.
func TrustProject(ctx context.Context, opts Options) (trust.Project, error) {
	cfg, diags := Load(opts)
	if diags.HasErrors() {
		return trust.Project{}, diags
	}
	p, err := cfg.TrustEntry()
	if err != nil {
		return trust.Project{}, err
	}
	return p, cfg.Record(ctx, p)
}

// LeftOutLine is the one line every entry point says when the project's
// plugins did not run for want of trust: what was left out and the
// command that trusts the project; "" when nothing was.
func (c *Config) LeftOutLine(l messages.Lang) string {
	if len(c.Trust.LeftOut) == 0 {
		return ""
	}
	items := make([]string, len(c.Trust.LeftOut))
	for i, lo := range c.Trust.LeftOut {
		items[i] = fmt.Sprintf("%s %s (%s)", lo.Kind, lo.Name, lo.Where)
	}
	key := messages.TrustLeftOut
	if c.Trust.Stale {
		key = messages.TrustLeftOutStale
	}
	return store.EscapeLine(l.Format(key, strings.Join(items, ", "), TrustCommand(c.Root)))
}

// TrustCommand is the command that trusts the project at root.
func TrustCommand(root string) string {
	return "rubi trust " + shellQuote(root)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
