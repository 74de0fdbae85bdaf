package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/rubi-dev/rubi/core/tokens"
)

// CostLimit is the most the tool definitions and instructions may cost,
// in tokens, in every language, over stdio and HTTP, with or without
// xray, and for the vault: they are sent with every message an agent
// makes. The dearest mode (HTTP with xray, French) costs the whole
// limit since register took its confirm argument: a new word anywhere
// must be paid for by another.
const CostLimit = 1000

// Cost is the fixed cost of the server: what a client sends the model with
// every message, estimated with rubi's one token estimator.
type Cost struct {
	// Language is the language of the instructions and descriptions
	// measured (en, pt, fr or ja).
	Language     string     `json:"language"`
	Instructions int        `json:"instructions"`
	Tools        []ToolCost `json:"tools"`
	Total        int        `json:"total"`
	Limit        int        `json:"limit"`
}

// ToolCost is the cost of one tool's definition as tools/list sends it.
type ToolCost struct {
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
}

// FixedCost measures the definitions the server sends: each tool as JSON,
// exactly as tools/list serializes it, plus the instructions.
func (s *Server) FixedCost() (Cost, error) {
	c := Cost{Language: s.opts.Language.String(), Instructions: tokens.Estimate(s.instructions()), Limit: CostLimit}
	c.Total = c.Instructions
	for _, t := range s.tools() {
		data, err := json.Marshal(t.Tool)
		if err != nil {
			return Cost{}, fmt.Errorf("tool %s: %w", t.Tool.Name, err)
		}
		n := tokens.Estimate(string(data))
		c.Tools = append(c.Tools, ToolCost{Name: t.Tool.Name, Tokens: n})
		c.Total += n
	}
	return c, nil
}
