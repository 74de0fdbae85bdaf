package agents

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubi-dev/rubi"
)

// rubi's personal configuration (core/config.UserConfigPath) records the
// personal vault as its `vault` attribute. It is edited with hclwrite, which
// changes that attribute's tokens and keeps every other byte: comments,
// blocks, layout.

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
	data, err := os.ReadFile(path)
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

func parseHCL(src []byte, path string) (*hclwrite.File, error) {
	f, diags := hclwrite.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	return f, nil
}

// attrString evaluates a top-level attribute that must be a plain string.
func attrString(f *hclwrite.File, name, path string) (string, bool, error) {
	attr := f.Body().GetAttribute(name)
	if attr == nil {
		return "", false, nil
	}
	expr, diags := hclsyntax.ParseExpression(attr.Expr().BuildTokens(nil).Bytes(), path, hcl.InitialPos)
	if diags.HasErrors() {
		return "", true, diagError(diags)
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", true, fmt.Errorf("%s: %s is not a plain string", path, name)
	}
	return v.AsString(), true, nil
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
	f, err := parseHCL(st.data, st.path)
	if err != nil {
		return fileChange{}, err
	}
	cur, had, err := attrString(f, "vault", st.path)
	if err == nil && had && cur == vault {
		return fileChange{data: st.data}, nil
	}
	if !had {
		// A new attribute goes at the end, after a blank line, with a
		// comment that says where it came from (the undo removes both).
		if len(st.data) > 0 && !bytes.HasSuffix(st.data, []byte("\n")) {
			f.Body().AppendNewline()
		}
		if len(bytes.TrimSpace(st.data)) > 0 {
			f.Body().AppendNewline()
		}
		f.Body().AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(vaultComment + "\n")}})
	}
	f.Body().SetAttributeValue("vault", cty.StringVal(vault))
	line := fmt.Sprintf("vault = %q", vault)
	if had && err == nil {
		line += fmt.Sprintf(" (was %q)", cur)
	}
	return fileChange{data: f.Bytes(), changes: []string{line}}, nil
}

// unsetVault puts back the vault the backup had, or removes it; a file
// rubi created and that holds nothing else is removed.
func unsetVault(st fileState) (fileChange, error) {
	if !st.hasBackup || !st.exists {
		return fileChange{data: st.data, remove: !st.exists}, nil
	}
	f, err := parseHCL(st.data, st.path)
	if err != nil {
		return fileChange{}, err
	}
	backup, err := parseHCL(st.backup, st.path+BackupSuffix)
	if err != nil {
		return fileChange{}, fmt.Errorf("%w\n(the backup is unreadable: remove rubi's vault from %s by hand)", err, st.path)
	}
	before := backup.Body().GetAttribute("vault")
	cur := f.Body().GetAttribute("vault")
	var lines []string
	switch {
	case before != nil:
		if cur == nil || !bytes.Equal(bytes.TrimSpace(cur.Expr().BuildTokens(nil).Bytes()), bytes.TrimSpace(before.Expr().BuildTokens(nil).Bytes())) {
			f.Body().SetAttributeRaw("vault", before.Expr().BuildTokens(nil))
			lines = append(lines, "vault: restored to "+string(bytes.TrimSpace(before.Expr().BuildTokens(nil).Bytes())))
		}
	case cur != nil:
		f.Body().RemoveAttribute("vault")
		lines = append(lines, "vault: removed")
	}
	out := f.Bytes()
	if len(lines) > 0 && bytes.HasSuffix(out, []byte("\n\n")) {
		// the blank line install put before the attribute
		out = append(bytes.TrimRight(out, "\n"), '\n')
	}
	if len(st.backup) == 0 && len(bytes.TrimSpace(out)) == 0 {
		return fileChange{remove: true, changes: lines}, nil
	}
	return fileChange{data: out, changes: lines}, nil
}
