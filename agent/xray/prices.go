package xray

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/agent/transcript"
)

// Ratios price each kind of token relative to uncached input (1). The
// defaults are Anthropic's: a cache read costs 0.1×, a cache write 1.25×
// (5-minute lifetime) or 2× (1 hour), an output token 5×.
type Ratios struct {
	Input        float64 `json:"input"`
	CacheRead    float64 `json:"cache_read"`
	CacheWrite5m float64 `json:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h"`
	Output       float64 `json:"output"`
}

// DefaultRatios are the ratios rubi xray uses unless told otherwise.
func DefaultRatios() Ratios {
	return Ratios{Input: 1, CacheRead: 0.1, CacheWrite5m: 1.25, CacheWrite1h: 2, Output: 5}
}

// Cost prices u in input-token equivalents.
func (r Ratios) Cost(u transcript.Usage) float64 {
	return float64(u.Input)*r.Input + float64(u.CacheRead)*r.CacheRead +
		float64(u.CacheWrite5m)*r.CacheWrite5m + float64(u.CacheWrite1h)*r.CacheWrite1h + float64(u.Output)*r.Output
}

// Price is a model's list price in US dollars per million tokens.
type Price struct {
	Input, Output, CacheRead, CacheWrite5m, CacheWrite1h float64
}

// USD prices u.
func (p Price) USD(u transcript.Usage) float64 {
	return (float64(u.Input)*p.Input + float64(u.Output)*p.Output + float64(u.CacheRead)*p.CacheRead +
		float64(u.CacheWrite5m)*p.CacheWrite5m + float64(u.CacheWrite1h)*p.CacheWrite1h) / 1e6
}

// anthropic prices a Claude model from its input and output prices: cache
// reads at 0.1×, writes at 1.25× (5 minutes) and 2× (1 hour).
func anthropic(in, out float64) Price {
	return Price{Input: in, Output: out, CacheRead: in / 10, CacheWrite5m: in * 1.25, CacheWrite1h: in * 2}
}

// openai prices an OpenAI model: cached input at its own price, no charge
// for writing the cache.
func openai(in, out, cached float64) Price {
	return Price{Input: in, Output: out, CacheRead: cached, CacheWrite5m: in, CacheWrite1h: in}
}

// prices are the public list prices rubi knows, matched by the longest
// prefix of the model name. Long-context surcharges are not modelled.
var prices = []struct {
	prefix string
	price  Price
}{
	{"claude-opus-4-5", anthropic(5, 25)},
	{"claude-opus-4", anthropic(15, 75)},
	{"claude-3-opus", anthropic(15, 75)},
	{"claude-sonnet-4", anthropic(3, 15)},
	{"claude-3-7-sonnet", anthropic(3, 15)},
	{"claude-3-5-sonnet", anthropic(3, 15)},
	{"claude-haiku-4-5", anthropic(1, 5)},
	{"claude-3-5-haiku", anthropic(0.8, 4)},
	{"claude-3-haiku", anthropic(0.25, 1.25)},
	{"gpt-5-nano", openai(0.05, 0.4, 0.005)},
	{"gpt-5-mini", openai(0.25, 2, 0.025)},
	{"gpt-5", openai(1.25, 10, 0.125)},
	{"gpt-4.1-mini", openai(0.4, 1.6, 0.1)},
	{"gpt-4.1", openai(2, 8, 0.5)},
	{"o4-mini", openai(1.1, 4.4, 0.275)},
	{"o3", openai(2, 8, 0.5)},
}

// PriceOf returns the list price of a model, if rubi knows it.
func PriceOf(model string) (Price, bool) {
	best := -1
	for i, p := range prices {
		if strings.HasPrefix(model, p.prefix) && (best < 0 || len(p.prefix) > len(prices[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Price{}, false
	}
	return prices[best].price, true
}

// ParseTokens reads a token count as people write it: 150000, 150k, 1m,
// 1.5M.
func ParseTokens(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"):
		mult, t = 1e3, strings.TrimSuffix(t, "k")
	case strings.HasSuffix(t, "m"):
		mult, t = 1e6, strings.TrimSuffix(t, "m")
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q is not a token count (write 150000, 150k or 1m)", s)
	}
	return int64(f*mult + 0.5), nil
}

// FormatTokens writes a token count short: 950, 48k, 1.2M.
func FormatTokens(n int64) string {
	switch {
	case n >= 1e9:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e9)) + "B"
	case n >= 1e6:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e6)) + "M"
	case n >= 1e4:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1e3)) + "k"
	}
	return strconv.FormatInt(n, 10)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }
