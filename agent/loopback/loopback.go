// Package loopback holds what rubi's HTTP servers on this machine share
// (the MCP server's streamable HTTP, agent/mcpserver; the web view,
// agent/view): a random token for a run, whether an address is loopback,
// the bearer-token check, and the Host and Origin checks that keep other
// sites' pages out.
//
// A loopback port is reachable by every local user and, through the
// user's own browser, by any web page: a page can make the browser send
// requests to 127.0.0.1 (its Origin header then names the page's site),
// and a name the page's site controls can be made to resolve to 127.0.0.1
// (DNS rebinding: the Host header then names that site). A token guards
// against the first kind and the Origin and Host checks against the
// others.
package loopback

import (
	"crypto/rand"
	"crypto/subtle"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// NewToken returns a random token (26 base32 characters, 128 bits).
func NewToken() string { return rand.Text() }

// IsLoopback reports whether an address (host:port, or a host) is only
// reachable from this machine: localhost, 127.0.0.0/8 or ::1.
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

// SameToken compares a token given with the one expected, in constant
// time. An empty expected token matches nothing.
func SameToken(given, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}

// Bearer reports whether an Authorization header carries the token as
// "Bearer <token>" (the scheme is case-insensitive, RFC 9110 section
// 11.1).
func Bearer(header, want string) bool {
	scheme, given, ok := strings.Cut(strings.TrimSpace(header), " ")
	return ok && strings.EqualFold(scheme, "Bearer") && SameToken(strings.TrimSpace(given), want)
}

// HostAllowed reports whether a request's Host header names this machine
// by a loopback address or localhost (with any port). A page whose own
// name was made to resolve to 127.0.0.1 sends its name instead.
func HostAllowed(host string) bool {
	return host != "" && IsLoopback(host)
}

// OriginAllowed accepts a loopback origin (a page served from this
// machine) and the origins in extra ("https://app.example.com"); "null"
// and anything else is refused.
func OriginAllowed(origin string, extra []string) bool {
	if slices.Contains(extra, strings.TrimSuffix(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopback(u.Host)
}
