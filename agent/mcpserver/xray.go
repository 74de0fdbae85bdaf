package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/xray"
)

// The xray report is memory's action xray, offered only with Options.Xray:
// it is an occasional report for a person, and its words would otherwise
// be paid for in every message. It was a tool of its own; as an action it
// costs a few words of memory's description.

// xrayDays is the window the xray action reads by default, like rubi xray.
const xrayDays = 30

// xrayTop is how many of the most expensive sessions the summary names.
const xrayTop = 3

type xrayArgs struct {
	// Days is a pointer: missing means the default, 0 every log.
	Days    *int   `json:"days,omitempty"`
	Project string `json:"project,omitempty"`
}

// xrayOutput is the figures of the xray action's summary, with the keys of
// rubi xray --json where they are the same.
type xrayOutput struct {
	Days     int            `json:"days"`
	Project  string         `json:"project,omitempty"`
	Sessions int            `json:"sessions"`
	Projects int            `json:"projects"`
	Agents   map[string]int `json:"agents"`
	Calls    int64          `json:"calls"`
	// Cost is in input-token equivalents.
	Cost     float64                `json:"cost"`
	Shares   xray.Shares            `json:"shares"`
	Past     xray.SizeFinding       `json:"past"`
	Near     xray.SizeFinding       `json:"near_1m"`
	Start    xray.StartFinding      `json:"starting_context"`
	Expiries xray.ExpiryFinding     `json:"cache_expiries"`
	Tools    []xray.ToolWeight      `json:"tools"`
	Top      []xraySession          `json:"top_sessions"`
	Handoff  int64                  `json:"handoff"`
	Sims     []xray.ThresholdResult `json:"simulation"`
	// Recommended is 0 when no threshold would have saved; Saving is its
	// estimated saving, a fraction of the cost.
	Recommended int64   `json:"recommended_threshold"`
	Saving      float64 `json:"recommended_saving"`
	// Unreadable counts the log lines that could not be read.
	Unreadable int `json:"unreadable_lines"`
}

// xraySession is one of the most expensive sessions, without its curves.
type xraySession struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`
	Project string    `json:"project"`
	Start   time.Time `json:"start,omitzero"`
	Peak    int64     `json:"peak_context"`
	Cost    float64   `json:"cost"`
	Share   float64   `json:"cost_share"`
}

// handleXray answers without a project: the logs are the user's, not a
// project's. Failures are error results, like every tool's.
// xraySince reads memory's since for the xray action: nil (the default,
// xrayDays) when empty, 0 for every log ("all"), else a number of days
// back ("7d").
func xraySince(since string) (*int, error) {
	since = strings.TrimSpace(since)
	if since == "" {
		return nil, nil
	}
	if since == "all" {
		n := 0
		return &n, nil
	}
	if d, ok := strings.CutSuffix(since, "d"); ok {
		if n, err := strconv.Atoi(d); err == nil && n > 0 {
			return &n, nil
		}
	}
	return nil, fmt.Errorf("since %q: give the days back to read (7d), or all for every log", since)
}

func (s *Server) runXray(ctx context.Context, a xrayArgs) (*mcp.CallToolResult, error) {
	days := xrayDays
	if a.Days != nil {
		days = *a.Days
	}
	if days < 0 || days > 36500 {
		return nil, fmt.Errorf("since %dd: give the days back to read (7d), or all for every log", days)
	}
	home, _ := os.UserHomeDir()
	project, err := xrayProject(a.Project, home)
	if err != nil {
		return nil, err
	}
	var since time.Time
	if days > 0 {
		since = time.Now().Add(-time.Duration(days) * 24 * time.Hour)
	}
	sessions, err := transcript.Find(transcript.DefaultRoots(), since)
	if err != nil {
		return nil, fmt.Errorf("find the agents' session logs: %w", err)
	}
	rep, err := xray.Analyze(ctx, sessions, xray.Options{Since: since, Project: project, Top: xrayTop, Home: home})
	if err != nil {
		return nil, err
	}
	if rep.Sessions == 0 {
		return nil, noSessions(days, a.Project)
	}
	out := xrayOutput{
		Days: days, Project: rep.Project, Sessions: rep.Sessions, Projects: rep.Projects, Agents: rep.Agents, Calls: rep.Calls,
		Cost: rep.Cost.Total, Shares: rep.Shares, Past: rep.Past, Near: rep.Near, Start: rep.Start, Expiries: rep.Expiries,
		Tools: rep.Tools[:min(len(rep.Tools), 5)], Top: []xraySession{}, Handoff: rep.Handoff, Sims: rep.Sims,
		Recommended: rep.Recommended, Unreadable: rep.Problems.Count,
	}
	for _, t := range rep.Sims {
		if t.Threshold == rep.Recommended {
			out.Saving = t.Saving
		}
	}
	for _, t := range rep.Top {
		out.Top = append(out.Top, xraySession{ID: t.ID, Agent: t.Agent, Project: t.Project, Start: t.Start, Peak: t.Peak, Cost: t.Cost.Total, Share: t.Share})
	}
	// The structured content is the summary the text is, with the window,
	// project and count it covers, not the report's figures again
	// (Claude Code and Codex give the model that copy; rubi xray --json
	// has them for programs).
	text := xraySummary(&out)
	return mcp.NewToolResultStructured(xrayResult{Days: out.Days, Project: out.Project, Sessions: out.Sessions, Text: text}, text), nil
}

// xrayResult is the xray action's structured content.
type xrayResult struct {
	Days     int    `json:"days"`
	Project  string `json:"project,omitempty"`
	Sessions int    `json:"sessions"`
	Text     string `json:"text"`
}

// xrayProject turns the project argument into an analysis filter: an
// absolute path (~ for the home) or the end of a session's directory.
func xrayProject(p, home string) (string, error) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", nil
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return "", fmt.Errorf("project %q: the home directory is unknown; give the absolute path", p)
		}
		return filepath.Join(home, p[1:]), nil
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	}
	if c := filepath.Clean(p); c == "." || c == ".." || strings.HasPrefix(c, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("project %q: give the project's name or absolute path, not a relative one", p)
	}
	return p, nil
}

// noSessions says why no session was found and what to try.
func noSessions(days int, project string) error {
	var b strings.Builder
	b.WriteString("no agent session with token usage found")
	if project != "" {
		fmt.Fprintf(&b, " in project %q", strings.TrimSpace(project))
	}
	if days > 0 {
		fmt.Fprintf(&b, " in the last %d days", days)
	}
	b.WriteString(". rubi reads Claude Code's logs ($CLAUDE_CONFIG_DIR or ~/.claude) and Codex's ($CODEX_HOME or ~/.codex) on the machine the server runs on")
	var tries []string
	if project != "" {
		tries = append(tries, "leave project out to see every project")
	}
	if days > 0 {
		tries = append(tries, "pass since all to read every log")
	}
	if len(tries) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(tries, ", or "))
	}
	return fmt.Errorf("%s", b.String())
}

// xraySummary is the compact text of the xray action: the findings of rubi
// xray in a few lines, a few hundred tokens at most.
func xraySummary(o *xrayOutput) string {
	var b strings.Builder
	span := "every log"
	if o.Days > 0 {
		span = fmt.Sprintf("last %d days", o.Days)
	}
	if o.Project != "" {
		span += ", project " + o.Project
	}
	var agents []string
	for _, a := range []string{"claude-code", "codex"} {
		if n := o.Agents[a]; n > 0 {
			agents = append(agents, fmt.Sprintf("%s %d", a, n))
		}
	}
	fmt.Fprintf(&b, "rubi xray, %s: %s in %s", span, count(o.Sessions, "session"), count(o.Projects, "project"))
	if len(agents) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(agents, ", "))
	}
	fmt.Fprintf(&b, ", %s API calls.\n", xray.FormatTokens(o.Calls))
	fmt.Fprintf(&b, "Cost %s input-token equivalents: cache reads %s, cache writes %s, output %s, input %s.\n", xray.FormatTokens(int64(o.Cost)),
		xray.Percent(o.Shares.CacheRead), xray.Percent(o.Shares.CacheWrite), xray.Percent(o.Shares.Output), xray.Percent(o.Shares.Input))
	fmt.Fprintf(&b, "Sessions past %s: %d of %d, %s of the cost; reaching ~1M: %d (%s).\n", xray.FormatTokens(o.Past.Tokens), o.Past.Sessions, o.Sessions,
		xray.Percent(o.Past.Share), o.Near.Sessions, xray.Percent(o.Near.Share))
	fmt.Fprintf(&b, "Context before the first message: %s (median).\n", xray.FormatTokens(o.Start.Median))
	if len(o.Tools) > 0 {
		var ts []string
		for _, t := range o.Tools {
			ts = append(ts, t.Tool+" "+xray.Percent(t.Share))
		}
		fmt.Fprintf(&b, "Tool outputs, share of the context sent: %s.\n", strings.Join(ts, ", "))
	}
	if o.Expiries.Count > 0 {
		fmt.Fprintf(&b, "Cache expired mid-session: %s in %s, %s of the cost.\n", count(o.Expiries.Count, "time"),
			count(o.Expiries.Sessions, "session"), xray.Percent(o.Expiries.Share))
	} else {
		b.WriteString("The cache never expired mid-session.\n")
	}
	if len(o.Top) > 0 {
		var ts []string
		for _, t := range o.Top {
			day := "?"
			if !t.Start.IsZero() {
				day = t.Start.Local().Format("2006-01-02")
			}
			ts = append(ts, fmt.Sprintf("%s %s %s (%s, peak %s)", day, t.Project, xray.FormatTokens(int64(t.Cost)), xray.Percent(t.Share), xray.FormatTokens(t.Peak)))
		}
		fmt.Fprintf(&b, "Most expensive: %s.\n", strings.Join(ts, "; "))
	}
	var sims []string
	for _, t := range o.Sims {
		sims = append(sims, xray.FormatTokens(t.Threshold)+" "+signed(t.Saving))
	}
	fmt.Fprintf(&b, "Compaction simulator (resume from the fixed context + %s handoff), saving: %s.\n", xray.FormatTokens(o.Handoff), strings.Join(sims, ", "))
	if o.Recommended > 0 {
		fmt.Fprintf(&b, "Recommended: compact at %s, about %s cheaper (Claude Code: CLAUDE_CODE_AUTO_COMPACT_WINDOW=%d).\n",
			xray.FormatTokens(o.Recommended), xray.Percent(o.Saving), o.Recommended)
	} else {
		b.WriteString("No threshold would have saved: the sessions are short enough, or the summaries would cost more than they spare.\n")
	}
	if o.Unreadable > 0 {
		fmt.Fprintf(&b, "%s could not be read.\n", count(o.Unreadable, "log line"))
	}
	b.WriteString("rubi xray in a terminal draws the charts (--html FILE, the context curves).\n")
	return b.String()
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func signed(f float64) string {
	if f > 0 {
		return "+" + xray.Percent(f)
	}
	return xray.Percent(f)
}
