package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	mcpgo "github.com/mark3labs/mcp-go/server"
)

// Path is where the streamable HTTP endpoint is served.
const Path = "/mcp"

// TokenEnv is the environment variable holding the bearer token.
const TokenEnv = "RUBI_MCP_TOKEN"

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer <token>". It is required to listen on
	// anything but a loopback address.
	Token string
	// Origins are the browser origins allowed besides loopback ones
	// ("https://app.example.com"). A request without an Origin header
	// (any non-browser client) is not affected.
	Origins []string
	// ShutdownTimeout bounds how long a shutdown waits for calls under
	// way; 0 means 5 seconds.
	ShutdownTimeout time.Duration
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

// IsLoopback reports whether an address (host:port) listens only on this
// machine.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}

// MinTokenLength is the shortest bearer token accepted off loopback: a
// token guards every project the server can open, and a short one is
// guessed by a scan.
const MinTokenLength = 16

// MaxBody bounds one HTTP request's body. The largest call rubi takes is
// a note or a handoff; a body past this is refused before it is read
// (a 150 MB query once took 8.7 GB to answer).
const MaxBody = 4 << 20

// CheckHTTP refuses a configuration that would expose the server to the
// network without a token, or with one too short to guard it.
func CheckHTTP(addr string, opts HTTPOptions) error {
	if IsLoopback(addr) {
		return nil
	}
	switch {
	case opts.Token == "":
		return fmt.Errorf("listening on %s exposes this machine's projects to the network: set a bearer token with --token or %s, or listen on 127.0.0.1", addr, TokenEnv)
	case len(opts.Token) < MinTokenLength:
		return fmt.Errorf("listening on %s needs a bearer token of at least %d characters (this one has %d): make one with `openssl rand -hex 16`, or listen on 127.0.0.1", addr, MinTokenLength, len(opts.Token))
	}
	return nil
}

// Handler returns the streamable HTTP endpoint (at Path) with the token
// and Origin checks in front of it.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	h, _ := s.handler(opts)
	return h
}

func (s *Server) handler(opts HTTPOptions) (http.Handler, *mcpgo.StreamableHTTPServer) {
	transportLog := s.logger.StandardWriter(&hclog.StandardLoggerOptions{ForceLevel: hclog.Warn})
	mcp := mcpgo.NewStreamableHTTPServer(s.mcp,
		mcpgo.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(transportLog, &slog.HandlerOptions{Level: slog.LevelWarn}))),
	)
	mux := http.NewServeMux()
	mux.Handle(Path, mcp)
	return &guard{next: mux, token: opts.Token, origins: opts.Origins, logger: s.logger}, mcp
}

// ServeHTTP serves the streamable HTTP transport on ln until ctx is done,
// then shuts down gracefully: it stops accepting, lets calls under way
// finish (up to ShutdownTimeout) and returns.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	if err := CheckHTTP(ln.Addr().String(), opts); err != nil {
		ln.Close()
		return err
	}
	h, mcp := s.handler(opts)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          s.logger.StandardLogger(&hclog.StandardLoggerOptions{ForceLevel: hclog.Debug}),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
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

// guard checks the bearer token and the Origin header before the MCP
// endpoint sees a request.
type guard struct {
	next    http.Handler
	token   string
	origins []string
	logger  hclog.Logger
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !g.originAllowed(origin) {
		g.logger.Warn("request refused: origin not allowed", "origin", origin, "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: origin "+origin+" is not allowed (rubi mcp --allow-origin)", http.StatusForbidden)
		return
	}
	if g.token != "" {
		// The scheme is case-insensitive (RFC 9110, section 11.1).
		scheme, given, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(given)), []byte(g.token)) != 1 {
			g.logger.Warn("request refused: missing or wrong bearer token", "remote", r.RemoteAddr)
			w.Header().Set("WWW-Authenticate", `Bearer realm="rubi"`)
			http.Error(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
			return
		}
	}
	if r.ContentLength > MaxBody {
		g.logger.Warn("request refused: body too large", "bytes", r.ContentLength, "remote", r.RemoteAddr)
		http.Error(w, fmt.Sprintf("Request Entity Too Large: rubi takes bodies of up to %d bytes", MaxBody), http.StatusRequestEntityTooLarge)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	}
	g.next.ServeHTTP(w, r)
}

// originAllowed accepts loopback origins (a page served from this
// machine) and the configured ones; "null" and anything else is refused.
func (g *guard) originAllowed(origin string) bool {
	if slices.Contains(g.origins, strings.TrimSuffix(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopback(u.Host)
}
