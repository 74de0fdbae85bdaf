package pipeline

import (
	"github.com/rubi-dev/rubi/core"
)

// chunk shows a chunk of the conversation memory, read from its file.
func (p *packer) chunk(key string, full bool) (Item, verdict, error) {
	if full {
		return Item{}, counted, nil
	}
	sh, ok := p.e.chunks.Show(key, p.q.noteFilter(p.m))
	if !ok {
		return Item{}, left, nil // removed since the index, or filtered out
	}
	return Item{Kind: core.DocChunk, Path: sh.Path, Title: sh.Title, Text: sh.Text}, shown, nil
}
