package logging

import "net/http"

// secretHeaders are never written to the logs.
var secretHeaders = []string{"Authorization", "X-Hub-Signature-256", "Cookie"}

// Redact returns a copy of h with the secret headers masked.
func Redact(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range secretHeaders {
		if out.Get(k) != "" {
			out.Set(k, "[redacted]")
		}
	}
	return out
}
