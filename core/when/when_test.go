package when

import (
	"testing"
	"time"
)

func TestSince(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"":                     {},
		"7d":                   now.AddDate(0, 0, -7),
		"36h":                  now.Add(-36 * time.Hour),
		"2026-11-01T15:04:05Z": time.Date(2026, 11, 1, 15, 4, 5, 0, time.UTC),
		"2026-11-01":           time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local),
	} {
		got, err := Since(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("Since(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "-3d", "7w", "2026-13-01"} {
		if _, err := Since(bad, now); err == nil {
			t.Errorf("Since(%q) accepted", bad)
		}
	}
}

// A date as an upper bound keeps its whole day; a time stays exact.
func TestUntilIncludesTheDay(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	got, err := Until("2026-11-01", now)
	if err != nil {
		t.Fatal(err)
	}
	evening := time.Date(2026, 11, 1, 23, 59, 59, 0, time.Local)
	next := time.Date(2026, 11, 2, 0, 0, 0, 0, time.Local)
	if got.Before(evening) || !got.Before(next) {
		t.Errorf("Until(2026-11-01) = %v; want the last instant of the day", got)
	}
	exact := "2026-11-01T15:04:05Z"
	if got, _ := Until(exact, now); !got.Equal(time.Date(2026, 11, 1, 15, 4, 5, 0, time.UTC)) {
		t.Errorf("Until(%s) = %v", exact, got)
	}
}
