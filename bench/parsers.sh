#!/usr/bin/env bash
# Parser benchmark: lang.regex (built in) against lang.treesitter (the cgo
# plugin) on a real corpus, in one run:
#   1. rubi index with each parser for every language the plugin handles:
#      symbols, imports and how many resolve (rubi index --json);
#   2. parse throughput in MB/s, a worker per core, batches of ~2 MiB:
#      lang.regex and lang.treesitter, each in-process and over the plugin
#      protocol; lang.regex over RPC minus in-process is the protocol's own
#      cost (plugins/lang-treesitter/corpus_test.go).
#
#   bench/parsers.sh [MODULE@VERSION | DIR]
#
# The corpus is a Go module from the module proxy (default
# k8s.io/kubernetes@v1.31.0) or a directory (an npm package, a Debian
# source tree). Needs jq (Debian: jq) and a C compiler for the plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-k8s.io/kubernetes@v1.31.0}
command -v jq >/dev/null || { apt-get install -y jq >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y jq >/dev/null; }; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/rubi" ./cmd/rubi
make plugins BIN="$work" >/dev/null
go build -o "$work/rubi-lang-regex" ./plugins/lang-regex/cmd/rubi-lang-regex
tree="$work/tree"
if [ -d "$corpus" ]; then
  cp -r "$corpus" "$tree" && chmod -R u+w "$tree"
else # a module from the Go module proxy (the module cache keeps it)
  dl=$(mktemp -d)
  src=$(cd "$dl" && go mod init dl >/dev/null 2>&1 && GOFLAGS=-mod=mod go mod download -json "$corpus" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  rm -rf "$dl"
  [ -n "$src" ] || { echo "cannot download $corpus" >&2; exit 1; }
  cp -r "$src" "$tree" && chmod -R u+w "$tree"
fi
echo "corpus: $corpus ($(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1)), $(nproc) cores, $(date -u +%Y-%m-%d)"

langs='["c", "cpp", "go", "java", "javascript", "python", "ruby", "rust", "typescript"]'
cat > "$work/treesitter.hcl" <<HCL
parser "lang.treesitter" {
  plugin    = "$work/rubi-lang-treesitter"
  languages = $langs
  timeout   = "120s"
}
HCL

summary() { # the index's figures for the plugin's languages, one line each
  jq -r --argjson langs "$langs" '
    . as $s | $langs[] | select($s.languages[.] != null) as $l |
    "\($l)\tfiles \($s.languages[$l])\tresolved \($s.resolution.resolved[$l] // 0)\tunresolved \($s.resolution.unresolved[$l] // 0)\texternal \($s.resolution.external[$l] // 0)"' "$1"
  jq -r '"all\tsymbols \(.symbols)\timports \(.imports)\timport edges \(.import_edges)\tindex \(.duration_ms/1000 | . * 10 | round / 10) s\tproblems \(.problems // [] | length)"' "$1"
}
for p in regex treesitter; do
  rm -rf "$tree/.rubi"
  extra=()
  [ "$p" = treesitter ] && extra=(--config "$work/treesitter.hcl")
  "$work/rubi" index --full --json --root "$tree" "${extra[@]}" > "$work/$p.json"
  echo "== rubi index with lang.$p"
  summary "$work/$p.json"
done

echo "== parse throughput"
(cd plugins/lang-treesitter &&
  RUBI_BENCH_CORPUS="$tree" RUBI_BENCH_PLUGIN="$work/rubi-lang-treesitter" RUBI_BENCH_REGEX_PLUGIN="$work/rubi-lang-regex" \
    go test -run CorpusThroughput -v -timeout 30m . 2>&1 | grep -v '^=== \|^--- \|^PASS\|^ok' | sed 's/^ *corpus_test.go:[0-9]*: //')
