package audit

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

var agentNames = []struct {
	a    Agent
	name string
}{{ClaudeCode, "Claude Code"}, {Codex, "Codex"}, {Gemini, "Gemini CLI"}}

var kindNames = map[string]string{
	"instructions": "instructions",
	"rules":        "rules",
	"import":       "imported",
	"memory":       "auto memory",
	"map":          "rubi's map (session start)",
	"tools":        "tool definitions and instructions",
}

// WriteText prints the audit for a terminal.
func WriteText(w io.Writer, rep *Report) {
	fmt.Fprintf(w, "rubi audit: %s, what each agent loads before the first message\n", rep.Dir)
	for _, an := range agentNames {
		total := rep.Totals[an.a]
		fmt.Fprintf(w, "\n%s: ", an.name)
		if total == 0 {
			fmt.Fprintln(w, "nothing from the project or your home")
			continue
		}
		fmt.Fprintf(w, "~%s tokens in every message\n", short(total))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, s := range rep.Sources {
			for _, a := range s.Agents {
				if a == an.a {
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Rel, short(s.Tokens), kindNames[s.Kind])
				}
			}
		}
		tw.Flush()
	}
	if len(rep.Suggest) == 0 {
		fmt.Fprintln(w, "\nNothing to move: the instruction files hold rules, or sections too short to matter.")
		return
	}
	fmt.Fprintf(w, "\nMove into the graph (~%s tokens less in every message):\n", short(rep.Saving))
	for _, s := range rep.Suggest {
		fmt.Fprintf(w, "  %s:%d  %q, %s tokens: %s\n", s.Rel, s.Line, s.Heading, short(s.Tokens), s.Why)
		switch s.What {
		case "concept", "howto":
			fmt.Fprintf(w, "      rubi register --type %s --title %q --body \"<the section>\", then leave a one-line pointer\n", s.What, s.Heading)
		case "drop":
			fmt.Fprintln(w, "      delete it; rubi map prints the layout")
		}
	}
}

func short(n int) string {
	if n >= 10000 {
		return fmt.Sprintf("%.0fk", float64(n)/1000)
	}
	if n >= 1000 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1000), ".0") + "k"
	}
	return fmt.Sprint(n)
}
