package jsonedit

import (
	"errors"
	"strings"
	"testing"
)

// op is one edit of a test case.
type op struct {
	set    Path
	value  any
	append Path
	delete Path
}

func TestEdits(t *testing.T) {
	tests := []struct {
		name  string
		jsonc bool
		in    string
		ops   []op
		want  string
	}{
		{
			name: "new key after the last, nested objects laid out like the file",
			in:   "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n",
			ops:  []op{{set: Path{"env", "WINDOW"}, value: "150000"}},
			want: "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": []\n  },\n  \"env\": {\n    \"WINDOW\": \"150000\"\n  }\n}\n",
		},
		{
			name: "four-space indentation and CRLF line endings are kept",
			in:   "{\r\n    \"env\": {\r\n        \"A\": \"1\"\r\n    }\r\n}\r\n",
			ops:  []op{{set: Path{"env", "B"}, value: "2"}, {set: Path{"list"}, value: []int{1, 2}}},
			want: "{\r\n    \"env\": {\r\n        \"A\": \"1\",\r\n        \"B\": \"2\"\r\n    },\r\n    \"list\": [\r\n        1,\r\n        2\r\n    ]\r\n}\r\n",
		},
		{
			name: "an existing value is replaced where it is",
			in:   "{\n  \"env\": {\n    \"A\": \"1\",\n    \"B\": \"old\",\n    \"C\": \"3\"\n  }\n}\n",
			ops:  []op{{set: Path{"env", "B"}, value: "new"}},
			want: "{\n  \"env\": {\n    \"A\": \"1\",\n    \"B\": \"new\",\n    \"C\": \"3\"\n  }\n}\n",
		},
		{
			name: "an empty object gets its first member on its own line",
			in:   "{\n  \"env\": {}\n}\n",
			ops:  []op{{set: Path{"env", "A"}, value: "1"}},
			want: "{\n  \"env\": {\n    \"A\": \"1\"\n  }\n}\n",
		},
		{
			name: "an empty document becomes an object",
			in:   "",
			ops:  []op{{set: Path{"env", "A"}, value: "1"}},
			want: "{\n  \"env\": {\n    \"A\": \"1\"\n  }\n}\n",
		},
		{
			name: "a one-line document stays on one line",
			in:   `{"a": 1, "b": {"c": 2}}`,
			ops:  []op{{set: Path{"b", "d"}, value: 3}, {set: Path{"e"}, value: map[string]int{"f": 4}}},
			want: `{"a": 1, "b": {"c": 2, "d": 3}, "e": {"f":4}}`,
		},
		{
			name: "a one-line object inside a formatted file stays on one line",
			in:   "{\n  \"env\": {\"A\": \"1\"}\n}\n",
			ops:  []op{{set: Path{"env", "B"}, value: "2"}},
			want: "{\n  \"env\": {\"A\": \"1\", \"B\": \"2\"}\n}\n",
		},
		{
			name: "append to an array, and create one",
			in:   "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"command\": \"mine\"\n      }\n    ]\n  }\n}\n",
			ops: []op{
				{append: Path{"hooks", "Stop"}, value: map[string]string{"command": "rubi"}},
				{append: Path{"hooks", "PreCompact"}, value: map[string]string{"command": "rubi"}},
			},
			want: "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"command\": \"mine\"\n      },\n      {\n        \"command\": \"rubi\"\n      }\n    ],\n    \"PreCompact\": [\n      {\n        \"command\": \"rubi\"\n      }\n    ]\n  }\n}\n",
		},
		{
			name: "deleting the last member undoes adding it",
			in:   "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
			ops:  []op{{delete: Path{"b"}}},
			want: "{\n  \"a\": 1\n}\n",
		},
		{
			name: "deleting the first and a middle member",
			in:   "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4\n}\n",
			ops:  []op{{delete: Path{"a"}}, {delete: Path{"c"}}},
			want: "{\n  \"b\": 2,\n  \"d\": 4\n}\n",
		},
		{
			name: "deleting the only member leaves an empty object",
			in:   "{\n  \"env\": {\n    \"A\": \"1\"\n  }\n}\n",
			ops:  []op{{delete: Path{"env", "A"}}},
			want: "{\n  \"env\": {}\n}\n",
		},
		{
			name: "deleting array elements",
			in:   "{\"x\": [1, 2, 3]}",
			ops:  []op{{delete: Path{"x", 2}}, {delete: Path{"x", 0}}},
			want: "{\"x\": [2]}",
		},
		{
			name: "duplicate keys: the last one is the one JSON.parse keeps",
			in:   "{\"a\": 1, \"a\": 2}",
			ops:  []op{{set: Path{"a"}, value: 3}},
			want: "{\"a\": 1, \"a\": 3}",
		},
		{
			name:  "JSONC: comments and trailing commas are kept",
			jsonc: true,
			in:    "{\n  // the model\n  \"model\": \"opus\", // pinned\n  \"env\": {\n    \"A\": \"1\", // first\n  },\n}\n",
			ops:   []op{{set: Path{"env", "B"}, value: "2"}, {set: Path{"c"}, value: true}},
			want:  "{\n  // the model\n  \"model\": \"opus\", // pinned\n  \"env\": {\n    \"A\": \"1\", // first\n    \"B\": \"2\",\n  },\n  \"c\": true,\n}\n",
		},
		{
			name:  "JSONC: a comment on the last member's line stays there",
			jsonc: true,
			in:    "{\n  \"a\": 1 // one\n}\n",
			ops:   []op{{set: Path{"b"}, value: 2}},
			want:  "{\n  \"a\": 1, // one\n  \"b\": 2\n}\n",
		},
		{
			name:  "JSONC: a deleted member takes its comments along, others stay",
			jsonc: true,
			in:    "{\n  // about a\n  \"a\": 1, // a's line\n  // about b\n  \"b\": 2 // b's line\n  // the end\n}\n",
			ops:   []op{{delete: Path{"b"}}},
			want:  "{\n  // about a\n  \"a\": 1 // a's line\n  // the end\n}\n",
		},
		{
			name:  "JSONC: deleting the first member keeps the next one's comment",
			jsonc: true,
			in:    "{\n  \"a\": 1, // a's line\n  // about b\n  \"b\": 2\n}\n",
			ops:   []op{{delete: Path{"a"}}},
			want:  "{\n  // about b\n  \"b\": 2\n}\n",
		},
		{
			name: "an equal value changes nothing, whatever its layout",
			in:   "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"rubi hook Stop\"}]}]}}",
			ops:  []op{{set: Path{"hooks", "Stop", 0}, value: map[string]any{"hooks": []any{map[string]string{"command": "rubi hook Stop", "type": "command"}}}}},
			want: "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"rubi hook Stop\"}]}]}}",
		},
		{
			name: "HTML characters are not escaped",
			in:   "{}",
			ops:  []op{{set: Path{"cmd"}, value: "a && b > c"}},
			want: "{\n  \"cmd\": \"a && b > c\"\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("test.json", []byte(tt.in), tt.jsonc)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range tt.ops {
				switch {
				case o.set != nil:
					if _, err := d.Set(o.set, o.value); err != nil {
						t.Fatal(err)
					}
				case o.append != nil:
					if err := d.Append(o.append, o.value); err != nil {
						t.Fatal(err)
					}
				case o.delete != nil:
					if !d.Delete(o.delete) {
						t.Fatalf("delete %s: nothing there", o.delete)
					}
				}
			}
			if got := string(d.Bytes()); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			// What was written parses again, as JSON unless it is JSONC.
			if _, err := Parse("out.json", d.Bytes(), tt.jsonc); err != nil {
				t.Errorf("the result does not parse: %v", err)
			}
		})
	}
}

func TestSetReportsChange(t *testing.T) {
	d, _ := Parse("s.json", []byte(`{"env": {"A": "1"}}`), false)
	if changed, err := d.Set(Path{"env", "A"}, "1"); changed || err != nil {
		t.Errorf("same value: changed=%v err=%v", changed, err)
	}
	if changed, err := d.Set(Path{"env", "A"}, 1); !changed || err != nil {
		t.Errorf("a number for a string: changed=%v err=%v", changed, err)
	}
}

func TestReads(t *testing.T) {
	d, err := Parse("s.json", []byte(`{"b": {"y": [1, {"z": true}], "x": null}, "a": "s"}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Keys(Path{"b"}), ","); got != "y,x" {
		t.Errorf("keys in document order: %s", got)
	}
	if d.Len(Path{"b", "y"}) != 2 || d.Len(Path{"a"}) != -1 || d.Len(Path{"missing"}) != -1 {
		t.Error("Len")
	}
	var z bool
	if ok, err := d.Get(Path{"b", "y", 1, "z"}, &z); !ok || err != nil || !z {
		t.Errorf("Get: %v %v %v", ok, err, z)
	}
	if !d.IsObject(Path{"b"}) || d.IsObject(Path{"b", "y"}) || !d.IsArray(Path{"b", "y"}) || d.IsArray(Path{"a"}) || d.IsObject(Path{"nope"}) {
		t.Error("IsObject, IsArray")
	}
	if !d.Has(Path{"b", "x"}) || d.Has(Path{"b", "w"}) || d.Has(Path{"b", "y", 5}) {
		t.Error("Has")
	}
	if string(d.Raw(Path{"b", "y"})) != `[1,{"z":true}]` {
		t.Errorf("Raw: %s", d.Raw(Path{"b", "y"}))
	}
	if !d.Equal(Path{"b", "y", 1}, map[string]bool{"z": true}) || d.Equal(Path{"a"}, "t") {
		t.Error("Equal")
	}
}

func TestSetThroughAValueThatIsNotAnObject(t *testing.T) {
	d, _ := Parse("s.json", []byte(`{"env": "oops"}`), false)
	_, err := d.Set(Path{"env", "A"}, "1")
	if err == nil || !strings.Contains(err.Error(), "env is a string, not an object") {
		t.Errorf("err = %v", err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name      string
		jsonc     bool
		in        string
		line, col int
		msg       string
	}{
		{"trailing comma in JSON", false, "{\n  \"a\": 1,\n}\n", 3, 1, "invalid character '}'"},
		{"comment in JSON", false, "{\n  // no\n  \"a\": 1\n}", 2, 3, "invalid character '/'"},
		{"missing quote", false, "{\n  \"env\": {\n    \"A: \"1\"\n  }\n}", 3, 10, "invalid character '1'"},
		{"cut short", false, "{\n  \"a\": [1, 2", 2, 13, "unexpected end of JSON input"},
		{"not an object", false, "\n[1, 2]", 2, 1, "the top level is not a JSON object"},
		{"JSONC: missing colon", true, "{\n  // ok\n  \"a\" 1\n}", 3, 7, "invalid character '1'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("settings.json", []byte(tt.in), tt.jsonc)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v", err)
			}
			if se.File != "settings.json" || se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v, want settings.json:%d:%d: %s", err, tt.line, tt.col, tt.msg)
			}
		})
	}
}

func TestPathString(t *testing.T) {
	if s := (Path{"hooks", "Stop", 0, "hooks"}).String(); s != "hooks.Stop[0].hooks" {
		t.Error(s)
	}
}

// Adding a value and deleting it again gives back the document byte for
// byte: what rubi's undo relies on.
func TestSetThenDeleteRoundTrips(t *testing.T) {
	for _, tt := range []struct {
		in    string
		jsonc bool
	}{
		{"{\n  \"a\": 1,\n  \"env\": {\n    \"X\": \"1\"\n  }\n}\n", false},
		{"{\"a\": 1, \"env\": {\"X\": \"1\"}}", false},
		{"{\"a\":1,\"env\":{\"X\":\"1\"}}", false},
		{"{\r\n  \"a\": [\r\n    1\r\n  ],\r\n  \"env\": {\r\n    \"X\": \"1\"\r\n  }\r\n}\r\n", false},
		{"{\n  \"a\": 1, // one\n  \"env\": {\n    \"X\": \"1\", // x\n  },\n}\n", true},
		{"{\n  \"a\": 1,\n  \"env\": {\n    \"X\": \"1\" // x\n  } // env\n}\n", true},
		{"{\n  \"a\": 1\n}\n", false},
	} {
		d, err := Parse("s.json", []byte(tt.in), tt.jsonc)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Path{{"env", "Y"}, {"b"}, {"a2", "deep", "er"}} {
			existed := d.Has(Path{p[0]})
			if _, err := d.Set(p, map[string]any{"k": []int{1}}); err != nil {
				t.Fatal(err)
			}
			if existed {
				d.Delete(p)
			} else {
				d.Delete(Path{p[0]}) // what Set created
			}
			if got := string(d.Bytes()); got != tt.in {
				t.Errorf("set and delete %s:\n%q\nbecame\n%q", p, tt.in, got)
			}
		}
	}
}
