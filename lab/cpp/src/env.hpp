// `env`: the compiler that built the lab (its "runtime"), the libraries and their versions, the build flags, the CPU
// set, and the ISA the process actually uses, read back.
//
// ISA: two of this lab's libraries choose their SIMD code at run time. simdjson has one kernel per instruction-set
// family (icelake = AVX-512, haswell = AVX2, westmere = SSE4.2 + PCLMULQDQ, arm64 = NEON, fallback = no SIMD), named by
// SIMDJSON_FORCE_IMPLEMENTATION; RapidJSON's SIMD paths are compile-time, so the lab compiles its RapidJSON code once
// per path (none, sse2, sse42; adapters/rapidjson_kernel.hpp) and JSONLAB_RAPIDJSON_SIMD names one. The harness's ISA
// levels set both (lab.toml [isa_switches]); the lab applies them itself before any parse, refusing a kernel this CPU
// cannot run. `isa` reports the flags of the SIMD code the process actually runs, the union of both kernels' flags, so
// a level is verified, never assumed (at `scalar` neither kernel may use SSE); `simdjson_implementation` and
// `rapidjson_simd` name the two kernels. nlohmann/json is compiled code without SIMD paths. The -march=native build
// compiled everything for this CPU and has one RapidJSON kernel, the path its flags allow: only its native level
// applies.
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
