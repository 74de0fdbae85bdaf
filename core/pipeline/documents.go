package pipeline

import (
	"path"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
)

// maxBody bounds how much of a file's content goes into its document.
// Beyond it a file's vocabulary rarely changes, and the BM25 index stays
// proportional to the project rather than to its largest files.
const maxBody = 128 << 10

// fileDocument builds the document of one file, without its body
// (fileBody): the index run leaves bodies to be read as a ranker asks
// (core.Corpus.DeferBodies). Its Names are the symbols' when they are
// loaded, which rankers were told to expect of an incremental corpus.
func fileDocument(rec *manifest.Record) core.Document {
	d := core.Document{
		ID:       core.DocID(core.DocFile, rec.Path),
		Kind:     core.DocFile,
		Path:     rec.Path,
		Title:    path.Base(rec.Path),
		Language: rec.Language,
		ModTime:  rec.ModTime / 1e9,
		Size:     rec.Size,
	}
	seen := map[string]bool{}
	for _, s := range rec.Syms {
		if !seen[s.Name] {
			seen[s.Name] = true
			d.Names = append(d.Names, s.Name)
		}
	}
	return d
}

// bodyHead is what the body of a file's document takes from its facts,
// before its content: its package and its symbols' doc comments, a line
// each.
func bodyHead(rec *manifest.Record) string {
	size := len(rec.Package) + 1
	for _, s := range rec.Syms {
		size += len(s.Doc) + 1
	}
	var b strings.Builder
	b.Grow(size)
	if rec.Package != "" {
		b.WriteString(rec.Package)
		b.WriteByte('\n')
	}
	for _, s := range rec.Syms {
		if s.Doc != "" {
			b.WriteString(s.Doc)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// fileBody is the body of a file's document: its head (bodyHead) and its
// first maxBody bytes of content.
func fileBody(head string, content []byte) string {
	body := content
	if len(body) > maxBody {
		body = body[:maxBody]
	}
	var b strings.Builder
	b.Grow(len(head) + len(body))
	b.WriteString(head)
	b.Write(body)
	return b.String()
}

// moduleDocuments builds one document per module with its files' names
// and, for the modules withBody says, their exported symbols (whose files
// must have their symbols loaded); and the contains edges module → file.
// Files hidden by their role are left out.
func moduleDocuments(m *manifest.Manifest, withBody func(mod string) bool, hidden func(*manifest.Record) bool) ([]core.Document, []core.Edge) {
	files := map[string][]*manifest.Record{}
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		if hidden(rec) {
			continue // a module of vendored files only has no document
		}
		files[rec.Module] = append(files[rec.Module], rec)
	}
	mods := make([]string, 0, len(files))
	for mod := range files {
		mods = append(mods, mod)
	}
	sort.Strings(mods)
	docs := make([]core.Document, 0, len(mods))
	var edges []core.Edge
	for _, mod := range mods {
		id := core.DocID(core.DocModule, mod)
		d := core.Document{ID: id, Kind: core.DocModule, Path: mod, Title: mod}
		if mod == "." {
			d.Title = "(project root)"
		}
		var body strings.Builder
		body.WriteString(mod)
		body.WriteByte('\n')
		for _, rec := range files[mod] {
			d.Names = append(d.Names, path.Base(rec.Path))
			for _, s := range rec.Syms {
				if s.Exported && s.Parent == "" {
					body.WriteString(s.Name)
					body.WriteByte(' ')
				}
			}
			edges = append(edges, core.Edge{From: id, To: core.DocID(core.DocFile, rec.Path), Kind: core.EdgeContains, Weight: containsWeight})
		}
		if withBody(mod) {
			d.Body = body.String()
		}
		docs = append(docs, d)
	}
	return docs, edges
}

// containsWeight is the weight of a module → file edge, against 1 for an
// import of a whole file: belonging to the same module says less about
// what a file is for than one file using another.
const containsWeight = 0.25
