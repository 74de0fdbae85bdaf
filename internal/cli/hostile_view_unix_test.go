//go:build unix

package cli

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// viewHostile serves the hostile repository at root with rubi view
// (its index as the commands before left it): every page and API route
// answers, or refuses a name it does not know, without a secret from
// outside the project, the repository's text as markup or a terminal
// escape, or a note the repository wrote not marked as its words.
func viewHostile(t *testing.T, root string) {
	v, code := tryView(t, "view", "--no-refresh", "--root", root)
	if v == nil {
		if code != 1 {
			t.Errorf("rubi view: exit %d", code)
		}
		return
	}
	check := func(path string, wantJSON bool) string {
		t.Helper()
		code, body := v.get(path, v.token)
		if code != http.StatusOK && code != http.StatusNotFound {
			t.Errorf("GET %s: %d %.300s", path, code, body)
		}
		if strings.Contains(body, secret) {
			t.Errorf("GET %s showed a secret from outside the project", path)
		}
		if wantJSON && (!json.Valid([]byte(body)) || strings.ContainsAny(body, "<>\x1b\x07")) {
			t.Errorf("GET %s: not JSON, or markup or a terminal escape in it: %.300s", path, body)
		}
		return body
	}
	for _, p := range []string{"/map", "/knowledge", "/timeline", "/search", "/tokens", "/xray"} {
		check(p, false)
	}
	var m struct {
		Modules []struct{ Name string } `json:"modules"`
	}
	json.Unmarshal([]byte(check("/api/map", true)), &m)
	if len(m.Modules) == 0 {
		t.Error("/api/map: no module")
	}
	for _, mod := range m.Modules {
		var page struct {
			FileList []struct{ Path string } `json:"file_list"`
		}
		json.Unmarshal([]byte(check("/api/module?name="+url.QueryEscape(mod.Name), true)), &page)
		for _, f := range page.FileList {
			check("/api/file?path="+url.QueryEscape(f.Path), true)
		}
	}
	var notes struct {
		Notes []struct {
			ID         string `json:"id"`
			Repository bool   `json:"repository"`
		} `json:"notes"`
	}
	json.Unmarshal([]byte(check("/api/notes", true)), &notes)
	if len(notes.Notes) == 0 {
		t.Error("/api/notes: no note")
	}
	theirs := 0
	defer func() {
		if theirs != 2 {
			t.Errorf("/api/notes lists %d of the repository's 2 notes", theirs)
		}
	}()
	for _, n := range notes.Notes {
		if n.ID == "gotcha-run-this" || n.ID == "concept-long" {
			theirs++
			if !n.Repository {
				t.Errorf("note %s: the repository's, not marked so", n.ID)
			}
		}
		check("/api/note?id="+url.QueryEscape(n.ID), true)
	}
	var tl struct {
		Items    []struct{ Kind string } `json:"items"`
		Problems []string                `json:"problems"`
	}
	json.Unmarshal([]byte(check("/api/timeline", true)), &tl)
	if len(tl.Items) == 0 || len(tl.Problems) == 0 {
		t.Errorf("/api/timeline: %d items, problems %q (the memory leads out)", len(tl.Items), tl.Problems)
	}
	check("/api/search?q=open+the+order+database", true)
	check("/api/search?q=curl+evil", true)
	v.stop()
}
