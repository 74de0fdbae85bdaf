// Package server is the JSON API.
package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"example.org/feedhub/internal/opml"
	"example.org/feedhub/internal/schedule"
	"example.org/feedhub/internal/store"
)

// Serve answers the API on addr until ctx ends.
func Serve(ctx context.Context, addr string, st *store.Store, s *schedule.Scheduler) error {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /entries", func(w http.ResponseWriter, r *http.Request) {
		fs, err := st.Load(r.URL.Query().Get("feed"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if limit <= 0 || limit > 200 {
			limit = 50
		}
		since, _ := time.Parse(time.RFC3339, r.URL.Query().Get("since"))
		out := fs.Entries[:0:0]
		for _, e := range fs.Entries {
			if e.Published.After(since) && len(out) < limit {
				out = append(out, e)
			}
		}
		json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("GET /export.opml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/x-opml")
		opml.Write(w, s)
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	return srv.ListenAndServe()
}
