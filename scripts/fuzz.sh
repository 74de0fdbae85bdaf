#!/usr/bin/env bash
# Runs every fuzz target of the module (each `func FuzzX(f *testing.F)` in
# a _test.go file) for $FUZZTIME each, and stops at the first that fails:
# a crash, a hang (rubitest.Bound) or a broken property. Go writes the
# failing input under the package's testdata/fuzz/FuzzX/, where it stays a
# regression test: fix the code, keep the file.
#
#   scripts/fuzz.sh                  # 3 s each
#   FUZZTIME=5m scripts/fuzz.sh      # make fuzz
#   scripts/fuzz.sh FuzzManifest     # the targets named
#
# FUZZTIME is -fuzztime (a duration, or a count like 1000x); FUZZJOBS how
# many targets run at once (default 2: Go fuzzes one target per process,
# each here with one worker); FUZZPARALLEL the fuzzing workers of each
# (-parallel; default 1, for a machine shared with other work);
# FUZZMINIMIZE the time spent shrinking each new input
# (-fuzzminimizetime; short, so a brief run fuzzes rather than shrinks);
# FUZZINSTRUMENT which packages carry coverage counters: all (the
# default, as go test -fuzz) or module (rubi's own; CI). The tree-sitter
# plugin is a module of its own and is left out.
#
# Where CI's time went (its order: build, vet and staticcheck leave the
# plain build cache warm, the instrumented one cold; 2 cores): the runs
# are 3 s each plus well under a second for the seed corpus, about 60 s
# one after the other; the rest was building. go test -fuzz compiles every
# package the binary links again with coverage counters, the standard
# library and the modules rubi requires included, and go test -c also
# vets every package and its dependencies with its own set of checks,
# which go vet ./... did not cache: measured on this machine with a load
# of 6-9 on its 2 cores, one go test -c -fuzz per package then the
# targets one at a time took 340 and 520 s (410 s of CPU; 201 s when the
# machine was quiet). Now: one go test -c for every package (Go refuses
# -fuzz with several, so the flags -fuzz implies are given instead: the
# go command then compiles and links them in parallel), -vet=off (CI's
# go vet ./... checks more), rubi's packages alone instrumented in CI, and
# two targets at a time: 91 and 119 s under the same load (105 s of CPU;
# the build 56 and 82 s of the wall time). Instrumenting rubi's packages alone guides a
# brief run as well (each finds new inputs within its 3 s); make fuzz
# instruments everything, for the decoders rubi calls into.
set -euo pipefail
cd "$(dirname "$0")/.."

time=${FUZZTIME:-3s}
jobs=${FUZZJOBS:-2}
parallel=${FUZZPARALLEL:-1}
minimize=${FUZZMINIMIZE:-100x}
instrument=${FUZZINSTRUMENT:-all}

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

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache="$(go env GOCACHE)/fuzz"
start=$SECONDS

# Every package's test binary in one go test -c, without DWARF (a faster
# link); go test -c -o DIR/ names each after its import path's last
# element. FUZZINSTRUMENT=all instruments them as go test -fuzz does
# (cmd/go: -d=libfuzzer on every package but those the fuzzing engine
# itself runs on), the standard library and the modules rubi requires
# included; =module only rubi's own packages, the rest coming from the
# plain build cache.
dirs=$(for t in "${targets[@]}"; do echo "./${t%% *}"; done | sort -u)
case $instrument in
  all)
    gcflags=(-gcflags=all=-d=libfuzzer)
    for p in context internal/fuzz internal/godebug internal/runtime/maps internal/sync \
      reflect runtime sync sync/atomic syscall testing time; do
      gcflags+=("-gcflags=$p=")
    done ;;
  module) gcflags=("-gcflags=$(go list -m)/...=-d=libfuzzer") ;;
  *) echo "FUZZINSTRUMENT=$instrument: all or module" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086 # dirs are paths without spaces
go test -c -vet=off -o "$work/" "${gcflags[@]}" -ldflags=-w $dirs
echo "== built the instrumented test binaries of $(wc -w <<<"$dirs") packages in $((SECONDS - start)) s"

# deadline_race LOG says whether a failed run is the Go fuzzing engine
# racing its own -fuzztime deadline (golang/go#75804, #51484): when the
# time is up while a worker is busy, the coordinator can report its
# deadline as an error, "context deadline exceeded", having found nothing.
# A real finding always writes its input ("Failing input written to").
deadline_race() {
  grep -q 'context deadline exceeded' "$1" && ! grep -q 'Failing input written to' "$1"
}

# run DIR NAME runs one target from its package's directory (its
# testdata/), with go test's corpus cache, prints its output when done and
# leaves its exit status in $work/NAME.rc. A run that failed only by the
# engine's deadline race runs once more, and that run's status stands.
run() {
  local dir=$1 name=$2 pkg t0=$SECONDS rc=0 try key
  pkg=$(go list "./$dir")
  key="${dir//\//_}.$name" # targets of several packages may share a name
  for try in 1 2; do
    rc=0
    (cd "$dir" && "$work/${pkg##*/}.test" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$time" \
      -test.fuzzminimizetime="$minimize" -test.parallel="$parallel" -test.fuzzcachedir="$cache/$pkg") \
      >>"$work/$key.log" 2>&1 || rc=$?
    if [ $rc = 0 ] || [ $try = 2 ] || ! deadline_race "$work/$key.log"; then
      break
    fi
    echo "== the Go fuzzing engine's deadline race (golang/go#75804), nothing found: $name runs again" >>"$work/$key.log"
  done
  {
    if command -v flock >/dev/null; then flock 9; fi # one output at a time
    echo "== $name ($dir, $time): $((SECONDS - t0)) s$([ $rc = 0 ] || echo ", FAILED")"
    cat "$work/$key.log"
  } 9>"$work/print.lock"
  echo $rc >"$work/$key.rc"
}

failed() { cat "$work"/*.rc 2>/dev/null | grep -qvx 0; } # an exit status other than 0
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    sleep 0.2 # (wait -n needs bash 4.3, macOS has 3.2)
  done
  if failed; then break; fi
  read -r dir name <<<"$t"
  run "$dir" "$name" &
done
wait
if failed || [ "$(cat "$work"/*.rc | grep -cx 0)" != ${#targets[@]} ]; then
  echo "== a fuzz target failed (its input is under its package's testdata/fuzz/)" >&2
  exit 1
fi
echo "== ${#targets[@]} fuzz targets in $((SECONDS - start)) s"
