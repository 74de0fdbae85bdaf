# rubi itself needs only `go install ./cmd/...` (pure Go, CGO_ENABLED=0),
# which builds rubi, rubi-hook and rubi-mcp (the MCP server rubi mcp runs).
# This file builds what needs more: the tree-sitter parser plugin, a cgo
# binary in its own module (plugins/lang-treesitter), which a project swaps
# in through rubi.hcl (parser "lang.treesitter" { plugin = "..." }).

BIN ?= bin

.PHONY: plugins install-plugins test-plugins fuzz

# bin/rubi-lang-treesitter, next to the other binaries of this checkout.
plugins:
	cd plugins/lang-treesitter && go build -o $(abspath $(BIN))/rubi-lang-treesitter .

# Beside rubi in $(go env GOPATH)/bin, where rubi looks for a plugin that
# is neither at its configured path nor on PATH.
install-plugins:
	cd plugins/lang-treesitter && go build -o "$$(go env GOPATH)/bin/rubi-lang-treesitter" .

test-plugins:
	cd plugins/lang-treesitter && go vet ./... && go test ./...

# Every fuzz target for five minutes each (scripts/fuzz.sh; CI runs them
# for seconds). A crash leaves its input under the package's
# testdata/fuzz/, a regression test from then on.
fuzz:
	FUZZTIME=5m scripts/fuzz.sh
