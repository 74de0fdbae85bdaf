package audit

import (
	"fmt"
	"io"
	"strings"

	"github.com/rubi-dev/rubi/core/messages"
)

var agentNames = []struct {
	a    Agent
	name string
}{{ClaudeCode, "Claude Code"}, {Codex, "Codex"}, {Gemini, "Gemini CLI"}}

var kindNames = map[string]messages.Key{
	"instructions": messages.AuditKindInstructions,
	"rules":        messages.AuditKindRules,
	"import":       messages.AuditKindImport,
	"memory":       messages.AuditKindMemory,
	"map":          messages.AuditKindMap,
	"tools":        messages.AuditKindTools,
}

// why says in l why the section is better kept in the graph.
func (s *Suggestion) why(l messages.Lang) string {
	switch s.What {
	case "drop":
		return l.Get(messages.AuditWhyDrop)
	case "howto":
		return l.Get(messages.AuditWhyHowto)
	}
	return l.Format(messages.AuditWhyConcept, s.rules, s.lines)
}

// WriteText prints the audit for a terminal, in l. Paths, headings and
// numbers are written as they are.
func WriteText(w io.Writer, l messages.Lang, rep *Report) {
	fmt.Fprintln(w, l.Format(messages.AuditHeader, rep.Dir))
	for _, an := range agentNames {
		total := rep.Totals[an.a]
		fmt.Fprintf(w, "\n%s: ", an.name)
		if total == 0 {
			fmt.Fprintln(w, l.Get(messages.AuditNothing))
			continue
		}
		fmt.Fprintln(w, l.Format(messages.AuditTotal, short(total)))
		tw := messages.NewTable(w)
		for _, s := range rep.Sources {
			for _, a := range s.Agents {
				if a == an.a {
					rel := s.Rel
					if inner, ok := strings.CutPrefix(rel, mcpToolsPrefix); ok && s.Kind == "tools" {
						rel = l.Format(messages.AuditMCPTools, strings.TrimSuffix(inner, ")"))
					}
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", rel, short(s.Tokens), l.Get(kindNames[s.Kind]))
				}
			}
		}
		tw.Flush()
	}
	for _, s := range rep.Sources {
		if s.Kind == "map" && len(s.Agents) == 0 {
			fmt.Fprintln(w, "\n"+l.Format(messages.AuditMapUnloaded, s.Rel, short(s.Tokens), "rubi connect --list", "rubi install"))
		}
	}
	if len(rep.Suggest) == 0 {
		fmt.Fprintln(w, "\n"+l.Get(messages.AuditNothingToMove))
		return
	}
	fmt.Fprintln(w, "\n"+l.Format(messages.AuditMove, short(rep.Saving)))
	for _, s := range rep.Suggest {
		fmt.Fprintf(w, "  %s:%d  %q, %s: %s\n", s.Rel, s.Line, s.Heading, l.Format(messages.CountTokens, short(s.Tokens)), s.why(l))
		switch s.What {
		case "concept", "howto":
			fmt.Fprintln(w, l.Format(messages.AuditRegister, s.What, s.Heading))
		case "drop":
			fmt.Fprintln(w, l.Get(messages.AuditDelete))
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
