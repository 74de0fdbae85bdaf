#!/usr/bin/env bash
# Opens the page `rubi xray --html` writes in headless Chromium (Debian's
# chromium; installed with apt-get when missing and it may), takes a
# screenshot, and fails if the page did not render: a console error, a
# failed load, no screenshot, or a missing section in the rendered DOM.
#
#   scripts/xray-html-check.sh [SCREENSHOT.png]    # default: a temporary file
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null; then
  apt-get install -y chromium >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shot=${1:-$work/xray.png}
go build -o "$work/rubi" ./cmd/rubi
go run -C bench ./xraygen -out "$work/logs" -size 40 >/dev/null
"$work/rubi" xray --transcripts "$work/logs" --days 0 --usd --html "$work/xray.html" >/dev/null

chrome=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --enable-logging=stderr --v=0 --window-size=1200,3400)
"${chrome[@]}" --screenshot="$shot" "file://$work/xray.html" 2>"$work/shot.log" >/dev/null
"${chrome[@]}" --dump-dom "file://$work/xray.html" 2>"$work/dom.log" >"$work/dom.html"

fail=0
if grep -hE 'CONSOLE|Uncaught|net::ERR|Failed to load' "$work/shot.log" "$work/dom.log"; then
  echo "FAIL: the page logged errors"; fail=1
fi
size=$(stat -c %s "$shot" 2>/dev/null || echo 0)
if [ "$size" -lt 50000 ]; then
  echo "FAIL: screenshot $shot is $size bytes"; fail=1
fi
for section in 'id="findings"' 'id="cost"' 'id="tools"' 'class="curve"' 'id="simulation"' 'id="sessions"' 'class="real"' 'class="replay"'; do
  if ! grep -q "$section" "$work/dom.html"; then
    echo "FAIL: the rendered page has no $section"; fail=1
  fi
done
[ "$fail" = 0 ] && echo "ok: the page rendered without errors; screenshot $shot ($size bytes)"
exit "$fail"
