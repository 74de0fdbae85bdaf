package config

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/owner"
	"github.com/rubi-dev/rubi/core/trust"
)

// An entry of the configuration cache is written field by field (codec's
// varints and strings) and ends with the FNV-1a hash of the rest, which
// tells an entry damaged on the disk from a good one. As JSON it was a
// third of what a hook that reads no index spends above starting at all:
// a process decodes one entry, and encoding/json's first decode of each
// type costs more than the decode. Not codec.Seal's CRC-32C: its tables
// take a fresh process 0.2 ms to make, which a hook reading no index file
// would pay for 7 KB. TestEntryCodecCoversEveryField fails when a field
// of Config is added and not here.

// entryMagic heads an entry; cacheFormat (in the entry's key) says its
// version.
const entryMagic = "rubi-config-entry\n"

// errEntry is an entry that does not decode.
var errEntry = errors.New("the cached configuration is damaged")

// entrySum is the hash an entry ends with.
func entrySum(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// entryWriter appends an entry's fields.
type entryWriter struct{ b []byte }

func (w *entryWriter) str(s string) { w.b = codec.AppendString(w.b, s) }
func (w *entryWriter) num(n int64)  { w.b = binary.AppendVarint(w.b, n) }
func (w *entryWriter) count(n int)  { w.b = binary.AppendUvarint(w.b, uint64(n)) }
func (w *entryWriter) float(f float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(f))
}

func (w *entryWriter) flag(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// strs writes a list of strings, telling nil from empty: the loaded
// configuration is compared as it is.
func (w *entryWriter) strs(l []string) {
	if l == nil {
		w.count(0)
		return
	}
	w.count(len(l) + 1)
	for _, s := range l {
		w.str(s)
	}
}

// entryReader reads what entryWriter wrote; the first failure sticks.
type entryReader struct{ d codec.Decoder }

func (r *entryReader) str() string { return r.d.String() }
func (r *entryReader) num() int64  { return r.d.Varint() }

func (r *entryReader) int() int {
	n := r.d.Varint()
	if n != int64(int(n)) {
		r.d.Err = errEntry
		return 0
	}
	return int(n)
}

func (r *entryReader) float() float64 {
	b := r.d.Raw(8)
	if len(b) < 8 {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

func (r *entryReader) flag() bool {
	switch r.d.Byte() {
	case 0:
		return false
	case 1:
		return true
	}
	r.d.Err = errEntry
	return false
}

// count reads a list's length, its items minSize bytes at least.
func (r *entryReader) count(minSize int) int { return r.d.Count(minSize) }

func (r *entryReader) strs() []string {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	// n-1 strings, which Count bounds by the bytes left (a byte each at
	// least, their lengths').
	out := make([]string, n-1)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// encodeEntry is the file of entry e.
func encodeEntry(e *cacheEntry) ([]byte, error) {
	w := &entryWriter{b: []byte(entryMagic)}
	w.str(e.Key)
	c := e.Config
	w.str(c.Root)
	w.str(c.Vault)
	w.str(c.Language)
	ix := &c.Index
	w.strs(ix.Include)
	w.strs(ix.Exclude)
	w.flag(ix.DefaultExcludes)
	w.num(ix.MaxFileSize)
	w.strs(ix.HiddenRoles)
	w.flag(ix.LinkSessions)
	w.num(int64(ix.LinkEntities))
	w.flag(ix.SessionContext)
	w.strs(ix.ModuleRoots)
	w.num(int64(ix.ModuleDepth))
	w.flag(ix.References)
	w.float(ix.ReferenceEdges)
	w.num(int64(ix.MemoryLimit))
	for _, n := range []int{c.Budgets.Context, c.Budgets.Recall, c.Budgets.Map,
		c.Hooks.CompactWindow, c.Hooks.WarnPercent, c.Hooks.HarvestMin, c.Hooks.ReadGuardLines, c.Hooks.ReadGuardBytes,
		c.Memory.MaxChunkSize, c.Memory.ArchiveAfter, c.Memory.PurgeAfter, c.Memory.KeepReads} {
		w.num(int64(n))
	}
	w.strs(c.Memory.KeepTags)
	w.strs(c.Memory.KeepKeywords)
	w.flag(c.Trusted)
	w.strs(c.Layers)
	t := &c.Trust
	w.str(t.Record)
	w.flag(t.Stale)
	w.str(t.Error)
	w.count(len(t.LeftOut))
	for _, l := range t.LeftOut {
		w.str(string(l.Kind))
		w.str(l.Name)
		w.str(l.Where)
		w.str(l.Instead)
	}
	w.count(len(t.Plugins))
	for _, p := range t.Plugins {
		w.str(string(p.Kind))
		w.str(p.Name)
		w.str(p.Path)
		w.flag(p.Inside)
		w.str(p.Where)
	}
	if len(e.Stages) != len(c.Stages) {
		return nil, errEntry
	}
	w.count(len(c.Stages))
	for i, st := range c.Stages {
		w.str(string(st.Kind))
		w.str(st.Name)
		w.str(st.Plugin)
		w.flag(st.Enabled)
		w.num(int64(st.Timeout))
		w.float(st.Weight)
		w.float(st.ReportWeight)
		w.strs(st.Languages)
		if err := w.stage(e.Stages[i]); err != nil {
			return nil, err
		}
	}
	w.strs(e.Safe)
	w.count(len(e.Configs))
	for _, f := range e.Configs {
		w.str(f.Path)
		w.str(f.SHA256)
		w.str(f.Stamp)
	}
	files := make([]string, 0, len(e.Files))
	for name := range e.Files {
		files = append(files, name)
	}
	slices.Sort(files)
	w.count(len(files))
	for _, name := range files {
		w.str(name)
		w.str(e.Files[name])
	}
	w.strs(e.Names)
	return binary.LittleEndian.AppendUint64(w.b, entrySum(w.b)), nil
}

// stage writes what of a stage the entry keeps beside its fields.
func (w *entryWriter) stage(c cachedStage) error {
	if len(c.Decl) != rangeWords || c.Plugin != nil && len(c.Plugin) != rangeWords {
		return errEntry
	}
	w.count(len(c.Attrs))
	for _, a := range c.Attrs {
		if len(a.Ranges) != 3*rangeWords {
			return errEntry
		}
		w.str(a.Name)
		w.words(a.Ranges)
	}
	w.words(c.Decl)
	w.flag(c.Plugin != nil)
	w.words(c.Plugin)
	w.flag(c.Settings != nil)
	if c.Settings != nil {
		w.str(string(c.Settings))
		w.str(c.Schema)
	}
	return nil
}

func (w *entryWriter) words(ws words) {
	for _, n := range ws {
		w.num(int64(n))
	}
}

// decodeEntry reads an entry's file: errEntry when it is not one, was cut
// short or changed since.
func decodeEntry(data []byte) (*cacheEntry, error) {
	if len(data) < len(entryMagic)+8 {
		return nil, errEntry
	}
	body := data[:len(data)-8]
	if binary.LittleEndian.Uint64(data[len(body):]) != entrySum(body) || string(body[:len(entryMagic)]) != entryMagic {
		return nil, errEntry
	}
	r := &entryReader{d: codec.Decoder{B: body[len(entryMagic):], Corrupt: errEntry}}
	e := &cacheEntry{Key: r.str(), Config: &Config{}}
	c := e.Config
	c.Root, c.Vault, c.Language = r.str(), r.str(), r.str()
	ix := &c.Index
	ix.Include = r.strs()
	ix.Exclude = r.strs()
	ix.DefaultExcludes = r.flag()
	ix.MaxFileSize = r.num()
	ix.HiddenRoles = r.strs()
	ix.LinkSessions = r.flag()
	ix.LinkEntities = r.int()
	ix.SessionContext = r.flag()
	ix.ModuleRoots = r.strs()
	ix.ModuleDepth = r.int()
	ix.References = r.flag()
	ix.ReferenceEdges = r.float()
	ix.MemoryLimit = r.int()
	for _, n := range []*int{&c.Budgets.Context, &c.Budgets.Recall, &c.Budgets.Map,
		&c.Hooks.CompactWindow, &c.Hooks.WarnPercent, &c.Hooks.HarvestMin, &c.Hooks.ReadGuardLines, &c.Hooks.ReadGuardBytes,
		&c.Memory.MaxChunkSize, &c.Memory.ArchiveAfter, &c.Memory.PurgeAfter, &c.Memory.KeepReads} {
		*n = r.int()
	}
	c.Memory.KeepTags = r.strs()
	c.Memory.KeepKeywords = r.strs()
	c.Trusted = r.flag()
	c.Layers = r.strs()
	t := &c.Trust
	t.Record, t.Stale, t.Error = r.str(), r.flag(), r.str()
	if n := r.count(4); n > 0 {
		t.LeftOut = make([]LeftOut, n)
		for i := range t.LeftOut {
			t.LeftOut[i] = LeftOut{Kind: core.Kind(r.str()), Name: r.str(), Where: r.str(), Instead: r.str()}
		}
	}
	if n := r.count(5); n > 0 {
		t.Plugins = make([]TrustedPlugin, n)
		for i := range t.Plugins {
			t.Plugins[i] = TrustedPlugin{Kind: core.Kind(r.str()), Name: r.str(), Path: r.str(), Inside: r.flag(), Where: r.str()}
		}
	}
	// A stage takes at least 32 bytes: its five strings' and lists'
	// lengths, its timeout, two weights, its range and three flags.
	if n := r.count(32); n > 0 {
		c.Stages = make([]*Stage, n)
		e.Stages = make(cachedStages, n)
	}
	for i := range c.Stages {
		st := &Stage{Kind: core.Kind(r.str()), Name: r.str(), Plugin: r.str(), Enabled: r.flag(),
			Timeout: time.Duration(r.num()), Weight: r.float(), ReportWeight: r.float(), Languages: r.strs()}
		c.Stages[i] = st
		e.Stages[i] = r.stage()
		if r.d.Err != nil {
			return nil, errEntry
		}
	}
	e.Safe = owner.Safe(r.strs())
	if n := r.count(3); n > 0 {
		e.Configs = make([]trust.File, n)
		for i := range e.Configs {
			e.Configs[i] = trust.File{Path: r.str(), SHA256: r.str(), Stamp: r.str()}
		}
	}
	n := r.count(2)
	e.Files = make(map[string]string, n)
	for range n {
		name := r.str()
		e.Files[name] = r.str()
	}
	e.Names = r.strs()
	if r.d.Err != nil || len(r.d.B) != 0 {
		return nil, errEntry
	}
	return e, nil
}

// stage reads what entryWriter.stage wrote.
func (r *entryReader) stage() cachedStage {
	var c cachedStage
	// An attribute takes its name's length and its three ranges.
	if n := r.count(1 + 3*rangeWords); n > 0 {
		c.Attrs = make([]cachedAttr, n)
		for j := range c.Attrs {
			c.Attrs[j] = cachedAttr{Name: r.str(), Ranges: r.words(3 * rangeWords)}
		}
	}
	c.Decl = r.words(rangeWords)
	if r.flag() {
		c.Plugin = r.words(rangeWords)
	}
	if r.flag() {
		// Stage.Settings hands them to the stage as they are: a damaged
		// entry is loaded again, not given to a stage.
		if c.Settings = json.RawMessage(r.d.Bytes()); !json.Valid(c.Settings) {
			r.d.Err = errEntry
		}
		c.Schema = r.str()
	}
	return c
}

func (r *entryReader) words(n int) words {
	w := make(words, n)
	for i := range w {
		w[i] = r.int()
	}
	return w
}
