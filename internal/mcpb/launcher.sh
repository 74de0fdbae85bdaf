#!/bin/sh
# rubi.mcpb's server on macOS and Linux: runs the rubi-mcp binary of this
# system and processor from the bundle's server/ folder with the arguments
# the manifest gives (--vault and the folder the user chose).
#
# Claude Desktop on macOS extracts an extension's files without their
# modes (0600: modelcontextprotocol/mcpb#294), so the manifest starts this
# script with /bin/sh, and the script gives the binary its execute bit
# back before running it.
dir=$(dirname "$0")
case $(uname -s) in
Darwin) os=darwin ;;
Linux) os=linux ;;
*)
  echo "rubi: this extension has no server for $(uname -s)" >&2
  exit 1
  ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
arm64 | aarch64) arch=arm64 ;;
*)
  echo "rubi: this extension has no server for $(uname -s) on $(uname -m)" >&2
  exit 1
  ;;
esac
bin=$dir/rubi-mcp-$os-$arch
if [ ! -f "$bin" ]; then
  echo "rubi: $bin is missing from the extension: install rubi.mcpb again" >&2
  exit 1
fi
if [ ! -x "$bin" ]; then
  chmod u+x "$bin" || {
    echo "rubi: cannot make $bin executable" >&2
    exit 1
  }
fi
exec "$bin" "$@"
