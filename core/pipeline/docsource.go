package pipeline

import (
	"context"
	"slices"

	"github.com/rubi-dev/rubi/core"
)

// A docSource is one origin of the index's documents. An index run holds
// a list of them and asks each, in turn, the same three things:
//
//   - read: what it holds now, and which of its documents changed or
//     went since the last run (appended to the run's changedIDs and
//     removedIDs);
//   - documents: its documents and their edges, when the rankers take a
//     corpus;
//   - save: to keep its own state, once the manifest is written, so
//     that its state never says the rankers hold what they were not
//     given.
//
// The run knows no kind of document: the code (files through the
// parsers, and the modules they make), the notes (knowledge nodes and
// conversation chunks, core/notes) and every configured core.Source are
// docSources (docSources lists them). Adding an origin of documents to
// rubi is writing a core.Source, which sourceRun adapts; the code and
// the notes are docSources of their own because their state is more
// than items and stamps: the code's is the manifest, the notes' carries
// the mentions that relate them and the snapshot a hook's delta edits
// after a note changes (notesdelta.go).
type docSource interface {
	// name names the source in the run's timings and errors: "code",
	// "notes", a source stage's name.
	name() string
	read(ctx context.Context, r *indexRun) error
	// documents adds the source's documents and edges to a corpus, and
	// to its Changed the documents that changed that the source could not
	// name when it was read (a module, known once the graph is built). In
	// full, every document has its body; otherwise bodies may be left out
	// where nothing changed (the code's unchanged files).
	documents(r *indexRun, full bool, c *core.Corpus) error
	// save keeps the source's state after the manifest. kept: the run
	// changed no document and left the rankers as they stood.
	save(r *indexRun, kept bool) error
}

// A deferredReader is a docSource whose read may leave its documents
// unread when it finds nothing changed (the notes: noteSource.read); a run
// that goes on to give the rankers a corpus asks it to read them in full
// first, before the graph and the corpora are made.
type deferredReader interface {
	readInFull(r *indexRun) error
}

// readInFull reads in full what the sources' reads left unread.
func (r *indexRun) readInFull() error {
	for _, s := range r.docs {
		if d, ok := s.(deferredReader); ok {
			if err := d.readInFull(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// docSources are the origins of this run's documents, in the order they
// are read and saved: the code first (the others link to its files),
// then the notes, then the configured sources, then the states of
// sources taken out of the configuration, whose documents go.
func (r *indexRun) docSources() []docSource {
	srcs := []docSource{&codeSource{}, &noteSource{}}
	var configured []string
	for _, st := range r.e.cfg.Enabled(core.KindSource) {
		srcs = append(srcs, &sourceRun{stage: st})
		configured = append(configured, st.Name)
	}
	for _, name := range r.e.sources.stateNames() {
		if !slices.Contains(configured, name) {
			srcs = append(srcs, &sourceRun{gone: name})
		}
	}
	return srcs
}
