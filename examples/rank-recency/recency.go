package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// Settings are the attributes the ranker accepts in its rubi.hcl block.
type Settings struct {
	// HalfLifeDays: a file this many days older counts half as much.
	HalfLifeDays float64 `hcl:"half_life_days,optional"`
	// Source of change times: "auto" (git when available), "git" or "mtime".
	Source string `hcl:"source,optional"`
}

// Ranker is rank.recency.
type Ranker struct {
	settings Settings
	root     string
	stateDir string
	state    *state
	now      func() time.Time
}

// state is what Index persists for Rank, which may run in a later process.
type state struct {
	Files map[string]fileState `json:"files"`
}

type fileState struct {
	Changed int64    `json:"changed"` // Unix seconds
	Tokens  []string `json:"tokens"`  // of the path and symbol names
}

// New returns the ranker with its defaults.
func New() *Ranker {
	return &Ranker{settings: Settings{HalfLifeDays: 14, Source: "auto"}, now: time.Now}
}

// Info describes the plugin.
func (r *Ranker) Info() core.Info {
	return core.Info{
		Name:        "rank.recency",
		Kind:        core.KindRanker,
		Version:     "1.0.0",
		Description: "Favours files that changed recently (git history or modification times).",
		Schema:      core.MustSchemaOf(&Settings{}),
	}
}

// Configure reads the settings.
func (r *Ranker) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &r.settings); err != nil {
		return err
	}
	if !(r.settings.HalfLifeDays > 0) {
		return &core.SettingError{Setting: "half_life_days", Message: "must be a positive number of days"}
	}
	switch r.settings.Source {
	case "auto", "git", "mtime":
	default:
		return &core.SettingError{Setting: "source", Message: `must be "auto", "git" or "mtime"`}
	}
	r.root, r.stateDir = setup.Root, setup.StateDir
	return nil
}

// Index records when each file last changed and the words that name it.
// It needs no document bodies, so an incremental corpus is enough: the
// words of unchanged files are kept from the previous run.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	prev := r.state
	if prev == nil && !corpus.Full {
		if err := r.load(); err != nil {
			return core.ErrFullIndexNeeded
		}
		prev = r.state
	}
	changedIDs := map[string]bool{}
	for _, id := range corpus.Changed {
		changedIDs[id] = true
	}
	var commits map[string]int64
	if r.settings.Source != "mtime" {
		var err error
		commits, err = gitChangeTimes(ctx, r.root)
		if err != nil && r.settings.Source == "git" {
			return err
		}
	}
	st := &state{Files: map[string]fileState{}}
	for _, d := range corpus.Documents {
		if d.Kind != core.DocFile {
			continue
		}
		changed := d.ModTime
		if t, ok := commits[d.Path]; ok {
			changed = t
		}
		tokens := text.Tokenize(d.Path + " " + strings.Join(d.Names, " "))
		if old, ok := prev.lookup(d.ID); ok && !corpus.Full && !changedIDs[d.ID] {
			tokens = old.Tokens
		}
		st.Files[d.ID] = fileState{Changed: changed, Tokens: tokens}
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := store.WriteFile(filepath.Join(r.stateDir, "recency.json"), data, 0o644); err != nil {
		return err
	}
	r.state = st
	return nil
}

// gitChangeTimes maps each file (relative to root) to the time of the last
// commit that touched it. Files with uncommitted changes are left out, so
// their modification time, which is then the truth, is used.
func gitChangeTimes(ctx context.Context, root string) (map[string]int64, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "log", "-n", "5000", "--relative", "--format=@%ct", "--name-only").Output()
	if err != nil {
		return nil, fmt.Errorf("git log in %s: %w", root, err)
	}
	times := map[string]int64{}
	var current int64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "@"):
			current, _ = strconv.ParseInt(line[1:], 10, 64)
		case line != "":
			if _, seen := times[line]; !seen {
				times[line] = current
			}
		}
	}
	// Porcelain paths are relative to the repository's top level, which
	// may be above root.
	prefix, _ := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--show-prefix").Output()
	dirty, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain", "--no-renames", ".").Output()
	if err == nil {
		for _, line := range strings.Split(string(dirty), "\n") {
			if len(line) > 3 {
				delete(times, strings.TrimPrefix(line[3:], strings.TrimSpace(string(prefix))))
			}
		}
	}
	return times, nil
}

// Rank scores the files named by the query's words by how recently they
// changed: overlap × 0.5^(age / half-life).
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.state == nil {
		if err := r.load(); err != nil {
			return nil, err
		}
	}
	if !q.AcceptsKind(core.DocFile) {
		return nil, nil
	}
	words := map[string]bool{}
	for _, t := range text.Tokenize(q.Text + " " + strings.Join(q.Terms, " ")) {
		words[t] = true
	}
	now := r.now().Unix()
	var hits []core.Hit
	for id, f := range r.state.Files {
		overlap := 0
		for _, t := range f.Tokens {
			if words[t] {
				overlap++
			}
		}
		if overlap == 0 {
			continue
		}
		days := math.Max(0, float64(now-f.Changed)/86400)
		score := float64(overlap) * math.Pow(0.5, days/r.settings.HalfLifeDays)
		hits = append(hits, core.Hit{ID: id, Score: score, Reason: "changed " + ago(days)})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits, nil
}

// load reads the state Index persisted.
func (r *Ranker) load() error {
	data, err := os.ReadFile(filepath.Join(r.stateDir, "recency.json"))
	if err != nil {
		return fmt.Errorf("no recency index yet (run rubi index): %w", err)
	}
	st := &state{}
	if err := json.Unmarshal(data, st); err != nil {
		return fmt.Errorf("recency index is damaged, run rubi index --full: %w", err)
	}
	r.state = st
	return nil
}

func (s *state) lookup(id string) (fileState, bool) {
	if s == nil {
		return fileState{}, false
	}
	f, ok := s.Files[id]
	return f, ok
}

func ago(days float64) string {
	switch {
	case days < 1:
		return "today"
	case days < 2:
		return "yesterday"
	case days < 60:
		return fmt.Sprintf("%d days ago", int(days))
	default:
		return fmt.Sprintf("%d months ago", int(days/30))
	}
}

var _ core.Ranker = (*Ranker)(nil)
