package walk

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// Dirs is what a walk learned of a tree's directories, for the next walk
// of the same tree with the same options (Options.Dirs): each directory
// it listed, with its stamp, the stamps of its ignore files and their
// rules, and what the walk decided for each of its entries.
//
// A directory whose stamp is unchanged has the same entries (creating,
// removing or renaming an entry changes its directory's modification and
// change times; so does setting its times back, which changes its change
// time), so the next walk does not list it or judge its entries again.
// It still stats each file it accepted (an edit moves the file's times,
// not its directory's) and each file it found too large, relative to the
// open directory, and descends into each subdirectory to check it the
// same way; a file that is no longer a regular file, or cannot be
// statted, has the directory listed again. Every other decision follows
// from an entry's name and type and the ignore rules in force, which is
// why it is kept: a name's type changes only with its directory. Where
// the rules in force may have changed (an ignore file's stamp, or rules
// that differ from those remembered in a directory above), the directory
// and everything below it are listed and judged again; options that
// differ (Options, the default excludes, the binary extensions, the
// walk's own rules) forget everything.
//
// A directory that changed within the last settleWindow before the walk
// began is listed, and is listed again by the next walk: a change in
// the same tick of the file system's clock as the stamp would leave the
// stamp as it was.
//
// Dirs is saved in the file DirsFile names (Save): a sealed binary
// (core/codec) whose damage, foreign format or absence costs the next
// walk listing every directory, never a wrong answer. Entry names are
// checked as they are read (one path element each, in the walk's order),
// and a remembered subdirectory is opened without following a link: a
// forged file cannot lead the walk out of the tree.
type Dirs struct {
	fp      [32]byte // the fingerprint the records were made with
	exclude []rule   // .git/info/exclude's rules
	byRel   map[string]*dirRecord
	changed bool // a walk made records other than those it was given
}

// DirsFile is the name Dirs is saved under in the index folder.
const DirsFile = "dirs.bin"

// settleWindow is how long before a walk a stamp must be for the walk to
// trust it next time: longer than a tick of any file system's clock
// (FAT's two seconds). Tests shorten it.
var settleWindow = 3 * time.Second

// stamp is the version of a directory or file: its device and inode, its
// size and its modification and change times in nanoseconds (as
// store's records of what it wrote). The zero stamp is no stamp.
type stamp struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

// dirRecord is a directory as a walk listed it.
type dirRecord struct {
	rel   string
	stamp stamp
	// settled says the listing can be reused: its stamp and its ignore
	// files' were settled (settleWindow) and every entry was judged.
	settled bool
	ignores []ignoreStamp
	rules   []rule  // its ignore files' rules, in priority order
	entries []entry // in path order
}

// ignoreStamp is an ignore file of a directory, by name, as read.
type ignoreStamp struct {
	name  string
	stamp stamp
}

// entry is a directory's entry and what the walk decided for it.
type entry struct {
	name string
	kind uint8 // kindDir, kindFile or a skip reason (kindReasons)
	dir  bool  // a directory (its place in the walk's order)
}

// dirBit marks a directory's kind in the file.
const dirBit = 0x80

const (
	kindDir  = 0 // a directory descended into
	kindFile = 1 // a regular file, accepted or too large by its size
)

// kindReasons are the skip reasons a walk remembers, by kind: those that
// follow from an entry's name and type and the rules in force.
var kindReasons = [...]string{
	2: ReasonDefaultExcluded, 3: ReasonIgnored, 4: ReasonExcluded, 5: ReasonSymlink,
	6: ReasonSpecial, 7: ReasonNotIncluded, 8: ReasonBinary,
}

func kindOf(reason string) (uint8, bool) {
	for k, r := range kindReasons {
		if r != "" && r == reason {
			return uint8(k), true
		}
	}
	return 0, false
}

// NewDirs is an empty Dirs: a walk given it lists every directory.
func NewDirs() *Dirs { return &Dirs{byRel: map[string]*dirRecord{}} }

// Changed reports whether the last walk given d changed it: Save it then.
func (d *Dirs) Changed() bool { return d.changed }

// walkRules names the walk's rules the remembered decisions rest on:
// change it when parseRule, judge or the listing change what they decide.
const walkRules = "rubi-walk 1"

// constants is the fingerprint of what the walk is built with.
var constants = sync.OnceValue(func() []byte {
	b := []byte(walkRules)
	b = append(b, 0)
	b = append(b, strings.Join(DefaultExcludes, "\x00")...)
	b = append(b, 0)
	b = append(b, strings.Join(slices.Sorted(maps.Keys(binaryExts)), "\x00")...)
	return b
})

// fingerprint names a walk of root with opts: records made by another
// are not used.
func fingerprint(root string, opts Options) [32]byte {
	b := append([]byte(nil), constants()...)
	b = codec.AppendString(b, root)
	for _, list := range [][]string{opts.Include, opts.Exclude} {
		b = binary.AppendUvarint(b, uint64(len(list)))
		for _, p := range list {
			b = codec.AppendString(b, p)
		}
	}
	flag := byte(0)
	if opts.NoDefaultExcludes {
		flag = 1
	}
	b = append(b, flag)
	b = binary.AppendVarint(b, opts.MaxFileSize)
	return sha256.Sum256(b)
}

// update replaces d's records with those of a complete walk, made with
// fp, keeping in order, and says whether they differ.
func (d *Dirs) update(fp [32]byte, exclude []rule, keep []*dirRecord) {
	same := fp == d.fp && rulesEqual(exclude, d.exclude) && len(keep) == len(d.byRel)
	byRel := make(map[string]*dirRecord, len(keep))
	for _, rec := range keep {
		if same && d.byRel[rec.rel] != rec {
			same = false
		}
		byRel[rec.rel] = rec
	}
	d.changed = d.changed || !same
	d.fp, d.exclude, d.byRel = fp, exclude, byRel
}

func rulesEqual(a, b []rule) bool { return slices.Equal(a, b) }

// The file: the magic, then the fingerprint, .git/info/exclude's rules
// and the directories, each as its path, its stamp, whether it is
// settled, its ignore files (name and stamp), its rules and its entries
// (name and kind), in the walk's order; sealed with a CRC-32C.
const dirsMagic = "rubi-dirs\x01"

// maxDirsFile bounds what is read of the file: about 40 bytes a
// directory and 12 an entry; a tree of a million entries is some 20 MB.
const maxDirsFile = 512 << 20

// Save writes d to path atomically, as a derived file (lost, the next
// walk lists every directory).
func (d *Dirs) Save(path string) error {
	b := append([]byte(nil), dirsMagic...)
	b = append(b, d.fp[:]...)
	b = appendRules(b, d.exclude)
	recs := slices.SortedFunc(maps.Values(d.byRel), func(a, b *dirRecord) int { return strings.Compare(a.rel, b.rel) })
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, rec := range recs {
		b = codec.AppendString(b, rec.rel)
		b = appendStamp(b, rec.stamp)
		settled := byte(0)
		if rec.settled {
			settled = 1
		}
		b = append(b, settled)
		b = binary.AppendUvarint(b, uint64(len(rec.ignores)))
		for _, ig := range rec.ignores {
			b = codec.AppendString(b, ig.name)
			b = appendStamp(b, ig.stamp)
		}
		b = appendRules(b, rec.rules)
		b = binary.AppendUvarint(b, uint64(len(rec.entries)))
		for _, e := range rec.entries {
			b = codec.AppendString(b, e.name)
			k := e.kind
			if e.dir {
				k |= dirBit
			}
			b = append(b, k)
		}
	}
	if err := store.WriteDerived(path, codec.Seal(b), 0o644); err != nil {
		return err
	}
	d.changed = false
	return nil
}

func appendStamp(b []byte, s stamp) []byte {
	b = binary.AppendUvarint(b, s.dev)
	b = binary.AppendUvarint(b, s.ino)
	b = binary.AppendVarint(b, s.size)
	b = binary.AppendVarint(b, s.mtime)
	return binary.AppendVarint(b, s.ctime)
}

func appendRules(b []byte, rules []rule) []byte {
	b = binary.AppendUvarint(b, uint64(len(rules)))
	for _, r := range rules {
		b = codec.AppendString(b, r.pattern)
		b = append(b, ruleFlags(r))
	}
	return b
}

func ruleFlags(r rule) byte {
	var f byte
	if r.negate {
		f |= 1
	}
	if r.dirOnly {
		f |= 2
	}
	if r.anchored {
		f |= 4
	}
	return f
}

var errDirs = errors.New("damaged")

// LoadDirs reads the Dirs saved at path. None, or one that is damaged or
// of another format, is an empty Dirs: the walk then lists every
// directory. oneShot says the process exits after its walk (a command):
// the file is then mapped (core/store.Map), and the records view the
// mapping, never released, instead of a copy.
func LoadDirs(path string, oneShot bool) *Dirs {
	if !oneShot {
		data, err := store.ReadLeaf(path, maxDirsFile)
		if err != nil {
			return NewDirs()
		}
		if d, ok := decodeDirs(data); ok {
			return d
		}
		return NewDirs()
	}
	mapped, err := store.Map(path, true)
	if err != nil {
		return NewDirs()
	}
	if len(mapped.Data) <= maxDirsFile {
		if d, ok := decodeDirs(mapped.Data); ok {
			return d
		}
	}
	mapped.Close()
	return NewDirs()
}

func decodeDirs(data []byte) (*Dirs, bool) {
	body, ok := codec.Unseal(data)
	if !ok || !bytes.HasPrefix(body, []byte(dirsMagic)) || len(body) < len(dirsMagic)+32 {
		return nil, false
	}
	d := &Dirs{}
	copy(d.fp[:], body[len(dirsMagic):])
	dec := codec.ViewDecoder(body[len(dirsMagic)+32:], errDirs)
	d.exclude = decodeRules(&dec)
	n := dec.Count(8)
	recs := make([]dirRecord, n)
	d.byRel = make(map[string]*dirRecord, n)
	prev := ""
	for i := range recs {
		rec := &recs[i]
		rec.rel = dec.View()
		rec.stamp = decodeStamp(&dec)
		rec.settled = dec.Byte() == 1
		if rec.ignores = make([]ignoreStamp, dec.Count(6)); len(rec.ignores) > len(ignoreFiles) {
			return nil, false
		}
		for j := range rec.ignores {
			rec.ignores[j] = ignoreStamp{dec.View(), decodeStamp(&dec)}
			if !slices.Contains(ignoreFiles[:], rec.ignores[j].name) {
				return nil, false
			}
		}
		rec.rules = decodeRules(&dec)
		rec.entries = make([]entry, dec.Count(2))
		for j := range rec.entries {
			name, k := dec.View(), dec.Byte()
			e := entry{name: name, kind: k &^ dirBit, dir: k&dirBit != 0}
			if !validName(e.name) || int(e.kind) >= len(kindReasons) || e.kind > kindFile && kindReasons[e.kind] == "" ||
				e.kind == kindDir && !e.dir {
				return nil, false
			}
			// Strictly in the walk's order: no name twice.
			if j > 0 {
				p := rec.entries[j-1]
				if comparePathKeys(p.name, p.dir, e.name, e.dir) >= 0 {
					return nil, false
				}
			}
			rec.entries[j] = e
		}
		if dec.Err != nil || !validRel(rec.rel) || i > 0 && rec.rel <= prev {
			return nil, false
		}
		prev = rec.rel
		d.byRel[rec.rel] = rec
	}
	if dec.Err != nil || len(dec.B) != 0 {
		return nil, false
	}
	return d, true
}

func decodeStamp(dec *codec.Decoder) stamp {
	return stamp{dec.Uvarint(), dec.Uvarint(), dec.Varint(), dec.Varint(), dec.Varint()}
}

func decodeRules(dec *codec.Decoder) []rule {
	rules := make([]rule, dec.Count(2))
	for i := range rules {
		p, f := dec.View(), dec.Byte()
		if p == "" || !doublestar.ValidatePattern(p) {
			dec.Err = errDirs
			return nil
		}
		rules[i] = rule{pattern: p, negate: f&1 != 0, dirOnly: f&2 != 0, anchored: f&4 != 0}
	}
	if len(rules) == 0 {
		return nil
	}
	return rules
}

// validName reports whether name is one element of a path.
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && strings.IndexByte(name, '/') < 0 && strings.IndexByte(name, 0) < 0
}

// validRel reports whether rel is "" or a slash path of valid names.
func validRel(rel string) bool {
	if rel == "" {
		return true
	}
	for name := range strings.SplitSeq(rel, "/") {
		if !validName(name) {
			return false
		}
	}
	return true
}
