package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadLoCoMo(t *testing.T) {
	f, err := os.Open("testdata/locomo.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	convs, err := loadLoCoMo(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 1 {
		t.Fatalf("got %d conversations", len(convs))
	}
	c := convs[0]
	if c.ID != "conv-x" {
		t.Errorf("id = %q", c.ID)
	}
	// Sessions in order; a date without turns is no session.
	if len(c.Sessions) != 2 || c.Sessions[0].N != 1 || c.Sessions[1].N != 2 {
		t.Fatalf("sessions = %+v", c.Sessions)
	}
	s1 := c.Sessions[0]
	if s1.DateTime != "1:56 pm on 8 May, 2023" || !s1.Time.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Errorf("session 1 date = %q, %v", s1.DateTime, s1.Time)
	}
	if got := s1.Turns[1]; got != (turn{Speaker: "Bo", DiaID: "D1:2", Text: "Look at this.", Caption: "a photo of a bowl on a wheel"}) {
		t.Errorf("turn = %+v", got)
	}
	if len(c.Questions) != 3 {
		t.Fatalf("questions = %+v", c.Questions)
	}
	q := c.Questions[1]
	if q.Category != 1 || !slices.Equal(q.Evidence, []string{"D1:2", "D2:1", "D1:1"}) {
		t.Errorf("question = %+v", q)
	}
	if len(c.Questions[2].Evidence) != 0 {
		t.Errorf("a question without evidence got %v", c.Questions[2].Evidence)
	}
}

func TestLoadLoCoMoErrors(t *testing.T) {
	for _, in := range []string{`{`, `{"not": "a list"}`, `[{"conversation": {"session_1": "text"}}]`} {
		if _, err := loadLoCoMo(strings.NewReader(in)); err == nil {
			t.Errorf("loadLoCoMo(%s) did not fail", in)
		}
	}
}

func TestNormalizeEvidence(t *testing.T) {
	got := normalizeEvidence([]string{"D8:6; D9:17", "D:11:26", "D", "D10:19", "D8:6", " D3:2 "})
	want := []string{"D8:6", "D9:17", "D11:26", "D10:19", "D3:2"}
	if !slices.Equal(got, want) {
		t.Errorf("normalizeEvidence = %q, want %q", got, want)
	}
}

func TestTurnNote(t *testing.T) {
	s := session{N: 3, DateTime: "1:56 pm on 8 May, 2023"}
	tr := turn{Speaker: "Ana", DiaID: "D3:7", Text: "I finally finished the painting of the lake at sunrise that I started last winter with my sister", Caption: "a photo of a lake"}
	title := turnTitle(tr)
	if !strings.HasPrefix(title, "Ana: I finally finished") || !strings.HasSuffix(title, "…") || len(title) > len("Ana: ")+80+len("…") {
		t.Errorf("title = %q", title)
	}
	if got := turnTitle(turn{Speaker: "Bo", Text: "Thanks!"}); got != "Bo: Thanks!" {
		t.Errorf("short title = %q", got)
	}
	if got := turnTitle(turn{Speaker: "Bo", Caption: "a photo of a cat"}); got != "Bo: a photo of a cat" {
		t.Errorf("photo-only title = %q", got)
	}
	body := turnBody(tr, s)
	for _, want := range []string{"Ana", "8 May, 2023", "session 3", "D3:7", tr.Text, "a photo of a lake"} {
		if !strings.Contains(body, want) {
			t.Errorf("body %q lacks %q", body, want)
		}
	}
	if got := turnID("D3:7"); got != "turn-d3-7" {
		t.Errorf("turnID = %q", got)
	}
	if titleKey("Bo: Thanks!") != titleKey("bo thanks") {
		t.Error("titleKey does not ignore case and punctuation")
	}
}
