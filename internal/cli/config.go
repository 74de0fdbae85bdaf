package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/programs"
)

func newConfigCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Inspect rubi's configuration",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate every configuration layer and print the resolved pipeline",
		Long: `check reads the built-in defaults, your personal config, the project's
rubi.hcl and any --config files, validates every stage's settings against
the schema it publishes (starting subprocess plugins to ask them), and
prints the pipeline rubi will run. Mistakes are reported as FILE:LINE with
a sentence on how to fix them, and the exit status is 1; so it is when a
configured plugin cannot start (rubi would run the built-in of its kind
instead).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := g.openedEngine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			resolved := resolvePipeline(eng)
			if g.JSON {
				if err := writeJSON(g.stdout, resolved); err != nil {
					return err
				}
			} else {
				printResolved(g.stdout, g.lang(), g.languageSource(), resolved)
			}
			if !resolved.ok() {
				// A plugin that cannot start is not a mistake of syntax,
				// but the pipeline is not the one configured.
				return &programs.ExitError{Code: 1}
			}
			return nil
		},
	})
	return cmd
}

// languageSource says, in the command's language, what chose it: the
// configuration's language setting, the locale variable, or neither.
func (g *globals) languageSource() string {
	l := g.lang()
	if g.cfg != nil && g.cfg.Language != "" {
		return l.Get(messages.CLILanguageFromConfig)
	}
	if _, from := messages.Locale(os.Getenv); from != "" {
		return from
	}
	return l.Get(messages.CLILanguageDefault)
}

// resolvedStage is one stage as `config check` shows it.
type resolvedStage struct {
	Kind       core.Kind `json:"kind"`
	Name       string    `json:"name"`
	Enabled    bool      `json:"enabled"`
	Subprocess bool      `json:"subprocess"`
	Path       string    `json:"path,omitempty"`
	Version    string    `json:"version,omitempty"`
	Timeout    string    `json:"timeout"`
	Weight     float64   `json:"weight,omitempty"`
	// ReportWeight scales a ranker's weight for a bug report.
	ReportWeight float64         `json:"report_weight,omitempty"`
	Languages    []string        `json:"languages,omitempty"`
	Settings     json.RawMessage `json:"settings,omitempty"`
	FellBack     string          `json:"fell_back_to,omitempty"`
}

type resolvedConfig struct {
	Root     string          `json:"root"`
	Layers   []string        `json:"layers"`
	Vault    string          `json:"vault"`
	Index    config.Index    `json:"index"`
	Budgets  config.Budgets  `json:"budgets"`
	Hooks    config.Hooks    `json:"hooks"`
	Memory   config.Memory   `json:"memory"`
	Stages   []resolvedStage `json:"stages"`
	Problems []string        `json:"problems,omitempty"`
}

func resolvePipeline(eng *pipeline.Engine) resolvedConfig {
	cfg := eng.Config()
	opened := map[string]host.Opened{}
	for _, o := range eng.Opened() {
		if _, seen := opened[o.Name]; !seen {
			opened[o.Name] = o
		}
	}
	rc := resolvedConfig{Root: cfg.Root, Layers: cfg.Layers, Vault: cfg.Vault, Index: cfg.Index, Budgets: cfg.Budgets, Hooks: cfg.Hooks, Memory: cfg.Memory, Problems: eng.Problems()}
	for _, st := range cfg.Stages {
		rs := resolvedStage{Kind: st.Kind, Name: st.Name, Enabled: st.Enabled, Path: st.Plugin, Subprocess: st.Plugin != "", Timeout: st.Timeout.String(), Languages: st.Languages}
		if st.Kind == core.KindRanker {
			rs.Weight, rs.ReportWeight = st.Weight, st.ReportWeight
		}
		if o, ok := opened[st.Name]; ok && st.Enabled {
			rs.Version, rs.FellBack = o.Version, o.FellBack
			if o.Path != "" {
				rs.Path = o.Path
			}
		}
		if b, ok := core.LookupBuiltin(st.Name); ok && st.Enabled && st.Plugin == "" {
			if settings, diags := st.Settings(b.Factory().Info().Schema); !diags.HasErrors() {
				rs.Settings = settings
			}
		}
		rc.Stages = append(rc.Stages, rs)
	}
	return rc
}

// ok reports a pipeline that runs as configured: no stage failed.
func (rc resolvedConfig) ok() bool {
	for _, s := range rc.Stages {
		if s.FellBack != "" {
			return false
		}
	}
	return len(rc.Problems) == 0
}

// printResolved prints the resolved configuration in l, which source chose.
// The settings are named as rubi.hcl names them.
func printResolved(w io.Writer, l messages.Lang, source string, rc resolvedConfig) {
	if rc.ok() {
		fmt.Fprintln(w, l.Format(messages.CLIConfigOK, rc.Root))
	} else {
		fmt.Fprintln(w, l.Format(messages.CLIConfigProblems, rc.Root))
	}
	fmt.Fprintf(w, "layers: %s\n", strings.Join(rc.Layers, " ← "))
	fmt.Fprintln(w, l.Format(messages.CLIConfigLanguage, l, source))
	fmt.Fprintf(w, "index: include %v, exclude %v, default excludes %v, max file size %d bytes\n",
		rc.Index.Include, rc.Index.Exclude, rc.Index.DefaultExcludes, rc.Index.MaxFileSize)
	fmt.Fprintf(w, "budgets: context %d, recall %d, map %d tokens\n", rc.Budgets.Context, rc.Budgets.Recall, rc.Budgets.Map)
	fmt.Fprintf(w, "hooks: compact at %d tokens, warn at %d%%, harvest after %d reads, read guard %d lines / %d bytes\n",
		rc.Hooks.CompactWindow, rc.Hooks.WarnPercent, rc.Hooks.HarvestMin, rc.Hooks.ReadGuardLines, rc.Hooks.ReadGuardBytes)
	fmt.Fprintf(w, "memory: chunks up to %d bytes, archived after %d days unused, purged %d days later; kept: tags %v, %d reads, keywords %v\n",
		rc.Memory.MaxChunkSize, rc.Memory.ArchiveAfter, rc.Memory.PurgeAfter, rc.Memory.KeepTags, rc.Memory.KeepReads, rc.Memory.KeepKeywords)
	fmt.Fprintf(w, "vault: %s\n", rc.Vault)
	fmt.Fprintln(w, "pipeline:")
	for _, s := range rc.Stages {
		where := "built-in"
		if s.Subprocess {
			where = "subprocess " + s.Path
		}
		if !s.Enabled {
			where = "disabled"
		}
		var extra []string
		if s.Version != "" {
			extra = append(extra, "v"+s.Version)
		}
		if s.Kind == core.KindRanker && s.Enabled {
			extra = append(extra, fmt.Sprintf("weight %g", s.Weight))
			if s.ReportWeight != 1 {
				extra = append(extra, fmt.Sprintf("report_weight %g", s.ReportWeight))
			}
		}
		if len(s.Languages) > 0 {
			extra = append(extra, "languages "+strings.Join(s.Languages, ", "))
		}
		if len(s.Settings) > 2 {
			extra = append(extra, string(s.Settings))
		}
		if s.FellBack != "" {
			extra = append(extra, "FAILED, using "+s.FellBack)
		}
		fmt.Fprintf(w, "  %-8s %-16s %s  %s\n", s.Kind, s.Name, where, strings.Join(extra, "  "))
	}
	for _, p := range rc.Problems {
		fmt.Fprintf(w, "problem: %s\n", p)
	}
}
