package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/internal/programs"
)

func newRegisterCmd(g *globals) *cobra.Command {
	var (
		in       knowledge.Input
		links    []string
		bodyFile string
	)
	cmd := &cobra.Command{
		Use:   "register",
		Short: "Store what was learned as knowledge nodes (.rubi/knowledge/)",
		Long: `register writes knowledge nodes: decisions, bugs, gotchas, concepts, howtos,
preferences, tasks, notes. Give one node with flags, or a JSON array of
nodes on standard input:

  [{"type": "gotcha", "title": "Coupon applied twice", "body": "...",
    "files": ["src/cupom.ts"], "symbols": ["applyCoupon"],
    "links": [{"rel": "about", "target": "Checkout"}],
    "supersedes": ["decision-old"], "importance": "high", "tags": ["cart"]}]

A node with an existing id, or the same title and type, is merged into it;
a near-duplicate is created and reported as "similar: ID". supersedes marks
the old nodes superseded (kept on disk, out of recall). Links resolve by
id, title, file path or symbol; unknown files, symbols and links are kept
and reported. Each node's result is printed: created, merged, superseded
or error, with its id and notes.`,
		Example: `  rubi register --type decision --title "Use JWT instead of session" \
      --body "Stateless: runs on edge runtimes." --file src/auth/login.ts --supersedes decision-session-cookie
  rubi register --type howto --title "Release a version" --body-file release.md
  rubi register --json < nodes.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var batch []knowledge.Input
			if nodeFlagGiven(cmd) {
				if err := g.readBody(cmd, &in.Body, bodyFile); err != nil {
					return err
				}
				for _, l := range links {
					rel, target, ok := strings.Cut(l, ":")
					if !ok {
						return fmt.Errorf("--link %q: write it as rel:target, e.g. about:concept-checkout", l)
					}
					in.Links = append(in.Links, knowledge.Link{Rel: rel, Target: target})
				}
				batch = []knowledge.Input{in}
			} else {
				if err := g.needInput(cmd, "a JSON array of nodes", `give one node with flags instead, e.g. rubi register --type gotcha --title "Coupon applied twice" --body "applyCoupon runs again on retry" (rubi register --help shows the JSON)`); err != nil {
					return err
				}
				if err := g.readJSON(&batch, "a JSON array of nodes"); err != nil {
					return err
				}
			}
			// A title alone, here, is a note whose text was left out.
			for i := range batch {
				batch[i].NeedsBody = true
			}
			if err := g.inProject(); err != nil {
				return err
			}
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			results, err := eng.Project().Knowledge().Register(cmd.Context(), batch)
			if err != nil {
				return err
			}
			g.indexWritten(cmd.Context(), eng)
			if g.JSON {
				if err := writeJSON(g.stdout, results); err != nil {
					return err
				}
			} else {
				for i, r := range results {
					printResult(g, r, nodeLabel(batch, i), registerHint)
				}
			}
			for _, r := range results {
				if r.Action == "error" {
					return &programs.ExitError{Code: 1}
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.ID, "id", "", "node id (a slug); default: TYPE-slug-of-title")
	f.StringVar(&in.Type, "type", "", "decision, bug, gotcha, concept, howto, preference, task or note")
	f.StringVar(&in.Title, "title", "", "the node's title")
	f.StringVar(&in.Body, "body", "", "the node's text (markdown)")
	f.StringVar(&bodyFile, "body-file", "", "read the node's text from `FILE` (\"-\": standard input)")
	f.StringArrayVar(&in.Files, "file", nil, "a project file the node is about (repeatable)")
	f.StringArrayVar(&in.Symbols, "symbol", nil, "a symbol the node is about (repeatable)")
	f.StringArrayVar(&links, "link", nil, "a typed link rel:target, target an id, title, file or symbol (repeatable)")
	f.StringArrayVar(&in.Supersedes, "supersedes", nil, "id or title of a node this one replaces (repeatable)")
	f.StringVar(&in.Importance, "importance", "", "critical, high, medium (default) or low")
	f.StringArrayVar(&in.Tags, "tag", nil, "a tag (repeatable)")
	f.BoolVar(&in.Personal, "personal", false, "store in the personal vault, for every project")
	return cmd
}

// nodeFlags are register's flags that give a node; without one, the
// nodes are read as JSON from standard input (--personal alone does not
// give one: it says where a node goes).
var nodeFlags = []string{"id", "type", "title", "body", "body-file", "file", "symbol", "link", "supersedes", "importance", "tag"}

// nodeFlagGiven reports whether register's command line gives a node.
func nodeFlagGiven(cmd *cobra.Command) bool {
	for _, name := range nodeFlags {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// readBody sets *body to the text of --body-file when it is given: the
// file (a regular file, at most a node's body long), or standard input
// for "-" (read even at a terminal: the user asked for it).
func (g *globals) readBody(cmd *cobra.Command, body *string, file string) error {
	if !cmd.Flags().Changed("body-file") {
		return nil
	}
	if cmd.Flags().Changed("body") {
		return errors.New("--body and --body-file both give the node's text: give one")
	}
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(g.stdin, knowledge.DefaultMaxBody+1))
	} else {
		data, err = store.ReadRegular(file, knowledge.DefaultMaxBody)
	}
	if err != nil {
		return fmt.Errorf("--body-file: %w", err)
	}
	*body = string(data)
	return nil
}

// registerHint is what rubi register adds to a node refused for want of
// a body: how to give one from the command line.
const registerHint = "give its text with --body TEXT, --body-file FILE, or a JSON array of nodes on standard input"

// readJSON decodes standard input into v; what says what was expected.
func (g *globals) readJSON(v any, what string) error {
	data, err := io.ReadAll(g.stdin)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("standard input: %s is expected: %w", what, err)
	}
	return nil
}

// actionNames are the register actions' words in the text form (--json
// keeps the actions as they are).
var actionNames = map[string]messages.Key{
	knowledge.ActionCreated:    messages.CLIActionCreated,
	knowledge.ActionMerged:     messages.CLIActionMerged,
	knowledge.ActionSuperseded: messages.CLIActionSuperseded,
}

// nodeLabel names the i-th node of a batch in a message: its id, else its
// title, else its place in the batch ("" for a batch of one).
func nodeLabel(batch []knowledge.Input, i int) string {
	in := batch[i]
	switch {
	case in.ID != "":
		return in.ID
	case in.Title != "":
		return strconv.Quote(in.Title)
	case len(batch) > 1:
		return fmt.Sprintf("node %d", i+1)
	}
	return ""
}

// printResult prints what register (or import) did with a node: a line
// on stdout for a node written, a "rubi:" line on stderr for one refused,
// naming it by its id, else by label; hint, when given, says how to give
// the body a node lacked.
func printResult(g *globals, r knowledge.Result, label, hint string) {
	l := g.lang()
	if r.Action == knowledge.ActionError {
		msg := r.Error
		if hint != "" && r.Error == knowledge.ErrNoBody.Error() {
			msg += "; " + hint
		}
		if name := cmp.Or(r.ID, label); name != "" {
			msg = name + ": " + msg
		}
		fmt.Fprintln(g.stderr, "rubi: "+store.EscapeLine(msg))
		return
	}
	action := r.Action
	if k, ok := actionNames[action]; ok {
		action = l.Get(k)
	}
	fmt.Fprintf(g.stdout, "%s: %s", action, r.ID)
	if r.Path != "" {
		fmt.Fprintf(g.stdout, " (%s)", displayPath(r.Path))
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(g.stdout, " — %s", strings.Join(r.Notes, "; "))
	}
	fmt.Fprintln(g.stdout)
}

// displayPath shows a path relative to the working directory when below it.
func displayPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := strings.CutPrefix(p, wd+string(os.PathSeparator)); ok {
			return rel
		}
	}
	return p
}

func newReadCmd(g *globals) *cobra.Command {
	var noRefresh bool
	cmd := &cobra.Command{
		Use:   "read TARGET",
		Short: "Read a knowledge node, a region of a file, or a symbol's definition",
		Long: `read prints a knowledge node by id or title ("personal:" reads the personal
vault) with what went stale since it was written, or a file region:
PATH:START-END, PATH:LINE or PATH, with line numbers, bounded, or else the
definition of a symbol the index knows: Name, Type.method, pkg.Func (a
module: Go package or folder, Python module), PATH::Name. A symbol with
several definitions lists them, best first. The index is refreshed before
a symbol is looked up, unless --no-refresh.`,
		Example: `  rubi read decision-use-jwt-instead-of-session
  rubi read "Coupon applied twice"
  rubi read core/host/host.go:150-190
  rubi read Flask.url_for
  rubi read store.ReadWithin
  rubi read core/store/within.go::ReadLeaf`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer func() { eng.Close() }()
			target := args[0]
			n, nodeErr := eng.Project().Knowledge().Get(target)
			if nodeErr == nil {
				stale := eng.Project().Knowledge().Stale(n)
				if g.JSON {
					return writeJSON(g.stdout, struct {
						*knowledge.Node
						StaleNotes []string `json:"stale,omitempty"`
					}{n, stale})
				}
				data, err := os.ReadFile(n.Path)
				if err != nil {
					return err
				}
				for _, s := range stale {
					fmt.Fprintf(g.stdout, "⚠ %s\n", text.Escape(s))
				}
				// A note the repository supplied is quoted data, not
				// rubi's word; none reaches the terminal raw.
				if n.Personal || eng.Project().Knowledge().Owned(n.Path) {
					_, err = io.WriteString(g.stdout, text.EscapeLines(string(data)))
				} else {
					_, err = fmt.Fprintf(g.stdout, "%s\n%s\n", g.lang().Get(messages.ReadRepo), text.Quote(strings.TrimRight(string(data), "\n")))
				}
				return err
			}
			region, err := knowledge.ReadRegion(eng.Config().Root, target)
			if err != nil {
				if !errors.Is(nodeErr, knowledge.ErrNotFound) {
					return err
				}
				if !pipeline.ParseSymbol(target) {
					return fmt.Errorf("%q is neither a knowledge node nor a readable file region: %v", target, err)
				}
				return g.readSymbol(cmd.Context(), &eng, target, err, noRefresh)
			}
			if g.JSON {
				return writeJSON(g.stdout, struct {
					Target string `json:"target"`
					Text   string `json:"text"`
				}{target, region})
			}
			fmt.Fprint(g.stdout, region)
			return nil
		},
	}
	cmd.Flags().BoolVar(&noRefresh, "no-refresh", false, "look a symbol up in the index as it is, without updating it first")
	return cmd
}

// readSymbol is read's last resort: target as a symbol, looked up in the
// index, refreshed first unless noRefresh (with an engine that may run
// the stages, which replaces *eng). pathErr says why target is no
// readable file.
func (g *globals) readSymbol(ctx context.Context, eng **pipeline.Engine, target string, pathErr error, noRefresh bool) error {
	if !noRefresh {
		staged, err := g.stageEngine()
		if err != nil {
			return err
		}
		(*eng).Close()
		*eng = staged
		if err := g.refresh(ctx, staged); err != nil {
			return err
		}
	}
	r, err := (*eng).ReadSymbol(target)
	if err != nil {
		return g.reportError(err)
	}
	l := g.lang()
	if !r.Found() {
		fmt.Fprintln(g.stderr, "rubi: "+r.NotFound(l, pathErr))
		return &programs.ExitError{Code: 1}
	}
	if g.JSON {
		return writeJSON(g.stdout, r)
	}
	fmt.Fprint(g.stdout, r.Render(l))
	return nil
}

func newForgetCmd(g *globals) *cobra.Command {
	var hard bool
	cmd := &cobra.Command{
		Use:   "forget ID",
		Short: "Retract a knowledge node (kept on disk, out of recall), or delete it",
		Args:  argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := eng.Project().Knowledge().Forget(args[0], hard); err != nil {
				return err
			}
			g.indexWritten(cmd.Context(), eng)
			what := messages.CLIRetracted
			if hard {
				what = messages.CLIDeleted
			}
			fmt.Fprintln(g.stdout, g.lang().Format(what, args[0]))
			return nil
		},
	}
	cmd.Flags().BoolVar(&hard, "hard", false, "delete the node's file instead of retracting it")
	return cmd
}

func newNodesCmd(g *globals) *cobra.Command {
	var (
		typ   string
		all   bool
		limit int
	)
	cmd := &cobra.Command{
		Use:   "nodes",
		Short: "List the knowledge nodes of the project and the personal vault",
		Long: `nodes lists the knowledge nodes, most important first (critical, high,
medium, low), the most recently updated first within a level. A list cut by
--limit says how many nodes there are in all.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			nodes, problems := eng.Project().Knowledge().Nodes()
			for _, p := range problems {
				fmt.Fprintf(g.stderr, "rubi: %s\n", p)
			}
			var out []*knowledge.Node
			for _, n := range nodes {
				if (typ == "" || n.Type == typ) && (all || n.Status == "active") {
					out = append(out, n)
				}
			}
			slices.SortFunc(out, knowledge.ByImportance)
			total := len(out)
			if limit > 0 && (!g.JSON || cmd.Flags().Changed("limit")) {
				out = out[:min(len(out), limit)]
			}
			if g.JSON {
				if out == nil {
					out = []*knowledge.Node{}
				}
				return writeJSON(g.stdout, out)
			}
			for _, n := range out {
				label := n.Type
				if n.Personal {
					label = "personal " + label
				}
				fmt.Fprintf(g.stdout, "%-40s %-18s %s", text.Escape(n.ID), label, text.Escape(n.Title))
				if n.Status != "active" {
					fmt.Fprintf(g.stdout, " [%s]", n.Status)
				}
				if n.Importance != "" && n.Importance != knowledge.ImportanceMedium {
					fmt.Fprintf(g.stdout, " (%s)", n.Importance)
				}
				fmt.Fprintln(g.stdout)
			}
			if total > len(out) {
				fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIMoreOf, total-len(out), total))
			}
			if len(out) == 0 {
				fmt.Fprintln(g.stdout, g.lang().Get(messages.CLINoNodes))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&typ, "type", "", "only nodes of this type")
	cmd.Flags().BoolVar(&all, "all", false, "include superseded and retracted nodes")
	cmd.Flags().IntVar(&limit, "limit", 50, "nodes shown at most (the JSON form lists all unless given)")
	return cmd
}

func newHandoffCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "handoff",
		Short: "Save or read where the work stands (.rubi/handoffs/)",
	}
	var h knowledge.Handoff
	save := &cobra.Command{
		Use:   "save",
		Short: "Save a handoff: goal, done, in progress, next steps, decisions, files",
		Long: `save writes .rubi/handoffs/<YYYY-MM-DD-HHMM>.md from flags, or from a JSON
object on standard input when no flag is given, and keeps it in the
conversation memory as a session chunk tagged handoff:
{"goal", "done": [], "in_progress": [], "next": [], "decisions": [], "files": [], "notes"},
or {"text": "## Goal\n…"}: markdown kept as written, every section in its
order (the fields are then read from it; given beside it, they must agree).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			given := false // a flag of the handoff's own; --root and the like do not count
			for _, name := range []string{"goal", "done", "in-progress", "next", "decision", "file", "notes"} {
				given = given || cmd.Flags().Changed(name)
			}
			if !given {
				if err := g.needInput(cmd, "a JSON handoff object", `give the handoff with flags instead, e.g. rubi handoff save --goal "fix the coupon applied twice" --done "found the retry" --next "write its test" (rubi handoff save --help shows the JSON)`); err != nil {
					return err
				}
				if err := g.readJSON(&h, "a JSON handoff object"); err != nil {
					return err
				}
			}
			if err := g.inProject(); err != nil {
				return err
			}
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			path, chunk, err := eng.Project().SaveHandoff(cmd.Context(), h)
			if err != nil {
				return err
			}
			g.indexWritten(cmd.Context(), eng)
			if g.JSON {
				return writeJSON(g.stdout, map[string]string{"path": path, "chunk": chunk.ID})
			}
			fmt.Fprintln(g.stdout, g.lang().Format(messages.CLIHandoffSaved, displayPath(path), chunk.ID))
			return nil
		},
	}
	f := save.Flags()
	f.StringVar(&h.Goal, "goal", "", "what the session is for")
	f.StringArrayVar(&h.Done, "done", nil, "something finished (repeatable)")
	f.StringArrayVar(&h.InProgress, "in-progress", nil, "something under way (repeatable)")
	f.StringArrayVar(&h.Next, "next", nil, "a next step (repeatable)")
	f.StringArrayVar(&h.Decisions, "decision", nil, "a decision taken (repeatable)")
	f.StringArrayVar(&h.Files, "file", nil, "a file touched (repeatable)")
	f.StringVar(&h.Notes, "notes", "", "anything else")
	last := &cobra.Command{
		Use:   "last",
		Short: "Print the newest handoff",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			// The user's own last handoff, else the repository's, quoted.
			h, err := eng.Project().Knowledge().LastOwnHandoff()
			if errors.Is(err, knowledge.ErrNotFound) {
				h, err = eng.Project().Knowledge().LastHandoff()
			}
			if err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, h)
			}
			data, err := os.ReadFile(h.Path)
			if err != nil {
				return err
			}
			if h.Own {
				_, err = io.WriteString(g.stdout, text.EscapeLines(string(data)))
			} else {
				_, err = fmt.Fprintf(g.stdout, "%s\n%s\n", g.lang().Get(messages.ReadRepo), text.Quote(strings.TrimRight(string(data), "\n")))
			}
			return err
		},
	}
	cmd.AddCommand(save, last)
	return cmd
}

func newSummaryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "summary TARGET [TEXT]",
		Short: "Write the curated summary of the map or of a module",
		Long: `summary stores a curated summary — TARGET is "map" (the level-0 map) or
"module:NAME" — that every re-index keeps and weaves into the map. TEXT may
be "-" (or absent) to read it from standard input; an empty text removes
the summary. Without TEXT on a terminal, the current summary is printed.`,
		Example: `  rubi summary map "A knowledge graph and context manager for AI coding agents."
  rubi summary module:core/host - < host-summary.md`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			target := args[0]
			var text string
			switch {
			case len(args) == 2 && args[1] != "-":
				text = args[1]
			case len(args) == 1 && g.stdinIsTerminal():
				current, _ := eng.Project().Knowledge().Summary(target)
				fmt.Fprint(g.stdout, current)
				return nil
			default:
				data, err := io.ReadAll(g.stdin)
				if err != nil {
					return err
				}
				text = string(data)
			}
			if err := g.inProject(); err != nil {
				return err
			}
			if err := eng.Project().Knowledge().WriteSummary(target, text); err != nil {
				return err
			}
			// The maps weave it in: rewrite them now, the code's index as
			// it stands.
			g.indexWritten(cmd.Context(), eng)
			fmt.Fprintln(g.stdout, g.lang().Format(messages.CLISummarySaved, target))
			return nil
		},
	}
}

func newImportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "import rubi-js DIR | rlm [DIR]",
		Short: "Convert the stores of the reference systems",
		Long: `import rubi-js DIR reads a .rubi/ folder of the Node.js version of rubi
(conhecimento/, keys tipo, arquivos, liga, substitui) and registers its
nodes in the current format (such nodes are also read as they are; import
rewrites them). "rubi import DIR" does the same.

import rlm [DIR] reads the context folder of the RLM memory server
(default ~/.claude/rlm/context): its insights (session_memory.json) become
knowledge nodes, with their importance and tags, and its chunks (index.json,
chunks/, archive/) conversation-memory chunks, archived ones archived. It
reports what it converted and what it skipped, and why; running it twice
adds nothing.`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case args[0] == "rlm":
				dir := ""
				if len(args) == 2 {
					dir = args[1]
				} else if home, err := os.UserHomeDir(); err == nil {
					dir = filepath.Join(home, ".claude", "rlm", "context")
				}
				return g.importRLM(cmd.Context(), dir)
			case args[0] == "rubi-js" && len(args) == 2:
				args = args[1:]
			case len(args) != 1:
				return errors.New("use: rubi import rubi-js DIR, or rubi import rlm [DIR]")
			}
			if err := g.inProject(); err != nil {
				return err
			}
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			results, err := knowledge.ImportLegacy(args[0], eng.Project().Knowledge())
			if err != nil {
				return err
			}
			g.indexWritten(cmd.Context(), eng)
			if g.JSON {
				return writeJSON(g.stdout, results)
			}
			for _, r := range results {
				printResult(g, r, "", "")
			}
			return nil
		},
	}
}

// rlmTypes maps the reference memory server's insight categories onto
// node types.
var rlmTypes = map[string]string{
	"decision": knowledge.TypeDecision, "preference": knowledge.TypePreference, "todo": knowledge.TypeTask,
	"bug": knowledge.TypeBug, "gotcha": knowledge.TypeGotcha, "concept": knowledge.TypeConcept, "howto": knowledge.TypeHowto,
}

// importRLM converts the RLM memory server's context folder: insights to
// nodes, chunks to chunks.
func (g *globals) importRLM(ctx context.Context, dir string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: not a folder; give the RLM context folder (~/.claude/rlm/context)", dir)
	}
	insights, err := memory.ReadRLMInsights(dir)
	if err != nil {
		return err
	}
	if err := g.inProject(); err != nil {
		return err
	}
	eng, err := g.engine()
	if err != nil {
		return err
	}
	defer eng.Close()
	var (
		batch    []knowledge.Input
		batchIDs []string // the insight each input comes from
	)
	for _, in := range insights {
		content := strings.TrimSpace(in.Content)
		if content == "" {
			continue
		}
		typ := rlmTypes[strings.ToLower(in.Category)]
		if typ == "" {
			typ = knowledge.TypeNote
		}
		title := content
		if i := strings.IndexByte(title, '\n'); i >= 0 {
			title = title[:i]
		}
		if r := []rune(title); len(r) > 100 {
			title = string(r[:99]) + "…"
		}
		node := knowledge.Input{Type: typ, Title: title, Body: content, Importance: strings.ToLower(in.Importance), Tags: in.Tags}
		if c := in.Created(); !c.IsZero() {
			node.Created = &c
		}
		batch = append(batch, node)
		batchIDs = append(batchIDs, in.ID)
	}
	var results []knowledge.Result
	if len(batch) > 0 {
		if results, err = eng.Project().Knowledge().Register(ctx, batch); err != nil {
			return err
		}
	}
	s, err := g.memoryStore()
	if err != nil {
		return err
	}
	rep, err := s.ImportRLM(ctx, dir)
	if err != nil {
		return err
	}
	g.indexWritten(ctx, eng)
	counts := map[string]int{}
	for i, r := range results {
		counts[r.Action]++
		if r.Action == knowledge.ActionError {
			rep.Skipped = append(rep.Skipped, memory.Skipped{What: "insight", ID: batchIDs[i], Why: r.Error})
		}
	}
	if g.JSON {
		return writeJSON(g.stdout, struct {
			Insights map[string]int   `json:"insights"`
			Chunks   *memory.Imported `json:"chunks"`
		}{counts, rep})
	}
	fmt.Fprintf(g.stdout, "insights: %d created, %d merged into existing nodes\n", counts[knowledge.ActionCreated]+counts[knowledge.ActionSuperseded], counts[knowledge.ActionMerged])
	fmt.Fprintf(g.stdout, "chunks: %d saved (%d of them archived), %d already stored\n", rep.Chunks, rep.Archived, rep.Duplicates)
	for _, sk := range rep.Skipped {
		fmt.Fprintf(g.stdout, "skipped %s %s: %s\n", sk.What, sk.ID, sk.Why)
	}
	return nil
}
