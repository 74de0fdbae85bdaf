package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestConditionalGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte("<rss/>"))
	}))
	defer srv.Close()
	f := New("test")
	first, err := f.Fetch(context.Background(), srv.URL, Validators{})
	if err != nil || first.Validators.ETag != `"v1"` {
		t.Fatalf("first fetch: %+v, %v", first, err)
	}
	second, err := f.Fetch(context.Background(), srv.URL, first.Validators)
	if err != nil || !second.NotModified {
		t.Fatalf("second fetch: %+v, %v", second, err)
	}
}

func TestMaxAge(t *testing.T) {
	if got := maxAge("public, max-age=3600"); got.Seconds() != 3600 {
		t.Errorf("maxAge = %v", got)
	}
}
