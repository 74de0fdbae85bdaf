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

// hookRun is how an agent runs rubi's hooks: rubi, as the agent starts it
// (a command name or a path), and program, the hook program installed
// beside that rubi ("" when there is none: rubi's own hook command runs
// them).
type hookRun struct{ rubi, program string }

// newHookRun is the hookRun of rubi, with find (an option's
// FindHookProgram) looking for the hook program beside it; a nil find
// finds none.
func newHookRun(rubi string, find func(rubi string) (string, bool)) hookRun {
	r := hookRun{rubi: rubi}
	if find != nil {
		if p, ok := find(rubi); ok {
			r.program = p
		}
	}
	return r
}

// command is the command line of the hook for event (HookCommand).
func (r hookRun) command(event string) string { return HookCommand(r.rubi, r.program, event) }
