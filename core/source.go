package core

import (
	"context"
	"fmt"
	"regexp"
	"slices"
)

// Source is a stage that brings documents from outside the project's code
// files: an issue tracker's export, a wiki folder, a design-doc archive.
// The index run asks every enabled source what it holds (Scan), reads only
// the items whose stamp changed since the last run (Read), and hands their
// documents to the rankers beside the code's; a query finds and shows them
// like any other document, under the kind the source's Info names
// (Info.DocKind). The core keeps what was read in the index, so a query
// never calls a source and a run where no stamp changed reads nothing.
type Source interface {
	Stage
	// Scan lists every item the source holds now, each with a stamp that
	// changes whenever the item's content does (a content hash, an
	// updated-at time). It should be cheap: it runs on every index run.
	Scan(ctx context.Context) ([]SourceItem, error)
	// Read returns the items with these keys, in any order. A key that is
	// gone since the Scan is left out.
	Read(ctx context.Context, keys []string) ([]SourceDocument, error)
}

// SourceItem is one item as a Source's Scan lists it.
type SourceItem struct {
	// Key identifies the item within its source: an issue number, a
	// page's path. The item's document id is "<DocKind>:<Key>".
	Key   string `json:"key"`
	Stamp string `json:"stamp"`
}

// SourceDocument is one item as a Source reads it.
type SourceDocument struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	// Names are identifiers that name the item (labels, a component's
	// name); rankers weigh them above the body.
	Names []string `json:"names,omitempty"`
	// Body is the searchable text, and what a query shows of the item.
	Body string `json:"body,omitempty"`
	// Location is where a reader opens the item: a URL, a path outside
	// the project. Optional.
	Location string `json:"location,omitempty"`
	// Time is when the item was written or last changed, in Unix seconds;
	// a query's time window applies to it. Optional.
	Time int64 `json:"time,omitempty"`
	// Files are paths of the project's files the item is about, relative
	// to its root with forward slashes: the index links the item to each
	// one it holds (an "about" edge, as a note's), so that graph rankers
	// walk from the item to the code.
	Files []string `json:"files,omitempty"`
}

// Limits on what a source may hand the index; a source past them is
// refused whole for the run, and the index keeps what it read last.
const (
	MaxSourceItems = 200_000
	MaxSourceKey   = 512
	MaxSourceBody  = 1 << 20
)

// docKind is the form of a source's document kind: a word of lowercase
// letters, digits, '-' or '_', starting with a letter.
var docKind = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// builtinKinds are the document kinds of the core's own documents.
var builtinKinds = []string{DocFile, DocModule, DocNode, DocChunk}

// ValidDocKind reports whether kind may name a source's documents: well
// formed, and not one of the core's own kinds.
func ValidDocKind(kind string) error {
	if !docKind.MatchString(kind) {
		return fmt.Errorf("document kind %q must be a lowercase word such as \"issue\" (letters, digits, '-', '_'; at most 32)", kind)
	}
	if slices.Contains(builtinKinds, kind) {
		return fmt.Errorf("document kind %q is the core's own; choose another, such as \"issue\" or \"page\"", kind)
	}
	return nil
}

// CheckSourceItems rejects a Scan's answer no source could mean: empty,
// overlong or repeated keys, or more items than the index takes.
func CheckSourceItems(items []SourceItem) error {
	if len(items) > MaxSourceItems {
		return fmt.Errorf("lists %d items, more than the %d a source may hold", len(items), MaxSourceItems)
	}
	seen := make(map[string]bool, len(items))
	for i, it := range items {
		if err := checkSourceKey(it.Key); err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
		if seen[it.Key] {
			return fmt.Errorf("item %d repeats key %q", i, it.Key)
		}
		seen[it.Key] = true
	}
	return nil
}

// CheckSourceDocuments rejects a Read's answer that does not fit the keys
// asked for: a key not asked for, a repeated one, or a body past the limit.
func CheckSourceDocuments(keys []string, docs []SourceDocument) error {
	asked := make(map[string]bool, len(keys))
	for _, k := range keys {
		asked[k] = true
	}
	seen := make(map[string]bool, len(docs))
	for i, d := range docs {
		if !asked[d.Key] {
			return fmt.Errorf("document %d has key %q, which was not asked for", i, d.Key)
		}
		if seen[d.Key] {
			return fmt.Errorf("document %d repeats key %q", i, d.Key)
		}
		seen[d.Key] = true
		if len(d.Body) > MaxSourceBody {
			return fmt.Errorf("document %q has a body of %d bytes, more than the %d a document may have", d.Key, len(d.Body), MaxSourceBody)
		}
	}
	return nil
}

func checkSourceKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("empty key")
	case len(key) > MaxSourceKey:
		return fmt.Errorf("key of %d bytes, more than %d", len(key), MaxSourceKey)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("key %q holds a control character", key)
		}
	}
	return nil
}
