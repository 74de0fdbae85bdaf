package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// Roots are the directories the agents keep their logs in.
type Roots struct {
	// Claude holds Claude Code configuration directories (logs under
	// projects/).
	Claude []string
	// Codex holds Codex home directories (logs under sessions/).
	Codex []string
}

// DefaultRoots returns the agents' own directories that exist:
// $CLAUDE_CONFIG_DIR (a comma-separated list is accepted) or else
// ~/.claude and ~/.config/claude; $CODEX_HOME or else ~/.codex.
func DefaultRoots() Roots {
	home, _ := os.UserHomeDir()
	var r Roots
	if env := os.Getenv("CLAUDE_CONFIG_DIR"); env != "" {
		for _, d := range strings.Split(env, ",") {
			r.Claude = appendDir(r.Claude, strings.TrimSpace(d))
		}
	} else if home != "" {
		r.Claude = appendDir(r.Claude, filepath.Join(home, ".claude"))
		r.Claude = appendDir(r.Claude, filepath.Join(home, ".config", "claude"))
	}
	if env := os.Getenv("CODEX_HOME"); env != "" {
		r.Codex = appendDir(r.Codex, env)
	} else if home != "" {
		r.Codex = appendDir(r.Codex, filepath.Join(home, ".codex"))
	}
	return r
}

func appendDir(dirs []string, d string) []string {
	if d == "" {
		return dirs
	}
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return append(dirs, d)
	}
	return dirs
}

// Session is one session's logs: its main log and its subagents' logs.
type Session struct {
	Agent Agent  `json:"agent"`
	ID    string `json:"id"`
	// Path is the main log; empty for subagent logs whose session's log
	// is gone.
	Path      string   `json:"path,omitempty"`
	Subagents []string `json:"subagents,omitempty"`
	// ModTime is the latest change of any of its logs.
	ModTime time.Time `json:"mod_time"`
	// Size is the bytes of all its logs.
	Size int64 `json:"size"`
}

// Files returns the session's logs, main log first.
func (s *Session) Files() []string {
	var out []string
	if s.Path != "" {
		out = append(out, s.Path)
	}
	return append(out, s.Subagents...)
}

// Find lists the sessions whose logs are under roots and changed at or
// after since (zero: every one), least recently changed first: a resumed
// session, which copies the calls of the one it resumes, comes after it.
func Find(roots Roots, since time.Time) ([]Session, error) {
	var paths []string
	for _, d := range roots.Claude {
		paths = append(paths, filepath.Join(d, "projects"))
	}
	for _, d := range roots.Codex {
		paths = append(paths, filepath.Join(d, "sessions"))
	}
	var existing []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			existing = append(existing, p)
		}
	}
	return FindPaths(existing, since)
}

// FindPaths lists the sessions of the given logs and of every *.jsonl
// under the given directories, like Find.
func FindPaths(paths []string, since time.Time) ([]Session, error) {
	c := collector{byMain: map[string]*Session{}}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			c.add(p, st)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == p {
					return err
				}
				return nil // an unreadable corner does not stop the search
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".jsonl") {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			c.add(path, info)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return c.sessions(since), nil
}

type collector struct {
	byMain map[string]*Session // by main log path (possibly absent)
	order  []string
}

func (c *collector) session(main string, agent Agent) *Session {
	s, ok := c.byMain[main]
	if !ok {
		s = &Session{Agent: agent, ID: sessionID(main)}
		c.byMain[main] = s
		c.order = append(c.order, main)
	}
	return s
}

func (c *collector) add(path string, info fs.FileInfo) {
	name := filepath.Base(path)
	agent := ClaudeCode
	if strings.HasPrefix(name, "rollout-") {
		agent = Codex
	}
	var s *Session
	dir := filepath.Dir(path)
	switch {
	case agent == ClaudeCode && filepath.Base(dir) == "subagents":
		// <project>/<session>/subagents/agent-<id>.jsonl
		sessDir := filepath.Dir(dir)
		s = c.session(sessDir+".jsonl", agent)
		s.Subagents = append(s.Subagents, path)
	case agent == ClaudeCode && strings.HasPrefix(name, "agent-"):
		// Older Claude Code kept subagent logs beside the sessions,
		// naming their session inside.
		main := path
		if id := firstSessionID(path); id != "" {
			main = filepath.Join(dir, id+".jsonl")
		}
		s = c.session(main, agent)
		if main == path {
			s.Path = path
		} else {
			s.Subagents = append(s.Subagents, path)
		}
	default:
		s = c.session(path, agent)
		s.Path = path
	}
	s.Size += info.Size()
	if info.ModTime().After(s.ModTime) {
		s.ModTime = info.ModTime()
	}
}

func (c *collector) sessions(since time.Time) []Session {
	var out []Session
	for _, main := range c.order {
		s := c.byMain[main]
		if !since.IsZero() && s.ModTime.Before(since) {
			continue
		}
		sort.Strings(s.Subagents)
		out = append(out, *s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ModTime.Before(out[j].ModTime) })
	return out
}

// sessionID derives a session's id from its log's name: Claude Code names
// the log after the session; Codex ends the rollout's name with it.
func sessionID(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if strings.HasPrefix(name, "rollout-") && len(name) >= 36 {
		return name[len(name)-36:]
	}
	return name
}

// firstSessionID reads the sessionId of a log's first line.
func firstSessionID(path string) string {
	f, err := store.OpenRegular(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	line, err := br.ReadSlice('\n')
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) && len(line) == 0 {
		return ""
	}
	var l struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(line, &l) != nil {
		return ""
	}
	return l.SessionID
}
