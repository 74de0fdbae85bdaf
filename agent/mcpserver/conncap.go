package mcpserver

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// connCap is the HTTP server's listener: it keeps at most max connections
// open. Past the cap, a new connection closes the oldest one that is not
// serving a request with the token: one that is slow to send its request,
// or idle between requests, whoever opened it. So a local process that
// opens thousands of connections and sends nothing holds no more than the
// cap of the server's memory and descriptors, and a client with the token
// is still served at once, not after the header timeout cuts them. When
// every open connection serves a request with the token (the owner's own
// load), the new connection is closed.
type connCap struct {
	net.Listener
	max    int
	logger hclog.Logger

	mu    sync.Mutex
	open  map[*capConn]struct{}
	count uint64 // connections accepted, to order them
}

func newConnCap(ln net.Listener, max int, logger hclog.Logger) *connCap {
	return &connCap{Listener: ln, max: max, logger: logger, open: map[*capConn]struct{}{}}
}

// capConn is one connection: when it was accepted, and how many requests
// with the token it serves now.
type capConn struct {
	net.Conn
	cap     *connCap
	seq     uint64
	serving int // under cap.mu
	once    sync.Once
}

func (c *capConn) Close() error {
	c.once.Do(func() {
		c.cap.mu.Lock()
		delete(c.cap.open, c)
		c.cap.mu.Unlock()
	})
	return c.Conn.Close()
}

// Accept returns the next connection, making room for it past the cap.
func (l *connCap) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.count++
		c := &capConn{Conn: nc, cap: l, seq: l.count}
		var victim *capConn
		if len(l.open) >= l.max {
			for o := range l.open {
				if o.serving == 0 && (victim == nil || o.seq < victim.seq) {
					victim = o
				}
			}
			if victim == nil {
				l.mu.Unlock()
				l.logger.Warn("connection refused: every connection serves a request", "max", l.max, "remote", nc.RemoteAddr())
				nc.Close()
				continue
			}
		}
		l.open[c] = struct{}{}
		l.mu.Unlock()
		if victim != nil {
			l.logger.Debug("connection closed to make room", "max", l.max, "remote", victim.RemoteAddr())
			victim.Close()
		}
		return c, nil
	}
}

// connKey holds a request's connection in its context (context).
type connKey struct{}

// context is the http.Server's ConnContext: it puts the connection where
// serving finds it.
func (l *connCap) context(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// serving marks r's connection as serving a request with the token until
// done is called: it is not closed to make room meanwhile.
func (l *connCap) serving(r *http.Request) (done func()) {
	c, ok := r.Context().Value(connKey{}).(*capConn)
	if !ok {
		return func() {}
	}
	l.mu.Lock()
	c.serving++
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		c.serving--
		l.mu.Unlock()
	}
}
