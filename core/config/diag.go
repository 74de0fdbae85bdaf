package config

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core/store"
)

// Suggest returns the name in candidates the user most likely meant: one
// within two edits (a typo), or else one that contains every word of given
// (max_size for max_file_size).
func Suggest(given string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := levenshtein.Distance(given, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" {
		return best
	}
	for _, c := range candidates {
		words := strings.Split(given, "_")
		all := len(words) > 1
		for _, w := range words {
			all = all && w != "" && strings.Contains(c, w)
		}
		if all {
			return c
		}
	}
	return ""
}

// WriteDiagnostics prints diagnostics one per block, compiler style:
//
//	rubi.hcl:12:3: error: Unsupported argument
//	  An argument named "k3" is not expected in ranker "rank.bm25". Did you mean "k1"?
//	  12 |   k3 = 1.2
//
// files (Config.Files) supplies the source lines; a file it lacks is read
// from disk.
func WriteDiagnostics(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) {
	for _, d := range diags {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		if d.Subject != nil {
			fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, sev, d.Summary)
		} else {
			fmt.Fprintf(w, "rubi: %s: %s\n", sev, d.Summary)
		}
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", d.Detail)
		}
		if d.Subject == nil {
			continue
		}
		var src []byte
		if f, ok := files[d.Subject.Filename]; ok {
			src = f.Bytes
		} else {
			src, _ = store.ReadRegular(d.Subject.Filename, MaxFileSize)
		}
		if line := sourceLine(src, d.Subject.Start.Line); line != "" {
			fmt.Fprintf(w, "  %d | %s\n", d.Subject.Start.Line, line)
		}
	}
}

func sourceLine(src []byte, n int) string {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.TrimRight(sc.Text(), " \t")
		}
	}
	return ""
}

// LoadError is a configuration that does not load: its diagnostics, the
// errors among them, written as WriteDiagnostics writes them.
type LoadError struct {
	Diags hcl.Diagnostics
}

func (e *LoadError) Error() string {
	var b strings.Builder
	WriteDiagnostics(&b, nil, e.Diags)
	return strings.TrimSpace(b.String())
}

// LoadChecked is Load for a program that has no terminal to print
// diagnostics on (a hook, a server, a background index): a configuration
// with errors is a *LoadError, which says each with its file and line;
// warnings are dropped.
func LoadChecked(opts Options) (*Config, error) {
	cfg, diags := Load(opts)
	if diags.HasErrors() {
		return nil, &LoadError{Diags: diags}
	}
	return cfg, nil
}
