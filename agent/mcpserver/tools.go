package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
	rubitext "github.com/rubi-dev/rubi/core/text"
)

// tools returns the tool definitions with their handlers. Descriptions say
// when to use a tool; every word is paid for in every message (Cost).
func (s *Server) tools() []mcpgo.ServerTool {
	ts := []mcpgo.ServerTool{
		{Tool: s.newTool("context",
			s.msg(messages.ToolContext),
			hints(true, false, true),
			mcp.WithString("query", mcp.Required()),
			mcp.WithArray("terms", mcp.WithStringItems(), mcp.Description(s.msg(messages.ToolContextTerms))),
			mcp.WithInteger("budget", mcp.Description(s.msg(messages.ToolContextBudget))),
			mcp.WithBoolean("explain", mcp.Description(s.msg(messages.ToolContextExplain))),
		), Handler: handle(s, s.contextTool)},
		{Tool: s.newTool("register",
			s.msg(messages.ToolRegister),
			hints(false, true, true),
			mcp.WithArray("nodes", mcp.Items(map[string]any{
				"type":     "object",
				"required": []string{"type", "title"},
				"properties": map[string]any{
					"type":    map[string]any{"type": "string", "enum": append(slices.Clip(knowledge.Types), summaryType)},
					"title":   str,
					"body":    str,
					"files":   strs,
					"symbols": strs,
					"links":   map[string]any{"type": "array", "items": str, "description": "rel:target, supersedes:ID"},
					// medium is the default: not worth its tokens.
					"importance": map[string]any{"type": "string", "enum": []string{"critical", "high", "low"}},
					"personal":   map[string]any{"type": "boolean"},
				},
			})),
			mcp.WithArray("retract", mcp.WithStringItems()),
			mcp.WithBoolean("hard"),
			mcp.WithArray("confirm", mcp.WithStringItems()),
		), Handler: handle(s, s.registerTool)},
		{Tool: s.newTool("read",
			s.readDescription(),
			hints(true, false, true),
			mcp.WithString("target", mcp.Required()),
		), Handler: handle(s, s.readTool)},
		s.memoryTool(),
	}
	return ts
}

// summaryType is register's node type for a curated summary: title
// "map" or "module:NAME", body the summary. It takes the place of an
// argument of its own (summaries, still accepted) in every message.
const summaryType = "summary"

// readDescription is read's description: a vault has no map to read.
func (s *Server) readDescription() string {
	if s.opts.VaultOnly {
		return s.msg(messages.ToolVaultRead)
	}
	return s.msg(messages.ToolRead)
}

// Schema fragments used more than once.
var (
	str  = map[string]any{"type": "string"}
	strs = map[string]any{"type": "array", "items": str}
)

// newTool builds a tool; with Multi, every tool takes a project argument.
func (s *Server) newTool(name, description string, opts ...mcp.ToolOption) mcp.Tool {
	opts = append([]mcp.ToolOption{mcp.WithDescription(description)}, opts...)
	if s.opts.Multi {
		opts = append(opts, s.projectOption())
	}
	return mcp.NewTool(name, opts...)
}

// projectOption is the project argument of every tool with Multi.
func (s *Server) projectOption() mcp.ToolOption {
	return mcp.WithString("project", mcp.Description(s.msg(messages.ToolProject)))
}

// hints sets a tool's annotations where they differ from what MCP
// assumes when one is missing (not read-only, destructive, not
// idempotent, open world): every tool says it reaches nothing beyond the
// project, the vault and (xray) the agents' logs on this machine; a
// read-only tool says so, and destructive and idempotent, which mean
// nothing for a read-only tool, are left out; a tool that writes says it
// is not destructive or is idempotent when it is. Every hint is paid for
// in every message (Cost).
func hints(readOnly, destructive, idempotent bool) mcp.ToolOption {
	a := mcp.ToolAnnotation{OpenWorldHint: mcp.ToBoolPtr(false)}
	if readOnly {
		a.ReadOnlyHint = mcp.ToBoolPtr(true)
	} else {
		if !destructive {
			a.DestructiveHint = mcp.ToBoolPtr(false)
		}
		if idempotent {
			a.IdempotentHint = mcp.ToBoolPtr(true)
		}
	}
	return mcp.WithToolAnnotation(a)
}

// projectArg is the project argument every tool takes with Multi.
type projectArg struct {
	Project string `json:"project,omitempty"`
}

func (a projectArg) projectName() string { return a.Project }

// handle binds a call's arguments, resolves its project and runs fn. Every
// failure becomes an error result the agent can act on; the handler never
// returns a protocol error.
func handle[A interface{ projectName() string }](s *Server, fn func(context.Context, *project, A) (*mcp.CallToolResult, error)) mcpgo.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args A
		if n := len(req.Params.RawArguments); n > maxArguments {
			return mcp.NewToolResultError(fmt.Sprintf("the arguments of %s are %d bytes; the limit is %d: send less at once", req.Params.Name, n, maxArguments)), nil
		}
		if err := req.BindArguments(&args); err != nil {
			return mcp.NewToolResultError(argumentError(req.Params.Name, err)), nil
		}
		if l, ok := any(args).(limited); ok {
			if err := l.limits(); err != nil {
				return mcp.NewToolResultError(req.Params.Name + ": " + err.Error()), nil
			}
		}
		if f, ok := any(args).(interface{ projectFree() bool }); ok && f.projectFree() {
			res, err := fn(ctx, nil, args)
			if err != nil {
				s.logger.Debug("tool error", "tool", req.Params.Name, "error", err)
				return mcp.NewToolResultError(errorText(err)), nil
			}
			return res, nil
		}
		p, ask, err := s.resolve(ctx, req, args.projectName())
		if ask != nil {
			return ask, nil
		}
		if err == nil {
			var res *mcp.CallToolResult
			writes := p.writes.Load()
			res, err = fn(ctx, p, args)
			if p.writes.Load() != writes {
				// What the call wrote is in the index before it returns:
				// the hooks and other servers read the same index.
				p.indexWritten(ctx, s.logger)
			}
			if err == nil {
				return res, nil
			}
		}
		s.logger.Debug("tool error", "tool", req.Params.Name, "error", err)
		return mcp.NewToolResultError(errorText(err)), nil
	}
}

// Limits on a call's arguments, checked before any work: a query is a
// question or a bug report, not a file dump; one call registers a batch,
// not a vault.
const (
	maxArguments  = 4 << 20
	maxQueryBytes = 256 << 10
	maxTerms      = 64
	maxWordBytes  = 1 << 10 // a term, a target, an id, a module, a tag
	maxBatch      = 500     // nodes, summaries or ids in one register call
)

// limited is a tool's arguments that check their own sizes.
type limited interface{ limits() error }

// tooLong says which argument is over which limit.
func tooLong(name string, n, limit int, unit string) error {
	return fmt.Errorf("%s is %d %s; the limit is %d", name, n, unit, limit)
}

func checkWords(name string, words []string, count int) error {
	if len(words) > count {
		return tooLong(name, len(words), count, "items")
	}
	for _, w := range words {
		if len(w) > maxWordBytes {
			return tooLong("an item of "+name, len(w), maxWordBytes, "bytes")
		}
	}
	return nil
}

func (a contextArgs) limits() error {
	if len(a.Query) > maxQueryBytes {
		return fmt.Errorf("%w: keep what tells the fault (the traceback, the error, the names)", tooLong("query", len(a.Query), maxQueryBytes, "bytes"))
	}
	if a.Budget > config.MaxBudget {
		return tooLong("budget", a.Budget, config.MaxBudget, "tokens")
	}
	return checkWords("terms", a.Terms, maxTerms)
}

func (a registerArgs) limits() error {
	if len(a.Nodes) > maxBatch || len(a.Summaries) > maxBatch {
		return tooLong("the batch", max(len(a.Nodes), len(a.Summaries)), maxBatch, "items")
	}
	if err := checkWords("confirm", a.Confirm, maxBatch); err != nil {
		return err
	}
	return checkWords("retract", a.Retract, maxBatch)
}

func (a readArgs) limits() error { return checkWords("target", []string{a.Target}, 1) }

// argumentError explains arguments that do not decode into the tool's
// input type.
func argumentError(tool string, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("argument %s of %s must be %s, not %s; send the arguments as the tool's input schema describes", te.Field, tool, jsonType(te.Type), te.Value)
	}
	return fmt.Sprintf("the arguments of %s are not a JSON object matching its input schema (%v); send them as the schema describes", tool, err)
}

// jsonType names a Go argument type as JSON Schema would.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array of objects"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return "an object"
}

// errorText is the message of an error result.
func errorText(err error) string {
	var de *pipeline.DiagnosticsError
	switch {
	case errors.As(err, &de):
		var b bytes.Buffer
		config.WriteDiagnostics(&b, de.Files, de.Diags)
		return "the project's configuration has errors; fix them and call again:\n" + strings.TrimSpace(b.String())
	case errors.Is(err, context.Canceled):
		return "the call was cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "the call ran out of time; try again"
	}
	return err.Error()
}

// rel shows a path relative to the project root when it is inside.
func (p *project) rel(path string) string {
	if r, err := filepath.Rel(p.root, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return path
}

type contextArgs struct {
	projectArg
	Query  string   `json:"query"`
	Terms  []string `json:"terms,omitempty"`
	Budget int      `json:"budget,omitempty"`
	// Explain adds every ranker's score and every reason to the answer.
	Explain bool `json:"explain,omitempty"`
}

func (s *Server) contextTool(ctx context.Context, p *project, a contextArgs) (*mcp.CallToolResult, error) {
	if strings.TrimSpace(a.Query) == "" && len(a.Terms) == 0 {
		return nil, errors.New(`query is empty: say what you are looking for, e.g. "where are plugins loaded"`)
	}
	if a.Budget < 0 {
		return nil, fmt.Errorf("budget %d: give a positive number of tokens, or leave it out for the default", a.Budget)
	}
	eng, note, err := p.refreshQuery(ctx, s.opts.Language)
	if err != nil {
		return nil, err
	}
	res, err := eng.Retrieve(ctx, answer.Query{Text: a.Query, Terms: a.Terms, Budget: a.Budget})
	if err != nil {
		return nil, err
	}
	return s.contextResult(res, a.Explain, note), nil
}

type nodeArg struct {
	ID         string   `json:"id,omitempty"`
	Type       string   `json:"type"`
	Title      string   `json:"title"`
	Body       string   `json:"body"`
	Files      []string `json:"files,omitempty"`
	Symbols    []string `json:"symbols,omitempty"`
	Links      []string `json:"links,omitempty"`
	Supersedes []string `json:"supersedes,omitempty"`
	Importance string   `json:"importance,omitempty"`
	Personal   bool     `json:"personal,omitempty"`
}

type registerArgs struct {
	projectArg
	Nodes     []nodeArg    `json:"nodes"`
	Summaries []summaryArg `json:"summaries,omitempty"`
	Retract   []string     `json:"retract,omitempty"`
	Hard      bool         `json:"hard,omitempty"`
	// Confirm re-anchors notes (ids or titles) to the code as it is now.
	Confirm []string `json:"confirm,omitempty"`
}

type summaryArg struct {
	Target string `json:"target"`
	// Text is a pointer: a missing text is a mistake, an empty one
	// removes the summary.
	Text *string `json:"text"`
}

// registerOutput is register's structured content.
type registerOutput struct {
	Results   []knowledge.Result `json:"results"`
	Summaries []summaryOutput    `json:"summaries,omitempty"`
	Retracted []forgetOutput     `json:"retracted,omitempty"`
	Confirmed []string           `json:"confirmed,omitempty"`
}

// summaryOutput is one curated summary written by register.
type summaryOutput struct {
	Target  string `json:"target"`
	Removed bool   `json:"removed"`
}

// registerTool stores nodes, then writes curated summaries, then retracts
// nodes: each part optional, each failure reported without undoing the
// rest.
func (s *Server) registerTool(ctx context.Context, p *project, a registerArgs) (*mcp.CallToolResult, error) {
	nodes := a.Nodes[:0:0]
	for _, n := range a.Nodes {
		if n.Type == summaryType {
			body := n.Body
			a.Summaries = append(a.Summaries, summaryArg{Target: n.Title, Text: &body})
			continue
		}
		nodes = append(nodes, n)
	}
	a.Nodes = nodes
	if len(a.Nodes)+len(a.Summaries)+len(a.Retract)+len(a.Confirm) == 0 {
		return nil, errors.New(`nothing to do: send nodes ({"type", "title", "body", "files"}), summaries ({"target", "text"}) ids to retract or ids to confirm`)
	}
	in := make([]knowledge.Input, len(a.Nodes))
	for i, n := range a.Nodes {
		// With VaultOnly every node is personal: the vault is all there is.
		in[i] = knowledge.Input{ID: n.ID, Type: n.Type, Title: n.Title, Body: n.Body, Files: n.Files, Symbols: n.Symbols,
			Supersedes: n.Supersedes, Importance: n.Importance, Personal: n.Personal || s.opts.VaultOnly}
		for j, l := range n.Links {
			rel, target, ok := strings.Cut(l, ":")
			if !ok || strings.TrimSpace(rel) == "" || strings.TrimSpace(target) == "" {
				return nil, fmt.Errorf("nodes[%d].links[%d] %q: write a link as rel:target, e.g. about:concept-checkout", i, j, l)
			}
			if strings.TrimSpace(rel) == "supersedes" {
				// The schema offers supersedes as a link: one argument
				// less in every message.
				in[i].Supersedes = append(in[i].Supersedes, strings.TrimSpace(target))
				continue
			}
			in[i].Links = append(in[i].Links, knowledge.Link{Rel: strings.TrimSpace(rel), Target: strings.TrimSpace(target)})
		}
	}
	for i, sm := range a.Summaries {
		if sm.Text == nil {
			return nil, fmt.Errorf(`summaries[%d]: text is missing: give the summary, or "" to remove it`, i)
		}
	}
	out := registerOutput{Results: []knowledge.Result{}}
	var b strings.Builder
	failed := false
	if len(in) > 0 {
		// Files and symbols are checked against the index: bring it up to date.
		eng, err := p.refresh(ctx)
		if err != nil {
			return nil, err
		}
		if out.Results, err = eng.Project().Knowledge().Register(ctx, in); err != nil {
			return nil, err
		}
		for i := range out.Results {
			r := &out.Results[i]
			if r.Action == knowledge.ActionError {
				failed = true
				fmt.Fprintf(&b, "error: nodes[%d]: %s\n", i, r.Error)
				continue
			}
			p.wrote()
			r.Path = p.rel(r.Path)
			fmt.Fprintf(&b, "%s: %s (%s)", r.Action, r.ID, r.Path)
			if len(r.Notes) > 0 {
				fmt.Fprintf(&b, " — %s", strings.Join(r.Notes, "; "))
			}
			b.WriteByte('\n')
		}
	}
	for i, sm := range a.Summaries {
		eng, err := p.engine()
		if err == nil {
			err = eng.Project().Knowledge().WriteSummary(sm.Target, *sm.Text)
		}
		if err != nil {
			failed = true
			fmt.Fprintf(&b, "error: summaries[%d]: %v\n", i, err)
			continue
		}
		p.wrote()
		o := summaryOutput{Target: strings.TrimSpace(sm.Target), Removed: strings.TrimSpace(*sm.Text) == ""}
		out.Summaries = append(out.Summaries, o)
		if o.Removed {
			fmt.Fprintf(&b, "summary of %s removed\n", o.Target)
		} else {
			fmt.Fprintf(&b, "summary of %s saved; the maps show it from now on\n", o.Target)
		}
	}
	if len(a.Retract) > 0 {
		var err error
		out.Retracted, err = s.retract(p, a.Retract, a.Hard)
		for _, d := range out.Retracted {
			fmt.Fprintf(&b, "%s: %s\n", d.Action, d.ID)
		}
		if err != nil {
			failed = true
			fmt.Fprintf(&b, "error: retract: %v\n", err)
		}
	}
	if len(a.Confirm) > 0 {
		eng, err := p.engine()
		if err != nil {
			return nil, err
		}
		for _, c := range eng.Project().Knowledge().Confirm(a.Confirm) {
			if c.Error != "" {
				failed = true
				fmt.Fprintf(&b, "error: confirm %s: %s\n", rubitext.Escape(c.Ref), rubitext.Escape(c.Error))
				continue
			}
			p.wrote()
			out.Confirmed = append(out.Confirmed, c.ID)
			fmt.Fprintf(&b, "confirmed: %s\n", c.ID)
		}
	}
	if failed {
		b.WriteString("fix what is in error and send it again; the rest is done\n")
	}
	res := mcp.NewToolResultStructured(out, b.String())
	res.IsError = failed
	return res, nil
}

// textOutput is the structured content of the tools that answer a text.
type textOutput struct {
	Module string `json:"module,omitempty"`
	Target string `json:"target,omitempty"`
	Text   string `json:"text"`
}

// readMap is read's "map" (module "") and "module:NAME": the project map
// or a module's page. The map was a tool of its own; read takes it, as
// register's summaries name it, so every message pays for one tool less.
func (s *Server) readMap(ctx context.Context, p *project, module string) (*mcp.CallToolResult, error) {
	eng, note, err := p.refreshQuery(ctx, s.opts.Language)
	if err != nil {
		return nil, err
	}
	text, err := eng.MapText(module)
	if err != nil {
		return nil, err
	}
	if s.opts.Multi && module == "" {
		text = s.openProjects(p) + "\n" + text
	}
	if note != "" {
		text += "\n" + note + "\n"
	}
	return mcp.NewToolResultStructured(textOutput{Module: module, Text: text}, text), nil
}

type readArgs struct {
	projectArg
	Target string `json:"target"`
}

// maxNodeRead is the most of a node's file read returns: about 16k
// tokens, past any note written by hand or by an agent.
const maxNodeRead = 64 << 10

// readCapped reads at most limit bytes of a regular file, cut back to
// whole UTF-8 characters, and returns its size.
func readCapped(path string, limit int) ([]byte, int64, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)))
	if err != nil {
		return nil, 0, err
	}
	if fi.Size() > int64(len(data)) {
		// The cut may split a character: drop its first bytes.
		for range utf8.UTFMax - 1 {
			if r, size := utf8.DecodeLastRune(data); r != utf8.RuneError || size != 1 {
				break
			}
			data = data[:len(data)-1]
		}
	}
	return data, fi.Size(), nil
}

func (s *Server) readTool(ctx context.Context, p *project, a readArgs) (*mcp.CallToolResult, error) {
	target := strings.TrimSpace(a.Target)
	if target == "" {
		return nil, errors.New("target is empty: give a node id or title, or a file as path, path:LINE or path:START-END")
	}
	if rest, ok := strings.CutPrefix(target, "chunk:"); ok {
		return s.readChunk(ctx, p, rest)
	}
	if !s.opts.VaultOnly {
		// A vault has no code to map.
		if target == "map" {
			return s.readMap(ctx, p, "")
		}
		if module, ok := strings.CutPrefix(target, "module:"); ok {
			return s.readMap(ctx, p, strings.TrimSpace(module))
		}
		if symbol, ok := strings.CutPrefix(target, "refs:"); ok {
			return s.readRefs(ctx, p, strings.TrimSpace(symbol))
		}
	}
	eng, err := p.engine()
	if err != nil {
		return nil, err
	}
	n, nodeErr := eng.Project().Knowledge().Get(target)
	if nodeErr == nil {
		// Staleness compares with the index: bring it up to date.
		if eng, err = p.refresh(ctx); err != nil {
			return nil, err
		}
		stale := eng.Project().Knowledge().Stale(n)
		data, size, err := readCapped(n.Path, maxNodeRead)
		if err != nil {
			return nil, fmt.Errorf("read node %s: %w", n.ID, err)
		}
		var b strings.Builder
		for _, st := range stale {
			fmt.Fprintf(&b, "⚠ %s\n", rubitext.Escape(st))
		}
		// A note the repository supplied is quoted data, not rubi's word,
		// within the same cap: the quote's "> " takes the room of as many
		// bytes of the note.
		if n.Personal || eng.Project().Knowledge().Owned(n.Path) {
			b.WriteString(rubitext.EscapeLines(string(data)))
		} else {
			if over := len(data) + 2*(bytes.Count(data, []byte("\n"))+1) - maxNodeRead; over > 0 {
				data = data[:bytes.LastIndexByte(data[:len(data)-over], '\n')+1]
			}
			b.WriteString(s.msg(messages.ReadRepo) + "\n" + rubitext.Quote(strings.TrimRight(string(data), "\n")) + "\n")
		}
		if size > int64(len(data)) {
			// A node is the user's, or a cloned repository's: one call
			// cannot flood the agent's context with it.
			fmt.Fprintf(&b, "\n… the node is %d bytes; the first %d are shown. Open %s for the rest.\n", size, len(data), p.rel(n.Path))
		}
		// The structured content is the text, not the node's fields again:
		// Claude Code and Codex give the model that copy.
		return mcp.NewToolResultStructured(textOutput{Target: n.ID, Text: b.String()}, b.String()), nil
	}
	if !errors.Is(nodeErr, knowledge.ErrNotFound) {
		return nil, nodeErr
	}
	region, err := knowledge.ReadRegion(p.root, target)
	if err != nil && !s.opts.VaultOnly && pipeline.ParseSymbol(target) {
		return s.readSymbol(ctx, p, target, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%q is neither a stored node nor a readable file region (%v); give a node id or title from a context result, or a project file as path, path:LINE or path:START-END", target, err)
	}
	if region == "" {
		region = "(empty file)\n"
	}
	return mcp.NewToolResultStructured(textOutput{Target: target, Text: region}, region), nil
}

// readSymbol is read's last resort: target as a symbol the index
// defines (pipeline.Engine.ReadSymbol), in an index refreshed first.
// pathErr says why target is no readable file.
func (s *Server) readSymbol(ctx context.Context, p *project, target string, pathErr error) (*mcp.CallToolResult, error) {
	eng, note, err := p.refreshQuery(ctx, s.opts.Language)
	if err != nil {
		return nil, err
	}
	r, err := eng.ReadSymbol(target)
	if err != nil {
		return nil, err
	}
	// Tool results are English in every language, as the map is.
	if !r.Found() {
		return nil, errors.New(r.NotFound(messages.English, pathErr))
	}
	text := r.Render(messages.English)
	if note != "" {
		text += "\n" + note + "\n"
	}
	return mcp.NewToolResultStructured(textOutput{Target: target, Text: text}, text), nil
}

// maxToolRefs is how many references the read tool lists, as `rubi
// refs` does unless told.
const maxToolRefs = 100

// readRefs is read's refs:SYMBOL: the symbol's definition and the
// references to it as `rubi refs` prints them, in an index refreshed
// first.
func (s *Server) readRefs(ctx context.Context, p *project, symbol string) (*mcp.CallToolResult, error) {
	eng, note, err := p.refreshQuery(ctx, s.opts.Language)
	if err != nil {
		return nil, err
	}
	r, err := eng.References(symbol, maxToolRefs)
	if errors.Is(err, pipeline.ErrNoReferences) {
		return nil, errors.New(messages.English.Get(messages.RefsOff))
	}
	if err != nil {
		return nil, err
	}
	// Tool results are English in every language, as the map is.
	if !r.Found() {
		return nil, errors.New(r.NotFound(messages.English))
	}
	text := r.Render(messages.English, messages.RefsMore)
	if note != "" {
		text += "\n" + note + "\n"
	}
	return mcp.NewToolResultStructured(textOutput{Target: "refs:" + symbol, Text: text}, text), nil
}

// readChunk reads a chunk of the conversation memory, whole or a line
// range (ID:START-END): a read, which keeps it from retention and restores
// it from the archive.
func (s *Server) readChunk(ctx context.Context, p *project, target string) (*mcp.CallToolResult, error) {
	id, lines, _ := strings.Cut(target, ":")
	from, to := 1, 0
	if lines != "" {
		a, b, _ := strings.Cut(lines, "-")
		var err error
		if from, err = strconv.Atoi(a); err == nil && b != "" {
			to, err = strconv.Atoi(b)
		} else if err == nil {
			to = from
		}
		if err != nil || from < 1 || b != "" && to < from {
			return nil, fmt.Errorf("chunk:%s: give lines as chunk:ID:START-END, from line 1", target)
		}
	}
	eng, err := p.engine()
	if err != nil {
		return nil, err
	}
	st, _ := eng.Project().Memory()
	st.Now = s.now
	text, total, err := st.Peek(ctx, id, from, to)
	if err != nil {
		return nil, err
	}
	last := total
	if to > 0 {
		last = min(to, total)
	}
	return mcp.NewToolResultStructured(textOutput{Target: "chunk:" + target, Text: text}, fmt.Sprintf("%s\n(lines %d-%d of %d)\n", text, from, last, total)), nil
}

// handoffOutput is the structured content of memory's handoff and last:
// the handoff saved or read (nil when there is none yet), and the chunk
// that keeps it in the conversation memory.
type handoffOutput struct {
	Handoff *knowledge.Handoff `json:"handoff"`
	Chunk   string             `json:"chunk,omitempty"`
}

// forgetOutput is one retraction in register's structured content.
type forgetOutput struct {
	ID     string `json:"id"`
	Action string `json:"action"` // retracted or deleted
}

// retract takes nodes out of results, or deletes them (hard): each by id
// or title. It stops at the first that fails and returns those done
// before it.
func (s *Server) retract(p *project, targets []string, hard bool) ([]forgetOutput, error) {
	eng, err := p.engine()
	if err != nil {
		return nil, err
	}
	var done []forgetOutput
	for _, t := range targets {
		// Accept a title too: agents remember titles better than ids.
		n, err := eng.Project().Knowledge().Get(t)
		if errors.Is(err, knowledge.ErrNotFound) {
			return done, fmt.Errorf("no stored node is called %q: give an id or title as context or register showed it", strings.TrimSpace(t))
		}
		if err == nil {
			id := n.ID
			if n.Personal {
				id = "personal:" + id
			}
			if err = eng.Project().Knowledge().Forget(id, hard); err == nil {
				p.wrote()
				out := forgetOutput{ID: id, Action: "retracted"}
				if hard {
					out.Action = "deleted"
				}
				done = append(done, out)
				continue
			}
		}
		return done, fmt.Errorf("%s: %w", strings.TrimSpace(t), err)
	}
	return done, nil
}

// openProjects lists, for map's overview with Multi, the projects the
// server has open, the current one (p) marked: the projects an agent
// passes as project. It folds what was a tool of its own into map.
func (s *Server) openProjects(p *project) string {
	s.mu.Lock()
	roots := s.openRoots()
	s.mu.Unlock()
	var b strings.Builder
	b.WriteString("open projects (* is the one calls without project use; pass a name or root as project, or the path of another project):\n")
	for _, root := range roots {
		mark := " "
		if root == p.root {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s %s  %s\n", mark, filepath.Base(root), root)
	}
	return b.String()
}
