package main

import (
	"math"
	"slices"
)

// Transports, in the report's order.
const (
	transportCLI    = "CLI text"
	transportText   = "MCP text"
	transportStruct = "MCP structured"
)

var transports = []string{transportCLI, transportText, transportStruct}

// row is one answer: a question of a set, at a budget, through a
// transport.
type row struct {
	Set       string `json:"set"`
	ID        string `json:"id"`
	Budget    string `json:"budget"`
	Transport string `json:"transport"`
	delivery
}

// summary aggregates the rows of one set, budget and transport.
type summary struct {
	Set       string `json:"set"`
	Budget    string `json:"budget"`
	Transport string `json:"transport"`
	N         int    `json:"n"`
	// Budgets are the budgets the answers say they were packed to
	// (distinct, sorted).
	Budgets []int `json:"budgets"`
	// Tokens delivered: median and 90th percentile.
	TokensP50 float64 `json:"tokens_p50"`
	TokensP90 float64 `json:"tokens_p90"`
	// Ratio of the tokens delivered to the budget the answer names.
	RatioP50 float64 `json:"ratio_p50"`
	RatioP90 float64 `json:"ratio_p90"`
	RatioMax float64 `json:"ratio_max"`
	// Outside are the tokens of no item (header, footer, the query and
	// the fields the structured content repeats): median and largest.
	OutsideP50 float64 `json:"outside_p50"`
	OutsideMax float64 `json:"outside_max"`
	// GoldShare is the share of all the tokens delivered that are on gold
	// items (pooled over the answers), in percent.
	GoldShare float64 `json:"gold_share"`
	// GoldShareP50 is the median of the answers' own shares, in percent.
	GoldShareP50 float64 `json:"gold_share_p50"`
	// OffGoldNotes is the share of all the tokens delivered that are on
	// notes not about the gold, in percent (pooled).
	OffGoldNotes float64 `json:"off_gold_notes"`
	// GoldPresent is the share of answers with a gold item, in percent.
	GoldPresent float64 `json:"gold_present"`
	// GoldRankP50 is the median rank of the first gold item, over the
	// answers that have one.
	GoldRankP50 float64 `json:"gold_rank_p50"`
}

// pct is the p-th percentile (0 < p ≤ 100) of xs by the nearest-rank
// method; 0 for none.
func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// summarize aggregates rows by set, budget and transport, in the order
// the sets and budgets first appear, transports in the report's order.
func summarize(rows []row) []summary {
	type key struct{ set, budget, transport string }
	groups := map[key][]row{}
	var order []key
	for _, r := range rows {
		for _, t := range transports {
			k := key{r.Set, r.Budget, t}
			if !slices.Contains(order, k) {
				order = append(order, k)
			}
		}
		k := key{r.Set, r.Budget, r.Transport}
		groups[k] = append(groups[k], r)
	}
	var out []summary
	for _, k := range order {
		rs := groups[k]
		if len(rs) == 0 {
			continue
		}
		s := summary{Set: k.set, Budget: k.budget, Transport: k.transport, N: len(rs)}
		var toks, ratios, shares, ranks, outside []float64
		var all, gold, offNotes, present int
		for _, r := range rs {
			toks = append(toks, float64(r.Tokens))
			if r.delivery.Budget > 0 {
				ratios = append(ratios, float64(r.Tokens)/float64(r.delivery.Budget))
				if !slices.Contains(s.Budgets, r.delivery.Budget) {
					s.Budgets = append(s.Budgets, r.delivery.Budget)
				}
			}
			all += r.Tokens
			in := 0
			for _, it := range r.Items {
				in += it.Tokens
				if isNote(it.Kind) && !it.Gold {
					offNotes += it.Tokens
				}
			}
			outside = append(outside, float64(max(0, r.Tokens-in)))
			gold += r.GoldTokens
			if r.Tokens > 0 {
				shares = append(shares, 100*float64(r.GoldTokens)/float64(r.Tokens))
			}
			if r.GoldRank > 0 {
				present++
				ranks = append(ranks, float64(r.GoldRank))
			}
		}
		slices.Sort(s.Budgets)
		s.TokensP50, s.TokensP90 = pct(toks, 50), pct(toks, 90)
		s.RatioP50, s.RatioP90, s.RatioMax = pct(ratios, 50), pct(ratios, 90), pct(ratios, 100)
		if all > 0 {
			s.GoldShare = 100 * float64(gold) / float64(all)
			s.OffGoldNotes = 100 * float64(offNotes) / float64(all)
		}
		s.GoldShareP50 = pct(shares, 50)
		s.OutsideP50, s.OutsideMax = pct(outside, 50), pct(outside, 100)
		s.GoldPresent = 100 * float64(present) / float64(len(rs))
		s.GoldRankP50 = pct(ranks, 50)
		out = append(out, s)
	}
	return out
}

// recallSummary aggregates the recall set's prompts.
type recallSummary struct {
	Prompts   int `json:"prompts"`
	Named     int `json:"named"`
	Unrelated int `json:"unrelated"`
	// NamedHit is the share of the named prompts whose injection held
	// the named note, in percent.
	NamedHit float64 `json:"named_hit"`
	// OthersAlongside is the mean count of other notes injected with the
	// named note, over the prompts that recalled it.
	OthersAlongside float64 `json:"others_alongside"`
	// OthersNamed is the mean count of notes other than the named one
	// injected, over all the named prompts.
	OthersNamed float64 `json:"others_named"`
	// UnrelatedInjected is the share of the unrelated prompts with any
	// injection, in percent.
	UnrelatedInjected float64 `json:"unrelated_injected"`
	// Tokens injected, median and 90th percentile over the prompts of
	// each kind (0 for a prompt with nothing injected), and the median
	// over the injections made.
	NamedTokensP50     float64 `json:"named_tokens_p50"`
	NamedTokensP90     float64 `json:"named_tokens_p90"`
	UnrelatedTokensP50 float64 `json:"unrelated_tokens_p50"`
	UnrelatedTokensP90 float64 `json:"unrelated_tokens_p90"`
	InjectionTokensP50 float64 `json:"injection_tokens_p50"`
	InjectionTokensP90 float64 `json:"injection_tokens_p90"`
	Injections         int     `json:"injections"`
}

func summarizeRecall(rows []recallRow) recallSummary {
	s := recallSummary{Prompts: len(rows)}
	var hits, othersHit, othersAll, injectedUnrelated int
	var named, unrelated, injections []float64
	for _, r := range rows {
		if r.Tokens > 0 {
			injections = append(injections, float64(r.Tokens))
		}
		if r.Note == "" {
			s.Unrelated++
			unrelated = append(unrelated, float64(r.Tokens))
			if r.Tokens > 0 {
				injectedUnrelated++
			}
			continue
		}
		s.Named++
		named = append(named, float64(r.Tokens))
		othersAll += r.Others
		if r.Hit {
			hits++
			othersHit += r.Others
		}
	}
	if s.Named > 0 {
		s.NamedHit = 100 * float64(hits) / float64(s.Named)
		s.OthersNamed = float64(othersAll) / float64(s.Named)
	}
	if hits > 0 {
		s.OthersAlongside = float64(othersHit) / float64(hits)
	}
	if s.Unrelated > 0 {
		s.UnrelatedInjected = 100 * float64(injectedUnrelated) / float64(s.Unrelated)
	}
	s.NamedTokensP50, s.NamedTokensP90 = pct(named, 50), pct(named, 90)
	s.UnrelatedTokensP50, s.UnrelatedTokensP90 = pct(unrelated, 50), pct(unrelated, 90)
	s.InjectionTokensP50, s.InjectionTokensP90 = pct(injections, 50), pct(injections, 90)
	s.Injections = len(injections)
	return s
}
