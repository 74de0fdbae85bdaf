package connect

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rubi-dev/rubi/agent/connect/yamledit"
)

// yamlSpec is how an agent's YAML configuration holds an MCP server.
type yamlSpec struct {
	// entry names rubi's entry: Goose's extensions.rubi, Continue's
	// mcpServers item named rubi.
	entry yamledit.Entry
	// text is rubi's entry at column 0 (yamledit.Doc.Set).
	text string
	// argv is the command line of a decoded entry.
	argv func(n *yaml.Node) []string
	// mustExist refuses to create the file: Continue loads its hub
	// configuration until a config.yaml exists, and a new one would take
	// its place.
	mustExist string
}

// yamlServer registers rubi's MCP server in a YAML file of the user's,
// through yamledit: only rubi's entry's lines change, the rest of the file
// (comments, blank lines, order, indentation, quoting) stays byte for
// byte. As for JSON files, an entry that already starts rubi is kept as
// the user has it, one that starts something else is replaced, and the
// undo puts back what the backup held there, or removes it.
func yamlServer(path string, spec yamlSpec) part {
	e := spec.entry
	argv := func(d *yamledit.Doc) ([]string, error) {
		var n yaml.Node
		ok, err := d.Get(e, &n)
		if !ok || err != nil {
			return nil, err
		}
		return spec.argv(&n), nil
	}
	starts := func(d *yamledit.Doc) bool {
		a, err := argv(d)
		return err == nil && namesRubiMCP(a) && runnable(a[0])
	}
	p := part{what: e.String() + ": rubi's MCP server"}
	p.connected = func(st fileState) bool {
		d, err := yamledit.Parse(st.path, st.data)
		return err == nil && starts(d)
	}
	p.commands = func(st fileState) ([]string, error) {
		d, err := yamledit.Parse(st.path, st.data)
		if err != nil {
			return nil, err
		}
		if a, _ := argv(d); namesRubiMCP(a) {
			return a[:1], nil
		}
		return nil, nil
	}
	p.file = fileEdit{path: path, perm: 0o644, edit: func(st fileState) (fileChange, error) {
		if !st.exists && spec.mustExist != "" {
			return fileChange{}, fmt.Errorf("%s does not exist: %s", st.path, spec.mustExist)
		}
		d, err := yamledit.Parse(st.path, st.data)
		if err != nil {
			return fileChange{}, err
		}
		if starts(d) {
			return fileChange{data: st.data}, nil
		}
		verb := "added"
		if d.Text(e) != "" {
			verb = "replaced"
		}
		if err := d.Set(e, spec.text); err != nil {
			return fileChange{}, fmt.Errorf("%w\nrubi's entry, to add by hand:\n%s", err, indent(spec.text))
		}
		return fileChange{data: d.Bytes(), changes: []string{fmt.Sprintf("%s: %s", e, verb)}}, nil
	}, pristine: func(st fileState) bool {
		d, err := yamledit.Parse(st.path, st.data)
		if err != nil {
			return false
		}
		backup, err := yamledit.Parse(st.backupPath, st.backup)
		return err == nil && d.Text(e) == backup.Text(e)
	}}
	p.undo = func(st fileState) (fileChange, error) {
		if !st.hasBackup || !st.exists {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		d, err := yamledit.Parse(st.path, st.data)
		if err != nil {
			return fileChange{}, err
		}
		backup, err := yamledit.Parse(st.backupPath, st.backup)
		if err != nil {
			return fileChange{}, fmt.Errorf("%w\n(the backup is unreadable: remove %s from %s by hand)", err, e, st.path)
		}
		had := backup.Text(e) != ""
		changed, err := d.Restore(e, backup)
		if err != nil {
			return fileChange{}, err
		}
		if !changed {
			return fileChange{data: st.data}, nil
		}
		line := fmt.Sprintf("%s: removed", e)
		if had {
			line = fmt.Sprintf("%s: restored", e)
		}
		out := d.Bytes()
		if len(st.backup) == 0 && strings.TrimSpace(string(out)) == "" {
			return fileChange{remove: true, changes: []string{line}}, nil
		}
		// A file without a final line break got one where rubi's lines
		// went: it goes with them.
		if string(out) == string(st.backup)+"\n" || string(out) == string(st.backup)+"\r\n" {
			out = st.backup
		}
		return fileChange{data: out, changes: []string{line}}, nil
	}
	return p
}

// indent indents text four spaces, for a snippet in a message.
func indent(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimRight(text, "\n")+"\n", "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// yamlScalar writes s as a YAML scalar, quoted when it must be.
func yamlScalar(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return strings.TrimSuffix(string(out), "\n")
}

// gooseExtension is rubi's entry in Goose's extensions: Goose's stdio
// extension (type, name, cmd, args, envs, timeout in seconds).
func gooseExtension(rubi string) yamlSpec {
	return yamlSpec{
		entry: yamledit.Entry{Collection: "extensions", Key: MCPServerName},
		text: "rubi:\n  type: stdio\n  name: rubi\n  enabled: true\n  cmd: " + yamlScalar(rubi) +
			"\n  args: [mcp]\n  envs: {}\n  timeout: 300\n",
		argv: func(n *yaml.Node) []string {
			var s struct {
				Cmd  string   `yaml:"cmd"`
				Args []string `yaml:"args"`
			}
			if n.Decode(&s) != nil || s.Cmd == "" {
				return nil
			}
			return append([]string{s.Cmd}, s.Args...)
		},
	}
}

// continueServer is rubi's item in Continue's mcpServers.
func continueServer(rubi string) yamlSpec {
	return yamlSpec{
		entry: yamledit.Entry{Collection: "mcpServers", Field: "name", Value: MCPServerName},
		text:  "- name: rubi\n  command: " + yamlScalar(rubi) + "\n  args: [mcp]\n",
		argv: func(n *yaml.Node) []string {
			var s struct {
				Command string   `yaml:"command"`
				Args    []string `yaml:"args"`
			}
			if n.Decode(&s) != nil || s.Command == "" {
				return nil
			}
			return append([]string{s.Command}, s.Args...)
		},
		mustExist: "Continue reads the hub's configuration until it has one, which rubi does not create; " +
			"make it with Continue (its local config), or connect the project instead: rubi connect continue",
	}
}
