package cli

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// The README is what a newcomer copies from first. These tests hold it to
// what rubi does: a command or flag renamed, an example error reworded or
// an agent's hooks changed fails here, not in a reader's shell.

const readmePath = "../../README.md"

// readmeBlock is a fenced code block of the README: its info string
// ("sh", "hcl", or "") and its text.
type readmeBlock struct{ lang, text string }

func readme(t *testing.T) (string, []readmeBlock) {
	t.Helper()
	data, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	var blocks []readmeBlock
	var cur *readmeBlock
	var text strings.Builder
	for line := range strings.Lines(doc) {
		if strings.HasPrefix(line, "```") {
			if cur == nil {
				cur = &readmeBlock{lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
				text.Reset()
			} else {
				cur.text = text.String()
				blocks = append(blocks, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			text.WriteString(line)
		}
	}
	return doc, blocks
}

// shellWords splits a command line as sh would for the README's lines:
// words, "double" and 'single' quotes, a # comment after a blank.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"' || c == '\'':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				end = len(line) - i - 1
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// readmeCommand is a rubi command line of the README, as arguments; whole
// is false for a command named in the text (`rubi context`), which may
// leave out its arguments.
type readmeCommand struct {
	args  []string
	whole bool
}

// readmeCommands are the rubi command lines of the README: every line of
// its shell blocks that runs rubi (or go run ./cmd/rubi), continuation
// lines joined, and every `rubi ...` in its text.
func readmeCommands(t *testing.T) []readmeCommand {
	doc, blocks := readme(t)
	var cmds []readmeCommand
	add := func(line string, whole bool) {
		words := shellWords(line)
		switch {
		case len(words) > 0 && words[0] == "rubi":
			cmds = append(cmds, readmeCommand{words[1:], whole})
		case len(words) > 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/rubi":
			cmds = append(cmds, readmeCommand{words[3:], whole})
		}
	}
	for _, b := range blocks {
		if b.lang == "sh" {
			for _, l := range strings.Split(strings.ReplaceAll(b.text, "\\\n", " "), "\n") {
				add(l, true)
			}
		}
	}
	for _, m := range regexp.MustCompile("`(rubi [^`]+)`").FindAllStringSubmatch(doc, -1) {
		add(strings.ReplaceAll(m[1], "\n", " "), false) // the text wraps lines
	}
	return cmds
}

// Every rubi command the README shows exists and takes the flags it is
// shown with; a command line of its shell blocks also has the number of
// arguments the command takes (a word in capitals, such as ID or DIR,
// stands for one).
func TestReadmeCommands(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 40 {
		t.Fatalf("only %d rubi commands found in %s", len(cmds), readmePath)
	}
	for _, c := range cmds {
		args := c.args
		line := "rubi " + strings.Join(args, " ")
		root := newRootCmd(&globals{})
		cmd, rest, err := root.Find(args)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if cmd == root && len(args) > 0 {
			t.Errorf("%s: rubi has no command %q", line, args[0])
			continue
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil && c.whole {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// The README's example of a mistake in rubi.hcl is what rubi prints for
// it: its rubi.hcl example, with the line the error quotes put in place,
// checked by rubi config check. The example itself is a valid file.
func TestReadmeConfigError(t *testing.T) {
	installHome(t)
	_, blocks := readme(t)
	var example, errText string
	for _, b := range blocks {
		switch {
		case b.lang == "hcl" && example == "":
			example = b.text
		case b.lang == "" && strings.HasPrefix(b.text, "rubi.hcl:"):
			errText = b.text
		}
	}
	if example == "" || errText == "" {
		t.Fatalf("%s has no rubi.hcl example (```hcl) or no example error (``` starting rubi.hcl:)", readmePath)
	}
	root := rubitest.Project(t, map[string]string{"rubi.hcl": example})
	if code, _, errOut := runRubi(t, "config", "check", "--root", root); code != 0 {
		t.Errorf("the README's rubi.hcl example: exit %d\n%s", code, errOut)
	}

	// The error's last line quotes the line it is about: "  11 |   kl = 0.9".
	errLines := strings.Split(strings.TrimSuffix(errText, "\n"), "\n")
	quoted := regexp.MustCompile(`^\s*(\d+) \| (.*)$`).FindStringSubmatch(errLines[len(errLines)-1])
	if quoted == nil {
		t.Fatalf("the README's example error does not end with the line it quotes:\n%s", errText)
	}
	n, _ := strconv.Atoi(quoted[1])
	lines := strings.Split(example, "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("the README's example error quotes line %d; its rubi.hcl example has %d", n, len(lines))
	}
	lines[n-1] = quoted[2]
	root = rubitest.Project(t, map[string]string{"rubi.hcl": strings.Join(lines, "\n")})
	code, _, errOut := runRubi(t, "config", "check", "--root", root)
	if code == 0 || !strings.Contains(errOut, errText) {
		t.Errorf("rubi config check, the README's example with line %d %q: exit %d, printed\n%s\nthe README shows\n%s", n, quoted[2], code, errOut, errText)
	}
}

// The README's table of agents says what each gets automatically (by
// hooks) in rubi connect --list's words.
func TestReadmeAgentHooks(t *testing.T) {
	installHome(t)
	t.Setenv("CODEX_HOME", "")
	doc, _ := readme(t)
	root := rubitest.Project(t, map[string]string{"main.go": "package main\n"})
	code, out, errOut := runRubi(t, "--root", root, "connect", "--list")
	if code != 0 {
		t.Fatalf("connect --list: exit %d: %s", code, errOut)
	}
	listed := map[string]string{}
	for _, b := range strings.Split(out, "\n\n")[1:] {
		if m := regexp.MustCompile(`automatic \(hooks\): (.*)`).FindStringSubmatch(b); m != nil {
			listed[strings.Fields(b)[0]] = m[1]
		}
	}
	// The README's rows, by the name rubi connect knows the agent by;
	// Claude Desktop is an extension, not rubi connect's.
	agents := map[string]string{
		"Claude Code": "claude-code", "Codex": "codex", "Gemini CLI": "gemini", "Cursor": "cursor",
		"VS Code (Copilot)": "vscode", "Windsurf": "windsurf", "Cline": "cline", "OpenCode": "opencode",
		"Continue": "continue", "Goose": "goose", "Zed": "zed",
	}
	_, table, ok := strings.Cut(doc, "\n| Agent | MCP server")
	if !ok {
		t.Fatalf("%s has no table of agents (| Agent | MCP server ...)", readmePath)
	}
	if end := strings.Index(table, "\n\n"); end >= 0 {
		table = table[:end]
	}
	rows := 0
	for _, m := range regexp.MustCompile(`(?m)^\| ([^|]+) \| [^|]+ \| ([^|]+) \|`).FindAllStringSubmatch(table, -1) {
		name, cell := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if name == "Claude Desktop" || strings.HasPrefix(name, "---") {
			continue
		}
		agent, ok := agents[name]
		if !ok {
			t.Errorf("the README's table has a row %q that this test does not know: add it to agents", name)
			continue
		}
		rows++
		want := strings.ReplaceAll(cell, "`", "")
		if want == "—" {
			want = "none"
		}
		if listed[agent] != want {
			t.Errorf("%s: the README says %q, rubi connect --list %q", name, want, listed[agent])
		}
	}
	if rows != len(agents) || len(listed) != len(agents) {
		t.Errorf("the README's table has %d of the %d agents; rubi connect --list shows %d", rows, len(agents), len(listed))
	}
}
