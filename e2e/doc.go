// Package e2e runs rubi inside the real agent CLIs, end to end: the Claude
// Code CLI (pinned in agent/connect/testdata/claude, installed by npm ci) loads
// rubi's plugin from the repository root and talks to a mock of the
// Anthropic Messages API served by the test (internal/mockapi, shared with
// bench/ab), which records what the model would have been sent; the real
// Codex CLI (agent/connect/testdata/codex) runs rubi's example hooks against a
// mock of the Responses API (internal/mockapi too), and the real
// Gemini CLI (agent/connect/testdata/gemini) runs headless with what `rubi
// connect gemini --global` wrote against a mock of the Gemini API. The package
// has no code outside its tests, which run on Unix systems.
package e2e
