package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/messages"
)

// pluginRow is one stage `rubi plugins` lists.
type pluginRow struct {
	Kind        core.Kind `json:"kind"`
	Name        string    `json:"name"`
	Version     string    `json:"version"`
	Builtin     bool      `json:"builtin"`
	Path        string    `json:"path,omitempty"`
	InPipeline  bool      `json:"in_pipeline"`
	Description string    `json:"description,omitempty"`
	Problem     string    `json:"problem,omitempty"`
	// problem is Problem in the catalog, for the terminal.
	problem note
}

func newPluginsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "plugins",
		Short: "List the stages rubi can run: built-ins and the project's plugins",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Opening the pipeline makes subprocess plugins report their
			// version; a broken one is listed with its problem.
			eng, err := g.openedEngine(cmd.Context())
			if err != nil {
				return err
			}
			defer eng.Close()
			cfg := eng.Config()
			var rows []pluginRow
			inPipeline := map[string]bool{}
			for _, st := range cfg.Stages {
				if st.Enabled && st.Plugin == "" {
					inPipeline[st.Name] = true
				}
			}
			for _, b := range core.Builtins() {
				info := b.Factory().Info()
				rows = append(rows, pluginRow{Kind: b.Kind, Name: b.Name, Version: info.Version, Builtin: true, InPipeline: inPipeline[b.Name], Description: info.Description})
			}
			started := map[string]bool{}
			for _, o := range eng.Opened() {
				if !o.Subprocess {
					continue
				}
				started[o.Name] = true
				row := pluginRow{Kind: o.Kind, Name: o.Name, Version: o.Version, Path: o.Path, InPipeline: o.FellBack == ""}
				if o.FellBack != "" {
					row.problem = say(messages.PluginsFailed, o.FellBack)
					row.Problem = row.problem.in(messages.English)
				}
				rows = append(rows, row)
			}
			// A configured plugin that did not start is listed too: the
			// user named it, and it is not running.
			for _, st := range cfg.Stages {
				if st.Enabled && st.Plugin != "" && !started[st.Name] {
					problem := say(messages.PluginsNotStarted)
					rows = append(rows, pluginRow{Kind: st.Kind, Name: st.Name, Version: "-", Path: st.Plugin, Problem: problem.in(messages.English), problem: problem})
				}
			}
			for _, p := range eng.Problems() {
				rows = append(rows, pluginRow{Problem: p, problem: raw(p)})
			}
			if g.JSON {
				return writeJSON(g.stdout, rows)
			}
			printPlugins(g.stdout, g.lang(), rows)
			return nil
		},
	}
}

func printPlugins(w io.Writer, l messages.Lang, rows []pluginRow) {
	// A column is as wide as its heading, in every language.
	heads := []string{l.Get(messages.PluginsKind), l.Get(messages.PluginsName), l.Get(messages.PluginsVersion), l.Get(messages.PluginsUsed)}
	cols := []int{6, 16, 8, 4}
	for i, h := range heads {
		cols[i] = max(cols[i], messages.Columns(h))
	}
	fmt.Fprintf(w, "%s  %s  %s  %s  %s\n", messages.Pad(heads[0], cols[0]), messages.Pad(heads[1], cols[1]), messages.Pad(heads[2], cols[2]), messages.Pad(heads[3], cols[3]), l.Get(messages.PluginsRunsAs))
	for _, r := range rows {
		if r.Name == "" {
			fmt.Fprintln(w, l.Format(messages.PluginsProblem, r.problem.in(l)))
			continue
		}
		runs := l.Get(messages.PluginsBuiltin)
		if !r.Builtin {
			runs = l.Format(messages.PluginsSubprocess, r.Path)
		}
		used := l.Get(messages.PluginsNo)
		if r.InPipeline {
			used = l.Get(messages.PluginsYes)
		}
		fmt.Fprintf(w, "%s  %s  %s  %s  %s", messages.Pad(string(r.Kind), cols[0]), messages.Pad(r.Name, cols[1]), messages.Pad(r.Version, cols[2]), messages.Pad(used, cols[3]), runs)
		if !r.problem.isZero() {
			fmt.Fprintf(w, " (%s)", r.problem.in(l))
		}
		fmt.Fprintln(w)
	}
}
