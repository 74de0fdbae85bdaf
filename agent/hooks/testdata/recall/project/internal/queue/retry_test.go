package queue

import (
	"testing"
	"time"
)

func TestBackoffIsCapped(t *testing.T) {
	if d := Backoff(30); d > 10*time.Minute {
		t.Fatalf("backoff %v", d)
	}
}
