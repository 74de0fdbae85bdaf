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
//
// Each session runs in a throwaway HOME with rubi built from the checkout
// on PATH and the proxy variables pointing at the mock too, so any call
// beyond it is recorded and fails the test. The tests assert on the
// requests the mock records: the map and the critical notes in the
// SessionStart context; a registered gotcha recalled for a prompt about it
// and nothing for an unrelated one; a whole Read of a 5,000-line file
// answered by rubi's denial and the second one allowed (for Codex, a lone
// cat of the file); the plugin's tools, commands, skill and subagent
// offered to the model, and the same sessions again with no plugin after
// rubi install --hooks wrote the hooks into the throwaway settings.json;
// that the hooks logged no error; and that no process a session started
// (found by a marker in their environment) outlives it. budget_test.go
// holds a context call with budget 600 to at most 660 tokens reaching the
// model through each CLI (Claude Code and Codex forward the structured
// content, Gemini CLI the text).
//
// chunks_test.go drives /rubi:analyze ID and /rubi:parallel QUESTION: the
// main model is scripted to call Agent with rubi:chunk-analyst, or the
// memory tool's grep then one Agent call per chunk in one message; the
// mock tells a subagent's requests by its system prompt (the agent file's
// body) and checks that it is offered only rubi's read and memory, that
// its read result holds its chunk's marker (or rubi's "no such chunk"),
// that the parallel subagents' first requests arrive together, and that
// no main-thread request holds a chunk's text.
//
// The same Claude Code CLI runs claude plugin validate --strict on a copy
// of the repository's files without the git-ignored ones (its
// node_modules would be read as subagents), and installs the plugin as a
// marketplace (claude plugin marketplace add, plugin install rubi@rubi);
// the plugin's hooks.json is held to connect.PluginHooksJSON. Codex runs
// with rubi's example hooks.json and config.toml in a throwaway
// CODEX_HOME, the mock as its model provider, and the features that reach
// the network off (curated plugin sync, metrics, updates). A missing CLI
// fails the tests and says to run npm ci, unless RUBI_TEST_NO_NODE=1.
package e2e
