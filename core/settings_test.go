package core

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

type testSettings struct {
	K1      float64           `hcl:"k1,optional"`
	Limit   int               `hcl:"limit,optional"`
	On      bool              `hcl:"on,optional"`
	Include []string          `hcl:"include,optional"`
	Weights map[string]int    `hcl:"weights,optional"`
	Name    string            `hcl:"name"`
	Ignored time.Duration     // no tag: not a setting
	Extra   map[string]string `hcl:"extra,optional"`
}

// Settings decode into their fields as HCL would convert them; fields
// not given keep the defaults the stage set.
func TestDecodeSettings(t *testing.T) {
	s := testSettings{K1: 1.2, Limit: 50, Extra: map[string]string{"a": "b"}}
	raw := `{"k1": 0.9, "on": true, "include": ["*.go", "*.ts"], "weights": {"a": 2}, "name": "x", "limit": "60"}`
	if err := DecodeSettings(json.RawMessage(raw), &s); err != nil {
		t.Fatal(err)
	}
	if s.K1 != 0.9 || s.Limit != 60 || !s.On || !slices.Equal(s.Include, []string{"*.go", "*.ts"}) || s.Weights["a"] != 2 || s.Name != "x" || s.Extra["a"] != "b" {
		t.Errorf("decoded %+v", s)
	}
	if err := DecodeSettings(nil, &s); err != nil {
		t.Errorf("no settings: %v", err)
	}
}

func TestDecodeSettingsErrors(t *testing.T) {
	for raw, want := range map[string]SettingError{
		`{"k1": 1}`:                     {Setting: "name", Message: `the setting "name" is required`},
		`{"name": "x", "k2": 1}`:        {Setting: "k2", Message: `no setting is called "k2"`},
		`{"name": "x", "limit": "ten"}`: {Setting: "limit"},
		`{"name": "x", "on": 3}`:        {Setting: "on"},
		`{"name": "x", "limit": 1.5}`:   {Setting: "limit"},
		`[1, 2]`:                        {},
	} {
		var s testSettings
		err := DecodeSettings(json.RawMessage(raw), &s)
		var se *SettingError
		if !errors.As(err, &se) || se.Setting != want.Setting || want.Message != "" && se.Message != want.Message || !strings.Contains(se.Message, want.Setting) {
			t.Errorf("%s: %v, want the setting %q named", raw, err, want.Setting)
		}
	}
}
