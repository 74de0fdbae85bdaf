package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// The reference memory system keeps, in one context folder:
// session_memory.json (insights: id, content, category, importance, tags,
// created_at), index.json (chunks: id, file, summary, tags, chunk_type,
// project, ticket, domain, created_at, ...), chunks/<id>.md (a header
// between --- lines, a blank line, the text) and archive/<id>.md.gz.

// RLMInsight is one insight of the reference system.
type RLMInsight struct {
	ID         string   `json:"id"`
	Content    string   `json:"content"`
	Category   string   `json:"category"`
	Importance string   `json:"importance"`
	Tags       []string `json:"tags"`
	CreatedAt  string   `json:"created_at"`
}

// Created parses the insight's naive local time; zero when it has none.
func (i RLMInsight) Created() time.Time { return rlmTime(i.CreatedAt) }

// rlmChunk is one entry of the reference system's index.json.
type rlmChunk struct {
	ID        string   `json:"id"`
	File      string   `json:"file"`
	Summary   string   `json:"summary"`
	Tags      []string `json:"tags"`
	Type      string   `json:"chunk_type"`
	Project   string   `json:"project"`
	Ticket    string   `json:"ticket"`
	Domain    string   `json:"domain"`
	CreatedAt string   `json:"created_at"`
}

// Imported says what an import of the reference system did.
type Imported struct {
	Chunks   int `json:"chunks"`
	Archived int `json:"archived"`
	// Duplicates counts chunks whose text was already stored.
	Duplicates int       `json:"duplicates"`
	Skipped    []Skipped `json:"skipped"`
}

// Skipped is something an import left out, and why.
type Skipped struct {
	What string `json:"what"`
	ID   string `json:"id"`
	Why  string `json:"why"`
}

// maxRLMFile bounds what is read of the reference system's index.json and
// session_memory.json, the user's own files in the folder they name: a
// line or two a chunk or insight, some MB for the largest stores.
const maxRLMFile = 256 << 20

// ReadRLMInsights reads the reference system's insights; a folder without
// session_memory.json has none.
func ReadRLMInsights(dir string) ([]RLMInsight, error) {
	path := filepath.Join(dir, "session_memory.json")
	data, err := store.ReadRegular(path, maxRLMFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Insights []RLMInsight `json:"insights"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc.Insights, nil
}

// ImportRLM saves the reference system's chunks (index.json, chunks/,
// archive/) into this store: an archived chunk stays archived. Chunks are
// saved with their type, summary, tags, project, ticket, domain and time;
// one whose text or metadata cannot be taken over is skipped with its
// reason. Running it twice saves nothing new (the duplicates are counted).
func (s *Store) ImportRLM(ctx context.Context, dir string) (*Imported, error) {
	path := filepath.Join(dir, "index.json")
	data, err := store.ReadRegular(path, maxRLMFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s has no index.json: give the reference system's context folder (~/.claude/rlm/context)", dir)
		}
		return nil, err
	}
	var index struct {
		Chunks []rlmChunk `json:"chunks"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rep := &Imported{Skipped: []Skipped{}}
	skip := func(id, why string) { rep.Skipped = append(rep.Skipped, Skipped{What: "chunk", ID: id, Why: why}) }
	for _, c := range index.Chunks {
		if c.ID == "" || strings.ContainsAny(c.ID, "/\\") || strings.Contains(c.ID, "..") {
			skip(c.ID, "the id is not a plain name")
			continue
		}
		text, archived, err := rlmChunkText(dir, c)
		if err != nil {
			skip(c.ID, err.Error())
			continue
		}
		in := Input{Type: c.Type, Summary: c.Summary, Tags: c.Tags, Project: c.Project, Domain: c.Domain, Ticket: c.Ticket, Content: text, Created: rlmTime(c.CreatedAt)}
		if in.Type == "" || in.Type == "insight" {
			in.Type = TypeSession
		}
		saved, err := s.Save(ctx, in)
		if err != nil {
			skip(c.ID, err.Error())
			continue
		}
		if saved.Duplicate {
			rep.Duplicates++
			continue
		}
		rep.Chunks++
		if archived {
			if err := s.Archive(ctx, saved.ID); err != nil {
				return rep, err
			}
			rep.Archived++
		}
	}
	return rep, nil
}

// Archive moves one chunk to the archive now, whatever its age.
func (s *Store) Archive(ctx context.Context, id string) error {
	if err := validID(id); err != nil {
		return err
	}
	lock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	return s.archive(id)
}

// rlmChunkText reads a reference chunk's text: its file under the
// context folder, else its archive.
func rlmChunkText(dir string, c rlmChunk) (string, bool, error) {
	file := c.File
	if file == "" {
		file = "chunks/" + c.ID + ".md"
	}
	path := filepath.Join(dir, filepath.FromSlash(file))
	if rel, err := filepath.Rel(dir, path); err != nil || strings.HasPrefix(rel, "..") {
		return "", false, fmt.Errorf("its file %q is outside the folder", c.File)
	}
	// A link inside the folder may lead out of it (to ~/.ssh/id_rsa,
	// say): its target would become a chunk of this project.
	if _, err := os.Lstat(path); err == nil && !store.Inside(dir, path) {
		return "", false, fmt.Errorf("its file %q leads out of the folder through a symbolic link", file)
	}
	data, err := readRegular(path)
	archived := false
	if errors.Is(err, os.ErrNotExist) {
		gz := filepath.Join(dir, "archive", c.ID+".md.gz")
		if _, err := os.Lstat(gz); err == nil && !store.Inside(dir, gz) {
			return "", false, fmt.Errorf("its archive leads out of the folder through a symbolic link")
		}
		data, err = readGzip(gz)
		archived = true
	}
	if err != nil {
		return "", false, fmt.Errorf("neither %s nor its archive reads", file)
	}
	return stripRLMHeader(data), archived, nil
}

// stripRLMHeader drops the header between the first two --- lines and the
// blank line after it.
func stripRLMHeader(data []byte) string {
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if i := strings.Index(rest, "\n---\n"); i >= 0 {
			text = rest[i+5:]
		}
	}
	return strings.TrimLeft(text, "\n")
}

// rlmTime parses the reference system's naive local ISO times.
func rlmTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", time.RFC3339Nano} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t
		}
	}
	return time.Time{}
}
