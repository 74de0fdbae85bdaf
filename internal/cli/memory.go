package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/when"
	"github.com/rubi-dev/rubi/internal/flags"
)

func newMemoryCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "Save, read and search the memory of conversations",
		Long: `memory keeps chunks of conversation in .rubi/sessions/ (git-ignored): the
records the hooks write before a compaction, and what you or an agent save —
a session log, a debugging session. Each chunk has a type (snapshot,
session, debug), a summary, tags, its project, domain and ticket, and the
files, versions, modules, tickets and functions it names. Filters apply
before a search, so a filtered search never misses a match.`,
	}
	cmd.AddCommand(newMemorySaveCmd(g), newMemoryPeekCmd(g), newMemoryGrepCmd(g), newMemoryListCmd(g), newRetentionCmd(g))
	return cmd
}

// memoryStore opens the project's conversation memory with its limits
// from rubi.hcl.
func (g *globals) memoryStore() (*memory.Store, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	s, _ := memory.Configured(cfg.Root, cfg.Memory)
	return s, nil
}

// memoryPolicy is rubi.hcl's retention policy.
func (g *globals) memoryPolicy() (memory.Policy, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return memory.Policy{}, err
	}
	_, p := memory.Configured(cfg.Root, cfg.Memory)
	return p, nil
}

func newMemorySaveCmd(g *globals) *cobra.Command {
	var in memory.Input
	var created string
	cmd := &cobra.Command{
		Use:   "save [FILE|-]",
		Short: "Save a chunk from a file or standard input",
		Example: `  rubi memory save --type debug --ticket SHOP-42 --tag checkout notes.md
  git log -p -3 | rubi memory save --summary "the last three commits"
  rubi memory save --session call-0508 --created 2023-05-08T13:56:00Z turn.txt`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			if in.Created, err = when.At(created); err != nil {
				return fmt.Errorf("--created: %w: give when it was said, e.g. --created 2023-05-08 or --created 2023-05-08T13:56:00Z, or leave it out for now", err)
			}
			switch {
			case len(args) == 1 && args[0] != "-":
				data, err = os.ReadFile(args[0])
			case len(args) == 0:
				if err := g.needInput(cmd, "the chunk to save", `give a file instead, e.g. rubi memory save notes.md, or pipe the chunk in: git log -p -3 | rubi memory save`); err != nil {
					return err
				}
				data, err = io.ReadAll(io.LimitReader(g.stdin, memory.DefaultMaxSize+1))
			default:
				data, err = io.ReadAll(io.LimitReader(g.stdin, memory.DefaultMaxSize+1))
			}
			if err != nil {
				return err
			}
			in.Content = string(data)
			if err := g.inProject(); err != nil {
				return err
			}
			s, err := g.memoryStore()
			if err != nil {
				return err
			}
			saved, err := s.Save(cmd.Context(), in)
			if err != nil {
				return err
			}
			if !saved.Duplicate {
				eng, err := g.engine()
				if err != nil {
					return err
				}
				g.indexWritten(cmd.Context(), eng)
				eng.Close()
			}
			if g.JSON {
				return writeJSON(g.stdout, saved)
			}
			if saved.Duplicate {
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIDuplicate, saved.ID))
			} else {
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLISaved, saved.ID))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Type, "type", "", "snapshot, session or debug (default session)")
	f.StringVar(&in.Summary, "summary", "", "one line on what it is (default: its first line)")
	f.StringSliceVar(&in.Tags, "tag", nil, "tags (repeatable or comma-separated)")
	f.StringVar(&in.Project, "project", "", "project (default: the project folder's name)")
	f.StringVar(&in.Domain, "domain", "", "domain, such as payments or auth")
	f.StringVar(&in.Ticket, "ticket", "", "ticket, such as SHOP-42")
	f.StringVar(&in.Session, "session", "", "the agent session it comes from; its chunks are kept in the order they are saved")
	f.StringVar(&created, "created", "", "when it was said, for a conversation imported with its dates: a date (2023-05-08) or an RFC 3339 time (default: now)")
	return cmd
}

func newMemoryPeekCmd(g *globals) *cobra.Command {
	var lines string
	cmd := &cobra.Command{
		Use:     "peek ID",
		Short:   "Print a chunk, or some of its lines",
		Example: `  rubi memory peek 20261129-153000-1a2b3c4d --lines 40:80`,
		Args:    argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			from, to, err := lineRange(lines)
			if err != nil {
				return err
			}
			s, err := g.memoryStore()
			if err != nil {
				return err
			}
			text, total, err := s.Peek(cmd.Context(), args[0], from, to)
			if err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, struct {
					ID    string `json:"id"`
					From  int    `json:"from"`
					Lines int    `json:"lines"`
					Text  string `json:"text"`
				}{args[0], max(from, 1), total, text})
			}
			fmt.Fprintln(g.stdout, text)
			return nil
		},
	}
	cmd.Flags().StringVar(&lines, "lines", "", "FROM:TO, 1-based and inclusive (40:80, 40:, :20)")
	return cmd
}

// lineRange reads FROM:TO; either side may be empty.
func lineRange(s string) (from, to int, err error) {
	if s == "" {
		return 1, 0, nil
	}
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		b = a
	}
	parse := func(v string, def int) (int, error) {
		if v = strings.TrimSpace(v); v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("--lines %q: use FROM:TO with line numbers from 1", s)
		}
		return n, nil
	}
	if from, err = parse(a, 1); err != nil {
		return 0, 0, err
	}
	to, err = parse(b, 0)
	return from, to, err
}

// memoryFilter is the filter flags of grep and list.
type memoryFilter struct {
	f            memory.Filter
	since, until string
}

func (m *memoryFilter) flags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&m.since, "since", "", "created on or after: a date (2026-11-01), a time or an age (7d)")
	f.StringVar(&m.until, "until", "", "created on or before: a date (the whole day), a time or an age")
	f.StringVar(&m.f.Project, "project", "", "only this project")
	f.StringVar(&m.f.Domain, "domain", "", "only this domain")
	f.StringVar(&m.f.Type, "type", "", "only this type: snapshot, session, debug")
	f.StringVar(&m.f.Session, "session", "", "only this agent session")
	f.StringSliceVar(&m.f.Tags, "tag", nil, "only chunks with this tag (repeatable: with all of them)")
	f.StringVar(&m.f.Entity, "entity", "", "only chunks naming this file, version, module, ticket or function (any case)")
}

func (m *memoryFilter) resolve() (memory.Filter, error) {
	now := time.Now()
	var err error
	if m.f.Since, err = when.Since(m.since, now); err != nil {
		return m.f, fmt.Errorf("--since: %w", err)
	}
	if m.f.Until, err = when.Until(m.until, now); err != nil {
		return m.f, fmt.Errorf("--until: %w", err)
	}
	return m.f, nil
}

func newMemoryGrepCmd(g *globals) *cobra.Command {
	var (
		o  memory.GrepOptions
		mf memoryFilter
	)
	cmd := &cobra.Command{
		Use:   "grep PATTERN",
		Short: "Search the chunks by regular expression, or by words with typos allowed",
		Example: `  rubi memory grep 'coupon|discount' --since 7d
  rubi memory grep --fuzzy "validaton recieve" --project shop`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.Filter, err = mf.resolve(); err != nil {
				return err
			}
			s, err := g.memoryStore()
			if err != nil {
				return err
			}
			res, err := s.Grep(args[0], o)
			if err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, res)
			}
			for _, m := range res.Matches {
				fmt.Fprintf(g.stdout, "%s:%d: %s\n", m.ID, m.Line, m.Text)
			}
			if res.Total > len(res.Matches) {
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIMoreMatches, res.Total-len(res.Matches)))
			}
			fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIMatches, res.Total, res.Chunks))
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.Fuzzy, "fuzzy", false, "match the pattern's words with typos allowed (one from 5 letters, two from 9)")
	f.IntVar(&o.MaxTypos, "typos", 0, "with --fuzzy: the edits a word may be away (default by length)")
	flags.SetExample(f, "typos", "1")
	f.IntVar(&o.Limit, "limit", 100, "matches shown at most")
	mf.flags(cmd)
	return cmd
}

func newMemoryListCmd(g *globals) *cobra.Command {
	var (
		mf    memoryFilter
		limit int
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the chunks, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := mf.resolve()
			if err != nil {
				return err
			}
			s, err := g.memoryStore()
			if err != nil {
				return err
			}
			all, err := s.List(f)
			if err != nil {
				return err
			}
			shown := all[:min(len(all), limit)]
			if g.JSON {
				return writeJSON(g.stdout, struct {
					Chunks []*memory.Chunk `json:"chunks"`
					Total  int             `json:"total"`
				}{shown, len(all)})
			}
			for _, c := range shown {
				state := ""
				if c.Archived {
					state = g.lang().Get(messages.CLIArchived)
				}
				fmt.Fprintf(g.stdout, "%s  %-8s %s  %s (%d lines%s)\n", c.ID, c.Type, c.Created.Local().Format("2006-01-02 15:04"), c.Summary, c.Lines, state)
			}
			if len(all) > len(shown) {
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIMore, len(all)-len(shown)))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 50, "chunks shown at most")
	mf.flags(cmd)
	return cmd
}

func newRetentionCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "retention preview|run|restore ID",
		Short: "Archive chunks unused for long, purge old archives, restore one",
		Long: `retention keeps the memory from growing forever, by the memory block of
rubi.hcl: a chunk unused (not read) for archive_after days is gzip'd into
.rubi/sessions/archive/ — still listed, found by its summary and tags, and
restored when read; an archive older than purge_after days is deleted,
logged in .rubi/sessions/retention.log without its content. Chunks tagged
with keep_tags, read keep_reads times, or naming one of keep_keywords are
kept. preview shows what run would do.`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := g.memoryStore()
			if err != nil {
				return err
			}
			switch {
			case args[0] == "restore" && len(args) == 2:
				if err := s.Restore(cmd.Context(), args[1]); err != nil {
					return err
				}
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIRestored, args[1]))
				return nil
			case (args[0] == "preview" || args[0] == "run") && len(args) == 1:
			default:
				return fmt.Errorf("use: rubi memory retention preview | run | restore ID")
			}
			p, err := g.memoryPolicy()
			if err != nil {
				return err
			}
			var plan *memory.Plan
			if args[0] == "run" {
				plan, err = s.Retain(cmd.Context(), p)
			} else {
				plan, err = s.Preview(p)
			}
			if err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, plan)
			}
			_, err = io.WriteString(g.stdout, plan.Text(args[0] == "run"))
			return err
		},
	}
	return cmd
}
