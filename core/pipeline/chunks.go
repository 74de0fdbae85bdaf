package pipeline

import (
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
)

// chunkDocs turns the conversation memory's chunks (core/notes.Chunks)
// into documents, with an edge to each project file a chunk names that
// the index holds. Stamps are merged into the notes' stamps, as the
// nodes' are. Items are the chunks as relatedEdges reads them.
//
// Files of the folder that are not chunks are skipped, each named in
// problems.
func (e *Engine) chunkDocs(m *manifest.Manifest) (docs []core.Document, edges []core.Edge, stamps map[string]string, items []memItem, problems []string, err error) {
	chunks, problems, err := e.chunks.All(e.cfg.Index.SessionContext)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	stamps = make(map[string]string, len(chunks))
	docs = make([]core.Document, 0, len(chunks))
	for _, c := range chunks {
		stamps[c.ID] = c.Stamp
		docs = append(docs, c.Document())
		items = append(items, memItem{id: c.ID, session: c.Session, at: c.Created, note: c})
		for _, f := range c.About {
			if m.Has(f) {
				edges = append(edges, core.Edge{From: c.ID, To: core.DocID(core.DocFile, f), Kind: edgeAbout, Weight: 1})
			}
		}
	}
	return docs, edges, stamps, items, problems, nil
}

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
