package connect

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Codex's config.toml is edited as text, not re-encoded: no Go TOML
// library writes a document back with its comments and layout (go-toml/v2
// and BurntSushi/toml both drop comments). rubi's server is one whole
// table, [mcp_servers.rubi], which TOML lets stand anywhere after the
// root keys: it is appended at the end of the file, after a comment that
// names it, and found again by its header. Every edit is checked by
// parsing the result, and a file that does not parse is left untouched
// with its line and column.

// tomlTable is the header of rubi's table.
const tomlTable = "[mcp_servers." + MCPServerName + "]"

// tomlComment is the line rubi writes above its table.
const tomlComment = "# rubi's MCP server (rubi connect codex; rubi connect codex --undo removes it)"

// codexTable renders rubi's table for Codex.
func codexTable(rubi string) string {
	return tomlComment + "\n" + tomlTable + "\n" +
		"command = " + strconv.Quote(rubi) + "\n" +
		"args = [\"mcp\"]\n" +
		"# Codex waits this long for the server to start (default 10).\n" +
		"startup_timeout_sec = 30\n"
}

// parseTOML parses data, naming path, line and column on error.
func parseTOML(path string, data []byte) (map[string]any, error) {
	var v map[string]any
	if _, err := toml.Decode(string(data), &v); err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d:%d: %s", path, perr.Position.Line, perr.Position.Col, perr.Message)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// tomlServer returns the MCP server named rubi in a parsed config.toml.
func tomlServer(v map[string]any) (map[string]any, bool) {
	servers, _ := v["mcp_servers"].(map[string]any)
	s, ok := servers[MCPServerName].(map[string]any)
	return s, ok
}

// tomlStartsRubi reports whether the server runs `rubi mcp`.
func tomlStartsRubi(s map[string]any) bool {
	cmd, _ := s["command"].(string)
	args, _ := s["args"].([]any)
	if len(args) == 0 {
		return false
	}
	first, _ := args[0].(string)
	return isRubiProgram(cmd) && first == "mcp" && runnable(cmd)
}

// findTable locates rubi's table in the text: from rubi's comment (or the
// header) to the next table header that is not one of its own subtables
// ([mcp_servers.rubi.env]), without the blank lines and comments before
// that header.
// The line indexes are [start, end).
func findTable(lines []string) (start, end int, ok bool) {
	start = -1
	for i, l := range lines {
		if strings.TrimSpace(l) == tomlTable {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	end = len(lines)
	for i := start + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "[mcp_servers."+MCPServerName+".") {
			end = i
			break
		}
	}
	// Blank lines and comments at its end are what follows's (a
	// comment above the next header is that table's).
	for end > start+1 && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#")) {
		end--
	}
	// A comment block right above the header is the table's, when it is
	// rubi's.
	if start > 0 && strings.TrimSpace(lines[start-1]) == tomlComment {
		start--
	}
	return start, end, true
}

// splitLines splits text into lines without their line breaks; a final
// line break gives no empty last line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// codexServer is rubi's table in Codex's config.toml.
func codexServer(path, rubi string) part {
	p := part{what: tomlTable + ": rubi's MCP server (startup_timeout_sec = 30)"}
	p.connected = func(st fileState) bool {
		v, err := parseTOML(st.path, st.data)
		if err != nil {
			return false
		}
		s, ok := tomlServer(v)
		return ok && tomlStartsRubi(s)
	}
	p.commands = func(st fileState) ([]string, error) {
		v, err := parseTOML(st.path, st.data)
		if err != nil {
			return nil, err
		}
		if s, ok := tomlServer(v); ok {
			cmd, _ := s["command"].(string)
			args, _ := s["args"].([]any)
			if len(args) > 0 {
				if first, _ := args[0].(string); namesRubiMCP([]string{cmd, first}) {
					return []string{cmd}, nil
				}
			}
		}
		return nil, nil
	}
	p.file = fileEdit{path: path, perm: 0o644, edit: func(st fileState) (fileChange, error) {
		v, err := parseTOML(st.path, st.data)
		if err != nil {
			return fileChange{}, err
		}
		s, had := tomlServer(v)
		if had && tomlStartsRubi(s) {
			return fileChange{data: st.data}, nil
		}
		table := codexTable(rubi)
		lines := splitLines(string(st.data))
		var out, change string
		if start, end, ok := findTable(lines); ok {
			out = joinLines(lines[:start]) + table + joinLines(lines[end:])
			change = tomlTable + ": replaced (it did not start rubi mcp)"
		} else if had {
			return fileChange{}, fmt.Errorf("%s: mcp_servers.rubi is defined without a %s header (dotted keys or an inline table); replace it with this table by hand:\n%s", st.path, tomlTable, table)
		} else if line := inlineServers(lines); line > 0 {
			// TOML forbids extending an inline table with a header: Codex
			// would refuse the file (BurntSushi/toml lets it pass).
			return fileChange{}, fmt.Errorf("%s:%d: mcp_servers is an inline table, which a [mcp_servers.rubi] table cannot extend; add rubi to it by hand:\n  rubi = { command = %q, args = [\"mcp\"], startup_timeout_sec = 30 }", st.path, line, rubi)
		} else {
			text := string(st.data)
			switch {
			case text == "":
			case strings.HasSuffix(text, "\n\n"):
			case strings.HasSuffix(text, "\n"):
				text += "\n"
			default:
				text += "\n\n"
			}
			out = text + table
			change = tomlTable + ": added"
		}
		if err := checkCodex(st.path, out); err != nil {
			return fileChange{}, err
		}
		return fileChange{data: []byte(out), changes: []string{change}}, nil
	}, pristine: func(st fileState) bool {
		v, err := parseTOML(st.path, st.data)
		if err != nil {
			return false
		}
		_, _, ok := findTable(splitLines(string(st.data)))
		s, had := tomlServer(v)
		return !ok && !(had && tomlStartsRubi(s))
	}}
	p.undo = func(st fileState) (fileChange, error) {
		if !st.hasBackup || !st.exists {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		if _, err := parseTOML(st.path, st.data); err != nil {
			return fileChange{}, err
		}
		lines := splitLines(string(st.data))
		start, end, ok := findTable(lines)
		if !ok {
			return fileChange{data: st.data}, nil
		}
		blines := splitLines(string(st.backup))
		var out, change string
		if bs, be, bok := findTable(blines); bok {
			out = joinLines(lines[:start]) + joinLines(blines[bs:be]) + joinLines(lines[end:])
			change = tomlTable + ": restored"
		} else {
			// The blank line rubi put before its table goes with it.
			if start > 0 && strings.TrimSpace(lines[start-1]) == "" {
				start--
			}
			out = joinLines(lines[:start]) + joinLines(lines[end:])
			change = tomlTable + ": removed"
		}
		if _, err := parseTOML(st.path, []byte(out)); err != nil {
			return fileChange{}, fmt.Errorf("%w (removing rubi's table would break the file: remove it by hand)", err)
		}
		if len(st.backup) == 0 && strings.TrimSpace(out) == "" {
			return fileChange{remove: true, changes: []string{change}}, nil
		}
		return fileChange{data: []byte(out), changes: []string{change}}, nil
	}
	return p
}

// checkCodex parses the edited text and checks rubi's server is in it.
func checkCodex(path, text string) error {
	v, err := parseTOML(path, []byte(text))
	if err != nil {
		return fmt.Errorf("%w (adding rubi's table would break the file: mcp_servers may be an inline table; add %s by hand)", err, tomlTable)
	}
	if s, ok := tomlServer(v); !ok || !tomlStartsRubi(s) {
		return fmt.Errorf("%s: rubi's table did not come out as mcp_servers.rubi; add it by hand", path)
	}
	return nil
}

// inlineServers returns the line (from 1) where mcp_servers is assigned as
// a value (an inline table) at the root, or 0.
func inlineServers(lines []string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			return 0 // past the root table
		}
		if rest, ok := strings.CutPrefix(t, "mcp_servers"); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
	}
	return 0
}
