package deliver

import (
	"sync"
	"time"
)

// Limiter is a token bucket per destination host.
type Limiter struct {
	mu      sync.Mutex
	buckets map[string]time.Time
}

func NewLimiter() *Limiter { return &Limiter{buckets: map[string]time.Time{}} }

// Wait blocks until host may receive another request.
func (l *Limiter) Wait(host string) {
	l.mu.Lock()
	next := l.buckets[host]
	l.buckets[host] = time.Now().Add(100 * time.Millisecond)
	l.mu.Unlock()
	time.Sleep(time.Until(next))
}
