// Package fetch downloads feeds politely: conditional requests with the
// validators of the last response, and the server's caching hints.
package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Validators are what a conditional GET sends back.
type Validators struct {
	ETag         string
	LastModified string
}

// Result is one fetch.
type Result struct {
	NotModified bool
	Body        []byte
	Validators  Validators
	// RetryAfter is how long the server asked us to wait, 0 if it did not.
	RetryAfter time.Duration
	MaxAge     time.Duration
}

// Fetcher fetches feeds.
type Fetcher struct {
	client    *http.Client
	userAgent string
}

// MaxBody is the largest feed read; a larger one is an error.
const MaxBody = 8 << 20

func New(userAgent string) *Fetcher {
	return &Fetcher{client: &http.Client{Timeout: 30 * time.Second}, userAgent: userAgent}
}

// Fetch GETs url with the validators of the last fetch; a 304 comes back
// as NotModified with no body.
func (f *Fetcher) Fetch(ctx context.Context, url string, v Validators) (*Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.userAgent)
	if v.ETag != "" {
		req.Header.Set("If-None-Match", v.ETag)
	}
	if v.LastModified != "" {
		req.Header.Set("If-Modified-Since", v.LastModified)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	res := &Result{RetryAfter: retryAfter(resp.Header.Get("Retry-After")), MaxAge: maxAge(resp.Header.Get("Cache-Control"))}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		res.NotModified, res.Validators = true, v
		return res, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return res, &StatusError{URL: url, Code: resp.StatusCode}
	case resp.StatusCode != http.StatusOK:
		return nil, &StatusError{URL: url, Code: resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > MaxBody {
		return nil, fmt.Errorf("%s: feed larger than %d bytes", url, MaxBody)
	}
	res.Body = body
	res.Validators = Validators{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
	return res, nil
}

// StatusError is an HTTP status other than 200 and 304.
type StatusError struct {
	URL  string
	Code int
}

func (e *StatusError) Error() string { return fmt.Sprintf("%s: HTTP %d", e.URL, e.Code) }

func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if secs, err := strconv.Atoi(h); err == nil {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return time.Until(t)
	}
	return 0
}
