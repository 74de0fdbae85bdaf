package connect

// rubi is four programs, installed together by go install ./cmd/...;
// agents' configurations name two of them.

// HookProgram is rubi's hook program (cmd/rubi-hook): `rubi hook` in a
// binary that starts in half the time, for the hooks that run on every
// prompt and tool call.
const HookProgram = "rubi-hook"

// MCPProgram is rubi's MCP server (cmd/rubi-mcp), which `rubi mcp` runs:
// the server's packages would slow every other command's start.
const MCPProgram = "rubi-mcp"

// FindHookProgram finds rubi-hook for the rubi an agent starts (a command
// name or a path), as the program that links this package finds its
// siblings: rubi's command line sets it when it starts. Until then it
// finds none, and connectors write rubi's own hook command.
var FindHookProgram = func(rubi string) (string, bool) { return "", false }
