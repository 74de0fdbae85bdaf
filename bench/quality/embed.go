package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
)

// embedOptions are the -embed-* flags: when an endpoint is given, the
// run adds a system "rubi + rank-embed", the full pipeline with the
// example plugin examples/rank-embed beside it.
type embedOptions struct {
	Endpoint       string `json:"endpoint"`
	Model          string `json:"model"`
	QueryPrefix    string `json:"query_prefix,omitempty"`
	DocumentPrefix string `json:"document_prefix,omitempty"`
	// Plugin is the binary the run built.
	Plugin string `json:"-"`
}

// embedRanker is the plugin's stage name.
const embedRanker = "rank.embed"

// buildEmbed builds examples/rank-embed into work/bin.
func buildEmbed(ctx context.Context, root, work string) (string, error) {
	bin := filepath.Join(work, "bin", "rubi-rank-embed")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./examples/rank-embed")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./examples/rank-embed: %v\n%s", err, out)
	}
	return bin, nil
}

// layer is the rubi.hcl block that adds rank.embed. Its timeout covers
// embedding a whole module on first index.
func (o *embedOptions) layer() string {
	return fmt.Sprintf("ranker %q {\n  plugin = %s\n  endpoint = %s\n  model = %s\n  query_prefix = %s\n  document_prefix = %s\n  timeout = \"2h\"\n}\n",
		embedRanker, strconv.Quote(o.Plugin), strconv.Quote(o.Endpoint), strconv.Quote(o.Model), strconv.Quote(o.QueryPrefix), strconv.Quote(o.DocumentPrefix))
}

// embedVariant is the full pipeline (the rankers of full) with rank.embed
// added.
func embedVariant(full variant, o *embedOptions) variant {
	return variant{Rankers: append(slices.Clone(full.Rankers), embedRanker), Roles: []string{"full + rank.embed"}, Config: o.layer()}
}
