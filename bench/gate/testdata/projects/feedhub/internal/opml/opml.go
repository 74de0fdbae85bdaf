// Package opml reads and writes subscription lists in OPML 2.0.
package opml

import (
	"encoding/xml"
	"io"
)

type outline struct {
	Text     string    `xml:"text,attr"`
	Type     string    `xml:"type,attr,omitempty"`
	XMLURL   string    `xml:"xmlUrl,attr,omitempty"`
	Children []outline `xml:"outline"`
}

type document struct {
	XMLName xml.Name  `xml:"opml"`
	Version string    `xml:"version,attr"`
	Title   string    `xml:"head>title"`
	Body    []outline `xml:"body>outline"`
}

// Read returns the feed URLs of an OPML file, folders flattened.
func Read(r io.Reader) ([]string, error) {
	var doc document
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	var urls []string
	var walk func([]outline)
	walk = func(os []outline) {
		for _, o := range os {
			if o.XMLURL != "" {
				urls = append(urls, o.XMLURL)
			}
			walk(o.Children)
		}
	}
	walk(doc.Body)
	return urls, nil
}

// Lister lists the subscriptions to export.
type Lister interface{ URLs() []string }

// Write writes the subscriptions as OPML.
func Write(w io.Writer, l any) error {
	doc := document{Version: "2.0", Title: "feedhub subscriptions"}
	if lister, ok := l.(Lister); ok {
		for _, u := range lister.URLs() {
			doc.Body = append(doc.Body, outline{Text: u, Type: "rss", XMLURL: u})
		}
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	return enc.Encode(doc)
}
