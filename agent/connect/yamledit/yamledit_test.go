package yamledit

import (
	"strings"
	"testing"
)

var (
	goose = Entry{Collection: "extensions", Key: "rubi"}
	cont  = Entry{Collection: "mcpServers", Field: "name", Value: "rubi"}
)

const (
	gooseText = "rubi:\n  type: stdio\n  cmd: rubi\n  args: [mcp]\n"
	contText  = "- name: rubi\n  command: rubi\n  args: [mcp]\n"
)

// Set adds rubi's entry as the file's own entries are written, and
// Restore against the file before gives that file back byte for byte.
func TestSetAndRestore(t *testing.T) {
	for _, tt := range []struct {
		name    string
		e       Entry
		text    string
		in, out string
	}{
		{"crlf", goose, gooseText,
			"a: 1 # x\r\nextensions:\r\n  dev:\r\n    type: builtin\r\n",
			"a: 1 # x\r\nextensions:\r\n  dev:\r\n    type: builtin\r\n  rubi:\r\n    type: stdio\r\n    cmd: rubi\r\n    args: [mcp]\r\n"},
		{"dash alone on its line", cont, contText,
			"mcpServers:\n  -\n    name: a\n    command: x\nb: 2\n",
			"mcpServers:\n  -\n    name: a\n    command: x\n  - name: rubi\n    command: rubi\n    args: [mcp]\nb: 2\n"},
		{"wide dash", cont, contText,
			"mcpServers:\n-   name: a\n    command: x\n",
			"mcpServers:\n-   name: a\n    command: x\n-   name: rubi\n    command: rubi\n    args: [mcp]\n"},
		{"null key", goose, gooseText,
			"extensions: ~   # none\nz: 1\n",
			"extensions: # none\n  rubi:\n    type: stdio\n    cmd: rubi\n    args: [mcp]\nz: 1\n"},
		{"empty key", goose, gooseText,
			"extensions:\nz: 1\n",
			"extensions:\n  rubi:\n    type: stdio\n    cmd: rubi\n    args: [mcp]\nz: 1\n"},
		{"empty file", goose, gooseText,
			"",
			"extensions:\n  rubi:\n    type: stdio\n    cmd: rubi\n    args: [mcp]\n"},
		{"comments only", goose, gooseText,
			"# nothing yet\n\n",
			"# nothing yet\nextensions:\n  rubi:\n    type: stdio\n    cmd: rubi\n    args: [mcp]\n\n"},
		{"document end", cont, contText,
			"name: x\n...\n",
			"name: x\nmcpServers:\n  - name: rubi\n    command: rubi\n    args: [mcp]\n...\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before, err := Parse("config.yaml", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			d, _ := Parse("config.yaml", []byte(tt.in))
			if err := d.Set(tt.e, tt.text); err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != tt.out {
				t.Fatalf("after Set:\n%q\nwant\n%q", got, tt.out)
			}
			if changed, err := d.Restore(tt.e, before); err != nil || !changed {
				t.Fatalf("Restore: %v, %v", changed, err)
			}
			if got := string(d.Bytes()); got != tt.in && !(tt.in == "" && got == "") {
				t.Errorf("after Restore:\n%q\nwant\n%q", got, tt.in)
			}
		})
	}
}

// What rubi cannot parse or edit is an error naming the file and the
// line (and column, where the parser gives it), and nothing changes.
func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
		set            bool
	}{
		{"misindented", "extensions:\n  dev:\n    type: builtin\n   enabled: true\n", "config.yaml:4:4: ", false},
		{"unclosed flow", "a: 1\nb: [1, 2\nc: 3\n", "config.yaml:3:1: ", false},
		{"duplicate key", "a: 1\nextensions: {}\na: 2\n", `config.yaml:3:1: mapping key "a" already defined`, false},
		{"two documents", "a: 1\n---\nb: 2\n", "config.yaml:2: a second YAML document", false},
		{"a list", "- a\n- b\n", "config.yaml:1: the top level is not a mapping", false},
		{"flow", "extensions: {dev: {type: builtin}}\n", "config.yaml:1: extensions is written in flow style", true},
		{"alias", "base: &b\n  dev: {}\nextensions: *b\n", "config.yaml:3: extensions is an alias (*b)", true},
		{"wrong kind", "mcpServers:\n  a: 1\n", "config.yaml:2: mcpServers is not a list", true},
		// An anchor used elsewhere: adding to it would add there too.
		{"anchored", "extensions: &ext\n  dev:\n    type: builtin\nother: *ext\n", "config.yaml: rubi could not change extensions.rubi without changing more", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse("config.yaml", []byte(tt.in))
			if tt.set {
				if err != nil {
					t.Fatal(err)
				}
				e := goose
				if strings.HasPrefix(tt.in, "mcpServers") {
					e = cont
				}
				text := gooseText
				if e == cont {
					text = contText
				}
				err = d.Set(e, text)
				if got := string(d.Bytes()); got != tt.in {
					t.Errorf("the document changed on error:\n%s", got)
				}
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want %q...", err, tt.want)
			}
		})
	}
}

// An entry named rubi is found, read and replaced where it is.
func TestGetTextReplace(t *testing.T) {
	in := "mcpServers:\n  - name: docs\n    command: d\n  # rubi, old\n  - name: rubi # mine\n    command: old\n\n  - name: last\n    command: l\n"
	d, err := Parse("config.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Command string }
	if ok, err := d.Get(cont, &v); !ok || err != nil || v.Command != "old" {
		t.Fatalf("Get: %v %v %+v", ok, err, v)
	}
	if got := d.Text(cont); got != "  - name: rubi # mine\n    command: old" {
		t.Errorf("Text: %q", got)
	}
	if err := d.Set(cont, contText); err != nil {
		t.Fatal(err)
	}
	want := "mcpServers:\n  - name: docs\n    command: d\n  # rubi, old\n  - name: rubi\n    command: rubi\n    args: [mcp]\n\n  - name: last\n    command: l\n"
	if got := string(d.Bytes()); got != want {
		t.Errorf("after Set:\n%s\nwant\n%s", got, want)
	}
}
