# rubi itself needs only `go install ./cmd/...` (pure Go, CGO_ENABLED=0),
# which builds its four programs: rubi, rubi-hook (the agents' hooks),
# rubi-mcp (the MCP server rubi mcp runs) and rubi-full (rubi with the
# plugin transport, which rubi runs when a project names a plugin).
# This file builds what needs more: the tree-sitter parser plugin, a cgo
# binary in its own module (plugins/lang-treesitter), which a project swaps
# in through rubi.hcl (parser "lang.treesitter" { plugin = "..." }).

BIN ?= bin

.PHONY: test plugins install-plugins test-plugins fuzz mcpb snapshot

# Every test, on a fresh clone with only Go and the system's package
# manager: scripts/test.sh installs what the tests need where it is
# missing (python3-yaml, nodejs and npm, gcc, graphviz and chromium:
# Debian packages; the npm packages the tests drive, at their lock
# files' versions; gopls, pinned, from the Go module proxy into
# testdata/gopls/bin), then runs go
# test ./..., the benchmarks' tests (bench/, their own module) and the
# tree-sitter plugin's tests. Node.js 22, which the
# pinned Claude Code CLI wants, comes from npm (testdata/node, the official
# build pinned, put first on PATH for the tests) where the system's is
# older: Debian bookworm's nodejs is 18 and Debian has no newer one.
# Each package's line shows as it ends, each go test has its own
# -timeout, and every tool keeps its state in a temporary HOME (the Go
# and npm caches stay yours). The run fails if a test wrote into the
# checkout or into your HOME, or left anything (a plugin's socket) in its
# temporary folder. What it needs in disk and network: README.md. ARGS go
# to go test: make test ARGS='-run TestConnect -count=1'.
test:
	scripts/test.sh $(ARGS)

# dist/rubi.mcpb, the Claude Desktop extension (an MCP Bundle: manifest.json
# and rubi-mcp as stripped static binaries for macOS arm64/amd64, Windows
# amd64 and Linux amd64/arm64, about 41 MB), and beside it dist/rubi/, the
# folder it zips. Only Go is needed; internal/mcpb's test checks the bundle
# with the official tool (@anthropic-ai/mcpb). MCPB_ARGS go to the builder:
# make mcpb MCPB_ARGS='-targets host'.
mcpb:
	go run ./internal/mcpb -o dist/rubi.mcpb $(MCPB_ARGS)

# The release archives, built locally as a snapshot (nothing published):
# dist/release/rubi_<version>_<os>_<arch>.tar.gz (.zip for Windows), one
# per platform (linux, darwin, windows × amd64, arm64), each with rubi,
# rubi-hook, rubi-mcp, rubi-full and README.md, and
# dist/release/rubi_<version>_checksums.txt (sha256), by GoReleaser with
# .goreleaser.yaml; the version is rubi.go's, then -SNAPSHOT-<commit>
# (-SNAPSHOT-none in a checkout with no git remote: GoReleaser then drops
# all its git facts, the commit and its date).
# --clean empties dist/release/ only (make mcpb's dist/rubi.mcpb stays).
# GoReleaser, pinned, is installed on first use from the Go module proxy
# into ~/.cache/rubi/goreleaser-v2.15.1/ ($XDG_CACHE_HOME's rubi/ when
# set; GORELEASER_DIR=... elsewhere), outside the checkout. It is a big
# module: about 17 min on 2 cores with a cold Go module and build cache
# (1.9 GB of modules), seconds once cached. .ci/run installs it with the
# same rule.
GORELEASER_VERSION = v2.15.1
GORELEASER_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rubi/goreleaser-$(GORELEASER_VERSION)
GORELEASER = $(GORELEASER_DIR)/goreleaser

snapshot: $(GORELEASER)
	$(GORELEASER) release --snapshot --clean

$(GORELEASER):
	GOBIN="$(GORELEASER_DIR)" go install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

# bin/rubi-lang-treesitter, next to the other binaries of this checkout.
plugins:
	cd plugins/lang-treesitter && go build -o $(abspath $(BIN))/rubi-lang-treesitter .

# Beside rubi in $(go env GOPATH)/bin, where rubi looks for a plugin that
# is neither at its configured path nor on PATH.
install-plugins:
	cd plugins/lang-treesitter && go build -o "$$(go env GOPATH)/bin/rubi-lang-treesitter" .

test-plugins:
	cd plugins/lang-treesitter && go vet ./... && go test ./...

# Every fuzz target for five minutes each, two at a time, every package
# instrumented (scripts/fuzz.sh; CI runs them
# for seconds). A crash leaves its input under the package's
# testdata/fuzz/, a regression test from then on.
fuzz:
	FUZZTIME=5m scripts/fuzz.sh
