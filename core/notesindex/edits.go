package notesindex

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// EditsFile is the notes' state's edit log. The common change to the
// notes is an edit of a few of them (Delta.Edited), which changes the
// state in those notes' entries alone: their files' versions, their
// stamps and names, their nodes' flags, times and edges. Rewriting the
// whole state (a megabyte at 2,000 notes) for them cost a hook more than
// the rankers' work, so such changes go to this small file beside it,
// which reading the state applies. Any other save writes the whole state
// and drops the edits file.
//
//	magic "rubi-notes-edits\n", uvarint version
//	uvarint size of the state file the edits apply to, then its CRC-32C
//	  trailer (4 bytes): edits over another state file are not applied
//	uvarint edit count, per edit (one per node file, the latest):
//	  uvarint file (its place among the snapshot's node files), uvarint
//	  node (its place among the snapshot's nodes), string document id,
//	  string stamp, string version, byte flags (1 active, 2 critical, 4
//	  names scanned), varint created (Unix ns), uvarint edge count, per
//	  edge: string to, string kind; when names were scanned, uvarint name
//	  count, per name as the state writes them (appendNames)
//	4 bytes CRC-32C of everything before, little endian
const (
	EditsFile    = "notes.edits"
	editsMagic   = "rubi-notes-edits\n"
	editsVersion = 1
	// MaxEdits is the most node files the edits file holds edits of;
	// past it the state is written whole.
	MaxEdits = 64
)

// stateID identifies a state file: its size and checksum trailer.
type stateID struct {
	size int64
	crc  uint32
}

// baseOf is the stateID of a state file's bytes.
func baseOf(data []byte) stateID {
	if len(data) < 4 {
		return stateID{}
	}
	return stateID{size: int64(len(data)), crc: binary.LittleEndian.Uint32(data[len(data)-4:])}
}

// edit is one node file edited: its place among the snapshot's
// files and nodes, and its entries as the state now holds them.
type edit struct {
	file, node      int
	doc, stamp, ver string
	// n is the node as the snapshot holds it (its id aside).
	n snapNode
	// mentions are the names of this version, when scanned.
	mentions []mention
	scanned  bool
}

// editsOf returns prev's edits with those that make next of it: one per
// node file next.editedFiles names, its entries as next holds them.
func editsOf(prev, next *State) []edit {
	edits := prev.edits
	for _, fn := range next.editedFiles {
		f, n := next.snap.files[fn[0]], next.snap.nodes[fn[1]]
		ed := edit{file: fn[0], node: fn[1], doc: f.doc, stamp: next.stamps[f.doc], ver: f.version, n: n}
		ed.mentions, ed.scanned = next.mentions[f.doc]
		if !ed.scanned && prev.stamps[f.doc] == ed.stamp {
			ed.mentions, ed.scanned = prev.mentions[f.doc]
		}
		edits = withEdit(edits, ed)
	}
	return edits
}

// applyEdits applies edits to st, which was read from the state file
// they are edits of, and reports whether it did: edits that do not fit
// the snapshot (damaged past their checksum) change nothing.
func (st *State) applyEdits(edits []edit) bool {
	sn := st.snap
	if sn == nil {
		return false
	}
	for _, ed := range edits {
		if ed.file < 0 || ed.file >= len(sn.files) || ed.node < 0 || ed.node >= len(sn.nodes) ||
			ed.doc == "" || sn.files[ed.file].doc != ed.doc || sn.nodes[ed.node].doc != ed.doc {
			return false
		}
		if _, ok := st.stamps[ed.doc]; !ok {
			return false
		}
	}
	for _, ed := range edits {
		st.stamps[ed.doc] = ed.stamp
		sn.files[ed.file].version = ed.ver
		n := &sn.nodes[ed.node]
		n.active, n.critical, n.created, n.edges = ed.n.active, ed.n.critical && ed.n.active, ed.n.created, ed.n.edges
		if ed.scanned {
			st.mentions[ed.doc] = ed.mentions
		} else {
			delete(st.mentions, ed.doc)
		}
	}
	st.edits = edits
	return true
}

// withEdit returns edits with ed in place of an earlier edit of the same
// file.
func withEdit(edits []edit, ed edit) []edit {
	for i := range edits {
		if edits[i].file == ed.file {
			out := append([]edit(nil), edits...)
			out[i] = ed
			return out
		}
	}
	return append(append([]edit(nil), edits...), ed)
}

func encodeEdits(base stateID, edits []edit) []byte {
	b := append([]byte(editsMagic), editsVersion)
	b = binary.AppendUvarint(b, uint64(base.size))
	b = binary.LittleEndian.AppendUint32(b, base.crc)
	b = binary.AppendUvarint(b, uint64(len(edits)))
	for _, ed := range edits {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(ed.file)), uint64(ed.node))
		b = codec.AppendString(codec.AppendString(codec.AppendString(b, ed.doc), ed.stamp), ed.ver)
		var scanned byte
		if ed.scanned {
			scanned = 4
		}
		b = appendNode(b, ed.n, scanned)
		if ed.scanned {
			b = appendNames(binary.AppendUvarint(b, uint64(len(ed.mentions))), ed.mentions)
		}
	}
	return codec.Seal(b)
}

var errEditsCorrupt = errors.New("the notes' edits are damaged")

func decodeEdits(data []byte) (stateID, []edit, error) {
	body, ok := codec.Unseal(data)
	if !ok || len(body) < len(editsMagic) || string(body[:len(editsMagic)]) != editsMagic {
		return stateID{}, nil, errEditsCorrupt
	}
	// Views of a buffer read for this alone, which nothing changes.
	d := &sdecoder{codec.ViewDecoder(body[len(editsMagic):], errEditsCorrupt)}
	if d.Uvarint() != editsVersion {
		return stateID{}, nil, errEditsCorrupt
	}
	base := stateID{size: int64(d.Uvarint())}
	if raw := d.Raw(4); len(raw) == 4 {
		base.crc = binary.LittleEndian.Uint32(raw)
	}
	n := d.Count(8)
	if n > MaxEdits {
		return stateID{}, nil, errEditsCorrupt
	}
	edits := make([]edit, 0, n)
	for range n {
		ed := edit{file: int(d.Uvarint()), node: int(d.Uvarint())}
		ed.doc, ed.stamp, ed.ver = d.View(), d.View(), d.View()
		ed.n.doc = ed.doc
		ed.scanned = d.node(&ed.n)&4 != 0
		if ed.scanned {
			ed.mentions = d.names(uint64(d.Count(3)))
		}
		edits = append(edits, ed)
	}
	if d.Err != nil || len(d.B) != 0 {
		return stateID{}, nil, errEditsCorrupt
	}
	return base, edits, nil
}

// readEdits applies the edits file of the index in dir to st, read from
// the state file base names, when the file is there, whole and of that
// state file.
func (st *State) readEdits(dir string, base stateID) {
	st.base = base
	f, err := store.OpenRegular(filepath.Join(dir, EditsFile))
	if err != nil {
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEditsBytes+1))
	if err != nil || len(data) > maxEditsBytes {
		return
	}
	if on, edits, err := decodeEdits(data); err == nil && on == base {
		st.applyEdits(edits)
	}
}

// maxEditsBytes bounds what readEdits reads: MaxEdits edits of ids,
// stamps and versions of at most a few kilobytes each.
const maxEditsBytes = 1 << 20

// dropEdits removes the edits file, once a new state file makes it stale
// (its base names the old one, so it would not be applied anyway).
func (x *Index) dropEdits() {
	if err := os.Remove(filepath.Join(x.dir, EditsFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		x.logger.Warn("could not remove the notes' edits", "error", err)
	}
}
