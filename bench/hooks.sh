#!/usr/bin/env bash
# Hook latency on a real-sized project: each hook as a fresh `rubi hook`
# process, the way agents run them, on a repository from the Go module
# proxy with synthetic knowledge notes, beside the floor of starting rubi.
#
#   bench/hooks.sh [MODULE@VERSION] [RUNS] [NOTES]
#
# Defaults: k8s.io/kubernetes@v1.31.0 (~8,000 files), 30 runs, 2,000 notes.
set -euo pipefail
cd "$(dirname "$0")/.."
module=${1:-k8s.io/kubernetes@v1.31.0}
runs=${2:-30}
notes=${3:-2000}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/rubi" ./cmd/rubi
. bench/corpus.sh
fetch_corpus "$module" "$work/tree"
mkdir -p "$work/tree/.git" # a project, as the hooks require
echo "corpus: $module, $notes notes, $(nproc) cores"
go run ./bench/hooks -rubi "$work/rubi" -root "$work/tree" -nodes "$notes" -runs "$runs"
