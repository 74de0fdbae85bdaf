package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	rubitext "github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/when"
)

// memoryActions are the memory tool's actions: one tool with modes keeps
// the definitions every message pays for small.
var memoryActions = []string{"save", "grep", "list", "handoff", "last", "retention", "retain", "restore", "status"}

// memoryTool is the conversation memory (core/memory) and the handoffs,
// and with Options.Xray the xray report (action xray).
func (s *Server) memoryTool() mcpgo.ServerTool {
	actions, description := memoryActions, s.msg(messages.ToolMemory)
	if s.opts.Xray {
		actions = append(slices.Clip(actions), "xray")
		description += " " + s.msg(messages.ToolMemoryXray)
	}
	opts := []mcp.ToolOption{
		hints(false, true, false),
		mcp.WithString("action", mcp.Required(), mcp.Enum(actions...)),
		mcp.WithString("text", mcp.Description(s.msg(messages.ToolMemoryText))),
		mcp.WithString("type", mcp.Enum(memory.Types...)),
		mcp.WithString("summary"),
		mcp.WithArray("tags", mcp.WithStringItems()),
		mcp.WithString("domain"),
		mcp.WithString("entity", mcp.Description(s.msg(messages.ToolMemoryEntity))),
		mcp.WithString("since", mcp.Description(s.msg(messages.ToolMemorySince))),
		mcp.WithString("until"),
		mcp.WithInteger("typos", mcp.Description(s.msg(messages.ToolMemoryTypos))),
		mcp.WithString("id"),
		mcp.WithString("created"),
	}
	if !s.opts.Multi {
		// With Multi, newTool adds project, and it names the open project.
		opts = append(opts, mcp.WithString("project"))
	}
	return mcpgo.ServerTool{Tool: s.newTool("memory",
		description,
		opts...,
	), Handler: handle(s, s.memoryCall)}
}

type memoryArgs struct {
	projectArg
	Action  string   `json:"action"`
	Text    string   `json:"text,omitempty"`
	Type    string   `json:"type,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Domain  string   `json:"domain,omitempty"`
	Ticket  string   `json:"ticket,omitempty"`
	Entity  string   `json:"entity,omitempty"`
	Since   string   `json:"since,omitempty"`
	Until   string   `json:"until,omitempty"`
	Typos   int      `json:"typos,omitempty"`
	ID      string   `json:"id,omitempty"`
	Created string   `json:"created,omitempty"`
}

// mcpGrepLimit and mcpListLimit cap what one call returns: an agent
// narrows with filters rather than reading hundreds of lines.
const (
	mcpGrepLimit = 40
	mcpListLimit = 30
)

// maxHandoffText bounds what the handoff tool returns of the last
// handoff's file: a few paragraphs and lists; 4 MiB is what
// knowledge.LastHandoff reads of it.
const maxHandoffText = 4 << 20

// listItem is one chunk of list's structured content, as its text line
// shows it.
type listItem struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Created  string `json:"created"`
	Summary  string `json:"summary"`
	Lines    int    `json:"lines"`
	Archived bool   `json:"archived,omitempty"`
}

// projectFree says the call needs no project: xray reads the agents'
// logs, and its project argument filters their sessions.
func (a memoryArgs) projectFree() bool { return a.Action == "xray" }

func (s *Server) memoryCall(ctx context.Context, p *project, a memoryArgs) (*mcp.CallToolResult, error) {
	if a.Action == "xray" {
		if !s.opts.Xray {
			return nil, errors.New("action xray is off: the user starts rubi mcp with --xray to offer it")
		}
		days, err := xraySince(a.Since)
		if err != nil {
			return nil, err
		}
		return s.runXray(ctx, xrayArgs{Days: days, Project: a.Project})
	}
	eng, err := p.engine()
	if err != nil {
		return nil, err
	}
	if a.Typos < 0 {
		return nil, fmt.Errorf("typos %d: give the edits a word may be away (1 or 2), or leave it out for a regular expression", a.Typos)
	}
	st, policy := eng.Project().Memory()
	st.Now = s.now
	switch a.Action {
	case "save":
		in := memory.Input{Type: a.Type, Summary: a.Summary, Tags: a.Tags, Domain: a.Domain, Ticket: a.Ticket, Content: a.Text}
		if in.Created, err = when.At(a.Created); err != nil {
			return nil, fmt.Errorf("created: %w: give when it was said (2023-05-08 or 2023-05-08T13:56:00Z), or leave it out for now", err)
		}
		if !s.opts.Multi {
			in.Project = a.Project
		}
		saved, err := st.Save(ctx, in)
		if err != nil {
			return nil, err
		}
		saved.Path = p.rel(saved.Path)
		if saved.Duplicate {
			return mcp.NewToolResultStructured(saved, fmt.Sprintf("duplicate of chunk %s: nothing saved\n", saved.ID)), nil
		}
		p.wrote()
		return mcp.NewToolResultStructured(saved, fmt.Sprintf("saved: chunk %s\n", saved.ID)), nil
	case "grep":
		f, err := a.filter(s.opts.Multi, s.now())
		if err != nil {
			return nil, err
		}
		res, err := st.Grep(a.Text, memory.GrepOptions{Filter: f, Fuzzy: a.Typos > 0, MaxTypos: a.Typos, Limit: mcpGrepLimit})
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, m := range res.Matches {
			fmt.Fprintf(&b, "%s:%d: %s\n", m.ID, m.Line, m.Text)
		}
		if res.Total > len(res.Matches) {
			fmt.Fprintf(&b, "… %d more matches: narrow the pattern or the filters\n", res.Total-len(res.Matches))
		}
		fmt.Fprintf(&b, "%d matches in %d chunks searched. Read one with read chunk:ID:START-END (line 0: an archived chunk's summary).\n", res.Total, res.Chunks)
		return mcp.NewToolResultStructured(res, b.String()), nil
	case "list":
		f, err := a.filter(s.opts.Multi, s.now())
		if err != nil {
			return nil, err
		}
		all, err := st.List(f)
		if err != nil {
			return nil, err
		}
		shown := all[:min(len(all), mcpListLimit)]
		var b strings.Builder
		// The structured content is the lines of the text, not every
		// field of each chunk (its hash, entities, path): Claude Code
		// and Codex give the model that copy.
		items := make([]listItem, len(shown))
		for i, c := range shown {
			items[i] = listItem{ID: c.ID, Type: c.Type, Created: c.Created.Local().Format("2006-01-02 15:04"), Summary: c.Summary, Lines: c.Lines, Archived: c.Archived}
			state := ""
			if c.Archived {
				state = ", archived"
			}
			fmt.Fprintf(&b, "%s %s %s: %s (%d lines%s)\n", c.ID, c.Type, items[i].Created, c.Summary, c.Lines, state)
		}
		if len(all) > len(shown) {
			fmt.Fprintf(&b, "… %d more of %d: narrow with filters\n", len(all)-len(shown), len(all))
		}
		if len(all) == 0 {
			b.WriteString("no chunk matches\n")
		}
		return mcp.NewToolResultStructured(struct {
			Chunks []listItem `json:"chunks"`
			Total  int        `json:"total"`
		}{items, len(all)}, b.String()), nil
	case "handoff":
		if strings.TrimSpace(a.Text) == "" {
			return nil, errors.New("the handoff is empty: give text with at least ## Goal and ## Next (what the work is for and what comes next)")
		}
		h := knowledge.ParseHandoff(a.Text)
		h.Created = s.now().UTC().Truncate(time.Second)
		path, chunk, err := eng.Project().SaveHandoff(ctx, h)
		if err != nil {
			return nil, err
		}
		p.wrote()
		h.Path = p.rel(path)
		return mcp.NewToolResultStructured(handoffOutput{Handoff: &h, Chunk: chunk.ID}, fmt.Sprintf("saved: %s (chunk %s)\n", h.Path, chunk.ID)), nil
	case "last":
		// The user's own last handoff, else the repository's, quoted.
		h, err := eng.Project().Knowledge().LastOwnHandoff()
		if errors.Is(err, knowledge.ErrNotFound) {
			h, err = eng.Project().Knowledge().LastHandoff()
		}
		if errors.Is(err, knowledge.ErrNotFound) {
			return mcp.NewToolResultStructured(handoffOutput{}, "no handoff has been saved in this project yet\n"), nil
		}
		if err != nil {
			return nil, err
		}
		// The file LastHandoff read, as it read it (never through a
		// link, capped): the repository may have put a link there.
		data, err := store.ReadWithin(p.root, h.Path, maxHandoffText)
		if err != nil {
			return nil, err
		}
		h.Path = p.rel(h.Path)
		out := rubitext.EscapeLines(string(data))
		if !h.Own {
			out = s.msg(messages.ReadRepo) + "\n" + rubitext.Quote(strings.TrimRight(string(data), "\n")) + "\n"
		}
		return mcp.NewToolResultStructured(handoffOutput{Handoff: h}, out), nil
	case "retention", "retain":
		run := a.Action == "retain"
		var plan *memory.Plan
		if run {
			plan, err = st.Retain(ctx, policy)
		} else {
			plan, err = st.Preview(policy)
		}
		if err != nil {
			return nil, err
		}
		if run && len(plan.Archive)+len(plan.Purge) > 0 {
			p.wrote()
		}
		return mcp.NewToolResultStructured(plan, plan.Text(run)), nil
	case "status":
		status := eng.Status(ctx, s.now())
		return mcp.NewToolResultStructured(status, status.Text(messages.English)), nil
	case "restore":
		if err := st.Restore(ctx, strings.TrimSpace(a.ID)); err != nil {
			return nil, err
		}
		p.wrote()
		return mcp.NewToolResultStructured(struct {
			ID string `json:"id"`
		}{a.ID}, fmt.Sprintf("restored: chunk %s\n", a.ID)), nil
	}
	return nil, fmt.Errorf("action %q: use one of %s", a.Action, strings.Join(memoryActions, ", "))
}

// filter is the arguments' filter. With Multi, project names the open
// project rather than filtering its chunks.
func (a memoryArgs) filter(multi bool, now time.Time) (memory.Filter, error) {
	f := memory.Filter{Type: a.Type, Tags: a.Tags, Domain: a.Domain, Entity: a.Entity}
	if !multi {
		f.Project = a.Project
	}
	if a.Ticket != "" {
		if f.Entity != "" {
			return f, errors.New("give ticket or entity, not both: a ticket is one of the entities")
		}
		f.Entity = a.Ticket
	}
	var err error
	if f.Since, err = when.Since(a.Since, now); err != nil {
		return f, fmt.Errorf("since: %w", err)
	}
	if f.Until, err = when.Until(a.Until, now); err != nil {
		return f, fmt.Errorf("until: %w", err)
	}
	return f, nil
}

func (a memoryArgs) limits() error {
	// The text is bounded by the store (a chunk's MaxSize, a handoff's
	// limit); the rest are words.
	if err := checkWords("tags", a.Tags, maxTerms); err != nil {
		return err
	}
	if len(a.Summary) > 8*maxWordBytes {
		return tooLong("summary", len(a.Summary), 8*maxWordBytes, "bytes")
	}
	return checkWords("a filter", []string{a.Action, a.Type, a.Domain, a.Ticket, a.Entity, a.Since, a.Until, a.ID}, 8)
}
