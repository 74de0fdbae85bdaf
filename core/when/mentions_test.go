package when

import (
	"testing"
	"time"
)

func TestMentioned(t *testing.T) {
	now := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		q      string
		phrase string
		in     []time.Time
		out    []time.Time
	}{
		{"What did Ana say on 8 May 2023?", "8 May 2023", []time.Time{time.Date(2023, 5, 8, 23, 0, 0, 0, time.UTC)}, []time.Time{time.Date(2023, 5, 9, 0, 0, 0, 0, time.UTC)}},
		{"what happened on May 8, 2023", "8 May 2023", []time.Time{time.Date(2023, 5, 8, 1, 0, 0, 0, time.UTC)}, nil},
		{"the deploy of 2023-05-08", "8 May 2023", []time.Time{time.Date(2023, 5, 8, 1, 0, 0, 0, time.UTC)}, nil},
		{"When did Melanie go camping in June?", "June", []time.Time{time.Date(2023, 6, 27, 0, 0, 0, 0, time.UTC), time.Date(2021, 6, 1, 0, 0, 0, 0, time.UTC)}, []time.Time{time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC)}},
		{"what broke in March 2023", "March 2023", []time.Time{time.Date(2023, 3, 31, 0, 0, 0, 0, time.UTC)}, []time.Time{time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}},
		{"what did we decide last May", "May 2023", []time.Time{time.Date(2023, 5, 2, 0, 0, 0, 0, time.UTC)}, []time.Time{time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)}},
		{"which injury did John get in 2023?", "2023", []time.Time{time.Date(2023, 11, 16, 0, 0, 0, 0, time.UTC)}, []time.Time{time.Date(2022, 12, 31, 0, 0, 0, 0, time.UTC)}},
		{"the bug we fixed yesterday", "9 March 2024", []time.Time{time.Date(2024, 3, 9, 8, 0, 0, 0, time.UTC)}, []time.Time{now}},
		{"notes from last week", "last week", []time.Time{now.AddDate(0, 0, -3)}, []time.Time{now.AddDate(0, 0, -9)}},
	} {
		s, ok := Mentioned(tt.q, now)
		if !ok {
			t.Errorf("%q: no time found", tt.q)
			continue
		}
		if s.Phrase != tt.phrase {
			t.Errorf("%q: phrase %q, want %q", tt.q, s.Phrase, tt.phrase)
		}
		for _, at := range tt.in {
			if !s.Contains(at) {
				t.Errorf("%q: %v should be in %+v", tt.q, at, s)
			}
		}
		for _, at := range tt.out {
			if s.Contains(at) {
				t.Errorf("%q: %v should not be in %+v", tt.q, at, s)
			}
		}
	}
	// "may" the verb, numbers that are no years, no time at all.
	for _, q := range []string{"may I ask what the retry budget is?", "How many turtles does Nate have? 3", "what port does 8080 use", "When did Jon open his studio?"} {
		if s, ok := Mentioned(q, now); ok {
			t.Errorf("%q: found %+v", q, s)
		}
	}
}

func TestMentionedLeavesTodayOut(t *testing.T) {
	if s, ok := Mentioned("let's fix the flaky checkout test today", time.Now()); ok {
		t.Errorf("found %+v", s)
	}
}
