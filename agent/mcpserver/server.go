package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/mark3labs/mcp-go/mcp"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// Name is the server's name in the MCP handshake; clients namespace the
// tools with it (mcp__rubi__context).
const Name = "rubi"

// DefaultRefreshEvery is how long an index refresh is trusted before the
// next query walks the project again.
const DefaultRefreshEvery = time.Second

// Instructions teach an agent the workflow, in English (Options.Language
// chooses; the catalog, core/messages, holds every language's). They are
// sent with every message, like the tool definitions: keep them to a few
// lines.
var Instructions = messages.English.Get(messages.ToolInstructions)

// Options configure a Server.
type Options struct {
	// ProjectDir, when set, is the project every call uses (--root or
	// RUBI_PROJECT_DIR); the client's roots are not asked for.
	ProjectDir string
	// WorkDir is the fallback when neither ProjectDir nor the client's
	// roots name a project; the project around it is used.
	WorkDir string
	// Configs are extra configuration layers, read after each project's
	// rubi.hcl.
	Configs []string
	// Multi serves several projects at once (HTTP): it adds a project
	// argument to every tool, and the open projects to the map.
	Multi bool
	// Allow lists the folders inside which a call's project argument may
	// open a project it names by path (--allow DIR). ProjectDir, the
	// project around WorkDir and the project the client's roots name are
	// always allowed; any other directory on the machine is refused, so a
	// local process cannot make the server read and write .rubi/ there.
	Allow []string
	// Xray offers memory's action xray, a summary of the user's agent sessions
	// (rubi xray). It is off by default: its definition is paid for in
	// every message, and the report is an occasional one for a person.
	Xray bool
	// RefreshEvery debounces the index refresh before queries; 0 means
	// DefaultRefreshEvery. A write through the server always triggers one.
	RefreshEvery time.Duration
	// Logger receives the server's logs; it must not write to the stdio
	// transport's output. nil discards them.
	Logger hclog.Logger
	// Engine is what the program decides for the engines the server
	// opens, one per project: the Launcher of subprocess plugins that
	// rubi-mcp's main makes. Its Logger is replaced by Logger's, named
	// for the project.
	Engine pipeline.Options
	// VaultOnly serves the personal vault alone, for apps that give the
	// server no project folder (Claude Desktop's extension, rubi mcp
	// --vault): the vault folder is the project of every call (its index
	// and handoffs in <vault>/.rubi/), every node registered is personal
	// (<vault>/personal/knowledge/), read has no map and the
	// instructions are VaultInstructions. ProjectDir, WorkDir and the
	// client's roots are not used. A vault that is not a folder rubi may
	// write into makes every call an error naming it.
	VaultOnly bool
	// Vault names the vault of VaultOnly; "" is RUBI_VAULT, else the vault
	// setting of the configuration layers (~/rubi-vault by default). A
	// missing folder is created.
	Vault string
	// Language is the language of the instructions and the tool
	// descriptions (English by default): one for every project the
	// server serves, since a client reads them before any call names a
	// project. Tool results are English in every language.
	Language messages.Lang
	// Now is the conversation memory's clock: chunk times, retention and
	// relative dates. nil is time.Now.
	Now func() time.Time
}

// now is the time by the server's clock.
func (s *Server) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// Server is rubi's MCP server. It is safe for concurrent use.
type Server struct {
	opts   Options
	logger hclog.Logger
	mcp    *mcpgo.MCPServer

	mu       sync.Mutex
	projects map[string]*project // by root
	// roots remembers, per client session, the project its roots named
	// ("" when they named none), until the client says they changed.
	roots  map[string]string
	closed bool
	// vault is VaultOnly's folder once checked.
	vault string
}

// New returns a server; Close releases the engines it opens.
func New(opts Options) *Server {
	if opts.RefreshEvery <= 0 {
		opts.RefreshEvery = DefaultRefreshEvery
	}
	logger := opts.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	s := &Server{opts: opts, logger: logger, projects: map[string]*project{}, roots: map[string]string{}}
	s.mcp = mcpgo.NewMCPServer(Name, rubi.Version,
		mcpgo.WithInstructions(s.instructions()),
		mcpgo.WithToolCapabilities(false),
		mcpgo.WithToolHandlerMiddleware(s.recovering),
	)
	for _, t := range s.tools() {
		s.mcp.AddTool(t.Tool, t.Handler)
	}
	// A client whose roots changed says so; ask it again on its next call.
	// A notification that comes without its session forgets every client's.
	s.mcp.AddNotificationHandler(string(mcp.MethodNotificationRootsListChanged), func(ctx context.Context, _ mcp.JSONRPCNotification) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if id := sessionID(ctx); id != "" {
			delete(s.roots, id)
		} else {
			clear(s.roots)
		}
	})
	return s
}

// instructions are the server's instructions: Instructions, or
// VaultInstructions with VaultOnly.
func (s *Server) instructions() string {
	if s.opts.VaultOnly {
		return s.msg(messages.ToolVaultInstructions)
	}
	return s.msg(messages.ToolInstructions)
}

// msg is a message of the catalog in the server's language.
func (s *Server) msg(k messages.Key) string { return s.opts.Language.Get(k) }

// MCP returns the underlying MCP server, to serve it over any transport.
func (s *Server) MCP() *mcpgo.MCPServer { return s.mcp }

// ServeStdio serves one client over in and out until in ends or ctx is
// done. Nothing but protocol messages is written to out.
//
// When in ends (the client quit), calls still under way are cancelled:
// the process must not outlive its client by a long query or index.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stdio := mcpgo.NewStdioServer(s.mcp)
	stdio.SetErrorLogger(log.New(s.logger.StandardWriter(&hclog.StandardLoggerOptions{ForceLevel: hclog.Error}), "", 0))
	err := stdio.Listen(ctx, in, out)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Close closes every engine the server opened (stopping their plugin
// processes). Calls after Close fail with a message saying the server is
// shutting down.
func (s *Server) Close() {
	s.mu.Lock()
	ps := s.projects
	s.projects, s.closed = map[string]*project{}, true
	s.mu.Unlock()
	roots := make([]string, 0, len(ps))
	for root := range ps {
		roots = append(roots, root)
	}
	sort.Strings(roots)
	for _, root := range roots {
		ps[root].close()
	}
}

// recovering turns a panic in a tool into an error result and a log line
// with the stack: one bad call must not take the server down.
func (s *Server) recovering(next mcpgo.ToolHandlerFunc) mcpgo.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.logger.Error("tool panicked", "tool", req.Params.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				res, err = mcp.NewToolResultErrorf("rubi failed inside %s (%v); the server is still running: retry, and if it fails again report it with rubi's log", req.Params.Name, r), nil
			}
		}()
		return next(ctx, req)
	}
}

// sessionID is the client session of a request, "" when there is none to
// remember things by.
func sessionID(ctx context.Context) string {
	if sess := mcpgo.ClientSessionFromContext(ctx); sess != nil {
		return sess.SessionID()
	}
	return ""
}
