// `env`: the compiler that built the lab (its "runtime"), the libraries and their versions, the build flags, the CPU
// set, and the ISA the process actually uses, read back.
//
// ISA: of this lab's libraries only simdjson chooses its code at run time (one kernel per instruction-set family:
// icelake = AVX-512, haswell = AVX2, westmere = SSE4.2 + PCLMULQDQ, arm64 = NEON, fallback = no SIMD). The harness's
// ISA levels select a kernel through SIMDJSON_FORCE_IMPLEMENTATION (lab.toml [isa_switches]), which the lab applies
// itself before any parse, refusing a kernel this CPU cannot run; `isa` reports the flags of the kernel actually
// active, so a level is verified, never assumed. RapidJSON and nlohmann/json are compiled code: in the portable build
// for the target's baseline (x86-64: SSE2), the same at every level; in the -march=native build for this CPU, with
// RapidJSON's SSE4.2 paths where it has them (`rapidjson_simd`), where only the native level applies.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace jsonlab {

// Applies SIMDJSON_FORCE_IMPLEMENTATION, if set (a LabError when this CPU or build has no such kernel).
void select_simdjson_implementation();
std::string active_simdjson_implementation();

nlohmann::json environment();

// A field of /proc/self/status (Linux), if present.
std::optional<std::string> proc_status(const std::string& field);

}  // namespace jsonlab
