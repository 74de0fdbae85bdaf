package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Settings are the attributes the source accepts in its rubi.hcl block.
type Settings struct {
	// Export is the tracker's JSON export, relative to the project root.
	Export string `hcl:"export,optional"`
	// Closed says whether closed issues are indexed too.
	Closed bool `hcl:"closed,optional"`
}

// maxExport bounds the export the source reads.
const maxExport = 256 << 20

// Source is source.issues.
type Source struct {
	settings Settings
	root     string
	// issues is the export as the last Scan read it, by key: Read answers
	// from it, so that an index run parses the export once.
	issues map[string]*issue
}

// issue is one issue of the export, with the fields gh writes.
type issue struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	State     string    `json:"state"`
	URL       string    `json:"url"`
	UpdatedAt time.Time `json:"updatedAt"`
	Labels    []struct {
		Name string `json:"name"`
	} `json:"labels"`
}

// New returns the source with its defaults.
func New() *Source {
	return &Source{settings: Settings{Export: "issues.json", Closed: true}}
}

// Info describes the plugin.
func (s *Source) Info() core.Info {
	return core.Info{
		Name:        "source.issues",
		Kind:        core.KindSource,
		Version:     "1.0.0",
		Description: "Indexes the issues of a tracker's JSON export (gh issue list --json).",
		DocKind:     "issue",
		Schema:      core.MustSchemaOf(&Settings{}),
	}
}

// Configure reads the settings. The export must lie inside the project:
// a rubi.hcl of a repository just cloned does not choose what of the
// user's files rubi reads.
func (s *Source) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &s.settings); err != nil {
		return err
	}
	export := filepath.FromSlash(s.settings.Export)
	if s.settings.Export == "" || filepath.IsAbs(export) || !filepath.IsLocal(export) {
		return &core.SettingError{Setting: "export", Message: "must be a path inside the project, relative to its root, such as \"issues.json\""}
	}
	s.root = setup.Root
	return nil
}

// Scan reads the export and lists its issues, each stamped with a hash
// of what its document holds. A missing export holds no issue.
func (s *Source) Scan(ctx context.Context) ([]core.SourceItem, error) {
	issues, err := s.load()
	if err != nil {
		return nil, err
	}
	s.issues = map[string]*issue{}
	items := make([]core.SourceItem, 0, len(issues))
	for _, is := range issues {
		if is.Number <= 0 || !s.settings.Closed && strings.EqualFold(is.State, "closed") {
			continue
		}
		key := strconv.Itoa(is.Number)
		if _, dup := s.issues[key]; dup {
			return nil, fmt.Errorf("%s: issue #%d appears twice", s.settings.Export, is.Number)
		}
		s.issues[key] = is
		items = append(items, core.SourceItem{Key: key, Stamp: stamp(is)})
	}
	return items, ctx.Err()
}

// Read answers from what Scan read.
func (s *Source) Read(_ context.Context, keys []string) ([]core.SourceDocument, error) {
	if s.issues == nil {
		if _, err := s.Scan(context.Background()); err != nil {
			return nil, err
		}
	}
	docs := make([]core.SourceDocument, 0, len(keys))
	for _, k := range keys {
		is, ok := s.issues[k]
		if !ok {
			continue
		}
		docs = append(docs, document(k, is))
	}
	return docs, nil
}

// load parses the export; a missing one is empty.
func (s *Source) load() ([]*issue, error) {
	path := filepath.Join(s.root, filepath.FromSlash(s.settings.Export))
	f, err := store.OpenRegular(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxExport+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxExport {
		return nil, fmt.Errorf("%s is larger than %d MiB", s.settings.Export, maxExport>>20)
	}
	var issues []*issue
	if err := json.Unmarshal(data, &issues); err != nil {
		return nil, fmt.Errorf("%s: %s", s.settings.Export, describeJSONError(data, err))
	}
	return issues, nil
}

// describeJSONError names the line of a syntax error.
func describeJSONError(data []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return err.Error()
	}
	line := 1 + strings.Count(string(data[:off]), "\n")
	return fmt.Sprintf("line %d: %v", line, err)
}

// document is the issue as the index holds it.
func document(key string, is *issue) core.SourceDocument {
	d := core.SourceDocument{
		Key:      key,
		Title:    fmt.Sprintf("#%d %s", is.Number, is.Title),
		Body:     is.Body,
		Location: is.URL,
		Files:    filesNamed(is.Title + "\n" + is.Body),
	}
	if !is.UpdatedAt.IsZero() {
		d.Time = is.UpdatedAt.Unix()
	}
	if is.State != "" {
		d.Names = append(d.Names, strings.ToLower(is.State))
	}
	for _, l := range is.Labels {
		d.Names = append(d.Names, l.Name)
	}
	return d
}

// stamp hashes what the issue's document is made of.
func stamp(is *issue) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%s\x00%d", is.Number, is.Title, is.Body, is.State, is.URL, is.UpdatedAt.Unix())
	for _, l := range is.Labels {
		fmt.Fprintf(h, "\x00%s", l.Name)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// pathLike finds words that look like paths of files: a slash or a dot
// before an extension, as a bug report names them ("core/walk/walk.go",
// `lib/parser.py`). rubi keeps those its index holds.
var pathLike = regexp.MustCompile(`[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}\b`)

// filesNamed lists the paths a text names, in order, once each.
func filesNamed(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range pathLike.FindAllString(text, 200) {
		m = strings.TrimPrefix(m, "./")
		if seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, m)
	}
	return out
}
