package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// notesStateFile is the notes' part of the index as the last run left it,
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
//	magic "rubi-notes\n", uvarint version
//	uvarint document count, then per document (ids ascending):
//	  string id, string stamp, uvarint names+1 (0: never scanned), then
//	  per name: string key, string display, byte strong
//	4 bytes CRC-32C of everything before, little endian
const (
	notesStateFile    = "notes.bin"
	notesStateMagic   = "rubi-notes\n"
	notesStateVersion = 1
)

var errNotesStateCorrupt = errors.New("the notes' state is damaged")

// notesState is what notesStateFile holds.
type notesState struct {
	// stamps maps each indexed note's and chunk's document id to the stamp
	// of its version (nodeStamp, a chunk's hash).
	stamps map[string]string
	// mentions holds the names found in the version stamps names, for the
	// documents relate has read.
	mentions map[string][]mention
}

func newNotesState() *notesState {
	return &notesState{stamps: map[string]string{}, mentions: map[string][]mention{}}
}

// loadNotesState reads the notes' state of the index in dir; nil when
// there is none or it does not decode.
func loadNotesState(dir string) *notesState {
	f, err := store.OpenRegular(filepath.Join(dir, notesStateFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxNotesState+1))
	if err != nil || len(data) > maxNotesState {
		return nil
	}
	st, err := decodeNotesState(data)
	if err != nil {
		return nil
	}
	return st
}

// maxNotesState bounds what loadNotesState reads: a file far past what
// any set of notes makes is not the index's.
const maxNotesState = 1 << 30

func decodeNotesState(data []byte) (*notesState, error) {
	body, ok := codec.Unseal(data)
	if !ok || len(body) < len(notesStateMagic) || string(body[:len(notesStateMagic)]) != notesStateMagic {
		return nil, errNotesStateCorrupt
	}
	d := codec.Decoder{B: body[len(notesStateMagic):], Corrupt: errNotesStateCorrupt}
	if d.Uvarint() != notesStateVersion {
		return nil, errNotesStateCorrupt
	}
	n := d.Count(3)
	st := &notesState{stamps: make(map[string]string, n), mentions: make(map[string][]mention, n)}
	for range n {
		id, stamp := d.String(), d.String()
		st.stamps[id] = stamp
		k := d.Uvarint()
		if k == 0 {
			continue
		}
		ms := make([]mention, 0, min(int(k-1), len(d.B)/3))
		for range k - 1 {
			if d.Err != nil {
				break
			}
			ms = append(ms, mention{key: d.String(), display: d.String(), strong: d.Byte() != 0})
		}
		st.mentions[id] = ms
	}
	if d.Err != nil || len(d.B) != 0 {
		return nil, errNotesStateCorrupt
	}
	return st, nil
}

func (st *notesState) encode() []byte {
	ids := slices.Sorted(maps.Keys(st.stamps))
	// Sized once: growing by doubling touches several times the pages,
	// and fresh pages are most of what writing it costs.
	size := len(notesStateMagic) + 2*binary.MaxVarintLen64 + 4
	for _, id := range ids {
		size += len(id) + len(st.stamps[id]) + 3*binary.MaxVarintLen64
		for _, m := range st.mentions[id] {
			size += len(m.key) + len(m.display) + 2*binary.MaxVarintLen64 + 1
		}
	}
	b := make([]byte, 0, size)
	b = append(append(b, notesStateMagic...), notesStateVersion)
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = codec.AppendString(codec.AppendString(b, id), st.stamps[id])
		ms, ok := st.mentions[id]
		if !ok {
			b = append(b, 0)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(ms))+1)
		for _, m := range ms {
			b = codec.AppendString(codec.AppendString(b, m.key), m.display)
			if m.strong {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	return codec.Seal(b)
}

// save writes the state atomically.
func (st *notesState) save(dir string) error {
	return store.WriteFile(filepath.Join(dir, notesStateFile), st.encode(), 0o644)
}

// remove deletes the state: the index it described is being rebuilt.
func removeNotesState(dir string) {
	os.Remove(filepath.Join(dir, notesStateFile))
}

// withMentions fills in the mentions of items from the state where the
// version is the one it scanned, and scans the others; the state then
// holds every item's.
func (st *notesState) withMentions(prev *notesState, items []memItem) {
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

// saveNotesState writes next once the rankers hold what it says, keeping
// the names of the versions prev had scanned where this run read none.
// Nothing is written when it says what prev did.
func (e *Engine) saveNotesState(prev, next *notesState) error {
	if prev != nil {
		for id, stamp := range next.stamps {
			if _, ok := next.mentions[id]; !ok && prev.stamps[id] == stamp {
				if ms, ok := prev.mentions[id]; ok {
					next.mentions[id] = ms
				}
			}
		}
		if maps.Equal(prev.stamps, next.stamps) && sameMentions(prev.mentions, next.mentions) {
			return nil
		}
	}
	if err := next.save(e.indexDir()); err != nil {
		return fmt.Errorf("save the notes' state: %w", err)
	}
	return nil
}

func sameMentions(a, b map[string][]mention) bool {
	return maps.EqualFunc(a, b, func(x, y []mention) bool { return slices.Equal(x, y) })
}
