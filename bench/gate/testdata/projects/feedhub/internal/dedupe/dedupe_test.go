package dedupe

import (
	"testing"

	"example.org/feedhub/internal/parse"
)

func TestRegeneratedGUIDsFallBackToTheLink(t *testing.T) {
	a := parse.Entry{ID: "0f8fad5b-d9cb-469f-a165-70867728950e", Link: "https://x.org/1", Title: "One"}
	b := parse.Entry{ID: "7c9e6679-7425-40de-944b-e07fc1f90ae7", Link: "https://x.org/1", Title: "One"}
	if Key(a) != Key(b) {
		t.Error("the same entry with a new GUID got a new key")
	}
}
