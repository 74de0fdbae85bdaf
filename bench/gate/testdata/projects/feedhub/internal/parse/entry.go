// Package parse reads RSS 2.0 and Atom feeds into entries.
package parse

import (
	"bytes"
	"errors"
	"time"
)

// Entry is one item of a feed, whatever its format.
type Entry struct {
	ID        string
	Title     string
	Link      string
	Published time.Time
	Summary   string
}

// ErrUnknownFormat is a document that is neither RSS nor Atom.
var ErrUnknownFormat = errors.New("not an RSS or Atom feed")

// Parse detects the format from the root element and parses the feed.
func Parse(data []byte) ([]Entry, error) {
	head := data[:min(len(data), 1024)]
	switch {
	case bytes.Contains(head, []byte("<rss")):
		return parseRSS(data)
	case bytes.Contains(head, []byte("<feed")):
		return parseAtom(data)
	}
	return nil, ErrUnknownFormat
}
