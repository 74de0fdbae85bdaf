package parse

import "testing"

func TestRSSDates(t *testing.T) {
	for _, s := range []string{"Mon, 02 Jan 2006 15:04:05 -0700", "Mon, 02 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04:05 -0700"} {
		if _, err := parseRSSDate(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func TestDetect(t *testing.T) {
	if _, err := Parse([]byte("<html></html>")); err != ErrUnknownFormat {
		t.Errorf("html: %v", err)
	}
}
