// Package memory keeps the memory of conversations: chunks of text an agent
// or a hook saved (a snapshot before a compaction, a session log, a debug
// session), each with a summary, tags, its project, domain and ticket, the
// entities it names, and a content hash that finds duplicates.
//
// Chunks are markdown files with a YAML frontmatter in .rubi/sessions/,
// which rubi's .rubi/.gitignore keeps out of git: they are one person's
// conversations, not the team's knowledge. They are read by line range
// (Peek), searched by regular expression or by words with typos allowed
// (Grep), and listed (List); every filter (dates, project, domain, type,
// session, entity) applies before anything is ranked or cut, so a filtered
// search never misses a match that a wider one would have pushed out.
//
// Writes take the folder's lock and are atomic (core/store), so hooks,
// the MCP server and the command line may save at once; ids and project
// names are validated before they become file names.
//
// The command line (rubi memory) and the MCP server's one memory tool
// (its actions save, grep, list, handoff, last, retention, retain,
// restore and status; one tool, so its definition is paid for once per
// message) share this
// store, and the read tool reads a chunk by id and line range. The hooks'
// pre-compaction records and every handoff are chunks too, and the index
// makes each chunk a document, so a question finds the debugging session
// that answered it. A chunk's project is the name of git's origin
// repository, else the folder's (DetectProject), or the one it was saved
// with. Retention (retention.go) archives, restores and purges chunks and
// survives a process killed at any step (a test kills one with SIGKILL);
// Overview counts the chunks by zone and type with the retention due now
// and next; ImportRLM converts the reference memory server's store (rubi
// import rlm).
package memory

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/rubi-dev/rubi/core/store"
)

// Chunk types.
const (
	TypeSnapshot = "snapshot" // what a conversation held before a compaction
	TypeSession  = "session"  // a session's log or a saved stretch of it
	TypeDebug    = "debug"    // a debugging session
)

// Types lists the chunk types; TypeSession is the default.
var Types = []string{TypeSnapshot, TypeSession, TypeDebug}

// Dir is where chunks live, relative to the project root.
const Dir = ".rubi/sessions"

// DefaultMaxSize is the largest content a chunk may hold unless the store
// says otherwise: a long session log, not a dump.
const DefaultMaxSize = 512 << 10

// maxChunkFile bounds what is read of one chunk file (or, unpacked, one
// archived chunk), which the repository may supply as a link to /dev/zero
// or to a secret: a chunk is at most its store's MaxSize of text
// (DefaultMaxSize unless memory.max_chunk_size says more) and a front
// matter of a few lines; 64 MiB is room for a store set a hundred times
// larger. A chunk past it is a problem naming its file.
const maxChunkFile = 64 << 20

// ErrNotFound is returned for an id no chunk has.
var ErrNotFound = errors.New("no such chunk")

// Chunk is one saved piece of conversation.
type Chunk struct {
	ID      string   `yaml:"id" json:"id"`
	Type    string   `yaml:"type" json:"type"`
	Summary string   `yaml:"summary" json:"summary"`
	Tags    []string `yaml:"tags,omitempty" json:"tags,omitempty"`
	Project string   `yaml:"project" json:"project"`
	Domain  string   `yaml:"domain,omitempty" json:"domain,omitempty"`
	Ticket  string   `yaml:"ticket,omitempty" json:"ticket,omitempty"`
	Session string   `yaml:"session,omitempty" json:"session,omitempty"`
	// Seq is the chunk's place in its session, from 1, given under the
	// store's lock as it is saved: chunks saved in the same second (a
	// conversation saved a turn a process) keep the order they were
	// saved in. 0 for a chunk without a session.
	Seq      int       `yaml:"seq,omitempty" json:"seq,omitempty"`
	Created  time.Time `yaml:"created" json:"created"`
	Entities Entities  `yaml:"entities,omitempty" json:"entities,omitzero"`
	// Hash is the SHA-256 of the content with case and runs of white space
	// folded: two chunks with the same hash say the same thing.
	Hash string `yaml:"hash" json:"hash"`
	// Lines counts the content's lines.
	Lines int `yaml:"lines" json:"lines"`

	// Archived marks a chunk retention archived, on ArchivedAt; List and
	// Grep show it by its summary and tags, Read restores it.
	Archived   bool      `yaml:"-" json:"archived,omitempty"`
	ArchivedAt time.Time `yaml:"-" json:"archived_at,omitzero"`

	// Content is the text (the file after its frontmatter).
	Content string `yaml:"-" json:"content,omitempty"`
	// Path is the chunk's file.
	Path string `yaml:"-" json:"path,omitempty"`
}

// Input is what a caller saves.
type Input struct {
	Type    string
	Summary string // made from the content when empty
	Tags    []string
	Project string // DetectProject's name when empty
	Domain  string
	Ticket  string
	Session string
	Content string
	// Created defaults to now.
	Created time.Time
}

// Saved says what Save did.
type Saved struct {
	ID string `json:"id"`
	// Duplicate is set when a chunk with the same content existed: nothing
	// was written, and ID is that chunk's.
	Duplicate bool   `json:"duplicate,omitempty"`
	Path      string `json:"path"`
}

// Store is the chunks of one project.
type Store struct {
	root string
	dir  string
	// MaxSize is the largest content Save accepts, in bytes.
	MaxSize int
	// Now is the clock.
	Now func() time.Time
	// crash, in tests, fails a move between its two steps.
	crash func(step, id string) error
}

// Open returns the store of the project at root. Nothing is created until
// the first Save.
func Open(root string) *Store {
	return &Store{root: root, dir: filepath.Join(root, filepath.FromSlash(Dir)), MaxSize: DefaultMaxSize, Now: time.Now}
}

// Save writes a chunk, or finds that one with the same content exists.
func (s *Store) Save(ctx context.Context, in Input) (*Saved, error) {
	saved, errs, err := s.SaveAll(ctx, []Input{in})
	if err != nil {
		return nil, err
	}
	if errs[0] != nil {
		return nil, errs[0]
	}
	return saved[0], nil
}

// SaveAll saves several chunks under one lock and one look at what the
// store holds. A bad input gets its error in errs (at its index) and does
// not stop the others; err is for the store itself.
func (s *Store) SaveAll(ctx context.Context, in []Input) (saved []*Saved, errs []error, err error) {
	saved, errs = make([]*Saved, len(in)), make([]error, len(in))
	chunks := make([]*Chunk, len(in))
	valid := 0
	for i := range in {
		if chunks[i], errs[i] = s.prepare(in[i]); errs[i] == nil {
			valid++
		}
	}
	if valid == 0 {
		return saved, errs, nil // nothing to write: not even the folder
	}
	lock, err := s.lock(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer lock.Unlock()
	all, err := s.scanAll()
	if err != nil {
		return nil, nil, err
	}
	byHash := map[string]*Chunk{}
	lastSeq := map[string]int{} // session → the highest place given in it
	for _, o := range all {
		byHash[o.Hash] = o
		if o.Session != "" {
			lastSeq[o.Session] = max(lastSeq[o.Session], o.Seq)
		}
	}
	for i, c := range chunks {
		if c == nil {
			continue
		}
		if o, dup := byHash[c.Hash]; dup {
			saved[i] = &Saved{ID: o.ID, Duplicate: true, Path: o.Path}
			continue
		}
		if c.Session != "" {
			lastSeq[c.Session]++
			c.Seq = lastSeq[c.Session]
		}
		c.Path = s.activePath(c.ID)
		data, err := encode(c)
		if err == nil {
			err = store.WriteFile(c.Path, data, 0o644)
		}
		if err != nil {
			return nil, nil, err
		}
		byHash[c.Hash] = c
		saved[i] = &Saved{ID: c.ID, Path: c.Path}
	}
	return saved, errs, nil
}

// prepare checks an input and makes its chunk.
func (s *Store) prepare(in Input) (*Chunk, error) {
	typ := strings.ToLower(strings.TrimSpace(in.Type))
	if typ == "" {
		typ = TypeSession
	}
	if !slices.Contains(Types, typ) {
		return nil, fmt.Errorf("unknown chunk type %q: use %s", in.Type, strings.Join(Types, ", "))
	}
	content := strings.TrimRight(strings.ReplaceAll(in.Content, "\r\n", "\n"), "\n \t")
	if strings.TrimSpace(content) == "" {
		return nil, errors.New("the chunk is empty: give it some content")
	}
	if len(content) > s.MaxSize {
		return nil, fmt.Errorf("the chunk is %s, over the limit of %s: save a summary, or split it", size(len(content)), size(s.MaxSize))
	}
	project := strings.TrimSpace(in.Project)
	if project == "" {
		project = DetectProject(s.root)
	}
	if err := ValidName("project", project); err != nil {
		return nil, err
	}
	for _, n := range []struct{ what, v string }{{"domain", in.Domain}, {"ticket", in.Ticket}, {"session", in.Session}} {
		if n.v != "" {
			if err := ValidName(n.what, n.v); err != nil {
				return nil, err
			}
		}
	}
	created := in.Created
	if created.IsZero() {
		created = s.Now()
	}
	created = created.UTC().Truncate(time.Second)
	c := &Chunk{
		Type: typ, Summary: strings.TrimSpace(in.Summary), Tags: cleanTags(in.Tags),
		Project: project, Domain: in.Domain, Ticket: in.Ticket, Session: in.Session,
		Created: created, Entities: Extract(content), Hash: contentHash(content),
		Lines: strings.Count(content, "\n") + 1, Content: content,
	}
	if c.Summary == "" {
		c.Summary = autoSummary(content)
	}
	c.ID = created.Format("20060102-150405") + "-" + c.Hash[:8]
	return c, nil
}

// lock takes the store's lock, creating its folder, and keeps rubi's
// lines in .rubi/.gitignore.
func (s *Store) lock(ctx context.Context) (*store.Lock, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	lock, err := store.LockWithin(ctx, s.root, s.dir)
	if err != nil {
		return nil, err
	}
	// The records are one person's: rubi's lines in .rubi/.gitignore keep
	// them out of `git add -A`, whatever a committed .gitignore says.
	if err := store.KeepIgnored(s.root, filepath.Dir(s.dir)); err != nil {
		lock.Unlock()
		return nil, err
	}
	return lock, nil
}

// Get reads a chunk, content included, without counting a read: an
// archived one is read from its archive and stays there (Read restores).
func (s *Store) Get(id string) (*Chunk, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	path := s.activePath(id)
	data, err := store.ReadWithin(s.root, path, maxChunkFile)
	if errors.Is(err, os.ErrNotExist) {
		if data, aerr := readGzip(s.archivePath(id)); aerr == nil {
			c, err := decode(s.archivePath(id), data)
			if err == nil {
				c.Archived = true
				if info, err := os.Stat(s.archivePath(id)); err == nil {
					c.ArchivedAt = info.ModTime()
				}
			}
			return c, err
		}
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	return decode(path, data)
}

// Peek reads lines from to to (1-based, inclusive; to 0 means the end) of
// a chunk's content, and says how many lines it has. It is a read: it
// counts, and an archived chunk is restored.
func (s *Store) Peek(ctx context.Context, id string, from, to int) (string, int, error) {
	c, err := s.Read(ctx, id)
	if err != nil {
		return "", 0, err
	}
	lines := strings.Split(c.Content, "\n")
	if from < 1 {
		from = 1
	}
	if to <= 0 || to > len(lines) {
		to = len(lines)
	}
	if from > len(lines) {
		return "", len(lines), fmt.Errorf("chunk %s has %d lines; line %d is past its end", id, len(lines), from)
	}
	if from > to {
		return "", len(lines), fmt.Errorf("lines %d:%d: the first is after the last", from, to)
	}
	return strings.Join(lines[from-1:to], "\n"), len(lines), nil
}

// List returns the chunks that pass f, newest first, without their
// content; archived ones are marked.
func (s *Store) List(f Filter) ([]*Chunk, error) {
	all, err := s.scanAll()
	if err != nil {
		return nil, err
	}
	var out []*Chunk
	for _, c := range all {
		if f.accepts(c) {
			c.Content = ""
			out = append(out, c)
		}
	}
	return out, nil
}

// Active returns every chunk that is not archived, newest first, with its
// text: what the index turns into documents.
func (s *Store) Active() ([]*Chunk, error) { return s.scan() }

// ActiveChecked is Active, and the files of the folder that are not
// chunks, each with its path and what is wrong (an empty file, a
// frontmatter that does not end): what the index reports and skips.
func (s *Store) ActiveChecked() ([]*Chunk, []string, error) {
	var problems []string
	out, err := s.scanReport(func(path string, err error) { problems = append(problems, err.Error()) })
	return out, problems, err
}

// IsChunkName says whether a file of the folder is read as a chunk: what
// the index compares between runs to tell that no chunk changed.
func IsChunkName(name string) bool { return strings.HasSuffix(name, ".md") }

// scan reads every chunk, newest first. A file that does not read as a
// chunk is skipped: it is not this store's to judge (a record written by
// an older rubi, a user's note).
func (s *Store) scan() ([]*Chunk, error) { return s.scanReport(nil) }

// scanReport is scan, telling bad about each file skipped.
func (s *Store) scanReport(bad func(path string, err error)) ([]*Chunk, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The folder is checked once, and one linked out of the project (a
	// repository's .rubi/sessions -> elsewhere) holds no chunk of this
	// store's; each chunk is opened without following a link
	// (store.ReadLeaf).
	if !store.Inside(s.root, s.dir) {
		if bad != nil {
			bad(s.dir, fmt.Errorf("refusing to read %s: it leads out of %s through a symbolic link: %w", s.dir, s.root, store.ErrNotOwned))
		}
		return nil, nil
	}
	var out []*Chunk
	for _, e := range entries {
		if e.IsDir() || !IsChunkName(e.Name()) {
			continue
		}
		path := filepath.Join(s.dir, e.Name())
		data, err := store.ReadLeaf(path, maxChunkFile)
		if err != nil {
			if bad != nil {
				bad(path, err)
			}
			continue
		}
		c, err := decode(path, data)
		if err != nil {
			if bad != nil {
				bad(path, err)
			}
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Chunk) int { return Order(b, a) })
	return out, nil
}

// Order compares two chunks by when they were written, oldest first: by
// creation time, then, within a session, by their place in it (Seq),
// then by id. Chunks saved in the same second keep the order they were
// saved in, whatever their ids.
func Order(a, b *Chunk) int {
	return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.Seq, b.Seq), strings.Compare(a.ID, b.ID))
}

// encode writes a chunk file: the frontmatter, then the content.
func encode(c *Chunk) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	enc.Close()
	b.WriteString("---\n")
	b.WriteString(c.Content)
	b.WriteString("\n")
	return b.Bytes(), nil
}

// decode reads a chunk file.
func decode(path string, data []byte) (*Chunk, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: not a chunk: the file is empty (%d bytes)", path, len(data))
	}
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return nil, fmt.Errorf("%s:1: not a chunk: no frontmatter", path)
	}
	i := bytes.Index(rest, []byte("\n---\n"))
	if i < 0 {
		return nil, fmt.Errorf("%s: not a chunk: the frontmatter does not end", path)
	}
	c, quick := quickChunk(rest[:i+1])
	if !quick {
		c = &Chunk{}
		if err := yaml.Unmarshal(rest[:i+1], c); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if c.ID == "" || c.Hash == "" {
		return nil, fmt.Errorf("%s: not a chunk: no id or hash", path)
	}
	c.Content = strings.TrimSuffix(string(rest[i+5:]), "\n")
	c.Path = path
	return c, nil
}

// contentHash hashes content with case and white space folded, so that
// the same text pasted twice with other line breaks is a duplicate.
func contentHash(content string) string {
	norm := strings.Join(strings.Fields(strings.ToLower(content)), " ")
	sum := sha256.Sum256([]byte(norm))
	return hex.EncodeToString(sum[:])
}

// autoSummary is the content's first meaningful line, cut at 120
// characters.
func autoSummary(content string) string {
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#>-* "))
		if len(l) < 3 || l == "---" {
			continue
		}
		if r := []rune(l); len(r) > 120 {
			return string(r[:119]) + "…"
		}
		return l
	}
	return ""
}

func cleanTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// ValidName checks a project, domain, ticket or session name: it becomes
// part of file names and filters, so it may not hold a path.
func ValidName(what, v string) error {
	if v == "" || len(v) > 100 || v == "." || v == ".." || strings.ContainsAny(v, "/\\\x00") || strings.Contains(v, "..") {
		return fmt.Errorf("%s %q: use a plain name (letters, digits, '.', '_', '-'), not a path", what, v)
	}
	return nil
}

// validID checks a chunk id as Save makes them.
func validID(id string) error {
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "/\\.\x00") {
		return fmt.Errorf("chunk id %q: ids look like 20261129-153000-1a2b3c4d", id)
	}
	return nil
}

func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (n+1023)/1024)
}
