package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
)

func newIndexCmd(g *globals) *cobra.Command {
	var full bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update the project's index (.rubi/index/)",
		Long: `index walks the project, parses what changed since the last run, resolves
imports, computes centrality and updates every ranker. Unchanged files are
not even opened, so a re-index costs about one directory walk. Notes still
anchored to whole files by an older rubi are then anchored to their code
as it was when they were written (see rubi confirm --migrate).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// One run, then exit: index files stay mapped instead of
			// being copied (pipeline.Options.OneShot).
			g.oneShot = true
			eng, err := g.stageEngine()
			if err != nil {
				return err
			}
			defer eng.Close()
			stats, err := g.index(cmd.Context(), eng, full)
			if err != nil {
				return g.reportError(err)
			}
			// Notes anchored to whole files by an older rubi are anchored to
			// their code, as it was then (rubi confirm --migrate): once, as
			// the index now has the symbols of today's files.
			migrated, err := g.migrateAnchors(cmd.Context(), eng)
			if err != nil {
				fmt.Fprintln(g.stderr, err)
			}
			if g.JSON {
				g.printMigrated(g.stderr, migrated)
				return writeJSON(g.stdout, stats)
			}
			printIndexStats(g.stdout, g.lang(), stats)
			g.printMigrated(g.stdout, migrated)
			return nil
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "re-read and re-parse every file and rebuild every ranker")
	return cmd
}

func printIndexStats(w io.Writer, l messages.Lang, s *pipeline.IndexStats) {
	line := func(k messages.Key, args ...any) { fmt.Fprintln(w, l.Format(k, args...)) }
	line(messages.CLIIndexed, s.Files.Indexed, s.Root, s.DurationMS)
	line(messages.CLIIndexCounts, s.Files.Seen, s.Parsed, s.Unchanged, s.Removed)
	if len(s.Files.Skipped) > 0 {
		line(messages.CLIIndexSkipped, countsLine(s.Files.Skipped))
	}
	if len(s.Languages) > 0 {
		line(messages.CLIIndexLanguages, countsLine(s.Languages))
	}
	line(messages.CLIIndexGraph, s.Symbols, s.Imports, s.Edges, s.Modules)
	if s.Sourced > 0 {
		line(messages.CLIIndexSourced, s.Sourced)
	}
	if len(s.Resolution.Resolved) > 0 {
		line(messages.CLIIndexResolved, countsLine(s.Resolution.Resolved))
	}
	if len(s.Resolution.Unresolved) > 0 {
		line(messages.CLIIndexUnresolved, countsLine(s.Resolution.Unresolved))
	}
	if ref := s.References; ref.State != "" && ref.State != "off" {
		line(messages.CLIIndexReferences, ref.Found, ref.State, ref.Resolved, ref.MS)
	}
	var rankers []string
	for name, state := range s.Rankers {
		rankers = append(rankers, name+" "+state)
	}
	sort.Strings(rankers)
	if len(rankers) > 0 {
		line(messages.CLIIndexRankers, strings.Join(rankers, ", "))
	}
	for _, warn := range s.Warnings {
		line(messages.CLIIndexWarning, warn)
	}
}

// countsLine prints a count map largest first: "go 40, python 3".
func countsLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
