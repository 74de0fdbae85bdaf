package memory

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// Retention keeps the memory from growing forever. A chunk unused (not
// read, not saved) for ArchiveAfter is archived: gzip'd into
// .rubi/sessions/archive/, still listed and found by its summary and tags,
// and restored when read. An archive older than PurgeAfter is deleted,
// with a line in .rubi/sessions/retention.log that keeps no content.
// Chunks with a KeepTags tag, read KeepReads times or more, or holding one
// of KeepKeywords are never archived.
//
// Every step is ordered so that a crash (a killed process) loses nothing
// and leaves no orphan: a chunk is archived by writing the archive
// atomically, then removing the chunk; restored by writing the chunk,
// then removing the archive. A crash between the two leaves both; the
// chunk wins, and the next run removes the leftover archive.
type Policy struct {
	ArchiveAfter, PurgeAfter time.Duration
	KeepTags                 []string
	KeepReads                int
	KeepKeywords             []string
}

// archiveDir holds the archived chunks, inside the store's folder.
const archiveDir = "archive"

// Step is one thing retention does, or would do, to a chunk.
type Step struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
	// Why says why: how long unused, or what made it immune.
	Why string `json:"why"`
}

// Plan is what a retention run does: chunks to archive, archives to
// purge, and chunks kept although old, with their reason.
type Plan struct {
	Archive []Step `json:"archive"`
	Purge   []Step `json:"purge"`
	Kept    []Step `json:"kept"`
	// Tidied counts leftover archives of chunks that are active again (a
	// crash between a restore's two steps), removed by a run.
	Tidied int `json:"tidied,omitempty"`
}

// usage is what the store knows of a chunk's reads.
type usage struct {
	Reads int       `json:"reads"`
	Last  time.Time `json:"last"`
}

const usageFile = "usage.json"

// Read is Get for a reader (a person or an agent): it counts the read,
// which keeps the chunk from retention, and restores an archived chunk.
func (s *Store) Read(ctx context.Context, id string) (*Chunk, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	lock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	if _, err := os.Stat(s.activePath(id)); errors.Is(err, os.ErrNotExist) {
		if _, aerr := os.Stat(s.archivePath(id)); aerr == nil {
			if err := s.restore(id); err != nil {
				return nil, err
			}
		}
	}
	c, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	use, err := s.readUsage()
	if err != nil {
		return nil, err
	}
	u := use[id]
	u.Reads++
	u.Last = s.Now().UTC().Truncate(time.Second)
	use[id] = u
	return c, s.writeUsage(use)
}

// Restore brings an archived chunk back.
func (s *Store) Restore(ctx context.Context, id string) error {
	if err := validID(id); err != nil {
		return err
	}
	lock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := os.Stat(s.archivePath(id)); errors.Is(err, os.ErrNotExist) {
		if _, aerr := os.Stat(s.activePath(id)); aerr == nil {
			return fmt.Errorf("chunk %s is not archived", id)
		}
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return s.restore(id)
}

// Preview returns what Retain would do now, doing nothing.
func (s *Store) Preview(p Policy) (*Plan, error) {
	all, err := s.scanAll()
	if err != nil {
		return nil, err
	}
	use, err := s.readUsage()
	if err != nil {
		return nil, err
	}
	return s.plan(p, all, use), nil
}

// Retain archives and purges as the policy says, under the store's lock.
func (s *Store) Retain(ctx context.Context, p Policy) (*Plan, error) {
	lock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	plan := &Plan{}
	// Leftovers of a crash: an archive beside its chunk goes.
	archived, _ := filepath.Glob(filepath.Join(s.dir, archiveDir, "*.md.gz"))
	for _, a := range archived {
		id := strings.TrimSuffix(filepath.Base(a), ".md.gz")
		if _, err := os.Stat(s.activePath(id)); err == nil {
			if err := s.step("tidy", id); err != nil {
				return nil, err
			}
			if err := os.Remove(a); err != nil {
				return nil, err
			}
			plan.Tidied++
		}
	}
	all, err := s.scanAll()
	if err != nil {
		return nil, err
	}
	use, err := s.readUsage()
	if err != nil {
		return nil, err
	}
	todo := s.plan(p, all, use)
	todo.Tidied = plan.Tidied
	for _, st := range todo.Archive {
		if err := s.archive(st.ID); err != nil {
			return nil, err
		}
	}
	for _, st := range todo.Purge {
		if err := s.purge(st.ID); err != nil {
			return nil, err
		}
	}
	return todo, nil
}

func (s *Store) plan(p Policy, all []*Chunk, use map[string]usage) *Plan {
	now := s.Now()
	plan := &Plan{Archive: []Step{}, Purge: []Step{}, Kept: []Step{}}
	for _, c := range all {
		if c.Archived {
			if p.PurgeAfter > 0 && now.Sub(c.ArchivedAt) > p.PurgeAfter {
				plan.Purge = append(plan.Purge, Step{c.ID, c.Summary, fmt.Sprintf("archived %s ago", days(now.Sub(c.ArchivedAt)))})
			}
			continue
		}
		last := c.Created
		if u := use[c.ID]; u.Last.After(last) {
			last = u.Last
		}
		idle := now.Sub(last)
		if p.ArchiveAfter <= 0 || idle <= p.ArchiveAfter {
			continue
		}
		if why := s.immune(p, c, use[c.ID]); why != "" {
			plan.Kept = append(plan.Kept, Step{c.ID, c.Summary, why})
			continue
		}
		plan.Archive = append(plan.Archive, Step{c.ID, c.Summary, fmt.Sprintf("unused for %s", days(idle))})
	}
	return plan
}

// immune says why a chunk is kept whatever its age, or "".
func (s *Store) immune(p Policy, c *Chunk, u usage) string {
	for _, t := range c.Tags {
		if slices.ContainsFunc(p.KeepTags, func(k string) bool { return strings.EqualFold(k, t) }) {
			return "tagged " + t
		}
	}
	if p.KeepReads > 0 && u.Reads >= p.KeepReads {
		return fmt.Sprintf("read %d times", u.Reads)
	}
	if len(p.KeepKeywords) > 0 {
		full, err := s.Get(c.ID)
		if err != nil {
			return "unreadable: left alone"
		}
		text := strings.ToLower(full.Summary + "\n" + full.Content)
		for _, k := range p.KeepKeywords {
			if k = strings.ToLower(strings.TrimSpace(k)); k != "" && strings.Contains(text, k) {
				return fmt.Sprintf("mentions %q", k)
			}
		}
	}
	return ""
}

// archive gzips a chunk into the archive, then removes it.
func (s *Store) archive(id string) error {
	data, err := store.ReadWithin(s.root, s.activePath(id), maxChunkFile)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Name = id + ".md"
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(s.dir, archiveDir), 0o755); err != nil {
		return err
	}
	if err := store.WriteFile(s.archivePath(id), gz.Bytes(), 0o644); err != nil {
		return err
	}
	if err := s.step("archive", id); err != nil {
		return err
	}
	return os.Remove(s.activePath(id))
}

// restore writes an archived chunk back, then removes its archive.
func (s *Store) restore(id string) error {
	data, err := readGzip(s.archivePath(id))
	if err != nil {
		return fmt.Errorf("%s: %w", s.archivePath(id), err)
	}
	if _, err := decode(s.activePath(id), data); err != nil {
		return err // a damaged archive stays as it is
	}
	if err := store.WriteFile(s.activePath(id), data, 0o644); err != nil {
		return err
	}
	if err := s.step("restore", id); err != nil {
		return err
	}
	return os.Remove(s.archivePath(id))
}

// purge deletes an archive and logs the id and dates, nothing of the text.
func (s *Store) purge(id string) error {
	path := s.archivePath(id)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := store.OpenAppend(filepath.Join(s.dir, "retention.log"), 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s purged %s (archived %s)\n", s.Now().UTC().Format(time.RFC3339), id, info.ModTime().UTC().Format(time.DateOnly))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := s.step("purge", id); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	use, err := s.readUsage()
	if err != nil {
		return err
	}
	if _, ok := use[id]; ok {
		delete(use, id)
		return s.writeUsage(use)
	}
	return nil
}

// scanAll is scan plus the archived chunks (without their text).
func (s *Store) scanAll() ([]*Chunk, error) { return s.scanAllReport(nil) }

// scanAllReport is scanAll, telling bad about each file skipped, active
// or archived.
func (s *Store) scanAllReport(bad func(path string, err error)) ([]*Chunk, error) {
	all, err := s.scanReport(bad)
	if err != nil {
		return nil, err
	}
	active := map[string]bool{}
	for _, c := range all {
		active[c.ID] = true
	}
	paths, _ := filepath.Glob(filepath.Join(s.dir, archiveDir, "*.md.gz"))
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".md.gz")
		if active[id] {
			continue // a crash's leftover: the chunk wins
		}
		c, err := readArchive(p)
		if err != nil {
			if bad != nil {
				bad(p, err)
			}
			continue
		}
		all = append(all, c)
	}
	return all, nil
}

// readArchive reads an archived chunk, without its text; errors name
// the file.
func readArchive(path string) (*Chunk, error) {
	data, err := readGzip(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	c.Archived, c.ArchivedAt, c.Content = true, info.ModTime(), ""
	return c, nil
}

// maxUsageFile bounds what is read of the chunks' read counts: a line a
// chunk, 100,000 chunks are some MB.
const maxUsageFile = 64 << 20

// readGzip unpacks an archived chunk, opened without following a link
// (the archive is the store's own folder), up to maxChunkFile bytes.
func readGzip(path string) ([]byte, error) {
	f, err := store.OpenLeaf(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(zr, maxChunkFile+1))
	if err == nil && len(data) > maxChunkFile {
		return nil, fmt.Errorf("%s unpacks to more than %d bytes: %w", path, maxChunkFile, store.ErrTooLarge)
	}
	return data, err
}

// readRegular reads a regular file whole, up to the largest chunk a store
// takes and a little more (the caller says what is too large); a FIFO or
// device is refused.
func readRegular(path string) ([]byte, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<20))
}

func (s *Store) readUsage() (map[string]usage, error) {
	use := map[string]usage{}
	data, err := store.ReadWithin(s.root, filepath.Join(s.dir, usageFile), maxUsageFile)
	if errors.Is(err, os.ErrNotExist) {
		return use, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &use); err != nil {
		// Counters are a hint: a damaged file starts over rather than
		// blocking reads.
		return map[string]usage{}, nil
	}
	return use, nil
}

func (s *Store) writeUsage(use map[string]usage) error {
	data, err := json.Marshal(use)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	return store.WriteFile(filepath.Join(s.dir, usageFile), data, 0o644)
}

func (s *Store) activePath(id string) string  { return filepath.Join(s.dir, id+".md") }
func (s *Store) archivePath(id string) string { return filepath.Join(s.dir, archiveDir, id+".md.gz") }

// step is called between the two halves of a move; tests make it fail to
// stand for a process killed there.
func (s *Store) step(what, id string) error {
	if s.crash != nil {
		return s.crash(what, id)
	}
	return nil
}

func days(d time.Duration) string {
	n := int(d.Hours() / 24)
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}

// Text is the plan as a person or an agent reads it: one line a chunk, in
// the past tense when it was run.
func (p *Plan) Text(run bool) string {
	verb := [2]string{"would archive", "would purge"}
	if run {
		verb = [2]string{"archived", "purged"}
	}
	var b strings.Builder
	for _, st := range p.Archive {
		fmt.Fprintf(&b, "%s %s: %s (%s)\n", verb[0], st.ID, st.Summary, st.Why)
	}
	for _, st := range p.Purge {
		fmt.Fprintf(&b, "%s %s (%s)\n", verb[1], st.ID, st.Why)
	}
	for _, st := range p.Kept {
		fmt.Fprintf(&b, "kept %s: %s (%s)\n", st.ID, st.Summary, st.Why)
	}
	if len(p.Archive)+len(p.Purge) == 0 {
		b.WriteString("nothing to archive or purge\n")
	}
	return b.String()
}
