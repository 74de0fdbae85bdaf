package notes

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
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

// Chunks are the conversation memory's chunks as the index reads them.
type Chunks struct {
	root string
}

// NewChunks returns the chunks of the project at root.
func NewChunks(root string) *Chunks {
	return &Chunks{root: root}
}

// Dir is the folder the chunks are kept in.
func (c *Chunks) Dir() string { return filepath.Join(c.root, filepath.FromSlash(memory.Dir)) }

// ScanFile is a chunk's file and its version, as a scan of the folder
// lists it.
type ScanFile struct{ Path, Version string }

// Scan lists the chunks' files with their versions; false when the folder
// cannot be listed.
func (c *Chunks) Scan() ([]ScanFile, bool) {
	vs, err := store.ScanFolder(c.Dir(), memory.IsChunkName)
	if err != nil {
		return nil, false
	}
	out := make([]ScanFile, len(vs))
	for i, v := range vs {
		out[i] = ScanFile{Path: v.Path, Version: v.Version}
	}
	return out, true
}

// All returns the active chunks as notes (archived ones are found by rubi
// memory, by summary and tags): title the summary, names the tags, ticket
// and entities, body the text's start, about the files it names. Files of
// the folder that are not chunks are skipped, each named in problems.
// With sessionContext (index.session_context), each chunk's document
// carries the start of the chunk before it in its session.
func (c *Chunks) All(sessionContext bool) ([]*Note, []string, error) {
	chunks, problems, err := memory.Open(c.root).ActiveChecked()
	if err != nil {
		return nil, nil, err
	}
	var before map[*memory.Chunk]*memory.Chunk
	if sessionContext {
		before = previousInSession(chunks)
	}
	out := make([]*Note, 0, len(chunks))
	for _, ch := range chunks {
		id := core.DocID(core.DocChunk, ch.ID)
		body := ch.Content
		if len(body) > maxChunkBody {
			body = body[:maxChunkBody]
		}
		n := &Note{ID: id, Path: ch.Path, Stamp: ch.Hash, Created: ch.Created, Active: true, Session: ch.Session, Seq: ch.Seq, About: ch.Entities.Files}
		n.doc = core.Document{ID: id, Kind: core.DocChunk, Title: ch.Summary, Path: relPath(c.root, ch.Path), Body: ch.Type + "\n" + body, ModTime: ch.Created.Unix()}
		if p := before[ch]; p != nil {
			n.doc.Body += "\n\n" + cutUTF8(p.Content, maxChunkContext)
			n.Stamp += "+" + p.Hash
		}
		n.doc.Names = append(append(n.doc.Names, ch.Tags...), ch.Entities.All()...)
		if ch.Ticket != "" {
			n.doc.Names = append(n.doc.Names, ch.Ticket)
		}
		n.names, n.text = n.doc.Names, ch.Summary+"\n"+body
		out = append(out, n)
	}
	return out, problems, nil
}

// previousInSession maps each chunk to the one written just before it in
// its session (memory.Order: by time, then by its place in the session);
// chunks without a session have none.
func previousInSession(chunks []*memory.Chunk) map[*memory.Chunk]*memory.Chunk {
	bySession := map[string][]*memory.Chunk{}
	for _, c := range chunks {
		if c.Session != "" {
			bySession[c.Session] = append(bySession[c.Session], c)
		}
	}
	out := map[*memory.Chunk]*memory.Chunk{}
	for _, cs := range bySession {
		slices.SortFunc(cs, memory.Order)
		for k := 1; k < len(cs); k++ {
			out[cs[k]] = cs[k-1]
		}
	}
	return out
}

// Show finds the chunk of a document's key as its file is now and
// applies the filter: its creation time, and a path through the files it
// names (note types and statuses are the nodes', a module is code: either
// leaves chunks out).
func (c *Chunks) Show(key string, f Filter) (Shown, bool) {
	return c.ShowRead(c.Read(key), f)
}

// ReadChunk is a chunk as Read found it, or why it could not: a reader
// may read ahead of showing (ShowRead).
type ReadChunk struct {
	ch  *memory.Chunk
	err error
}

// Read reads the chunk of a document's key as its file is now.
func (c *Chunks) Read(key string) ReadChunk {
	ch, err := memory.Open(c.root).Get(key)
	return ReadChunk{ch, err}
}

// ShowRead is Show of a chunk Read gave.
func (c *Chunks) ShowRead(r ReadChunk, f Filter) (Shown, bool) {
	ch, err := r.ch, r.err
	if err != nil || len(f.Types) > 0 || len(f.Statuses) > 0 || !f.inWindow(ch.Created) {
		return Shown{}, false
	}
	if f.InScope != nil && (f.Module || !slices.ContainsFunc(ch.Entities.Files, f.InScope)) {
		return Shown{}, false
	}
	return Shown{Path: relPath(c.root, ch.Path), Title: ch.Summary, Text: renderChunk(ch)}, true
}

// Time is when the chunk of a document's key was written.
func (c *Chunks) Time(key string) (time.Time, bool) {
	ch, err := memory.Open(c.root).Get(key)
	if err != nil {
		return time.Time{}, false
	}
	return ch.Created, true
}

// renderChunk is a chunk as a result shows it: type, summary, when, size,
// the files it names, and its first lines.
func renderChunk(c *memory.Chunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s, %s)", text.Escape(c.Type), text.Escape(c.Summary), c.Created.Local().Format("2006-01-02 15:04"), plural(c.Lines, "line"))
	if len(c.Entities.Files) > 0 {
		fmt.Fprintf(&b, "\n  files: %s", text.Escape(strings.Join(c.Entities.Files[:min(len(c.Entities.Files), 8)], ", ")))
	}
	shown := 0
	for _, l := range strings.Split(c.Content, "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if r := []rune(l); len(r) > 160 {
			l = string(r[:159]) + "…"
		}
		b.WriteString("\n  " + text.Escape(l))
		if shown++; shown == 3 {
			break
		}
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
