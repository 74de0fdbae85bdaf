package queue

import (
	"math/rand"
	"time"
)

// MaxAttempts is how many times a delivery is tried before it is buried.
const MaxAttempts = 12

// Backoff is the wait before attempt n: exponential with jitter, capped.
func Backoff(n int) time.Duration {
	d := time.Second << min(n, 20)
	if d > 10*time.Minute {
		d = 10 * time.Minute
	}
	return d/2 + time.Duration(rand.Int63n(int64(d/2)+1))
}
