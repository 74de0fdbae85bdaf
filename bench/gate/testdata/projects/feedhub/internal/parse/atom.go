package parse

import (
	"encoding/xml"
	"fmt"
	"time"
)

type atomDoc struct {
	Entries []struct {
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Links   []struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
		} `xml:"link"`
		Summary string `xml:"summary"`
	} `xml:"entry"`
}

func parseAtom(data []byte) ([]Entry, error) {
	var doc atomDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("atom: %w", err)
	}
	var out []Entry
	for _, e := range doc.Entries {
		updated, err := time.Parse(time.RFC3339, e.Updated)
		if err != nil {
			return nil, fmt.Errorf("atom entry %q: %w", e.Title, err)
		}
		link := ""
		for _, l := range e.Links {
			if l.Rel == "" || l.Rel == "alternate" {
				link = l.Href
				break
			}
		}
		out = append(out, Entry{ID: e.ID, Title: e.Title, Link: link, Published: updated, Summary: e.Summary})
	}
	return out, nil
}
