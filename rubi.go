// Package rubi is the root of rubi, a knowledge graph and context manager
// for AI coding agents. The engine lives in core/, the built-in stages in
// plugins/; what faces the agents sits above it in agent/ (the hooks, the
// MCP server, the connectors, the token X-ray and audit, and the Claude
// Code plugin's files); the commands are in internal/cli (cmd/rubi runs
// them). This package only carries what must sit at the top of the
// repository.
package rubi

import _ "embed"

// DefaultConfig is the repository's rubi.hcl: the documented default
// pipeline, which every other configuration layer overrides.
//
//go:embed rubi.hcl
var DefaultConfig []byte

// Version is rubi's version, overridden at build time with
// -ldflags "-X github.com/rubi-dev/rubi.Version=...".
var Version = "0.1.0-dev"
