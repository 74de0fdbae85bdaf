package view

import (
	"cmp"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/agent/loopback"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// assets are the pages' scripts, style and the vendored graph library,
// served under /assets/; page is every page's frame.
var (
	//go:embed assets
	assets embed.FS
	//go:embed page.html
	pageHTML string
)

// Options configure a Server.
type Options struct {
	// Engine answers every page from the project's index, as it is: the
	// server runs no index (the command refreshes the index once before
	// serving). The server does not close it.
	Engine *pipeline.Engine
	// Xray writes the token X-ray page (agent/xray's HTML) of the
	// project's agent sessions; nil: the Tokens page says there is none.
	Xray func(ctx context.Context, w io.Writer) error
	// XrayDays is how many days of sessions Xray reads, for the page.
	XrayDays int
	// Token is the secret every request must show; "" makes one
	// (loopback.NewToken).
	Token string
	// Logger receives the refused requests; nil: none.
	Logger hclog.Logger
}

// Server is the web view of one project.
type Server struct {
	eng    *pipeline.Engine
	xray   func(ctx context.Context, w io.Writer) error
	days   int
	token  string
	cookie string
	logger hclog.Logger
	page   *template.Template
	static http.Handler
	// mu serializes the engine's reads: one person looks at a time, and
	// a page's few requests need not race over the engine's caches.
	mu sync.Mutex
	// grace is how long Serve lets requests under way finish once it is
	// told to stop (shutdownGrace unless a test sets it).
	grace time.Duration
}

// shutdownGrace is how long the view lets requests under way finish when
// it is stopped: past it their connections are closed, since the user
// asked the view to stop (an X-ray over large session logs can run on).
const shutdownGrace = 5 * time.Second

// MaxQuery caps a request's query string (the search question among it),
// in bytes; MaxQuestion caps the question itself, in characters.
const (
	MaxQuery    = 4 << 10
	MaxQuestion = 1000
)

// New returns the view of the project o.Engine indexes.
func New(o Options) (*Server, error) {
	if o.Engine == nil {
		return nil, errors.New("view: no engine")
	}
	token := o.Token
	if token == "" {
		token = loopback.NewToken()
	}
	if len(token) < 16 {
		return nil, fmt.Errorf("view: a token of %d characters is too short to guard the project (16 at least)", len(token))
	}
	logger := o.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	page, err := template.New("page").Parse(pageHTML)
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(token))
	return &Server{
		eng: o.Engine, xray: o.Xray, days: o.XrayDays, token: token, logger: logger, page: page,
		// The cookie's name is the token's own, so that two views on
		// this machine (cookies do not tell ports apart) keep theirs.
		cookie: "rubi_view_" + hex.EncodeToString(sum[:6]),
		static: http.StripPrefix("/assets/", http.FileServerFS(sub)),
	}, nil
}

// Token is the secret of the server's requests: the URL's ?token= on a
// page's first load, the cookie that load sets, or an Authorization:
// Bearer header.
func (s *Server) Token() string { return s.token }

// URL is the address to open: the view at addr, with its token.
func (s *Server) URL(addr net.Addr) string {
	return "http://" + addr.String() + "/?token=" + s.token
}

// pageNames are the pages, in the navigation's order; each is served at
// /NAME as a <main id="page" data-page="NAME">, titled in pageTitles.
var (
	pageNames  = []string{"map", "knowledge", "timeline", "search", "tokens"}
	pageTitles = map[string]string{"map": "Map", "knowledge": "Knowledge", "timeline": "Timeline", "search": "Search", "tokens": "Tokens"}
)

// Handler serves the pages, their assets and the JSON API, every request
// checked first (guard).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/map", http.StatusSeeOther)
	})
	for _, name := range pageNames {
		mux.HandleFunc("GET /"+name, s.servePage)
	}
	mux.Handle("GET /assets/", s.serveAssets())
	mux.HandleFunc("GET /xray", s.serveXray)
	s.api(mux)
	return s.guard(mux)
}

// securityHeaders are every response's: the pages run their own scripts
// alone (no inline script, nothing from elsewhere), are framed by none
// but the view, and name no referrer.
func securityHeaders(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// cytoscapeStyle is the one style element the graph library adds to a
// page; the policy names it by its hash rather than allow inline styles.
const cytoscapeStyle = ".__________cytoscape_container { position: relative; }"

var pageCSP = func() string {
	sum := sha256.Sum256([]byte(cytoscapeStyle))
	return "default-src 'none'; script-src 'self'; style-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; img-src 'self' data:; connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
}()

// guard lets through a request with the token, from this machine's
// pages, named by a loopback Host, asking to read. A page's first load
// may bring the token as ?token=: it gets the cookie and is sent to the
// same page without it, so the token leaves the address bar and history.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		securityHeaders(w.Header(), pageCSP)
		if !loopback.HostAllowed(r.Host) {
			s.refuse(w, r, http.StatusForbidden, "Forbidden: the view answers requests to 127.0.0.1 or localhost only")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !loopback.OriginAllowed(origin, nil) {
			s.refuse(w, r, http.StatusForbidden, "Forbidden: origin "+origin+" is not allowed")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.refuse(w, r, http.StatusMethodNotAllowed, "Method Not Allowed: the view only reads")
			return
		}
		if len(r.URL.RawQuery) > MaxQuery || r.ContentLength != 0 {
			s.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request Entity Too Large: the view takes no body and queries of up to %d bytes", MaxQuery))
			return
		}
		if c, err := r.Cookie(s.cookie); err == nil && loopback.SameToken(c.Value, s.token) || loopback.Bearer(r.Header.Get("Authorization"), s.token) {
			next.ServeHTTP(w, r)
			return
		}
		if given := r.URL.Query().Get("token"); given != "" && !strings.HasPrefix(r.URL.Path, "/api/") && loopback.SameToken(given, s.token) {
			http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			to := r.URL.Path
			if len(q) > 0 {
				to += "?" + q.Encode()
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="rubi view"`)
		s.refuse(w, r, http.StatusUnauthorized, "Unauthorized: open the address rubi view printed, with its token")
	})
}

func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.logger.Warn("request refused", "status", status, "path", r.URL.Path, "remote", r.RemoteAddr)
	http.Error(w, msg, status)
}

// servePage writes a page's frame: the navigation and an empty <main>
// its script fills from the API. The page holds no repository text.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path[1:]
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	err := s.page.Execute(w, struct {
		Page, Title string
		Graph       bool
		Pages       []string
		Titles      map[string]string
	}{name, pageTitles[name], name == "map" || name == "knowledge", pageNames, pageTitles})
	if err != nil {
		s.logger.Warn("page", "page", name, "error", err)
	}
}

// serveAssets serves the embedded files, and no folder listing.
func (s *Server) serveAssets() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		s.static.ServeHTTP(w, r)
	})
}

// xrayCSP is the X-ray page's policy: it has no script, and its charts
// are inline CSS and SVG; only the view may frame it.
const xrayCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"

// serveXray writes the X-ray page, for the Tokens page's frame.
func (s *Server) serveXray(w http.ResponseWriter, r *http.Request) {
	if s.xray == nil {
		http.Error(w, "Not Found: this view has no token X-ray", http.StatusNotFound)
		return
	}
	var b strings.Builder
	if err := s.xray(r.Context(), &b); err != nil {
		http.Error(w, "the token X-ray failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	securityHeaders(w.Header(), xrayCSP)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, b.String())
}

// ListenAddr checks the --addr of rubi view: a loopback address (a bare
// port or ":port" means 127.0.0.1). The view shows the project's code
// and notes: it is never served to the network.
func ListenAddr(addr string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: give a loopback host:port, e.g. 127.0.0.1:8080", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	addr = net.JoinHostPort(host, port)
	if !loopback.IsLoopback(addr) {
		return "", fmt.Errorf("--addr %s: the view serves this machine only; give a loopback address such as 127.0.0.1:%s", addr, port)
	}
	return addr, nil
}

// Serve serves the view on ln, which must listen on loopback, until ctx
// is done; then it stops accepting, lets requests under way finish (up
// to shutdownGrace, their context done), closes the connections of those
// still running, and returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if !loopback.IsLoopback(ln.Addr().String()) {
		ln.Close()
		return fmt.Errorf("the view serves this machine only, not %s", ln.Addr())
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.logger.StandardLogger(&hclog.StandardLoggerOptions{ForceLevel: hclog.Debug}),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	grace := cmp.Or(s.grace, shutdownGrace)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		s.logger.Warn("stopped with requests still under way; their connections are closed", "after", grace)
		err = srv.Close()
	}
	if serr := <-done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
