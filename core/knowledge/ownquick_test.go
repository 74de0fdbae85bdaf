package knowledge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// ownWords are paths and hashes as a record may hold them, and strings
// JSON writes escaped.
var ownWords = []string{"knowledge/a.md", "sessions/20260101-090000-abcd.md", "handoffs/x y.md", "é/日本.md", `q"uote.md`, `back\slash.md`, "<tag>&.md",
	"tab\t.md", "nl\n.md", "\u2028.md", "\x7f.md", "", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}

// A record as recordOwn writes it is read by quickOwn as encoding/json
// reads it, or left to encoding/json; ordinary records are read by
// quickOwn.
func TestQuickOwnReadsWhatJSONReads(t *testing.T) {
	quick := 0
	for i := range 400 {
		rec := ownRecord{Root: []string{"/home/u/project", "/tmp/é x", `C:\proj`}[i%3], Files: map[string]string{}}
		for j := range i % 7 {
			rec.Files[ownWords[(i*3+j)%len(ownWords)]] = ownWords[(i+j*5)%len(ownWords)]
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := quickOwn(data)
		if !ok {
			continue
		}
		quick++
		var want ownRecord
		if err := json.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(*got, want) && !(len(got.Files) == 0 && len(want.Files) == 0 && got.Root == want.Root) {
			t.Fatalf("quickOwn read %s as %+v; encoding/json reads %+v (%v)", data, got, want, err)
		}
	}
	if quick < 40 {
		t.Errorf("quickOwn read %d of 400 records", quick)
	}
	rec := ownRecord{Root: "/home/u/project", Files: map[string]string{}}
	for i := range 2000 {
		rec.Files[fmt.Sprintf("knowledge/note-%d.md", i)] = fmt.Sprintf("%064x", i)
	}
	data, _ := json.Marshal(rec)
	if got, ok := quickOwn(data); !ok || !reflect.DeepEqual(*got, rec) {
		t.Fatal("a record of 2,000 plain paths is not read by quickOwn, or read otherwise")
	}
}

// Whatever the record's file holds, quickOwn reads it as encoding/json
// does, or leaves it to encoding/json.
func FuzzQuickOwn(f *testing.F) {
	for i := range ownWords {
		data, _ := json.Marshal(ownRecord{Root: "/p", Files: map[string]string{ownWords[i]: ownWords[(i+1)%len(ownWords)], "k": "v"}})
		f.Add(data)
	}
	f.Add([]byte(`{"root":"/p","files":{"a":"1","a":"2"}}`))
	f.Add([]byte(`{"root":"/p","files":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := quickOwn(data)
		if !ok {
			return
		}
		want := ownRecord{Files: map[string]string{}}
		if err := json.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(*got, want) {
			t.Fatalf("quickOwn read %q as %+v; encoding/json reads %+v (%v)", data, got, want, err)
		}
	})
}
