package loopback

import "testing"

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:80": true, "localhost:1": true, "LOCALHOST": true, "[::1]:8765": true, "127.9.9.9": true,
		"0.0.0.0:80": false, "[::]:1": false, "192.168.1.4:80": false, "example.com:80": false, "localhost.example.com": false, "": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// A page's site resolved to 127.0.0.1 sends its own name as Host.
func TestHostAllowed(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:41234": true, "localhost:41234": true, "[::1]:41234": true,
		"attacker.example:41234": false, "attacker.example": false, "": false, "127.0.0.1.nip.io:41234": false,
	} {
		if got := HostAllowed(host); got != want {
			t.Errorf("HostAllowed(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestOriginAllowed(t *testing.T) {
	extra := []string{"https://app.example.com"}
	for origin, want := range map[string]bool{
		"http://127.0.0.1:8765": true, "http://localhost:3000": true, "https://app.example.com": true, "https://app.example.com/": true,
		"https://evil.example": false, "null": false, "file://": false, "http://127.0.0.1.evil.example": false,
	} {
		if got := OriginAllowed(origin, extra); got != want {
			t.Errorf("OriginAllowed(%q) = %v, want %v", origin, got, want)
		}
	}
}

func TestBearer(t *testing.T) {
	const tok = "s3cret-s3cret-s3"
	for header, want := range map[string]bool{
		"Bearer " + tok: true, "bearer  " + tok + " ": true, "Bearer " + tok + "x": false, "Basic " + tok: false, tok: false, "": false,
	} {
		if got := Bearer(header, tok); got != want {
			t.Errorf("Bearer(%q) = %v, want %v", header, got, want)
		}
	}
	if Bearer("Bearer ", "") || SameToken("", "") {
		t.Error("an empty token matched")
	}
	if a, b := NewToken(), NewToken(); a == b || len(a) != 26 {
		t.Errorf("NewToken: %q, %q", a, b)
	}
}
