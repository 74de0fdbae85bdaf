// Package when reads the time bounds people and agents write: a date, a
// time, or an age before now.
//
// At reads the moment a chunk was said (rubi memory save --created, the
// memory tool's created), for a conversation imported with its dates.
//
// The command line's and the MCP server's filters (--since, --until, the
// memory tool's dates) read their bounds with Since and Until alike: an
// age such as 7d, a date, or an RFC 3339 time; as an upper bound a date
// includes its whole day, as people mean it.
//
// Mentioned reads the time a question names ("8 May 2023", "May 2023",
// "in June" of any year, "in 2023", "yesterday", "last week / month /
// year", "last May") as a Span. The retrieval lets the notes and chunks
// written then vote for a question that names one: LongMemEval (Wu et
// al. 2024) found time-aware query handling the largest gain on its
// temporal questions.
package when

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Since reads a lower bound: a date (2026-11-01, its midnight), an RFC 3339
// time, a minute (2026-11-01T15:04), or an age before now in days or as a
// Go duration (7d, 36h). "" is no bound.
func Since(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339, "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2026-11-01), a time (2026-11-01T15:04:05Z) or an age (36h, 7d)", s)
}

// At reads a moment: a date (2026-11-01, its midnight), an RFC 3339 time
// (2026-11-01T15:04:05Z, fractions of a second allowed) or a minute
// (2026-11-01T15:04), local time unless it names a zone. "" is none.
func At(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2026-11-01) or a time (RFC 3339: 2026-11-01T15:04:05Z)", s)
}

// Until reads an upper bound as Since does, except that a date includes
// its whole day: "until 2026-11-01" keeps what happened on the first.
func Until(s string, now time.Time) (time.Time, error) {
	t, err := Since(s, now)
	if err != nil {
		return t, err
	}
	if _, derr := time.ParseInLocation(time.DateOnly, strings.TrimSpace(s), time.Local); derr == nil {
		t = t.Add(24*time.Hour - time.Nanosecond)
	}
	return t, nil
}
