#!/bin/sh
# Makes build/<runtime>/jsonlab-cpp: `sh scripts/build.sh <runtime> <flavor> <compiler version>` (lab.toml's build
# command fills them in from the runtime's table). The flavor is `portable` (-O2) or `native` (-O3 -march=native); the
# binary must report the compiler version lab.toml names, else the build fails. `just test` runs the lab's tests
# (ctest: unit tests, then every variant verified against every dataset's canonical digest).
set -eu
runtime="$1"
flavor="${2:-portable}"
wanted="${3:-}"
cd "$(dirname "$0")/.."
for tool in cmake g++; do
  command -v "$tool" >/dev/null || { echo "error: $tool is missing"; echo "hint: scripts/setup installs it (prerequisites.toml)"; exit 1; } >&2
done
cmake -S . -B "build/$runtime" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DJSONLAB_FLAVOR="$flavor" >/dev/null
cmake --build "build/$runtime" --parallel 2
reported=$("build/$runtime/jsonlab-cpp" env | sed -n 's/^ *"runtime_version": "\([^"]*\)",*$/\1/p')
if [ -n "$wanted" ] && [ "$reported" != "$wanted" ]; then
  echo "error: build/$runtime was compiled by GCC $reported, not $wanted" >&2
  echo "hint: lab/cpp/lab.toml names the compiler of each runtime; install that g++ or change the runtime's version" >&2
  exit 1
fi
echo "build/$runtime/jsonlab-cpp (GCC $reported, $flavor)"
