// Package mcpserver is rubi's MCP server: the tools agents call (context,
// register, read, which also reads the map, and memory, with the action
// xray when asked for), the instructions that teach the workflow, and the
// two transports, stdio and streamable HTTP. rubi-mcp (which rubi mcp
// runs in its place) builds a Server and serves it.
//
// # What every message pays for
//
// Tool definitions and instructions travel with every message a client
// sends, so they are short and measured: FixedCost estimates each tool's
// JSON exactly as tools/list sends it, plus the instructions, with
// core/tokens, and TestFixedCostInEveryLanguage holds the total to
// CostLimit (1,000 tokens) in each language, over stdio and over HTTP,
// with and without xray, and for the vault. Measured (tokens):
//
//	      stdio  stdio+xray  HTTP  HTTP+xray  vault
//	en      896         926   954        984    906
//	pt      915         938   976        998    921
//	fr      918         941   977        999    944
//	ja      912         935   976        999    952
//
// What overlapped is one tool: read takes "map" and "module:NAME" (over
// HTTP the map's overview starts with the open projects, which had a tool
// of their own), register takes a curated summary as a node of type
// summary (title map or module:NAME) and supersedes:ID as a link, and
// xray is an action of memory. Annotations are sent only where they
// differ from MCP's defaults (every tool openWorldHint false, a read-only
// one readOnlyHint true). The instructions carry the workflow (read the
// map first, context with terms before exploring, register after, a
// handoff before the context fills) and the descriptions what each tool
// and argument does, so neither repeats the other. They are in
// Options.Language, which rubi-mcp chooses once at start (the language of
// the configuration of --root or of the working directory's project, else
// the locale): a client reads them before any call names a project.
// Japanese, at a token a character, is written in the terse style of
// Japanese reference pages.
//
// # Answers
//
// Tool results stay English in every language: only the agent reads
// them, and a query's answer is a format its budget is counted on. A
// result travels as two copies, the text and the structured content, and
// the client chooses what the model reads: with the mock APIs of e2e,
// Claude Code and Codex forward the structured content alone, Gemini CLI
// the text alone. So the structured content is the same compact answer,
// not a richer copy (answer.go): context's is, per item, the file's path
// or the id read takes, the lines of the units to open, one reason (why)
// and the item's text, then the footer; a node's read is {target, text}.
// context packs so that the larger copy, each as JSON, fits the call's
// budget: items that would pass it are dropped from the end and counted
// as left out. Every ranker's score and reason (the whole
// answer.Result) come only with explain, under the same budget. The
// end-to-end tests hold a call with budget 600 to at most 660 tokens
// reaching the model through each of the three CLIs.
//
// A bad argument, an unknown id or a path outside the project is a tool
// result marked as an error that says what to do, never a protocol error;
// a middleware turns panics into the same, with the stack in the log.
// Arguments are bounded before any work: 4 MiB in all, a 256 KiB query,
// 64 terms, 500 items in one register call; read returns at most 64 KiB
// of a node.
//
// The action xray (Options.Xray, rubi mcp --xray) is opt-in: an
// occasional report for a person, it adds about 30 tokens to every
// message. It reads the agents' logs like rubi xray (since: 30d by
// default, Nd, or all; project filters the sessions and opens no
// project) and answers a few lines, not the whole report.
//
// # Projects
//
// Each call resolves its project: the project argument (HTTP), else
// --root or RUBI_PROJECT_DIR, else the client's roots, else the project
// around the working directory. Roots are asked with an input-required
// result (protocol 2026-07-28); mcp-go turns the same result into a
// roots/list request for older clients and calls the tool again with the
// answer, so one code path serves both. The answer is remembered per
// session until the client sends notifications/roots/list_changed.
//
// The server keeps one pipeline.Engine per project, opened on first use
// (a configuration error is the call's error result, and the next call
// tries again) and reopened when a configuration file changes. Before a
// query it refreshes the index incrementally, at most once per
// RefreshEvery (a second) and at once after a write through the server,
// so results reflect edits made since it started. Writes go through
// core/knowledge and core/memory, atomic and locked across processes:
// several servers and the command line may write one project at once.
//
// With Options.VaultOnly (rubi mcp --vault DIR, for apps such as Claude
// Desktop that start a server with no project folder and an unspecified
// working directory) there is no resolution: the vault folder is the
// project of every call (its .rubi/ holds the index, handoffs and
// conversation memory; its own markdown is walked, but personal/, whose
// notes are read as nodes), every node registered is personal, read has
// no map, and VaultInstructions replace the instructions. The folder is
// checked on the first call (absolute; not a file, the file system's root
// or the home folder; created when missing; writable) and a failure is
// every call's error result until it passes.
//
// # HTTP
//
// The streamable HTTP transport (http.go, conncap.go) serves other
// processes of the machine, so it asks a bearer token on every address
// (made per run on loopback and kept in a 0600 file), checks Origin, cuts
// hanging connections (10 s for headers, 30 s for a request, 2 minutes
// idle), keeps at most 256 connections (the oldest not serving an
// authenticated request closed first), ends sessions idle for an hour,
// reads bodies of at most 4 MiB, opens a project only inside the allowed
// folders, and drains for up to 5 s on shutdown. rubi-mcp sets a 192 MiB
// soft memory limit when it serves HTTP.
//
// # Tests
//
// Every tool is tested through an in-process MCP client (both protocol
// eras, roots included) and the HTTP transport (token, Origin,
// shutdown); rubi and rubi-mcp are built to run rubi mcp as a subprocess
// over stdio, two servers and rubi register writing one project at once,
// and the official MCP TypeScript SDK client (testdata/sdkclient,
// installed by npm ci; missing, it fails the test unless
// RUBI_TEST_NO_NODE=1). FuzzTools holds that a tool call always returns
// a result.
package mcpserver
