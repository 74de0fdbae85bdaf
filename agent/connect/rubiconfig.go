package connect

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/store"
)

// rubi's personal configuration (core/config.UserConfigPath) records the
// personal vault as its `vault` attribute. It is edited in place: hclsyntax
// parses the file and gives the attribute's byte ranges, and only those
// bytes change; every other byte stays: comments, blocks, layout. (hclwrite
// would do it too, but it brings go-cmp, whose initialization compiles a
// regular expression on every start of rubi, about 2 ms.)

// vaultComment introduces the vault attribute install adds.
const vaultComment = "# The personal vault: notes that follow you across projects (rubi install)."

// DefaultVault is the vault of rubi's built-in configuration (rubi.hcl).
func DefaultVault() string {
	v, _, err := vaultOf(rubi.DefaultConfig, "(built-in defaults)/rubi.hcl")
	if err != nil {
		panic(err) // the embedded defaults are tested
	}
	return v
}

// ConfiguredVault returns the vault the personal configuration at path
// sets, or "" when it sets none (or does not exist).
func ConfiguredVault(path string) (string, error) {
	data, err := store.ReadRegular(path, maxAgentFile)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	v, _, err := vaultOf(data, path)
	return v, err
}

// vaultOf reads the vault attribute of a configuration file: its string
// value and whether it is set.
func vaultOf(src []byte, path string) (string, bool, error) {
	f, err := parseHCL(src, path)
	if err != nil {
		return "", false, err
	}
	return attrString(f, "vault", path)
}

func parseHCL(src []byte, path string) (*hclsyntax.Body, error) {
	if diags := config.CheckShape(path, src); diags.HasErrors() {
		return nil, diagError(diags)
	}
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	return f.Body.(*hclsyntax.Body), nil
}

// attrString evaluates a top-level attribute that must be a plain string.
func attrString(body *hclsyntax.Body, name, path string) (string, bool, error) {
	attr, ok := body.Attributes[name]
	if !ok {
		return "", false, nil
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", true, fmt.Errorf("%s: %s is not a plain string", path, name)
	}
	return v.AsString(), true, nil
}

// exprBytes is the source of an attribute's value.
func exprBytes(src []byte, attr *hclsyntax.Attribute) []byte {
	r := attr.Expr.Range()
	return src[r.Start.Byte:r.End.Byte]
}

// replaceExpr gives the attribute the value expr, written as it is.
func replaceExpr(src []byte, attr *hclsyntax.Attribute, expr []byte) []byte {
	r := attr.Expr.Range()
	return slices.Concat(src[:r.Start.Byte], expr, src[r.End.Byte:])
}

// appendAttr adds `name = expr` on a line of its own at the end.
func appendAttr(src []byte, name string, expr []byte) []byte {
	out := slices.Clone(src)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, name+" = "...)
	out = append(out, expr...)
	return append(out, '\n')
}

// removeAttr takes out the attribute's lines and the comment lines right
// above it, which describe it.
func removeAttr(src []byte, attr *hclsyntax.Attribute) []byte {
	start := bytes.LastIndexByte(src[:attr.SrcRange.Start.Byte], '\n') + 1
	for start > 0 {
		prev := bytes.LastIndexByte(src[:start-1], '\n') + 1
		line := bytes.TrimSpace(src[prev : start-1])
		if !bytes.HasPrefix(line, []byte("#")) && !bytes.HasPrefix(line, []byte("//")) {
			break
		}
		start = prev
	}
	end := len(src)
	if k := bytes.IndexByte(src[attr.SrcRange.End.Byte:], '\n'); k >= 0 {
		end = attr.SrcRange.End.Byte + k + 1
	}
	return slices.Concat(src[:start], src[end:])
}

// hclString writes s as an HCL string literal: quoted, with the escapes
// HCL knows, and template sequences ("${", "%{") doubled to stay literal.
func hclString(s string) []byte {
	b := []byte{'"'}
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b = append(b, byte(r), byte(r))
		case r < 0x20 || r == 0x7f:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// diagError renders HCL diagnostics as file:line:col: summary; detail.
func diagError(diags hcl.Diagnostics) error {
	var lines []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		line := d.Summary
		if d.Detail != "" {
			line += "; " + d.Detail
		}
		if d.Subject != nil {
			line = fmt.Sprintf("%s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, line)
		}
		lines = append(lines, line)
	}
	return errors.New(strings.Join(lines, "\n"))
}

// NormalizeVault turns what a user typed for the vault into what the
// configuration records: ~/... stays as it is (rubi expands it when it
// reads the configuration, so the file follows the user across machines),
// anything else becomes an absolute path.
func NormalizeVault(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return "", errors.New("the vault path is empty")
	case v == "~":
		return "~/", nil
	case strings.HasPrefix(v, "~/"):
		rest := filepath.ToSlash(filepath.Clean(strings.TrimPrefix(v, "~/")))
		if rest == "." {
			return "~/", nil
		}
		if rest == ".." || strings.HasPrefix(rest, "../") {
			return "", fmt.Errorf("vault %s: outside the home directory; give an absolute path", v)
		}
		return "~/" + rest, nil
	case strings.HasPrefix(v, "~"):
		return "", fmt.Errorf("vault %s: only ~/ (your home) is expanded; give an absolute path", v)
	}
	return filepath.Abs(v)
}

// ExpandVault is the directory a vault setting names (~/ expanded).
func ExpandVault(v string) (string, error) {
	rest, ok := strings.CutPrefix(v, "~/")
	if !ok {
		return v, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, rest), nil
}

// setVault records vault in the personal configuration.
func setVault(st fileState, vault string) (fileChange, error) {
	body, err := parseHCL(st.data, st.path)
	if err != nil {
		return fileChange{}, err
	}
	cur, had, err := attrString(body, "vault", st.path)
	if err == nil && had && cur == vault {
		return fileChange{data: st.data}, nil
	}
	var out []byte
	if had {
		out = replaceExpr(st.data, body.Attributes["vault"], hclString(vault))
	} else {
		// A new attribute goes at the end, after a blank line, with a
		// comment that says where it came from (the undo removes both).
		out = slices.Clone(st.data)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		if len(bytes.TrimSpace(out)) > 0 {
			out = append(out, '\n')
		}
		out = appendAttr(append(out, vaultComment+"\n"...), "vault", hclString(vault))
	}
	line := fmt.Sprintf("vault = %q", vault)
	if had && err == nil {
		line += fmt.Sprintf(" (was %q)", cur)
	}
	return fileChange{data: out, changes: []string{line}}, nil
}

// unsetVault puts back the vault the backup had, or removes it; a file
// rubi created and that holds nothing else is removed.
func unsetVault(st fileState) (fileChange, error) {
	if !st.hasBackup || !st.exists {
		return fileChange{data: st.data, remove: !st.exists}, nil
	}
	body, err := parseHCL(st.data, st.path)
	if err != nil {
		return fileChange{}, err
	}
	backup, err := parseHCL(st.backup, st.backupPath)
	if err != nil {
		return fileChange{}, fmt.Errorf("%w\n(the backup is unreadable: remove rubi's vault from %s by hand)", err, st.path)
	}
	before := backup.Attributes["vault"]
	cur := body.Attributes["vault"]
	out := st.data
	var lines []string
	switch {
	case before != nil:
		was := exprBytes(st.backup, before)
		switch {
		case cur == nil:
			out = appendAttr(out, "vault", was)
		case !bytes.Equal(exprBytes(st.data, cur), was):
			out = replaceExpr(out, cur, was)
		default:
			was = nil
		}
		if was != nil {
			lines = append(lines, "vault: restored to "+string(was))
		}
	case cur != nil:
		out = removeAttr(out, cur)
		lines = append(lines, "vault: removed")
	}
	if len(lines) > 0 && bytes.HasSuffix(out, []byte("\n\n")) {
		// the blank line install put before the attribute
		out = append(bytes.TrimRight(out, "\n"), '\n')
	}
	if len(st.backup) == 0 && len(bytes.TrimSpace(out)) == 0 {
		return fileChange{remove: true, changes: lines}, nil
	}
	return fileChange{data: out, changes: lines}, nil
}
