package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
)

// preToolUse is the read guard: a full read of a file over the limits
// (hooks.read_guard_lines lines or hooks.read_guard_bytes bytes) is denied
// the first time in a session, with a pointer to Grep or offset/limit. The
// agent that asks again gets the file: the guard teaches, it does not
// forbid.
func (h *handler) preToolUse(ctx context.Context) (Output, error) {
	path := h.fullRead()
	if path == "" {
		return Output{}, nil
	}
	maxLines, maxBytes := h.cfg.Hooks.ReadGuardLines, h.cfg.Hooks.ReadGuardBytes
	if maxLines <= 0 && maxBytes <= 0 {
		return Output{}, nil
	}
	size, lines, over, err := measure(path, maxLines, maxBytes)
	if err != nil || !over {
		return Output{}, nil // a file that cannot be read is the tool's to report
	}
	first := false
	_, err = h.updateState(ctx, func(st *sessionState) {
		if !slices.Contains(st.Denied, path) {
			st.Denied = append(st.Denied, path)
			first = true
		}
	})
	if errors.Is(err, errNoSession) {
		return Output{}, nil
	}
	if err != nil || !first {
		return Output{}, err
	}
	shown := filepath.ToSlash(path)
	if rel, err := filepath.Rel(h.root, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = filepath.ToSlash(rel)
	}
	what := fmt.Sprintf("%d KB", (size+1023)/1024)
	if lines > 0 {
		what = h.lang.Format(messages.HookGuardLines, lines, what)
	}
	how := messages.HookGuardRead
	if h.in.ToolName == "read_file" { // Gemini CLI's
		how = messages.HookGuardReadFile
	}
	if h.in.ToolName != "Read" && h.in.ToolName != "read_file" {
		how = messages.HookGuardShell
	}
	return Output{Deny: h.lang.Format(messages.HookGuard, shown, what, h.lang.Format(how, shown))}, nil
}

// fullRead returns the absolute path of the file a tool call reads whole,
// or "": Read without offset or limit, or a shell command that is a lone
// `cat FILE`.
func (h *handler) fullRead() string {
	t := h.in.tool()
	var p string
	switch h.in.ToolName {
	case "Read", "read_file":
		if set(t.Offset) || set(t.Limit) || set(t.StartLine) || set(t.EndLine) {
			return ""
		}
		p = t.FilePath
		if p == "" {
			p = t.Path
		}
	case "Bash", "shell", "exec_command", "run_shell_command":
		f := strings.Fields(t.command())
		if len(f) != 2 || f[0] != "cat" || strings.HasPrefix(f[1], "-") || strings.ContainsAny(f[1], "|;&<>*?$`") {
			return ""
		}
		p = strings.Trim(f[1], `'"`)
	default:
		return ""
	}
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := h.in.CWD
		if base == "" {
			base = h.root
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// measure reports whether the file at path is over either limit. Its
// lines are counted only when its size is under the byte limit (so the
// count never reads more than that many bytes); lines is 0 otherwise.
func measure(path string, maxLines, maxBytes int) (size int64, lines int, over bool, err error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return 0, 0, false, err
	}
	defer f.Close()
	st, err := f.Stat() // a regular file: OpenRegular refused the rest
	if err != nil {
		return 0, 0, false, err
	}
	size = st.Size()
	if maxBytes > 0 && size > int64(maxBytes) {
		return size, 0, true, nil
	}
	if maxLines <= 0 {
		return size, 0, false, nil
	}
	buf := make([]byte, 64<<10)
	var last byte = '\n'
	for {
		n, rerr := f.Read(buf)
		lines += bytes.Count(buf[:n], []byte{'\n'})
		if n > 0 {
			last = buf[n-1]
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return size, 0, false, rerr
		}
	}
	if last != '\n' {
		lines++ // a last line without its newline
	}
	return size, lines, lines > maxLines, nil
}
