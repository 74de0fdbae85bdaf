#!/usr/bin/env bash
# Token X-ray benchmark: rubi xray over generated Claude Code logs, to show
# throughput and that memory stays flat however much there is to read.
#
#   bench/xray.sh [MiB] [RUNS]     # default 2048 MiB, 3 runs
#
# Writes the logs once to a temporary directory (bench/xraygen), then runs
# `rubi xray --days 0 --json` on them RUNS times and prints the median
# wall time, MB/s (by wall time, and by CPU time, steadier on a shared
# machine) and peak RSS. Needs GNU time (Debian: time); installs it with
# apt-get when missing and it may.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-2048}
runs=${2:-3}

if ! [ -x /usr/bin/time ]; then
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/rubi" ./cmd/rubi
bytes=$(go run -C bench ./xraygen -out "$work/logs" -size "$mib")
files=$(find "$work/logs" -name '*.jsonl' | wc -l)
echo "logs: $((bytes / 1048576)) MiB in $files files"

for i in $(seq "$runs"); do
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.$i" "$work/rubi" xray --transcripts "$work/logs" --days 0 --json >"$work/report.json"
done
sort -n -k1 "$work"/time.* | awk -v b="$bytes" -v n="$runs" '
  { t[NR]=$1; m[NR]=$2; c[NR]=$3+$4 }
  END {
    med=t[int((n+1)/2)]; peak=0; cpu=c[1]; for (i=1;i<=NR;i++) { if (m[i]>peak) peak=m[i]; if (c[i]<cpu) cpu=c[i] }
    printf "rubi xray: median %.2f s (%.2f-%.2f), %.0f MB/s; best CPU time %.2f s, %.0f MB/s; peak RSS %.0f MB\n", med, t[1], t[NR], b/1048576/med, cpu, b/1048576/cpu, peak/1024
  }'
python3 - "$work/report.json" <<'PY' 2>/dev/null || true
import json, sys
r = json.load(open(sys.argv[1]))
print("sessions %d, calls %d, cache reads %.0f%% of the cost, saving at %s: %.0f%%" % (
    r["sessions"], r["calls"], 100 * r["shares"]["cache_read"],
    r["recommended_threshold"], 100 * max([s["saving"] for s in r["simulation"]] + [0])))
PY
