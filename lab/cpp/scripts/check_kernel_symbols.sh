#!/bin/sh
# ctest `kernel-symbols`: `sh scripts/check_kernel_symbols.sh <kernel> <object> [<kernel> <object> ...]` (CMakeLists.txt
# passes each RapidJSON kernel's object file). A kernel is src/adapters/rapidjson_kernel.cpp compiled for one SIMD path,
# sse42 with -msse4.2. An inline function (a weak symbol) it defined outside its own namespace could be the copy the
# linker keeps for every caller, baseline code included, which would then run SSE4.2 code whatever the ISA level; a
# static initializer would run before any kernel is chosen. So every global or weak symbol a kernel's object defines
# must name its namespace (jsonlab_rapidjson_<kernel>, RAPIDJSON_NAMESPACE there) or be its table
# (jsonlab::rapidjson_kernels::kernel_<kernel>), and it must have no initializer section. The one exception is
# DW.ref.__gxx_personality_v0, a data word every C++ object with exception tables carries (the address of libstdc++'s
# personality routine, the same in all of them): no code.
set -eu
[ $# -ge 2 ] || { echo "error: no kernel objects given" >&2; echo "hint: CMakeLists.txt passes them" >&2; exit 1; }
failed=0
while [ $# -ge 2 ]; do
  kernel="$1"
  object="$2"
  shift 2
  table="_ZN7jsonlab17rapidjson_kernels[0-9]*kernel_${kernel}E"
  defined=$(nm --defined-only --extern-only "$object" | awk 'NF >= 3 { print $3 }')
  strays=$(printf '%s\n' "$defined" |
    grep -v -e "jsonlab_rapidjson_${kernel}" -e "^${table}\$" -e '^DW\.ref\.__gxx_personality_v0$' -e '^$' || true)
  if [ -n "$strays" ]; then
    echo "error: the $kernel kernel ($object) defines symbols outside its namespace:" >&2
    printf '%s\n' "$strays" | c++filt | sed 's/^/  /' >&2
    failed=1
  fi
  if ! printf '%s\n' "$defined" | grep -q -x "$table"; then
    echo "error: the $kernel kernel ($object) does not define its table jsonlab::rapidjson_kernels::kernel_$kernel" >&2
    failed=1
  fi
  if objdump -h "$object" | grep -q -e '\.init_array' -e '\.ctors'; then
    echo "error: the $kernel kernel ($object) has a static initializer" >&2
    failed=1
  fi
  count=$(printf '%s\n' "$defined" | grep -c . || true)
  [ "$failed" -ne 0 ] || echo "$kernel: $count global or weak symbols, all its own; no static initializer"
done
if [ "$failed" -ne 0 ]; then
  echo "hint: keep src/adapters/rapidjson_kernel.cpp to RapidJSON and rapidjson_kernel.hpp's trivial types" >&2
  exit 1
fi
