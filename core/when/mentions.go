package when

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Span is a time a question names: from From to To (inclusive of To's
// whole day), or, for a month named without a year (AnyYear), that month
// of any year. Phrase is how it reads in a reason ("8 May 2023", "June").
type Span struct {
	From, To time.Time
	AnyYear  bool
	Month    time.Month
	Phrase   string
}

// Contains reports whether t falls in the span.
func (s Span) Contains(t time.Time) bool {
	if t.IsZero() {
		return false
	}
	if s.AnyYear {
		return t.Month() == s.Month
	}
	return !t.Before(s.From) && !t.After(s.To)
}

// months maps a month's lower-case name and abbreviations ("march",
// "mar"; "sept") to the month.
var months = monthNames()

func monthNames() map[string]time.Month {
	names := map[string]time.Month{}
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		names[name] = m
		names[name[:3]] = m
	}
	names["sept"] = time.September
	delete(names, "may") // only "May" capitalized, or after a time word: see monthAt
	return names
}

// Mentioned finds the first time a question names: a day ("8 May 2023",
// "May 8, 2023", "2023-05-08"), a month ("May 2023"; "in June" is June of
// any year), a year ("in 2022"), or a time relative to now ("yesterday",
// "last week", "last month", "last year", "last May"). "Today" is left
// out: a prompt says it of the work at hand far more often than of the
// notes it wants. ok is false when it names none.
func Mentioned(text string, now time.Time) (Span, bool) {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	lower := make([]string, len(words))
	for i, w := range words {
		lower[i] = strings.ToLower(w)
	}
	day := func(y int, m time.Month, d int) Span {
		from := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
		return Span{From: from, To: from.AddDate(0, 0, 1).Add(-time.Nanosecond), Phrase: from.Format("2 January 2006")}
	}
	month := func(y int, m time.Month) Span {
		from := time.Date(y, m, 1, 0, 0, 0, 0, now.Location())
		return Span{From: from, To: from.AddDate(0, 1, 0).Add(-time.Nanosecond), Phrase: from.Format("January 2006")}
	}
	for i, w := range lower {
		if t, err := time.ParseInLocation(time.DateOnly, w, now.Location()); err == nil {
			return day(t.Year(), t.Month(), t.Day()), true
		}
		if m, ok := monthAt(words, lower, i); ok {
			// D Month YYYY, Month D YYYY, Month YYYY, Month.
			if i > 0 {
				if d, ok := dayNumber(lower[i-1]); ok {
					if i+1 < len(lower) {
						if y, ok := year(lower[i+1]); ok {
							return day(y, m, d), true
						}
					}
				}
			}
			if i+1 < len(lower) {
				if d, ok := dayNumber(lower[i+1]); ok && i+2 < len(lower) {
					if y, ok := year(lower[i+2]); ok {
						return day(y, m, d), true
					}
				}
				if y, ok := year(lower[i+1]); ok {
					return month(y, m), true
				}
			}
			if i > 0 && lower[i-1] == "last" {
				y := now.Year()
				if m >= now.Month() {
					y--
				}
				return month(y, m), true
			}
			return Span{AnyYear: true, Month: m, Phrase: m.String()}, true
		}
		if w == "yesterday" {
			y := now.AddDate(0, 0, -1)
			return day(y.Year(), y.Month(), y.Day()), true
		}
		if w == "last" && i+1 < len(lower) {
			switch lower[i+1] {
			case "week":
				from := now.AddDate(0, 0, -7)
				return Span{From: from, To: now, Phrase: "last week"}, true
			case "month":
				p := now.AddDate(0, -1, 0)
				s := month(p.Year(), p.Month())
				s.Phrase = "last month"
				return s, true
			case "year":
				from := time.Date(now.Year()-1, 1, 1, 0, 0, 0, 0, now.Location())
				return Span{From: from, To: from.AddDate(1, 0, 0).Add(-time.Nanosecond), Phrase: strconv.Itoa(now.Year() - 1)}, true
			}
		}
		if i > 0 && (lower[i-1] == "in" || lower[i-1] == "during" || lower[i-1] == "since") {
			if y, ok := year(w); ok {
				from := time.Date(y, 1, 1, 0, 0, 0, 0, now.Location())
				return Span{From: from, To: from.AddDate(1, 0, 0).Add(-time.Nanosecond), Phrase: w}, true
			}
		}
	}
	return Span{}, false
}

// monthAt reads word i as a month name: "May" only capitalized or after
// a word that introduces a time ("in may"), since "may" is mostly a verb.
func monthAt(words, lower []string, i int) (time.Month, bool) {
	if m, ok := months[lower[i]]; ok {
		return m, true
	}
	if lower[i] != "may" {
		return 0, false
	}
	if words[i] == "May" && i > 0 {
		return time.May, true
	}
	if i > 0 {
		switch lower[i-1] {
		case "in", "during", "last", "early", "late", "mid", "since", "until":
			return time.May, true
		}
	}
	return 0, false
}

func dayNumber(w string) (int, bool) {
	w = strings.TrimRight(w, "stndrh")
	d, err := strconv.Atoi(w)
	return d, err == nil && d >= 1 && d <= 31
}

func year(w string) (int, bool) {
	y, err := strconv.Atoi(w)
	return y, err == nil && len(w) == 4 && y >= 1900 && y <= 2200
}
