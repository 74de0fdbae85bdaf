package pluginsdk

import "github.com/rubi-dev/rubi/core"

// The messages of protocol v1. Field names are the JSON keys documented in
// docs/plugin-protocol.md; add fields, never rename or retype them.

// Empty is the message of calls that carry nothing.
type Empty struct{}

// InfoResponse answers Info.
type InfoResponse struct {
	Info     core.Info `json:"info"`
	Protocol int       `json:"protocol"`
}

// ConfigureRequest carries the stage's setup.
type ConfigureRequest struct {
	Setup core.Setup `json:"setup"`
}

// ConfigureResponse carries a rejected setting, if any. Other failures are
// gRPC errors.
type ConfigureResponse struct {
	Error *core.SettingError `json:"error,omitempty"`
}

// ParseRequest is one batch of files.
type ParseRequest struct {
	Files []core.SourceFile `json:"files"`
}

// ParseResponse has one entry per requested file, in order.
type ParseResponse struct {
	Facts []core.FileFacts `json:"facts"`
}

// IndexChunk is one message of the client stream of Index. The first chunk
// carries Full, Changed, Removed, Scope and TextsOnly; every chunk may carry
// documents and edges; the plugin concatenates them.
type IndexChunk struct {
	Documents []core.Document `json:"documents,omitempty"`
	Edges     []core.Edge     `json:"edges,omitempty"`
	Changed   []string        `json:"changed,omitempty"`
	Removed   []string        `json:"removed,omitempty"`
	Full      bool            `json:"full,omitempty"`
	Scope     []string        `json:"scope,omitempty"`
	TextsOnly bool            `json:"texts_only,omitempty"`
}

// RankRequest carries the query.
type RankRequest struct {
	Query core.Query `json:"query"`
}

// HitsResponse answers Rank and Fuse.
type HitsResponse struct {
	Hits []core.Hit `json:"hits"`
}

// FuseRequest carries the ranked lists to merge.
type FuseRequest struct {
	Lists []core.RankedList `json:"lists"`
}

// ScanResponse answers a source's Scan.
type ScanResponse struct {
	Items []core.SourceItem `json:"items"`
}

// ReadRequest asks a source for the items with these keys (at most
// SourceReadBatch of them).
type ReadRequest struct {
	Keys []string `json:"keys"`
}

// ReadResponse carries the items read, in any order.
type ReadResponse struct {
	Documents []core.SourceDocument `json:"documents"`
}
