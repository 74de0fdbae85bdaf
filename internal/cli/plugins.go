package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
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
					row.Problem = "failed; " + o.FellBack + " runs instead"
				}
				rows = append(rows, row)
			}
			// A configured plugin that did not start is listed too: the
			// user named it, and it is not running.
			for _, st := range cfg.Stages {
				if st.Enabled && st.Plugin != "" && !started[st.Name] {
					rows = append(rows, pluginRow{Kind: st.Kind, Name: st.Name, Version: "-", Path: st.Plugin, Problem: "did not start; the problem is below"})
				}
			}
			for _, p := range eng.Problems() {
				rows = append(rows, pluginRow{Problem: p})
			}
			if g.json {
				return writeJSON(g.stdout, rows)
			}
			printPlugins(g.stdout, rows)
			return nil
		},
	}
}

func printPlugins(w io.Writer, rows []pluginRow) {
	fmt.Fprintf(w, "%-6s  %-16s  %-8s  %-4s  %s\n", "KIND", "NAME", "VERSION", "USED", "RUNS AS")
	for _, r := range rows {
		if r.Name == "" {
			fmt.Fprintf(w, "problem: %s\n", r.Problem)
			continue
		}
		runs := "built-in (in-process)"
		if !r.Builtin {
			runs = "subprocess " + r.Path
		}
		used := "no"
		if r.InPipeline {
			used = "yes"
		}
		fmt.Fprintf(w, "%-6s  %-16s  %-8s  %-4s  %s", r.Kind, r.Name, r.Version, used, runs)
		if r.Problem != "" {
			fmt.Fprintf(w, " (%s)", r.Problem)
		}
		fmt.Fprintln(w)
	}
}
