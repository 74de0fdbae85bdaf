package mcpserver

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	mcpgo "github.com/mark3labs/mcp-go/server"

	"github.com/rubi-dev/rubi/agent/loopback"
)

// Path is where the streamable HTTP endpoint is served.
const Path = "/mcp"

// TokenEnv is the environment variable holding the bearer token.
const TokenEnv = "RUBI_MCP_TOKEN"

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token must come with every request as "Authorization: Bearer
	// <token>", on loopback too: any local user can reach a loopback port,
	// and the server reads and writes the owner's projects. It is at least
	// MinTokenLength characters (loopback.NewToken makes one).
	Token string
	// Origins are the browser origins allowed besides loopback ones
	// ("https://app.example.com"). A request without an Origin header
	// (any non-browser client) is not affected.
	Origins []string
	// ShutdownTimeout bounds how long a shutdown waits for calls under
	// way; 0 means 5 seconds.
	ShutdownTimeout time.Duration
	// HeaderTimeout bounds the reading of a request's headers,
	// ReadTimeout the reading of a whole request (headers and body), and
	// IdleTimeout a kept-alive connection's wait for its next request; 0
	// means DefaultHeaderTimeout, DefaultReadTimeout, DefaultIdleTimeout.
	// A response is not bounded: a client's event stream stays open.
	HeaderTimeout, ReadTimeout, IdleTimeout time.Duration
	// MaxConns caps the open connections (0: DefaultMaxConns). Past it, a
	// new connection closes the oldest one that is not serving a request
	// with the token (a slow or idle connection, anyone's); when every
	// one is, the new one is closed.
	MaxConns int
	// SessionIdle ends a client session after this long without a
	// request (0: DefaultSessionIdle): its next request gets 404 and
	// the client starts a new session, as the protocol says.
	SessionIdle time.Duration
}

// The transport's bounds unless HTTPOptions set others. A request's
// headers and body are a few kilobytes, sent at once by every client: the
// timeouts only cut connections that hang (20,000 that never finished
// their headers once made a normal request wait 26 s).
const (
	DefaultHeaderTimeout = 10 * time.Second
	DefaultReadTimeout   = 30 * time.Second
	DefaultIdleTimeout   = 2 * time.Minute
	DefaultMaxConns      = 256
	DefaultSessionIdle   = time.Hour
)

// TokenPath is the file rubi mcp --http writes the token it made to when
// given none, for the server listening on port: in the user's state folder
// ($XDG_STATE_HOME/rubi, else ~/.local/state/rubi), never in a project.
// The file is the user's alone (0600, in a 0700 folder), so a client's
// configuration can read it (bearer_token_env_var =
// "$(cat …)", a headers helper) where other local users cannot.
func TokenPath(port string) (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no folder to keep the token in (%w): give one with --token or %s", err, TokenEnv)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "rubi", "mcp-"+port+".token"), nil
}

// ListenAddr turns the --http argument into an address to listen on. A
// bare port ("8765") or an empty host (":8765") means loopback: reaching
// rubi from other machines must be asked for by naming a host.
func ListenAddr(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: give host:port or a port, e.g. 127.0.0.1:8765", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// MinTokenLength is the shortest bearer token accepted off loopback: a
// token guards every project the server can open, and a short one is
// guessed by a scan.
const MinTokenLength = 16

// MaxBody bounds one HTTP request's body. The largest call rubi takes is
// a note or a handoff; a body past this is refused before it is read
// (a 150 MB query once took 8.7 GB to answer).
const MaxBody = 4 << 20

// CheckHTTP refuses a configuration without a token, or with one too
// short to guard the server: off loopback it would expose this machine's
// projects to the network, on loopback to every local user.
func CheckHTTP(addr string, opts HTTPOptions) error {
	switch {
	case opts.Token == "" && !loopback.IsLoopback(addr):
		return fmt.Errorf("listening on %s exposes this machine's projects to the network: set a bearer token with --token or %s, or listen on 127.0.0.1", addr, TokenEnv)
	case opts.Token == "":
		return fmt.Errorf("listening on %s without a bearer token would serve any local user: set one with --token or %s", addr, TokenEnv)
	case len(opts.Token) < MinTokenLength:
		return fmt.Errorf("listening on %s needs a bearer token of at least %d characters (this one has %d): make one with `openssl rand -hex 16`", addr, MinTokenLength, len(opts.Token))
	}
	return nil
}

// handler is the streamable HTTP endpoint (at Path) with the token and
// Origin checks in front of it, and the transport under it, whose session
// sweeper runs until its Shutdown. Every request needs opts.Token: with
// none, every request is refused.
func (s *Server) handler(opts HTTPOptions) (*guard, *mcpgo.StreamableHTTPServer, *sessions) {
	transportLog := s.logger.StandardWriter(&hclog.StandardLoggerOptions{ForceLevel: hclog.Warn})
	idle := opts.SessionIdle
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	ids := &sessions{forget: s.forgetSession}
	mcp := mcpgo.NewStreamableHTTPServer(s.mcp,
		mcpgo.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(transportLog, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		// Sessions the server knows, so an expired one is refused (the
		// default manager accepts any well-formed id for ever).
		mcpgo.WithSessionIdManager(ids),
		mcpgo.WithSessionIdleTTL(idle),
	)
	mux := http.NewServeMux()
	mux.Handle(Path, mcp)
	return &guard{next: mux, token: opts.Token, origins: opts.Origins, logger: s.logger}, mcp, ids
}

// forgetSession drops what the server keeps for a client session that
// ended (the project its roots named).
func (s *Server) forgetSession(id string) {
	s.mu.Lock()
	delete(s.roots, id)
	s.mu.Unlock()
}

// sessions are the client sessions of the streamable HTTP transport: an id
// is made at initialize and valid until the client ends it (DELETE) or it
// expires (HTTPOptions.SessionIdle); a request with an unknown id gets 404.
type sessions struct {
	live   sync.Map
	forget func(id string)
}

// sessionPrefix is how mcp-go's ids start; clients treat ids as opaque.
const sessionPrefix = "mcp-session-"

func (m *sessions) Generate() string {
	id := sessionPrefix + rand.Text()
	m.live.Store(id, true)
	return id
}

func (m *sessions) Validate(id string) (bool, error) {
	if _, ok := m.live.Load(id); !ok {
		return false, fmt.Errorf("unknown or expired session %q", id)
	}
	return false, nil
}

func (m *sessions) Terminate(id string) (bool, error) {
	if _, ok := m.live.LoadAndDelete(id); ok && m.forget != nil {
		m.forget(id)
	}
	return false, nil
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx is done,
// then shuts down gracefully: it stops accepting, lets calls under way
// finish (up to ShutdownTimeout) and returns.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	if err := CheckHTTP(ln.Addr().String(), opts); err != nil {
		ln.Close()
		return err
	}
	h, mcp, _ := s.handler(opts)
	defer mcp.Shutdown(context.Background()) // the session sweeper
	conns := newConnCap(ln, or(opts.MaxConns, DefaultMaxConns), s.logger)
	h.serving = conns.serving
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: or(opts.HeaderTimeout, DefaultHeaderTimeout),
		ReadTimeout:       or(opts.ReadTimeout, DefaultReadTimeout),
		IdleTimeout:       or(opts.IdleTimeout, DefaultIdleTimeout),
		ConnContext:       conns.context,
		ErrorLog:          s.logger.StandardLogger(&hclog.StandardLoggerOptions{ForceLevel: hclog.Debug}),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(conns) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	wait := opts.ShutdownTimeout
	if wait <= 0 {
		wait = 5 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	// End the clients' listening streams first: the HTTP server waits for
	// every handler to return.
	mcp.CloseSessions(sctx)
	err := srv.Shutdown(sctx)
	if serr := <-done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// or is v, or def when v is zero.
func or[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// guard checks the bearer token and the Origin header before the MCP
// endpoint sees a request.
type guard struct {
	next    http.Handler
	token   string
	origins []string
	logger  hclog.Logger
	// serving, when set, marks the request's connection as serving a
	// request with the token while it runs (connCap keeps it open).
	serving func(r *http.Request) (done func())
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !loopback.OriginAllowed(origin, g.origins) {
		g.logger.Warn("request refused: origin not allowed", "origin", origin, "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: origin "+origin+" is not allowed (rubi mcp --allow-origin)", http.StatusForbidden)
		return
	}
	// Without a token configured nothing matches.
	if !loopback.Bearer(r.Header.Get("Authorization"), g.token) {
		g.logger.Warn("request refused: missing or wrong bearer token", "remote", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="rubi"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		return
	}
	if g.serving != nil {
		defer g.serving(r)()
	}
	if r.ContentLength > MaxBody {
		g.logger.Warn("request refused: body too large", "bytes", r.ContentLength, "remote", r.RemoteAddr)
		http.Error(w, fmt.Sprintf("Request Entity Too Large: rubi takes bodies of up to %d bytes", MaxBody), http.StatusRequestEntityTooLarge)
		return
	}
	// The read deadline (HTTPOptions.ReadTimeout) bounds sending the
	// request; once its body is in, the response may take as long as the
	// call (a first index) or stream for the session (GET): the server's
	// read of the connection after the body must not time out and cancel
	// it.
	rc := http.NewResponseController(w)
	if r.Body == nil || r.Body == http.NoBody {
		_ = rc.SetReadDeadline(time.Time{})
	} else {
		r.Body = &untilEOF{ReadCloser: http.MaxBytesReader(w, r.Body, MaxBody), atEOF: func() { _ = rc.SetReadDeadline(time.Time{}) }}
	}
	g.next.ServeHTTP(w, r)
}

// untilEOF calls atEOF once the body it reads has ended.
type untilEOF struct {
	io.ReadCloser
	atEOF func()
	once  sync.Once
}

func (u *untilEOF) Read(p []byte) (int, error) {
	n, err := u.ReadCloser.Read(p)
	if err == io.EOF {
		u.once.Do(u.atEOF)
	}
	return n, err
}
