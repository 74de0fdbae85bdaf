package connect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Ask puts question to a person on w, with the default in brackets, and
// reads the answer from r. An empty answer, or the end of the input, takes
// def. An answer check refuses is explained and the question asked again.
func Ask(r *bufio.Reader, w io.Writer, question, def string, check func(string) error) (string, error) {
	for {
		fmt.Fprintf(w, "%s [%s]: ", question, def)
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		answer := strings.TrimSpace(line)
		if answer == "" {
			if errors.Is(err, io.EOF) {
				fmt.Fprintln(w)
			}
			answer = def
		}
		cerr := check(answer)
		if cerr == nil {
			return answer, nil
		}
		if errors.Is(err, io.EOF) {
			return "", cerr
		}
		fmt.Fprintf(w, "  %v\n", cerr)
	}
}

// ParseWindow reads a compaction window as a person writes it: 150000,
// 150,000, 150_000 or 150k.
func ParseWindow(s string) (int, error) {
	t := strings.ToLower(strings.NewReplacer(",", "", "_", "", " ", "").Replace(s))
	mult := 1
	if rest, ok := strings.CutSuffix(t, "k"); ok {
		t, mult = rest, 1000
	}
	n, err := strconv.Atoi(t)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a number of tokens (e.g. 150000 or 150k)", s)
	}
	n *= mult
	if n < MinWindow {
		return 0, fmt.Errorf("a window of %d tokens is too small: Claude Code would compact every few steps (at least %d)", n, MinWindow)
	}
	return n, nil
}
