// Which RapidJSON kernel (rapidjson_kernel.hpp) the process runs: JSONLAB_RAPIDJSON_SIMD names it (none, sse2, sse42;
// lab.toml's ISA levels set it), unset or empty is the best kernel of this build that this CPU runs. A name this build
// did not compile, or a kernel this CPU cannot run, is a LabError: never a silent fallback. The portable build
// compiles none, sse2 and sse42 on x86-64 (none elsewhere: Debian's RapidJSON 1.1.0 has no NEON path); the
// -march=native build one kernel, the path its flags allow (sse42 on an x86-64 CPU with SSE4.2).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rapidjson_kernel.hpp"

namespace jsonlab::adapters {

inline const char* const RAPIDJSON_SIMD_VARIABLE = "JSONLAB_RAPIDJSON_SIMD";

using RapidjsonKernel = rapidjson_kernels::Kernel;

// The kernels this build compiled, best first.
const std::vector<const RapidjsonKernel*>& rapidjson_kernels_compiled();
// Whether this CPU can run a kernel (__builtin_cpu_supports of its cpu_feature).
bool cpu_runs(const RapidjsonKernel& kernel);
// The kernels of this build this CPU runs, best first.
std::vector<const RapidjsonKernel*> rapidjson_kernels_supported();

// The kernel `wanted` names among `compiled`, or (null or empty) the best one `runs_here` accepts; a LabError for a
// name not compiled or a kernel `runs_here` refuses. The CPU's answer is a parameter so the refusal can be tested.
const RapidjsonKernel& choose_rapidjson_kernel(const char* wanted, const std::vector<const RapidjsonKernel*>& compiled,
                                               const std::function<bool(const RapidjsonKernel&)>& runs_here);

// Applies JSONLAB_RAPIDJSON_SIMD (a LabError when this build or CPU has no such kernel); before any parse.
void select_rapidjson_kernel();
// Makes `kernel` the one in effect (select_rapidjson_kernel's work; the unit tests go through every kernel with it).
void use_rapidjson_kernel(const RapidjsonKernel& kernel);
// The kernel in effect: the one selected, else the best this CPU runs.
const RapidjsonKernel& active_rapidjson_kernel();

// The instruction-set flags a kernel's SIMD path uses (names as harness/config/isa_levels.toml's `expect` tables).
nlohmann::json rapidjson_isa_flags(const RapidjsonKernel& kernel);

}  // namespace jsonlab::adapters
