# Sourced by the benchmark scripts: fetch_corpus MODULE@VERSION DEST copies
# a module from the Go module proxy into DEST (writable) and prints nothing.
# The module cache keeps it for the next run.
fetch_corpus() {
  local module=$1 dest=$2 dl src
  dl=$(mktemp -d)
  src=$(cd "$dl" && go mod init dl >/dev/null 2>&1 && GOFLAGS=-mod=mod go mod download -json "$module" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  rm -rf "$dl"
  [ -n "$src" ] || { echo "cannot download $module" >&2; return 1; }
  cp -r "$src" "$dest" && chmod -R u+w "$dest"
}
