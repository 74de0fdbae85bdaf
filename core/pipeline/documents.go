package pipeline

import (
	"fmt"
	"os"
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

// docIDs hands out the files' document ids (core.DocID), one string a
// file for an index run: its documents, the edges to and from them, and
// its lists of changed files would each make their own, half a dozen a
// file (67 MB on 200,000 files). The zero value makes a new one each
// time. Not safe for concurrent use.
type docIDs map[string]string

// of returns the document id of the file at path.
func (ids docIDs) of(path string) string {
	if ids == nil {
		return core.DocID(core.DocFile, path)
	}
	id, ok := ids[path]
	if !ok {
		id = core.DocID(core.DocFile, path)
		ids[path] = id
	}
	return id
}

// fileDocument builds the document of one file, without its body
// (fileBody): the index run leaves bodies to be read as a ranker asks
// (core.Corpus.DeferBodies). Its Names are the symbols' when they are
// loaded or digested (dg), which rankers were told to expect of an
// incremental corpus.
func fileDocument(rec *manifest.Record, dg *symbolDigests, ids docIDs) core.Document {
	d := core.Document{
		ID:       ids.of(rec.Path),
		Kind:     core.DocFile,
		Path:     rec.Path,
		Title:    path.Base(rec.Path),
		Language: rec.Language,
		ModTime:  rec.ModTime / 1e9,
		Size:     rec.Size,
	}
	if rec.Loaded {
		d.Names = symbolNames(rec.Syms)
	} else if g := dg.of(rec); g != nil {
		d.Names = g.names
	}
	return d
}

// symbolNames are the names of syms, each once, in order.
func symbolNames(syms []core.Symbol) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range syms {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	return out
}

// bodyHead is what the body of a file's document takes from its facts,
// before its content: its package and its symbols' doc comments, a line
// each; the symbols' when they are loaded or digested (dg).
func bodyHead(rec *manifest.Record, dg *symbolDigests) (string, error) {
	if !rec.Loaded {
		if g := dg.of(rec); g != nil {
			b, err := dg.heads.read(g.head[0], g.head[1])
			if err != nil {
				return "", fmt.Errorf("read back the head of %s: %w", rec.Path, err)
			}
			return string(b), nil
		}
	}
	return headOf(rec.Package, rec.Syms), nil
}

// headOf is bodyHead for a file of package pkg and symbols syms.
func headOf(pkg string, syms []core.Symbol) string {
	size := len(pkg) + 1
	for _, s := range syms {
		size += len(s.Doc) + 1
	}
	var b strings.Builder
	b.Grow(size)
	if pkg != "" {
		b.WriteString(pkg)
		b.WriteByte('\n')
	}
	for _, s := range syms {
		if s.Doc != "" {
			b.WriteString(s.Doc)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// topExported are the exported top-level names of syms, in order.
func topExported(syms []core.Symbol) []string {
	var out []string
	for _, s := range syms {
		if s.Exported && s.Parent == "" {
			out = append(out, s.Name)
		}
	}
	return out
}

// symbolDigest is what the maps and the documents take of a file's
// symbols: its document's names and head, the names its module's page
// lists, those its module's document holds. A step over every file
// (the maps and the corpora of a full run) reads each file's symbols,
// digests them and lets them go (symbolDigests.read), rather than holding
// every file's: the symbols with their signatures, lines and kinds were
// twice to three times their digest (98 MB on six copies of kubernetes).
type symbolDigest struct {
	names, exports, top []string
	// head is where the file's body head (headOf) is in its digests'
	// heads, from and to: the heads wait in a spill of the run's, as at
	// 200,000 files they were 69 MB held beside the maps' peak.
	head [2]int64
}

// symbolDigests are the digests of the records whose symbols are not
// loaded, made from the symbols file (symbolsSource), one record at a
// time. A nil *symbolDigests holds none.
type symbolDigests struct {
	dir        string
	prev, next *manifest.Manifest
	by         map[*manifest.Record]*symbolDigest
	heads      spillBuffer
}

// newSymbolDigests returns the digests of next's records; their heads
// go to a file spill makes once they pass headsInMemory (nil: kept in
// memory).
func newSymbolDigests(dir string, prev, next *manifest.Manifest, spill func() (*os.File, error)) *symbolDigests {
	return &symbolDigests{dir: dir, prev: prev, next: next, by: map[*manifest.Record]*symbolDigest{}, heads: spillBuffer{spill: spill}}
}

// of is the digest of rec, a record whose symbols are not loaded: nil
// when none was read, as such a record shows no symbols.
func (dg *symbolDigests) of(rec *manifest.Record) *symbolDigest {
	if dg == nil {
		return nil
	}
	return dg.by[rec]
}

// read digests the symbols of the records of next that want says, where
// they are neither loaded nor digested yet and have some recorded: what
// loadSymbols would load for want, each read and let go in turn
// (eachSymbols).
func (dg *symbolDigests) read(want func(path string) bool) error {
	var need []*manifest.Record
	for _, p := range dg.next.SortedPaths() {
		rec := dg.next.Records()[p]
		if !rec.Loaded && rec.SymLen > 0 && dg.by[rec] == nil && want(p) {
			need = append(need, rec)
		}
	}
	var failed error
	err := eachSymbols(dg.dir, dg.prev, dg.next, need, func(rec *manifest.Record, syms []core.Symbol) {
		head := headOf(rec.Package, syms)
		at, err := dg.heads.append(head)
		if err != nil && failed == nil {
			failed = fmt.Errorf("keep the head of %s: %w", rec.Path, err)
		}
		dg.by[rec] = &symbolDigest{names: symbolNames(syms), exports: exports(syms), top: topExported(syms), head: [2]int64{at, at + int64(len(head))}}
	})
	if err == nil {
		err = failed
	}
	if err == nil {
		err = dg.heads.flush()
	}
	return err
}

// fileBody is the body of a file's document: its head (bodyHead) and its
// first maxBody bytes of content.
func fileBody(head, content []byte) string {
	body := content
	if len(body) > maxBody {
		body = body[:maxBody]
	}
	var b strings.Builder
	b.Grow(len(head) + len(body))
	b.Write(head)
	b.Write(body)
	return b.String()
}

// moduleDocuments builds one document per module with its files' names
// and, for the modules withBody says, their exported symbols (whose files
// must have their symbols loaded or digested, dg); and the contains edges
// module → file.
// Files hidden by their role are left out.
func moduleDocuments(m *manifest.Manifest, withBody func(mod string) bool, hidden func(*manifest.Record) bool, dg *symbolDigests, ids docIDs) ([]core.Document, []core.Edge) {
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
			var top []string
			if rec.Loaded {
				top = topExported(rec.Syms)
			} else if g := dg.of(rec); g != nil {
				top = g.top
			}
			for _, name := range top {
				body.WriteString(name)
				body.WriteByte(' ')
			}
			edges = append(edges, core.Edge{From: id, To: ids.of(rec.Path), Kind: core.EdgeContains, Weight: containsWeight})
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
