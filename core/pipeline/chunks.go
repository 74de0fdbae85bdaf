package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/memory"
)

// maxChunkBody is the most of a chunk's text the rankers index: its start
// says what it is about, and a long session log would otherwise weigh on
// every query.
const maxChunkBody = 32 << 10

// maxChunkContext is the most of the chunk before it in its session that
// a chunk's document carries (index.session_context): a turn's answer
// ("5 years already!") holds none of the words of the question it
// answers ("how long have you been married?"), which the turn before it
// holds. LongMemEval (Wu et al. 2024) found a round, question and answer
// together, the unit to index.
const maxChunkContext = 2 << 10

// chunkDocs turns the conversation memory's chunks into documents: title
// the summary, names the tags, ticket and entities, body the text's start;
// an edge to each project file a chunk names. Stamps are merged into the
// manifest's document stamps, as the notes' are. Items are the chunks as
// relatedEdges reads them.
//
// Files of the folder that are not chunks are skipped, each named in
// problems.
func (e *Engine) chunkDocs(m *manifest.Manifest) (docs []core.Document, edges []core.Edge, stamps map[string]string, items []memItem, problems []string, err error) {
	chunks, problems, err := memory.Open(e.cfg.Root).ActiveChecked()
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	stamps = map[string]string{}
	var before map[*memory.Chunk]*memory.Chunk
	if e.cfg.Index.SessionContext {
		before = previousInSession(chunks)
	}
	for _, c := range chunks { // archived ones are found by rubi memory, by summary and tags
		id := core.DocID(core.DocChunk, c.ID)
		stamps[id] = c.Hash
		body := c.Content
		if len(body) > maxChunkBody {
			body = body[:maxChunkBody]
		}
		d := core.Document{ID: id, Kind: core.DocChunk, Title: c.Summary, Path: e.relPath(c.Path), Body: c.Type + "\n" + body, ModTime: c.Created.Unix()}
		if p := before[c]; p != nil {
			d.Body += "\n\n" + cutUTF8(p.Content, maxChunkContext)
			stamps[id] += "+" + p.Hash
		}
		d.Names = append(append(d.Names, c.Tags...), c.Entities.All()...)
		if c.Ticket != "" {
			d.Names = append(d.Names, c.Ticket)
		}
		docs = append(docs, d)
		items = append(items, memItem{id: id, session: c.Session, at: c.Created, text: c.Summary + "\n" + body, names: d.Names})
		for _, f := range c.Entities.Files {
			if m.Has(f) {
				edges = append(edges, core.Edge{From: id, To: core.DocID(core.DocFile, f), Kind: edgeAbout, Weight: 1})
			}
		}
	}
	return docs, edges, stamps, items, problems, nil
}

// previousInSession maps each chunk to the one written just before it in
// its session (chunks without a session have none).
func previousInSession(chunks []*memory.Chunk) map[*memory.Chunk]*memory.Chunk {
	bySession := map[string][]*memory.Chunk{}
	for _, c := range chunks {
		if c.Session != "" {
			bySession[c.Session] = append(bySession[c.Session], c)
		}
	}
	out := map[*memory.Chunk]*memory.Chunk{}
	for _, cs := range bySession {
		slices.SortFunc(cs, func(a, b *memory.Chunk) int {
			return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
		})
		for k := 1; k < len(cs); k++ {
			out[cs[k]] = cs[k-1]
		}
	}
	return out
}

// cutUTF8 cuts s to at most n bytes, at a rune boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// renderChunk is a chunk as a result shows it: type, summary, when, size,
// the files it names, and its first lines.
func renderChunk(c *memory.Chunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s, %s)", c.Type, c.Summary, c.Created.Local().Format("2006-01-02 15:04"), plural(c.Lines, "line"))
	if len(c.Entities.Files) > 0 {
		fmt.Fprintf(&b, "\n  files: %s", strings.Join(c.Entities.Files[:min(len(c.Entities.Files), 8)], ", "))
	}
	shown := 0
	for _, l := range strings.Split(c.Content, "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if r := []rune(l); len(r) > 160 {
			l = string(r[:159]) + "…"
		}
		b.WriteString("\n  " + l)
		if shown++; shown == 3 {
			break
		}
	}
	return b.String()
}

// acceptsChunk applies the filters to a chunk: its creation time, and a
// path or module through the files it names. Note types and statuses are
// the notes'.
func (q Query) acceptsChunk(c *memory.Chunk) bool {
	if len(q.NodeTypes) > 0 || len(q.Statuses) > 0 || !q.inWindow(c.Created) {
		return false
	}
	if q.PathPrefix == "" && q.Module == "" {
		return true
	}
	if q.Module != "" {
		return false // a module is code; a conversation is not in one
	}
	for _, f := range c.Entities.Files {
		if q.underPath(f) {
			return true
		}
	}
	return false
}

// chunk shows a chunk of the conversation memory, read from its file.
func (p *packer) chunk(key string, full bool) (Item, verdict, error) {
	if full {
		return Item{}, counted, nil
	}
	c, err := memory.Open(p.e.cfg.Root).Get(key)
	if err != nil || !p.q.acceptsChunk(c) {
		return Item{}, left, nil // removed since the index, or filtered out
	}
	return Item{Kind: core.DocChunk, Path: p.e.relPath(c.Path), Title: c.Summary, Text: renderChunk(c)}, shown, nil
}
