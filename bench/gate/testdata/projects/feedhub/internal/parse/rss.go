package parse

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

type rssDoc struct {
	Channel struct {
		Items []struct {
			GUID        string `xml:"guid"`
			Title       string `xml:"title"`
			Link        string `xml:"link"`
			PubDate     string `xml:"pubDate"`
			Description string `xml:"description"`
		} `xml:"item"`
	} `xml:"channel"`
}

// rssDates are the layouts seen in the wild: RFC 1123 with a numeric or a
// named zone, with and without the weekday.
var rssDates = []string{time.RFC1123Z, time.RFC1123, "02 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 -0700"}

func parseRSSDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range rssDates {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized pubDate %q", s)
}

func parseRSS(data []byte) ([]Entry, error) {
	var doc rssDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("rss: %w", err)
	}
	var out []Entry
	for _, it := range doc.Channel.Items {
		published, err := parseRSSDate(it.PubDate)
		if err != nil {
			return nil, fmt.Errorf("rss item %q: %w", it.Title, err)
		}
		id := it.GUID
		if id == "" {
			id = it.Link
		}
		out = append(out, Entry{ID: id, Title: it.Title, Link: it.Link, Published: published, Summary: it.Description})
	}
	return out, nil
}
