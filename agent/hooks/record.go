package hooks

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/store"
)

// Limits of a pre-compaction record: it is a digest, not a copy of the
// conversation.
const (
	recordRequests = 40
	recordCommands = 40
	recordFiles    = 200
	recordLineCut  = 300 // characters kept of one request or command
	// recordMaxLine skips transcript lines longer than this without
	// reading them into memory: tool outputs and pasted images, which the
	// record does not use.
	recordMaxLine = 4 << 20
)

// digest is what a record keeps of the conversation since the last
// compaction.
type digest struct {
	requests []string
	files    []string
	commands []string
}

func (d *digest) reset() { *d = digest{} }

func (d *digest) request(s string) {
	if s = oneLine(s); s != "" {
		d.requests = append(d.requests, s)
	}
}

func (d *digest) command(s string) {
	if s = oneLine(s); s != "" {
		d.commands = append(d.commands, s)
	}
}

func (d *digest) file(p string) {
	if p != "" && !slices.Contains(d.files, p) {
		d.files = append(d.files, p)
	}
}

// preCompact saves the objective record of the conversation about to be
// compacted, as a snapshot chunk of the conversation memory
// (core/memory): the user's requests, the files changed and the commands
// run, read from the transcript (Claude Code's or a Codex rollout) since
// its last compaction. Nothing is summarized by a model; it is what
// happened. The same record saved twice (a second compaction with nothing
// new) is kept once.
func (h *handler) preCompact(ctx context.Context) error {
	if h.in.TranscriptPath == "" {
		return errors.New("PreCompact: the payload names no transcript")
	}
	f, err := store.OpenRegular(h.in.TranscriptPath)
	if err != nil {
		return err
	}
	defer f.Close()
	d, err := readDigest(f)
	if err != nil {
		return fmt.Errorf("%s: %w", h.in.TranscriptPath, err)
	}
	now := h.env.now().UTC()
	in := memory.Input{
		Type:    memory.TypeSnapshot,
		Summary: fmt.Sprintf("Before compaction: %s, %s changed, %s run", plural(len(d.requests), "request"), plural(len(d.files), "file"), plural(len(d.commands), "command")),
		Tags:    []string{"pre-compaction"},
		Content: h.renderRecord(d, now),
		Created: now,
	}
	if h.in.Trigger != "" {
		in.Tags = append(in.Tags, h.in.Trigger)
	}
	if validSessionID(h.in.SessionID) {
		in.Session = h.in.SessionID
	}
	st, _ := memory.Configured(h.root, h.cfg.Memory) // rubi.hcl's size limit
	_, err = st.Save(ctx, in)
	return err
}

// renderRecord writes a record as markdown, files as wiki-links like the
// knowledge notes' so the graph tools see them.
func (h *handler) renderRecord(d *digest, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Before compaction, %s\n", now.Format("2006-01-02 15:04 UTC"))
	section := func(title string, items []string, limit int, format func(string) string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		if len(items) > limit {
			fmt.Fprintf(&b, "(the last %d of %d)\n\n", limit, len(items))
			items = items[len(items)-limit:]
		}
		for _, it := range items {
			fmt.Fprintf(&b, "- %s\n", format(it))
		}
	}
	section("Requests", d.requests, recordRequests, func(s string) string { return s })
	section("Files changed", d.files, recordFiles, func(s string) string { return "[[" + h.relative(s) + "]]" })
	section("Commands", d.commands, recordCommands, func(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" })
	if len(d.requests)+len(d.files)+len(d.commands) == 0 {
		b.WriteString("\nNo requests, file changes or commands since the last compaction.\n")
	}
	return b.String()
}

// plural writes n and a noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// relative writes a path relative to the project when it is inside it.
func (h *handler) relative(p string) string {
	if filepath.IsAbs(p) {
		if rel, err := filepath.Rel(h.root, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// readDigest streams a transcript and keeps what happened since its last
// compaction. Lines past recordMaxLine are skipped unread; lines that are
// not JSON (a truncated last line) are ignored.
func readDigest(r io.Reader) (*digest, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var p fastjson.Parser
	d := &digest{}
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(line)+len(chunk) <= recordMaxLine {
				line = append(line, chunk...)
			} else {
				line = line[:0]
				if err := skipLine(br); err != nil {
					return d, nil
				}
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		}
		if len(line) > 0 {
			line = append(line, chunk...)
			d.line(&p, line)
			line = line[:0]
		} else {
			d.line(&p, chunk)
		}
		if err != nil {
			return d, nil
		}
	}
}

// skipLine reads past the rest of an overlong line.
func skipLine(br *bufio.Reader) error {
	for {
		_, err := br.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// line reads one transcript line into the digest.
func (d *digest) line(p *fastjson.Parser, b []byte) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Contains(b, []byte(`"tool_result"`)) || bytes.Contains(b, []byte(`"function_call_output"`)) {
		return // tool outputs: large, and not what a record keeps
	}
	v, err := p.ParseBytes(b)
	if err != nil {
		return
	}
	switch string(v.GetStringBytes("type")) {
	case "system":
		if string(v.GetStringBytes("subtype")) == "compact_boundary" {
			d.reset()
		}
	case "user":
		if v.GetBool("isMeta") || v.GetBool("isCompactSummary") {
			return
		}
		content := v.Get("message", "content")
		if content == nil {
			d.geminiRequest(v.Get("content"))
			return
		}
		if s, err := content.StringBytes(); err == nil {
			d.request(string(s))
			return
		}
		for _, c := range content.GetArray() {
			if string(c.GetStringBytes("type")) == "text" {
				d.request(string(c.GetStringBytes("text")))
			}
		}
	case "assistant":
		for _, c := range v.GetArray("message", "content") {
			if string(c.GetStringBytes("type")) != "tool_use" {
				continue
			}
			in := c.Get("input")
			switch string(c.GetStringBytes("name")) {
			case "Edit", "Write", "MultiEdit":
				d.file(string(in.GetStringBytes("file_path")))
			case "NotebookEdit":
				d.file(string(in.GetStringBytes("notebook_path")))
			case "Bash":
				d.command(string(in.GetStringBytes("command")))
			}
		}
	case "gemini":
		d.geminiCalls(v.GetArray("toolCalls"))
	case "compacted":
		d.reset() // a Codex rollout's compaction
	case "response_item":
		d.codexItem(v.Get("payload"))
	}
}

// codexItem reads a Codex rollout's response item.
func (d *digest) codexItem(pl *fastjson.Value) {
	if pl == nil {
		return
	}
	switch string(pl.GetStringBytes("type")) {
	case "message":
		if string(pl.GetStringBytes("role")) != "user" {
			return
		}
		for _, c := range pl.GetArray("content") {
			t := string(c.GetStringBytes("text"))
			if string(c.GetStringBytes("type")) == "input_text" && !strings.HasPrefix(strings.TrimSpace(t), "<") {
				d.request(t) // <environment_context> and the like are the harness's
			}
		}
	case "function_call":
		var args fastjson.Parser
		a, err := args.Parse(string(pl.GetStringBytes("arguments")))
		if err != nil {
			return
		}
		switch string(pl.GetStringBytes("name")) {
		case "exec_command", "shell", "container.exec":
			if s := a.GetStringBytes("cmd"); s != nil {
				d.command(string(s))
			} else if arr := a.GetArray("command"); len(arr) > 0 {
				parts := make([]string, len(arr))
				for i, x := range arr {
					parts[i] = string(x.GetStringBytes())
				}
				d.command(strings.Join(parts, " "))
			}
		}
	case "custom_tool_call":
		if string(pl.GetStringBytes("name")) == "apply_patch" {
			for _, m := range patchFile().FindAllStringSubmatch(string(pl.GetStringBytes("input")), -1) {
				d.file(strings.TrimSpace(m[1]))
			}
		}
	}
}

// patchFile finds the files an apply_patch input changes.
var patchFile = lazyRegexp(`(?m)^\*\*\* (?:Update|Add|Delete) File: (.+)$`)

// oneLine flattens s to one line of at most recordLineCut characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > recordLineCut {
		s = string(r[:recordLineCut]) + "…"
	}
	return s
}

// geminiRequest reads a Gemini CLI chat's user message: text parts are
// the request, except the session context Gemini CLI sends first; tool
// results (functionResponse parts) are not.
func (d *digest) geminiRequest(content *fastjson.Value) {
	for _, c := range content.GetArray() {
		text := string(c.GetStringBytes("text"))
		if text != "" && !strings.HasPrefix(text, "<session_context>") {
			d.request(text)
		}
	}
}

// geminiCalls reads a Gemini CLI model message's tool calls: the files
// written or edited, and the shell commands run.
func (d *digest) geminiCalls(calls []*fastjson.Value) {
	for _, c := range calls {
		args := c.Get("args")
		switch string(c.GetStringBytes("name")) {
		case "write_file", "replace":
			d.file(string(args.GetStringBytes("file_path")))
		case "run_shell_command":
			d.command(string(args.GetStringBytes("command")))
		}
	}
}
