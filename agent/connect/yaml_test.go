package connect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// What rubi connect may change in a YAML configuration of the user's
// (Goose's config.yaml, Continue's): connect only adds lines (rubi's
// entry), every line of the user's staying, in order — except the
// collection's own line when its value was an empty {} or [] on it,
// which becomes the key alone, and an entry named rubi that starts
// something else, which rubi's replaces (goose-replace); the undo gives
// the file back with, at
// most, blank lines differing. So the check after the undo compares the
// files with their blank lines removed, and no more leniently than that.
// The inputs are the golden cases' (testdata/connect/*.txtar).
func TestYAMLConfigsKeepTheUsersLines(t *testing.T) {
	configs := map[string]struct {
		agent string
		scope Scope
	}{
		"home/.config/goose/config.yaml": {"goose", ScopeGlobal},
		"home/.continue/config.yaml":     {"continue", ScopeGlobal},
	}
	cases, _ := filepath.Glob("testdata/connect/*.txtar")
	ran := 0
	for _, file := range cases {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			cfg, ok := configs[f.Name]
			if !ok || strings.Contains(file, "-broken") || strings.Contains(file, "-flow") {
				continue
			}
			ran++
			t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
				root := t.TempDir()
				home := filepath.Join(root, "home")
				o := ConnectOptions{Project: filepath.Join(root, "project"), Home: home, Scope: cfg.scope, Rubi: "rubi",
					Getenv: func(string) string { return "" }}
				path := filepath.Join(root, f.Name)
				writeFile(t, path, f.Data)
				if _, err := Connect(context.Background(), cfg.agent, o); err != nil {
					t.Fatal(err)
				}
				connected, _ := os.ReadFile(path)
				a, _ := findAgent(cfg.agent)
				parts, _ := o.partsOf(a)
				if st, err := readState(parts[0].file); parts[0].file.path != path || err != nil || !parts[0].connected(st) {
					t.Fatalf("after connect, %s does not start rubi's server:\n%s", path, connected)
				}
				emptied := strings.Contains(file, "-empty")
				replaced := strings.Contains(file, "-replace")
				if missing := notKept(string(f.Data), string(connected), emptied); missing != "" && !replaced {
					t.Errorf("connect changed the user's line %q:\n%s", missing, connected)
				}
				if _, err := Disconnect(context.Background(), cfg.agent, o); err != nil {
					t.Fatal(err)
				}
				undone, _ := os.ReadFile(path)
				if got, want := noBlankLines(string(undone)), noBlankLines(string(f.Data)); got != want {
					t.Errorf("the undo did not give the file back (blank lines aside):\n%s\nwant:\n%s", undone, f.Data)
				}
			})
		}
	}
	if ran < 6 {
		t.Fatalf("only %d YAML cases in testdata/connect", ran)
	}
}

// notKept returns the first line of before that is not, in order, in
// after; "" when all are. With emptied, a line `key: {}` or `key: []` may
// have become `key:`.
func notKept(before, after string, emptied bool) string {
	out := strings.Split(after, "\n")
	j := 0
	for _, l := range strings.Split(before, "\n") {
		for j < len(out) && out[j] != l && !(emptied && sameKey(l, out[j])) {
			j++
		}
		if j == len(out) {
			return l
		}
		j++
	}
	return ""
}

// sameKey reports whether a, `key: {}` or `key: []` with its comment, is
// b with the empty value taken off.
func sameKey(a, b string) bool {
	for _, empty := range []string{"{}", "[]"} {
		k, rest, ok := strings.Cut(a, ": "+empty)
		if ok && strings.TrimSpace(b) == strings.TrimSpace(k+":"+" "+strings.TrimSpace(rest)) {
			return true
		}
	}
	return false
}

func noBlankLines(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
