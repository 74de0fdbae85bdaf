// Package schedule polls every feed at its interval, with jitter, and
// backs off a feed that fails.
package schedule

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"sync"
	"time"

	"example.org/feedhub/internal/config"
	"example.org/feedhub/internal/dedupe"
	"example.org/feedhub/internal/fetch"
	"example.org/feedhub/internal/parse"
	"example.org/feedhub/internal/store"
)

// maxBackoff caps the wait after repeated failures.
const maxBackoff = 24 * time.Hour

type Scheduler struct {
	cfg   *config.Config
	fetch *fetch.Fetcher
	store *store.Store
	mu    sync.Mutex
	next  map[string]time.Time
	fails map[string]int
}

func New(cfg *config.Config, f *fetch.Fetcher, st *store.Store) *Scheduler {
	return &Scheduler{cfg: cfg, fetch: f, store: st, next: map[string]time.Time{}, fails: map[string]int{}}
}

// Run polls the feeds that are due, once a minute, until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		for _, f := range s.cfg.Feeds {
			if s.due(f.URL) {
				s.poll(ctx, f)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (s *Scheduler) due(url string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !time.Now().Before(s.next[url])
}

// interval is the feed's own interval or the default, lengthened (never
// shortened) by the server's max-age or Retry-After, and doubled per
// consecutive failure up to maxBackoff.
func (s *Scheduler) interval(f config.Feed, res *fetch.Result, fails int) time.Duration {
	d := f.Interval
	if d == 0 {
		d = s.cfg.DefaultInterval
	}
	if res != nil {
		d = max(d, res.MaxAge, res.RetryAfter)
	}
	for i := 0; i < fails && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	jitter := time.Duration(rand.Int64N(int64(d / 10)))
	return d + jitter
}

func (s *Scheduler) poll(ctx context.Context, f config.Feed) {
	st, err := s.store.Load(f.URL)
	if err != nil {
		log.Printf("%s: %v", f.URL, err)
		return
	}
	res, err := s.fetch.Fetch(ctx, f.URL, st.Validators)
	if err == nil && !res.NotModified {
		var entries []parse.Entry
		if entries, err = parse.Parse(res.Body); err == nil {
			st.Entries = append(st.Entries, dedupe.New(entries, st.Seen)...)
			st.Validators = res.Validators
		}
	}
	s.mu.Lock()
	if err != nil {
		s.fails[f.URL]++
		st.LastError = err.Error()
		var se *fetch.StatusError
		if errors.As(err, &se) && se.Code == 410 {
			log.Printf("%s: gone (HTTP 410); unsubscribe it", f.URL)
		}
	} else {
		s.fails[f.URL] = 0
		st.LastError = ""
	}
	s.next[f.URL] = time.Now().Add(s.interval(f, res, s.fails[f.URL]))
	s.mu.Unlock()
	if err := s.store.Save(st); err != nil {
		log.Printf("%s: save: %v", f.URL, err)
	}
}

// Next says when a feed is polled next.
func (s *Scheduler) Next(url string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next[url]
}
