#!/usr/bin/env bash
# Runs every fuzz target of the module (each `func FuzzX(f *testing.F)` in
# a _test.go file) for $FUZZTIME each, one after the other (Go fuzzes one
# target per invocation), and stops at the first that fails: a crash, a
# hang (rubitest.Bound) or a broken property. Go writes the failing input
# under the package's testdata/fuzz/FuzzX/, where it stays a regression
# test: fix the code, keep the file.
#
#   scripts/fuzz.sh                  # 5 s each: a smoke run (CI)
#   FUZZTIME=5m scripts/fuzz.sh      # make fuzz
#   scripts/fuzz.sh FuzzManifest     # the targets named
#
# FUZZTIME is -fuzztime (a duration, or a count like 1000x); FUZZPARALLEL
# the fuzzing workers (-parallel; default 1, for a machine shared with
# other work); FUZZMINIMIZE the time spent shrinking each new input
# (-fuzzminimizetime; short, so a brief run fuzzes rather than shrinks).
# The tree-sitter plugin is a module of its own and is left out.
set -euo pipefail
cd "$(dirname "$0")/.."

time=${FUZZTIME:-5s}
parallel=${FUZZPARALLEL:-1}
minimize=${FUZZMINIMIZE:-100x}

# file:line:func FuzzX(f *testing.F) → "dir FuzzX", outside nested modules.
nested=$(git ls-files '*/go.mod' | xargs -r -n1 dirname)
targets=()
while IFS= read -r hit; do
  file=${hit%%:*}
  name=$(sed -E 's/^[^:]*:[0-9]+:func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"$hit")
  dir=$(dirname "$file")
  skip=0
  for m in $nested; do
    case "$dir/" in "$m"/*) skip=1 ;; esac
  done
  if [ "$skip" = 0 ] && { [ $# -eq 0 ] || [[ " $* " == *" $name "* ]]; }; then
    targets+=("$dir $name")
  fi
done < <(grep -rn '^func Fuzz' --include='*_test.go' . | sed 's|^\./||' | sort)

if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets${*:+ named $*}" >&2
  exit 1
fi
# Each package's test binary is built once, instrumented for fuzzing as
# go test -fuzz builds it, and run for each of its targets from the
# package's directory (its testdata/), with go test's corpus cache.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache="$(go env GOCACHE)/fuzz"
start=$SECONDS
built=
for t in "${targets[@]}"; do
  read -r dir name <<<"$t"
  bin="$work/$(tr / _ <<<"$dir").test"
  if [ "$built" != "$dir" ]; then
    go test -c -fuzz="^${name}\$" -ldflags=-w -o "$bin" "./$dir" # no DWARF: a faster link
    pkg=$(go list "./$dir")
    built=$dir
  fi
  echo "== $name ($dir, $time)"
  (cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$time" \
    -test.fuzzminimizetime="$minimize" -test.parallel="$parallel" -test.fuzzcachedir="$cache/$pkg")
done
echo "== ${#targets[@]} fuzz targets in $((SECONDS - start)) s"
