package notesindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// StateFile is the notes' part of the index as the last run left it,
// kept apart from the code's manifest so that a run that changes only
// notes (a hook after a teammate's note arrived) neither reads nor
// rewrites the code's records: every document of a note or a chunk that
// the rankers hold, with the stamp of its version, and the names relate
// found in it, so that the next run scans only the texts that changed.
//
// It is the authority on which notes the rankers hold: a run that finds
// it missing or damaged sends every note as changed, in a whole corpus,
// and the rankers drop what it does not list.
//
// It also holds a snapshot of the notes as the run read them (snapshot),
// which lets the next delta that only finds files edited in place of
// themselves (the same files, new versions, the same ids) read just those
// files, not the thousands of others.
//
//	magic "rubi-notes\n", uvarint version
//	uvarint document count, then per document (ids ascending):
//	  string id, string stamp, uvarint names+1 (0: never scanned), then
//	  per name: string key, string display ("" when it is the key), byte
//	  flags (1 strong, 2 the display is the key)
//	byte 1 when a snapshot follows, else 0; the snapshot:
//	  string manifest (Code.Stamp); uvarint chunk file count, per
//	    chunk file (by path): string path, string version
//	  uvarint file count, per node file (by path): string path, string
//	    version (knowledge.FileVersion), string document id ("" for a
//	    file that gave no document)
//	  uvarint node count, per node in the order the store read them:
//	    string document id, string node id, byte flags (1 active, 2
//	    critical), varint created (Unix ns), uvarint edge count, per
//	    edge: string to, string kind
//	  uvarint chunk count, per chunk in the order they were read: string
//	    document id, string session, varint created (Unix ns), uvarint
//	    edge count, per edge: string to (a file's document)
//	4 bytes CRC-32C of everything before, little endian
const (
	StateFile    = "notes.bin"
	stateMagic   = "rubi-notes\n"
	stateVersion = 2
)

var errStateCorrupt = errors.New("the notes' state is damaged")

// State is what StateFile holds.
type State struct {
	// stamps maps each indexed note's and chunk's document id to the stamp
	// of its version (nodeStamp, a chunk's hash).
	stamps map[string]string
	// mentions holds the names found in the version stamps names, for the
	// documents relate has read.
	mentions map[string][]mention
	// snap, when set, is what the notes were when the state was written.
	snap *snapshot
	// base identifies the state file the state was read from, and edits
	// are the edits applied over it (EditsFile).
	base  stateID
	edits []edit
	// editsOnly, on a state made from one read from a file by edits of
	// some of its node files alone (editedFiles: each one's place among
	// the snapshot's files and nodes), saves it as that file's edits
	// instead of a new state file.
	editsOnly   bool
	editedFiles [][2]int
}

// snapshot is the notes as an index run read them: enough to rebuild
// every document's edges and links, and relate them, without reading the
// notes whose files did not change.
type snapshot struct {
	// manifest identifies the code's manifest the edges to files were
	// made against.
	manifest string
	// chunkFiles are the chunks' files, by path, as listed before they
	// were read; files, the node files as the store read them.
	chunkFiles []snapFile
	files      []snapFile // by path
	nodes      []snapNode // in the order the store read them
	chunks     []snapChunk
}

type snapFile struct {
	path, version, doc string
}

type snapNode struct {
	doc, id          string
	active, critical bool
	created          int64
	edges            []core.Edge // From is doc
}

type snapChunk struct {
	doc, session string
	created      int64
	edges        []core.Edge // From is doc, Kind EdgeAbout
}

func newState() *State {
	return &State{stamps: map[string]string{}, mentions: map[string][]mention{}}
}

// Load reads the notes' state of the index, with its edits applied; nil
// when there is none or it does not decode (the next run then sends
// every note).
func (x *Index) Load() *State { return load(x.dir, x.oneShot) }

// StateSize is the size of the state's file, 0 when there is none: what
// a delta allocates grows with it.
func (x *Index) StateSize() int64 {
	fi, err := os.Stat(filepath.Join(x.dir, StateFile))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Len is how many documents (notes and chunks) the state says the rankers
// hold.
func (st *State) Len() int { return len(st.stamps) }

// Stamp is the version of a document the state says the rankers hold; ""
// for one it does not list.
func (st *State) Stamp(id string) string { return st.stamps[id] }

// Edits is how many node files' edits (EditsFile) the state was read
// with.
func (st *State) Edits() int { return len(st.edits) }

// SameNotes reports whether two states list the same versions, with the
// same names and the same snapshot of the notes, whatever manifest of the
// code each snapshot was made against: a state read with its edits stands
// for the one a read of every note writes.
func (st *State) SameNotes(o *State) bool {
	a, b := st.snap, o.snap
	if a != nil && b != nil && a.manifest != b.manifest {
		c := *a
		c.manifest = b.manifest
		a = &c
	}
	return maps.Equal(st.stamps, o.stamps) && sameMentions(st.mentions, o.mentions) && reflect.DeepEqual(a, b)
}

// load reads the notes' state in dir, as Load does; oneShot is
// Options.OneShot.
func load(dir string, oneShot bool) *State {
	f, err := store.OpenRegular(filepath.Join(dir, StateFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() > maxState {
		return nil
	}
	var data []byte
	if oneShot {
		// Mapped, and never unmapped: the state's strings are views of it
		// (see store.Mapped). Read, it costs a fresh process a page of
		// new memory per 4 KiB, and the copy.
		m, err := store.MapWhole(f, fi.Size())
		if err != nil {
			return nil
		}
		data = m.Data
	} else {
		// Read into a buffer of its size: growing one costs more than
		// decoding.
		data = make([]byte, fi.Size())
		if _, err := io.ReadFull(f, data); err != nil {
			return nil
		}
	}
	st, err := decodeState(data)
	if err != nil {
		return nil
	}
	st.readEdits(dir, baseOf(data))
	return st
}

// maxState bounds what load reads: a file far past what any set of
// notes makes is not the index's.
const maxState = 1 << 30

func decodeState(data []byte) (*State, error) {
	body, ok := codec.Unseal(data)
	if !ok || len(body) < len(stateMagic) || string(body[:len(stateMagic)]) != stateMagic {
		return nil, errStateCorrupt
	}
	rest := body[len(stateMagic):]
	// Strings are views of the bytes read, which nothing changes: a copy
	// of each of thousands of ids and names costs a hook more than the
	// rest of reading them.
	d := &sdecoder{codec.ViewDecoder(rest, errStateCorrupt)}
	if d.Uvarint() != stateVersion {
		return nil, errStateCorrupt
	}
	n := d.Count(3)
	st := &State{stamps: make(map[string]string, n), mentions: make(map[string][]mention, n)}
	for range n {
		id, stamp := d.View(), d.View()
		st.stamps[id] = stamp
		k := d.Uvarint()
		if k == 0 {
			continue
		}
		st.mentions[id] = d.names(k - 1)
	}
	if d.Byte() == 1 {
		st.snap = d.snap()
	}
	if d.Err != nil || len(d.B) != 0 {
		return nil, errStateCorrupt
	}
	return st, nil
}

// sdecoder reads the notes' state, its strings views of the bytes read.
type sdecoder struct {
	codec.Decoder
}

// names reads k names as appendNames writes them.
func (d *sdecoder) names(k uint64) []mention {
	ms := make([]mention, 0, min(k, uint64(len(d.B)/3)))
	for range k {
		if d.Err != nil {
			break
		}
		m := mention{key: d.View(), display: d.View()}
		flags := d.Byte()
		m.strong = flags&1 != 0
		if flags&2 != 0 {
			m.display = m.key // most names are written as their keys
		}
		ms = append(ms, m)
	}
	return ms
}

// appendNames appends names, each its key, its display ("" when it is
// the key) and a byte of flags (1 strong, 2 the display is the key).
func appendNames(b []byte, ms []mention) []byte {
	for _, m := range ms {
		var flags byte
		if m.strong {
			flags |= 1
		}
		display := m.display
		if display == m.key {
			display, flags = "", flags|2
		}
		b = append(codec.AppendString(codec.AppendString(b, m.key), display), flags)
	}
	return b
}

// appendNode appends what the snapshot keeps of a node after its ids: a
// byte of flags (1 active, 2 critical, and those given), its time, and its
// edges, each where it goes and its kind.
func appendNode(b []byte, n snapNode, flags byte) []byte {
	if n.active {
		flags |= 1
	}
	if n.critical {
		flags |= 2
	}
	b = binary.AppendVarint(append(b, flags), n.created)
	b = binary.AppendUvarint(b, uint64(len(n.edges)))
	for _, e := range n.edges {
		b = codec.AppendString(codec.AppendString(b, e.To), e.Kind)
	}
	return b
}

// node reads into n, whose doc is set, what appendNode wrote, and returns
// the flags byte.
func (d *sdecoder) node(n *snapNode) byte {
	flags := d.Byte()
	n.active, n.critical = flags&1 != 0, flags&2 != 0
	n.created = d.Varint()
	n.edges = d.edges(n.doc, "")
	return flags
}

func (d *sdecoder) edges(from, kind string) []core.Edge {
	n := d.Count(2)
	if n == 0 {
		return nil
	}
	out := make([]core.Edge, 0, n)
	for range n {
		to, k := d.View(), kind
		if k == "" {
			k = d.View()
		}
		out = append(out, core.Edge{From: from, To: to, Kind: k, Weight: 1})
	}
	return out
}

func (d *sdecoder) snap() *snapshot {
	sn := &snapshot{manifest: d.View()}
	sn.chunkFiles = make([]snapFile, d.Count(2))
	for i := range sn.chunkFiles {
		sn.chunkFiles[i] = snapFile{path: d.View(), version: d.View()}
	}
	sn.files = make([]snapFile, d.Count(3))
	for i := range sn.files {
		sn.files[i] = snapFile{d.View(), d.View(), d.View()}
	}
	sn.nodes = make([]snapNode, d.Count(4))
	for i := range sn.nodes {
		n := &sn.nodes[i]
		n.doc, n.id = d.View(), d.View()
		d.node(n)
	}
	sn.chunks = make([]snapChunk, d.Count(4))
	for i := range sn.chunks {
		c := &sn.chunks[i]
		c.doc, c.session, c.created = d.View(), d.View(), d.Varint()
		c.edges = d.edges(c.doc, EdgeAbout)
	}
	return sn
}

func (st *State) encode() []byte {
	ids := slices.Sorted(maps.Keys(st.stamps))
	// Sized once: growing by doubling touches several times the pages,
	// and fresh pages are most of what writing it costs.
	size := len(stateMagic) + 2*binary.MaxVarintLen64 + 4
	for _, id := range ids {
		size += len(id) + len(st.stamps[id]) + 3*binary.MaxVarintLen64
		for _, m := range st.mentions[id] {
			size += len(m.key) + len(m.display) + 2*binary.MaxVarintLen64 + 1
		}
	}
	if sn := st.snap; sn != nil {
		for _, f := range append(sn.files, sn.chunkFiles...) {
			size += len(f.path) + len(f.version) + len(f.doc) + 3*binary.MaxVarintLen64
		}
		for _, n := range sn.nodes {
			size += len(n.doc) + len(n.id) + 4*binary.MaxVarintLen64
			for _, e := range n.edges {
				size += len(e.To) + len(e.Kind) + 2*binary.MaxVarintLen64
			}
		}
		for _, c := range sn.chunks {
			size += len(c.doc) + len(c.session) + 4*binary.MaxVarintLen64
			for _, e := range c.edges {
				size += len(e.To) + binary.MaxVarintLen64
			}
		}
	}
	b := make([]byte, 0, size)
	b = append(append(b, stateMagic...), stateVersion)
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = codec.AppendString(codec.AppendString(b, id), st.stamps[id])
		ms, ok := st.mentions[id]
		if !ok {
			b = append(b, 0)
			continue
		}
		b = appendNames(binary.AppendUvarint(b, uint64(len(ms))+1), ms)
	}
	if sn := st.snap; sn == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = codec.AppendString(b, sn.manifest)
		b = binary.AppendUvarint(b, uint64(len(sn.chunkFiles)))
		for _, f := range sn.chunkFiles {
			b = codec.AppendString(codec.AppendString(b, f.path), f.version)
		}
		b = binary.AppendUvarint(b, uint64(len(sn.files)))
		for _, f := range sn.files {
			b = codec.AppendString(codec.AppendString(codec.AppendString(b, f.path), f.version), f.doc)
		}
		b = binary.AppendUvarint(b, uint64(len(sn.nodes)))
		for _, n := range sn.nodes {
			b = appendNode(codec.AppendString(codec.AppendString(b, n.doc), n.id), n, 0)
		}
		b = binary.AppendUvarint(b, uint64(len(sn.chunks)))
		for _, c := range sn.chunks {
			b = binary.AppendVarint(codec.AppendString(codec.AppendString(b, c.doc), c.session), c.created)
			b = binary.AppendUvarint(b, uint64(len(c.edges)))
			for _, e := range c.edges {
				b = codec.AppendString(b, e.To)
			}
		}
	}
	return codec.Seal(b)
}

// withMentions fills in the mentions of items from the state where the
// version is the one it scanned, and scans the others; the state then
// holds every item's.
func (st *State) withMentions(prev *State, items []item) {
	for i := range items {
		it := &items[i]
		if prev != nil && prev.stamps[it.id] == it.stamp {
			if ms, ok := prev.mentions[it.id]; ok {
				it.mentions = ms
			}
		}
		if it.mentions == nil {
			it.mentions = mentionsOf(*it)
		}
		st.mentions[it.id] = it.mentions
	}
}

// save writes next once the rankers hold what it says, keeping the names
// of the versions prev had scanned where this run read none; manifest is
// the stamp of the code's manifest its snapshot was made against.
// Nothing is written when it says what prev did.
func (x *Index) save(prev, next *State, manifest string) error {
	staged, err := x.stage(prev, next, manifest)
	if err != nil || staged == nil {
		return err
	}
	return staged.Commit()
}

// Staged is the notes' state written beside its place, for the caller to
// put in place once the rankers hold what it says: a whole state file, or
// the edits of the one in place.
type Staged struct {
	file *store.Staged
	// whole is set for a state file, which makes the edits file stale:
	// it goes once the new state is in place.
	whole bool
	x     *Index
}

// Commit puts the state in place.
func (s *Staged) Commit() error {
	if err := s.file.Commit(); err != nil {
		return fmt.Errorf("save the notes' state: %w", err)
	}
	if s.whole {
		s.x.dropEdits()
	}
	return nil
}

// Abort leaves the state in place as it was: the rankers did not take
// what the staged one says they hold.
func (s *Staged) Abort() { s.file.Abort() }

// stage writes next beside the state's file, as save saves it, for the
// caller to put in place once the rankers hold what it says; nil when it
// says what prev did. It need not wait for the disk: a state lost in a
// power cut, or cut short (its checksum tells), costs the next run
// sending every note again, and an older one sending again what changed
// since, which the rankers apply as they did.
func (x *Index) stage(prev, next *State, manifest string) (*Staged, error) {
	if next.snap != nil {
		next.snap.manifest = manifest
	}
	if next.editsOnly && prev != nil && prev.base.size > 0 {
		if len(next.editedFiles) == 0 {
			return nil, nil // no file changed: the state is prev's
		}
		if edits := editsOf(prev, next); len(edits) <= MaxEdits {
			staged, err := store.StageDerived(filepath.Join(x.dir, EditsFile), encodeEdits(prev.base, edits), 0o644)
			if err != nil {
				return nil, fmt.Errorf("save the notes' edits: %w", err)
			}
			return &Staged{file: staged}, nil
		}
	}
	if prev != nil {
		next.mentions = keptMentions(prev, next)
		if maps.Equal(prev.stamps, next.stamps) && sameMentions(prev.mentions, next.mentions) && reflect.DeepEqual(prev.snap, next.snap) {
			return nil, nil
		}
	}
	staged, err := store.StageDerived(filepath.Join(x.dir, StateFile), next.encode(), 0o644)
	if err != nil {
		return nil, fmt.Errorf("save the notes' state: %w", err)
	}
	return &Staged{file: staged, whole: true, x: x}, nil
}

// keptMentions returns next's names, with prev's for the documents whose
// version next did not scan again and prev had scanned.
func keptMentions(prev, next *State) map[string][]mention {
	if len(next.mentions)*4 > len(prev.mentions) {
		for id, stamp := range next.stamps {
			if _, ok := next.mentions[id]; !ok && prev.stamps[id] == stamp {
				if ms, ok := prev.mentions[id]; ok {
					next.mentions[id] = ms
				}
			}
		}
		return next.mentions
	}
	// A few documents scanned again (an edit): prev's names, less those of
	// versions gone, cost one copy where filling a new map grows it a
	// dozen times.
	out := maps.Clone(prev.mentions)
	for id := range out {
		if stamp, ok := next.stamps[id]; !ok || prev.stamps[id] != stamp {
			delete(out, id)
		}
	}
	maps.Copy(out, next.mentions)
	return out
}

func sameMentions(a, b map[string][]mention) bool {
	return maps.EqualFunc(a, b, func(x, y []mention) bool { return slices.Equal(x, y) })
}
