package rrf

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func hits(ids ...string) []core.Hit {
	var out []core.Hit
	for _, id := range ids {
		out = append(out, core.Hit{ID: id, Reason: "r-" + id})
	}
	return out
}

func TestFuseTextbook(t *testing.T) {
	f := New()
	got, err := f.Fuse(context.Background(), []core.RankedList{
		{Stage: "a", Weight: 1, Hits: hits("x", "y", "z")},
		{Stage: "b", Weight: 1, Hits: hits("y", "w")},
	})
	if err != nil {
		t.Fatal(err)
	}
	// y: 1/62 + 1/61 beats x: 1/61 alone; x beats w (1/62) and z (1/63).
	want := []string{"y", "x", "w", "z"}
	for i, id := range want {
		if got[i].ID != id {
			t.Fatalf("order = %v, want %v", got, want)
		}
	}
	if math.Abs(got[0].Score-(1.0/62+1.0/61)) > 1e-12 {
		t.Errorf("y score = %v", got[0].Score)
	}
	if got[0].Reason != "r-y" {
		t.Errorf("duplicate reasons should collapse, got %q", got[0].Reason)
	}
}

func TestWeightAndK(t *testing.T) {
	f := New()
	if err := f.Configure(context.Background(), core.Setup{Settings: json.RawMessage(`{"k":0}`)}); err != nil {
		t.Fatal(err)
	}
	got, _ := f.Fuse(context.Background(), []core.RankedList{
		{Stage: "a", Weight: 1, Hits: hits("x", "y")},
		{Stage: "b", Weight: 3, Hits: hits("y")},
	})
	// k=0: x = 1/1, y = 1/2 + 3/1.
	if got[0].ID != "y" || got[0].Score != 3.5 || got[1].Score != 1 {
		t.Errorf("got %+v", got)
	}
}

func TestTieBreakIsDeterministic(t *testing.T) {
	f := New()
	for range 20 {
		got, _ := f.Fuse(context.Background(), []core.RankedList{
			{Weight: 1, Hits: hits("b")},
			{Weight: 1, Hits: hits("a")},
		})
		if got[0].ID != "a" || got[1].ID != "b" {
			t.Fatalf("tie order = %v", got)
		}
	}
}

func TestConfigureRejectsNegativeK(t *testing.T) {
	err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(`{"k":-1}`)})
	var se *core.SettingError
	if !errors.As(err, &se) || se.Setting != "k" {
		t.Fatalf("err = %v", err)
	}
}
