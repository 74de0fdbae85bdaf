package knowledge

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/codec"
)

// The checks an index run keeps answer Stale in another process while
// the files they read are at the same version: a recall shows the note
// without reading its files. A file at another version, or a note whose
// anchors changed, is checked again.
func TestKeptChecksStandWhileTheirFilesDo(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	id := registerOne(t, s, Input{Title: "Subtraction", Body: "It takes one away.", Files: []string{"f.go"}, Symbols: []string{"B"}}).ID
	data, changed, err := s.ExportChecks("go=1")
	if err != nil || !changed {
		t.Fatalf("the first export: changed %v, %v", changed, err)
	}
	if _, again, _ := s.ExportChecks("go=1"); again {
		t.Error("an export with nothing changed says the checks changed")
	}
	other := func() *Store {
		t.Helper()
		o := Open(s.opts)
		if err := o.ImportChecks(data); err != nil {
			t.Fatal(err)
		}
		return o
	}
	if got := other().Stale(get(t, s, id)); got != nil {
		t.Fatalf("fresh: %q", got)
	}
	// Other parsers give the symbols other lines: every check is made
	// again.
	if _, again, _ := other().ExportChecks("go=2"); !again {
		t.Error("an export on another basis kept the checks")
	}

	// B's body changes and the file keeps its time and size: the kept
	// check stands for that version and answers, which a store without
	// it does not.
	p := filepath.Join(s.root, "f.go")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	changedB := strings.Replace(fGo, "return x - 1", "return x * 1", 1)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(changedB); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := other().Stale(get(t, s, id)); got != nil {
		t.Errorf("the same version: %q, want the kept check's answer", got)
	}
	live := Open(s.opts).Stale(get(t, s, id))
	if len(live) != 1 || !strings.HasPrefix(live[0], "B changed (f.go") {
		t.Fatalf("without the checks: %q, want B changed", live)
	}

	// A new version: checked again.
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if got := other().Stale(get(t, s, id)); !reflect.DeepEqual(got, live) {
		t.Errorf("a new version: %q, want %q", got, live)
	}
	// The next export checks it again, and keeps that.
	if data, changed, err = s.ExportChecks("go=1"); err != nil || !changed {
		t.Fatalf("the export after the change: changed %v, %v", changed, err)
	}
	o := other()
	if c := o.checks[id]; c == nil || !reflect.DeepEqual(c.Stale, live) {
		t.Errorf("kept after the change: %+v, want %q", c, live)
	}

	// The note's anchors change (it is about A now): its kept check is
	// not its check any more.
	n := get(t, s, id)
	n.Anchors = map[string]string{"f.go#A": n.Anchors["f.go#B"]}
	if got := o.Stale(n); len(got) != 1 || !strings.HasPrefix(got[0], "A changed") {
		t.Errorf("other anchors: %q, want A changed", got)
	}
}

// A checks file cut short or changed is refused whole, never read past
// its end, and leaves the store checking notes against the files.
func TestDamagedChecksAreRefused(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	registerOne(t, s, Input{Title: "Subtraction", Body: "It takes one away.", Files: []string{"f.go"}, Symbols: []string{"B"}})
	registerOne(t, s, Input{Title: "Addition", Body: "It adds one.", Files: []string{"f.go", "gone.go"}, Symbols: []string{"A"}})
	data, _, err := s.ExportChecks("go=1")
	if err != nil {
		t.Fatal(err)
	}
	if err := Open(s.opts).ImportChecks(data); err != nil {
		t.Fatal(err)
	}
	for i := range len(data) {
		if err := Open(s.opts).ImportChecks(data[:i]); err == nil {
			t.Fatalf("the checks cut at %d bytes were taken", i)
		}
	}
	body := data[:len(data)-4]
	for i := len(checksMagic); i < len(body); i++ {
		bad := append([]byte(nil), body...)
		bad[i] ^= 0x80
		// Sealed again: the checksum is right, the content is not. A
		// byte of a string may still decode (another id, another path);
		// none may be read out of bounds.
		_ = Open(s.opts).ImportChecks(codec.Seal(bad))
	}
}

// A project without notes has its (empty) checks written once, so that
// the next run finds them and checks nothing.
func TestChecksWithoutNotesAreWrittenOnce(t *testing.T) {
	s := newStore(t)
	data, changed, err := s.ExportChecks("go=1")
	if err != nil || !changed {
		t.Fatalf("the first export: changed %v, %v", changed, err)
	}
	o := Open(s.opts)
	if err := o.ImportChecks(data); err != nil {
		t.Fatal(err)
	}
	if _, changed, _ := o.ExportChecks("go=1"); changed {
		t.Error("an export of the same empty checks says they changed")
	}
}

// A note whose anchors mix the old kinds (a whole file, read through the
// code map) and symbols is checked, and its check is not kept, whatever
// order its anchors come in.
func TestACheckOfOldAnchorsIsNotKept(t *testing.T) {
	s := newStore(t, func(o *Options) { o.Code = &codeMap{} })
	writeFile(t, s.root, "f.go", fGo)
	writeFile(t, s.root, "a.go", "package a\n")
	id := registerOne(t, s, Input{Title: "Subtraction", Body: "It takes one away.", Files: []string{"f.go"}, Symbols: []string{"B"}}).ID
	n := get(t, s, id)
	// An old whole-file anchor, sorted before the symbol's.
	n.Anchors["a.go"] = "0000"
	if got := s.Stale(n); len(got) != 1 || got[0] != "a.go changed since this note" {
		t.Fatalf("stale %q, want a.go changed", got)
	}
	if _, c := s.check(n); c != nil {
		t.Errorf("a check that read the code map was kept: %+v", c)
	}
}
