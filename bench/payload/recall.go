package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The recall set (agent/hooks/testdata/recall/): a small project in
// project/, the notes registered on it in notes.json beside project/ or
// in it (as `rubi register --json` reads them), and prompts.txt, a prompt a line: "NOTE-ID |
// prompt" for one that should recall that note, "- | prompt" for one that
// concerns no note; "#" starts a comment line.

// recallDir is the set, relative to the repository root.
const recallDir = "agent/hooks/testdata/recall"

// recallPrompt is one prompt of the set.
type recallPrompt struct {
	// Note is the id of the note it should recall, "" for none.
	Note string `json:"note,omitempty"`
	Text string `json:"prompt"`
	Line int    `json:"line"`
}

// parsePrompts reads prompts.txt; name is the file's name for errors.
func parsePrompts(r io.Reader, name string) ([]recallPrompt, error) {
	var out []recallPrompt
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, prompt, ok := strings.Cut(line, "|")
		id, prompt = strings.TrimSpace(id), strings.TrimSpace(prompt)
		switch {
		case !ok:
			return nil, fmt.Errorf("%s:%d: want \"NOTE-ID | prompt\" or \"- | prompt\"", name, n)
		case id == "" || strings.ContainsAny(id, " \t"):
			return nil, fmt.Errorf("%s:%d: %q is not a note id (or - for none)", name, n, id)
		case prompt == "":
			return nil, fmt.Errorf("%s:%d: no prompt after the |", name, n)
		}
		if id == "-" {
			id = ""
		}
		out = append(out, recallPrompt{Note: id, Text: prompt, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// recallNote is a note of notes.json, as much of it as the benchmark
// reads; the file itself goes to `rubi register --json` as it is.
type recallNote struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
}

// recallSet is the set, read.
type recallSet struct {
	Project string
	Notes   []byte
	// NotesFile is where Notes come from.
	NotesFile string
	Prompts   []recallPrompt
}

// readRecallSet reads the set in dir; it returns nil without error when
// dir does not exist.
func readRecallSet(dir string) (*recallSet, error) {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, nil
	}
	s := &recallSet{Project: filepath.Join(dir, "project")}
	if fi, err := os.Stat(s.Project); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no project folder", s.Project)
	}
	// notes.json beside project/, or in it.
	var err error
	for _, p := range []string{filepath.Join(dir, "notes.json"), filepath.Join(s.Project, "notes.json")} {
		if s.Notes, err = os.ReadFile(p); err == nil || !os.IsNotExist(err) {
			s.NotesFile = p
			break
		}
	}
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "prompts.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if s.Prompts, err = parsePrompts(f, filepath.Join(dir, "prompts.txt")); err != nil {
		return nil, err
	}
	return s, nil
}

// registered pairs the notes given to `rubi register --json` with what
// it answered (one result per note, in order): the id of each note and
// its title.
func registered(name string, notes, answer []byte) (map[string]string, error) {
	var in []recallNote
	if err := json.Unmarshal(notes, &in); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, jsonLine(notes, err), err)
	}
	var out []struct {
		Action string `json:"action"`
		ID     string `json:"id"`
		Error  string `json:"error"`
	}
	if err := json.Unmarshal(answer, &out); err != nil {
		return nil, fmt.Errorf("rubi register --json answered %q: %w", answer, err)
	}
	if len(out) != len(in) {
		return nil, fmt.Errorf("rubi register --json: %d results for %d notes", len(out), len(in))
	}
	titles := map[string]string{}
	for i, r := range out {
		if r.ID == "" || r.Error != "" || r.Action == "error" {
			return nil, fmt.Errorf("%s, note %d (%q): %s %s", name, i+1, in[i].Title, r.Action, r.Error)
		}
		titles[r.ID] = in[i].Title
	}
	return titles, nil
}

// jsonLine is the line of data where a JSON decoding error is (1 when
// the error says no place).
func jsonLine(data []byte, err error) int {
	var off int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// hookContext reads what a hook's answer injects: its
// hookSpecificOutput.additionalContext ("" for an empty answer).
func hookContext(out []byte) (string, error) {
	if len(strings.TrimSpace(string(out))) == 0 {
		return "", nil
	}
	var a struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		return "", fmt.Errorf("the hook answered %q: %w", out, err)
	}
	return a.Specific.Context, nil
}

// recallRow is one prompt's outcome.
type recallRow struct {
	recallPrompt
	// Tokens are the injection's (0 when nothing was injected).
	Tokens int `json:"tokens"`
	// Injected are the titles of the notes injected.
	Injected []string `json:"injected,omitempty"`
	// Hit: the named note was among them.
	Hit bool `json:"hit,omitempty"`
	// Others counts the notes injected other than the named one.
	Others int `json:"others"`
}

// recallRowOf scores one prompt's injection; titles maps note ids to
// titles.
func recallRowOf(p recallPrompt, injected string, titles map[string]string) recallRow {
	row := recallRow{recallPrompt: p}
	if injected == "" {
		return row
	}
	d := textDelivery(injected, gold{Titles: nonEmpty(titles[p.Note])})
	row.Tokens = d.Tokens
	for _, it := range d.Items {
		if !isNote(it.Kind) {
			continue
		}
		row.Injected = append(row.Injected, it.Key)
		if it.Gold {
			row.Hit = true
		} else {
			row.Others++
		}
	}
	return row
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
