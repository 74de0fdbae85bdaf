// Package sets holds the benchmarks' question sets and what they are asked
// of: the self set (questions about rubi's own code) and the committed
// tree it is asked of, the SWE-bench dev data and its projects' trees,
// followed commit by commit from bare git mirrors.
package sets

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The self set: questions about rubi's own code, each with the files a
// maintainer would open first to answer it, written by reading the code
// and reviewed like a golden file. Unlike the code part's queries, which
// are doc comments with the name masked, these are questions as people
// and agents ask them ("how are plugins loaded").
const (
	// SelfSetFile is the set, relative to the repository root.
	SelfSetFile = "bench/quality/testdata/rubi-questions.txt"
	// LeakQuestions is how many of the set's questions a file of the
	// tree may hold verbatim before it counts as a copy of the set (a
	// report of this benchmark) and is left out of the index.
	LeakQuestions = 3
	// GateGolden is the ranking gate's golden (bench/gate), relative to
	// the repository root.
	GateGolden = "bench/gate/testdata/stats.golden"
)

// SelfQuestion is one question of the set.
type SelfQuestion struct {
	Text string   `json:"question"`
	Gold []string `json:"gold"`
	// Why is the comment saying why these files answer it.
	Why  string `json:"why"`
	Line int    `json:"line"`
}

// ParseSelfSet reads the set's format: blocks separated by blank lines;
// in a block, comment lines (#) first, then the question (not indented),
// then its gold files (indented, slash paths relative to the repository
// root). A block of comments alone is a note.
func ParseSelfSet(r io.Reader) ([]SelfQuestion, error) {
	var out []SelfQuestion
	var why []string
	var cur *SelfQuestion
	end := func() error {
		if cur != nil && len(cur.Gold) == 0 {
			return fmt.Errorf("line %d: question %q has no gold file", cur.Line, cur.Text)
		}
		if cur != nil {
			out = append(out, *cur)
		}
		cur, why = nil, nil
		return nil
	}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), " \t\r")
		line := strings.TrimSpace(raw)
		indented := line != "" && raw != line
		switch {
		case line == "":
			if err := end(); err != nil {
				return nil, err
			}
		case strings.HasPrefix(line, "#"):
			if cur != nil {
				return nil, fmt.Errorf("line %d: a comment after the question; comments go above it", n)
			}
			why = append(why, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		case !indented:
			if cur != nil {
				return nil, fmt.Errorf("line %d: a second question in one block (gold files are indented; blocks are separated by a blank line)", n)
			}
			if len(why) == 0 {
				return nil, fmt.Errorf("line %d: question %q has no comment saying why its files answer it", n, line)
			}
			cur = &SelfQuestion{Text: line, Why: strings.Join(why, " "), Line: n}
		default:
			if cur == nil {
				return nil, fmt.Errorf("line %d: gold file %q before any question", n, line)
			}
			if !validGoldPath(line) {
				return nil, fmt.Errorf("line %d: %q is not a clean slash path relative to the repository root", n, line)
			}
			if slices.Contains(cur.Gold, line) {
				return nil, fmt.Errorf("line %d: %s is listed twice", n, line)
			}
			cur.Gold = append(cur.Gold, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := end(); err != nil {
		return nil, err
	}
	return out, nil
}

func validGoldPath(p string) bool {
	return p == path.Clean(p) && !path.IsAbs(p) && p != "." && !strings.HasPrefix(p, "../") &&
		!strings.ContainsAny(p, " \t\\")
}

// ReadSelfSet reads the set of the repository at root.
func ReadSelfSet(root string) ([]SelfQuestion, error) {
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(SelfSetFile)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := ParseSelfSet(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SelfSetFile, err)
	}
	return qs, nil
}

// SelfLeftOut says why a file of the tree is not indexed ("" when it is):
// the set itself, the reports of the benchmarks that ask it (quality,
// payload) and the ranking gate's golden (bench/gate) hold the questions,
// and the gold files next to them or their ranks, verbatim.
func SelfLeftOut(rel string) string {
	switch {
	case rel == SelfSetFile:
		return "the question set itself"
	case strings.HasPrefix(rel, "bench/results/quality-"), strings.HasPrefix(rel, "bench/results/payload-"):
		return "a report of a benchmark that asks the set"
	case rel == GateGolden:
		return "the ranking gate's golden, which lists the questions"
	}
	return ""
}

// Verbatim counts the questions whose text data holds, case aside.
func Verbatim(data []byte, qs []SelfQuestion) int {
	low := bytes.ToLower(data)
	n := 0
	for _, q := range qs {
		if bytes.Contains(low, []byte(strings.ToLower(q.Text))) {
			n++
		}
	}
	return n
}

// ExportTree writes the committed tree rev (HEAD, say) of the repository
// at root (through git archive: no working-tree edits, no .rubi/index)
// into dst,
// leaving out what SelfLeftOut names and any file holding LeakQuestions
// or more of the questions verbatim. It returns the commit and what was
// left out, with the reason. The commit is ShortCommit's.
func ExportTree(ctx context.Context, root, rev, dst string, qs []SelfQuestion) (commit string, leftOut []string, err error) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", rev+"^{commit}").Output()
	if err != nil {
		return "", nil, fmt.Errorf("git rev-parse %s in %s: %w%s", rev, root, err, StderrOf(err))
	}
	commit = ShortCommit(strings.TrimSpace(string(out)))
	cmd := exec.CommandContext(ctx, "git", "-C", root, "archive", "--format=tar", rev)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	extractErr := func() error {
		tr := tar.NewReader(pipe)
		for {
			hdr, err := tr.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			name := strings.TrimSuffix(hdr.Name, "/")
			if hdr.Typeflag != tar.TypeReg && hdr.Typeflag != tar.TypeDir {
				continue // pax headers, symlinks (never followed by the walk), submodules
			}
			if !filepath.IsLocal(filepath.FromSlash(name)) {
				return fmt.Errorf("git archive: unexpected path %q", hdr.Name)
			}
			target := filepath.Join(dst, filepath.FromSlash(name))
			if hdr.Typeflag == tar.TypeDir {
				if err := os.MkdirAll(target, 0o755); err != nil {
					return err
				}
				continue
			}
			if why := SelfLeftOut(name); why != "" {
				leftOut = append(leftOut, name+": "+why)
				continue
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			if n := Verbatim(data, qs); n >= LeakQuestions {
				leftOut = append(leftOut, fmt.Sprintf("%s: holds %d of the questions verbatim", name, n))
				continue
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(target, data, 0o644); err != nil {
				return err
			}
		}
	}()
	if extractErr != nil {
		_, _ = io.Copy(io.Discard, pipe)
	}
	waitErr := cmd.Wait()
	switch {
	case extractErr != nil:
		return "", nil, fmt.Errorf("extract the committed tree: %w", extractErr)
	case waitErr != nil:
		return "", nil, fmt.Errorf("git archive %s in %s: %v: %s", rev, root, waitErr, strings.TrimSpace(stderr.String()))
	}
	return commit, leftOut, nil
}

// ShortCommit is a commit's name in reports and goldens: its first 7 hex
// digits, always 7. git rev-parse --short is not used: its length grows
// with the repository's object count (8 digits past 2^14 objects),
// so two clones of one repository, a fresh one packed whole and a
// working one, could name the same commit differently and a golden
// naming it would move with the clone.
func ShortCommit(full string) string {
	if len(full) > 7 {
		return full[:7]
	}
	return full
}
