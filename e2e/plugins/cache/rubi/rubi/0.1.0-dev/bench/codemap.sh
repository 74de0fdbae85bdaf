#!/usr/bin/env bash
# Code-map benchmark: rubi's index on a real repository beside rg scanning
# the same tree for import-like lines, in one run. Prints the median and
# the spread of each measure and rubi's peak RSS.
#
#   bench/codemap.sh [MODULE@VERSION] [RUNS]
#
# The corpus comes from the Go module proxy (default k8s.io/kubernetes@v1.31.0,
# ~8,000 files, 106 MB). Needs rg (Debian: ripgrep) and GNU time (Debian:
# time); the script installs them with apt-get when missing and it may.
set -euo pipefail
cd "$(dirname "$0")/.."
module=${1:-k8s.io/kubernetes@v1.31.0}
runs=${2:-5}

for tool in rg:ripgrep /usr/bin/time:time; do
  bin=${tool%%:*} pkg=${tool##*:}
  if ! command -v "$bin" >/dev/null; then
    apt-get install -y "$pkg" >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y "$pkg" >/dev/null; }
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/rubi" ./cmd/rubi
dl=$(mkdir -p "$work/dl" && cd "$work/dl" && go mod init dl >/dev/null 2>&1 && GOFLAGS=-mod=mod go mod download -json "$module")
src=$(printf '%s' "$dl" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
tree="$work/tree"
cp -r "$src" "$tree" && chmod -R u+w "$tree"
files=$(find "$tree" -type f | wc -l)
size=$(du -sh "$tree" | cut -f1)

# measure NAME CMD...: runs CMD $runs times; records seconds and peak KB.
declare -A secs kb
measure() {
  local name=$1; shift
  local out
  for _ in $(seq "$runs"); do
    [ -n "${before:-}" ] && eval "$before"
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1
    out=$(tail -1 "$work/time")
    secs[$name]+="${out%% *} " kb[$name]+="${out##* } "
  done
}
stats() { # median and min-max of a list of numbers
  printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {printf "%.3f (%.3f-%.3f)", a[int((NR+1)/2)], a[1], a[NR]}'
}
before="" measure rg rg -c --no-messages '^import|^[[:space:]]*"|require\(|#include' "$tree"
before="rm -rf '$tree/.rubi'" measure cold "$work/rubi" index --root "$tree"
before="" measure nochange "$work/rubi" index --root "$tree"
# A file the index covers (not under a default-excluded directory).
target=$(find "$tree" -name '*.go' -not -path '*/build/*' -not -path '*/vendor/*' -not -path '*/dist/*' -not -path '*/out/*' | sort | sed -n 1p)
before="echo '// bench' >> '$target'" measure onechange "$work/rubi" index --root "$tree"
before="" measure context "$work/rubi" context "graceful shutdown of the server" --root "$tree" --no-refresh

echo "corpus: $module ($files files, $size), $runs runs each, $(nproc) cores, $(date -u +%Y-%m-%d)"
rg_med=$(printf '%s\n' ${secs[rg]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
for m in rg cold nochange onechange context; do
  med=$(printf '%s\n' ${secs[$m]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '%-10s %s s  peak RSS %s MB  (%.1fx rg)\n' "$m" "$(stats "${secs[$m]}")" \
    "$(printf '%s\n' ${kb[$m]} | sort -n | tail -1 | awk '{printf "%.0f", $1/1024}')" \
    "$(awk -v a="$med" -v b="$rg_med" 'BEGIN {print (b > 0 ? a/b : 0)}')"
done
