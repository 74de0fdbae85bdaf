package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/parsertest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

var update = flag.Bool("update", false, "rewrite testdata/scores.md")

// TestHard runs the cases where a line-based parser is known to fall
// short: lang.treesitter gets every fact right.
func TestHard(t *testing.T) {
	parsertest.Run(t, New(), "testdata/hard/*.txtar")
}

// TestCompare scores both parsers on the shared fixtures and on the hard
// cases, per language: lang.treesitter must be at least as good as
// lang.regex everywhere (as many facts right, no more extra ones) and
// strictly better on the hard cases. testdata/scores.md holds the table
// (docs/parsers.md shows it); -update rewrites it.
func TestCompare(t *testing.T) {
	type row struct{ shared, hard [2]*parsertest.Score }
	rows := map[string]*row{}
	for i, p := range []core.Parser{regex.New(), New()} {
		for _, suite := range []string{"shared", "hard"} {
			for _, f := range fixtures {
				pattern := "../lang-regex/testdata/" + f + ".txtar"
				if suite == "hard" {
					pattern = "testdata/hard/" + f + ".txtar"
				}
				scores, err := parsertest.ScoreArchives(p, pattern)
				if err != nil {
					t.Fatal(err)
				}
				for lang, s := range scores {
					r := rows[lang]
					if r == nil {
						r = &row{}
						rows[lang] = r
					}
					if suite == "shared" {
						r.shared[i] = s
					} else {
						r.hard[i] = s
					}
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("| Language | Shared fixtures: facts | lang.regex right (extra) | lang.treesitter right (extra) | Hard cases: facts | lang.regex right (extra) | lang.treesitter right (extra) |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	cell := func(s *parsertest.Score) string {
		if s == nil {
			return "–"
		}
		return fmt.Sprintf("%d (%d)", s.Right, s.Extra)
	}
	facts := func(a, b *parsertest.Score) string {
		if a == nil && b == nil {
			return "–"
		}
		if b != nil {
			return fmt.Sprint(b.Facts)
		}
		return fmt.Sprint(a.Facts)
	}
	langs := make([]string, 0, len(rows))
	for l := range rows {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	for _, l := range langs {
		r := rows[l]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", l,
			facts(r.shared[0], r.shared[1]), cell(r.shared[0]), cell(r.shared[1]),
			facts(r.hard[0], r.hard[1]), cell(r.hard[0]), cell(r.hard[1]))
		for _, suite := range []struct {
			name   string
			s      [2]*parsertest.Score
			strict bool
		}{{"shared", r.shared, false}, {"hard", r.hard, true}} {
			re, ts := suite.s[0], suite.s[1]
			if ts == nil {
				continue
			}
			if re == nil {
				re = &parsertest.Score{}
			}
			if ts.Right < re.Right || ts.Extra > re.Extra {
				t.Errorf("%s, %s fixtures: lang.treesitter %d right (%d extra), lang.regex %d (%d)", l, suite.name, ts.Right, ts.Extra, re.Right, re.Extra)
			}
			if suite.strict && ts.Right-ts.Extra <= re.Right-re.Extra {
				t.Errorf("%s, hard cases: lang.treesitter (%d right, %d extra) is not better than lang.regex (%d, %d)", l, ts.Right, ts.Extra, re.Right, re.Extra)
			}
			if testing.Verbose() {
				for _, p := range re.Problems {
					t.Logf("lang.regex misses: %s", p)
				}
			}
		}
	}
	const golden = "testdata/scores.md"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil || string(want) != b.String() {
		t.Errorf("scores changed (go test -run Compare -update, then copy into docs/parsers.md):\n%s", b.String())
	}
}
