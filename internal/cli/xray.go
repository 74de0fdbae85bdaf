package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/xray"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
)

// xrayFlags are shared by rubi xray and rubi xray simulate.
type xrayFlags struct {
	days        int
	project     string
	transcripts []string
	past, near  string
	thresholds  string
	handoff     string
	ratios      string
	top         int
	usd         bool
	html        string
}

// defaultXrayFlags are rubi xray's defaults, which rubi view's Tokens
// page uses too.
func defaultXrayFlags() *xrayFlags {
	return &xrayFlags{days: 30, past: "150k", near: "900k", thresholds: "100k,150k,250k", handoff: "8k", top: 10}
}

func newXrayCmd(g *globals) *cobra.Command {
	f := defaultXrayFlags()
	cmd := &cobra.Command{
		Use:   "xray",
		Short: "Show where your agents' tokens went, from their session logs",
		Long: `xray reads the session logs Claude Code ($CLAUDE_CONFIG_DIR or ~/.claude,
~/.config/claude) and Codex ($CODEX_HOME or ~/.codex) keep on this machine
and shows where the tokens of the last --days went: the cost shares of input,
cache writes, cache reads and output in input-token equivalents, the share of
cost from sessions that grew past --past, the sessions that reached ~1M
tokens, the context loaded before the first message, which tools' outputs
weighed most on the context, how often the prompt cache expired mid-session,
the most expensive sessions, and what compacting earlier would have saved.
Nothing leaves the machine. --html FILE also writes a self-contained page
with the charts and the context curves.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := f.analyze(cmd, g)
			if err != nil {
				return err
			}
			if err := f.writeHTML(g, rep); err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, rep)
			}
			xray.WriteText(g.stdout, rep, f.textOptions(g.lang()))
			return nil
		},
	}
	pf := cmd.PersistentFlags()
	pf.IntVar(&f.days, "days", f.days, "how many days back to read (0: every log)")
	pf.StringVar(&f.project, "project", "", "only sessions run in this project: a directory, or the end of its path")
	pf.StringArrayVar(&f.transcripts, "transcripts", nil, "read these logs or directories instead of the agents' own (repeatable)")
	pf.StringVar(&f.past, "past", f.past, "the context size that makes a session long")
	pf.StringVar(&f.near, "near", f.near, "the context size counted as reaching ~1M tokens")
	pf.StringVar(&f.thresholds, "thresholds", f.thresholds, "compaction thresholds to simulate")
	pf.StringVar(&f.handoff, "handoff", f.handoff, "size of the handoff a simulated compaction resumes with")
	pf.StringVar(&f.ratios, "ratios", "", "token prices relative to input, e.g. read=0.1,write-5m=1.25,write-1h=2,output=5 (the defaults)")
	pf.IntVar(&f.top, "top", f.top, "how many of the most expensive sessions to show")
	pf.BoolVar(&f.usd, "usd", false, "also show US dollars at list prices, for the models rubi knows")
	pf.StringVar(&f.html, "html", "", "also write a self-contained HTML page with the charts to FILE")

	cmd.AddCommand(&cobra.Command{
		Use:   "simulate",
		Short: "Replay your sessions under earlier compaction",
		Long: `simulate replays each session's real context curve under "compact at a
threshold, resume from the fixed context plus a handoff" for each of
--thresholds, and prints the window switches and the estimated saving per
threshold, the recommended threshold, and the saving on each of the most
expensive sessions. The replay is described in docs/cli.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rep, err := f.analyze(cmd, g)
			if err != nil {
				return err
			}
			if err := f.writeHTML(g, rep); err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, struct {
					Handoff     int64                  `json:"handoff"`
					Thresholds  []xray.ThresholdResult `json:"simulation"`
					Recommended int64                  `json:"recommended_threshold"`
					Sessions    []xray.SessionSummary  `json:"top_sessions"`
				}{rep.Handoff, rep.Sims, rep.Recommended, rep.Top})
			}
			xray.WriteSimulation(g.stdout, rep, f.textOptions(g.lang()))
			return nil
		},
	})
	return cmd
}

// textOptions shape the report in l (the HTML page is English).
func (f *xrayFlags) textOptions(l messages.Lang) xray.TextOptions {
	return xray.TextOptions{Days: f.days, USD: f.usd, Lang: l}
}

func (f *xrayFlags) analyze(cmd *cobra.Command, _ *globals) (*xray.Report, error) {
	return f.report(cmd.Context())
}

// report reads the session logs as the flags say and analyzes them.
func (f *xrayFlags) report(ctx context.Context) (*xray.Report, error) {
	opt, err := f.options()
	if err != nil {
		return nil, err
	}
	var since time.Time
	if f.days < 0 {
		return nil, fmt.Errorf("--days %d: give a number of days, or 0 for every log", f.days)
	}
	if f.days > 0 {
		since = time.Now().Add(-time.Duration(f.days) * 24 * time.Hour)
	}
	opt.Since = since
	var sessions []transcript.Session
	if len(f.transcripts) > 0 {
		sessions, err = transcript.FindPaths(f.transcripts, since)
	} else {
		sessions, err = transcript.Find(transcript.DefaultRoots(), since)
	}
	if err != nil {
		return nil, fmt.Errorf("find session logs: %w", err)
	}
	return xray.Analyze(ctx, sessions, opt)
}

func (f *xrayFlags) options() (xray.Options, error) {
	var opt xray.Options
	var err error
	if opt.Past, err = xray.ParseTokens(f.past); err != nil {
		return opt, fmt.Errorf("--past: %w", err)
	}
	if opt.Near, err = xray.ParseTokens(f.near); err != nil {
		return opt, fmt.Errorf("--near: %w", err)
	}
	if opt.Handoff, err = xray.ParseTokens(f.handoff); err != nil {
		return opt, fmt.Errorf("--handoff: %w", err)
	}
	for _, s := range strings.Split(f.thresholds, ",") {
		t, err := xray.ParseTokens(s)
		if err != nil || t == 0 {
			return opt, fmt.Errorf("--thresholds %q: give token counts separated by commas, e.g. 100k,150k,250k", f.thresholds)
		}
		opt.Thresholds = append(opt.Thresholds, t)
	}
	if f.top < 1 {
		return opt, fmt.Errorf("--top %d: give at least 1", f.top)
	}
	opt.Top = f.top
	r, err := parseRatios(f.ratios)
	if err != nil {
		return opt, err
	}
	opt.Ratios = &r
	opt.Project = f.project
	if f.project != "" {
		// A directory that exists is the project; anything else is
		// matched against the end of each session's working directory.
		if st, err := os.Stat(f.project); err == nil && st.IsDir() {
			if abs, err := filepath.Abs(f.project); err == nil {
				opt.Project = abs
			}
		}
	}
	return opt, nil
}

// parseRatios reads --ratios: key=value pairs over the defaults.
func parseRatios(s string) (xray.Ratios, error) {
	r := xray.DefaultRatios()
	if strings.TrimSpace(s) == "" {
		return r, nil
	}
	fields := map[string]*float64{"input": &r.Input, "read": &r.CacheRead, "write-5m": &r.CacheWrite5m, "write-1h": &r.CacheWrite1h, "output": &r.Output}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		p := fields[k]
		if !ok || p == nil {
			return r, fmt.Errorf("--ratios %q: use input=, read=, write-5m=, write-1h= and output= with numbers, e.g. read=0.1,output=5", kv)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			return r, fmt.Errorf("--ratios %q: %q is not a price ratio", kv, v)
		}
		*p = x
	}
	return r, nil
}

func (f *xrayFlags) writeHTML(g *globals, rep *xray.Report) error {
	if f.html == "" {
		return nil
	}
	var b strings.Builder
	if err := xray.WriteHTML(&b, rep, f.textOptions(messages.English)); err != nil {
		return err
	}
	if err := store.WriteFile(f.html, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintln(g.stderr, g.lang().Format(messages.XrayWrote, f.html))
	return nil
}
