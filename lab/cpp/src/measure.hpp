// Steady-state timing of one operation with Google Benchmark (Debian's libbenchmark-dev), the C++ counterpart of
// BenchmarkDotNet, under the harness's job, as in the other labs:
//   1. a warm-up by time (--prewarm-ms), ending early once two consecutive windows of --prewarm-quiet-ms agree within
//      2% (caches, branch predictors and the allocator warmed; there is no JIT to wait for);
//   2. the calls per iteration sized from that warm speed to about --iteration-time-ms (or --invocation-count);
//   3. --warmup-count discarded iterations, then --iteration-count measured ones: Google Benchmark runs the call that
//      many times per repetition (Iterations) for that many repetitions, and its JSON report (gbench.json, kept as the
//      cell's raw report) has one entry per repetition, its real time per call.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "variants.hpp"

namespace jsonlab {

struct Job {
    std::optional<long long> prewarm_ms, prewarm_quiet_ms, warmup_count, iteration_count, iteration_time_ms,
        invocation_count;
};

// Runs the job on `call` under the name `name`; writes Google Benchmark's JSON report to `report_path` and returns what
// the cell's cell.json needs (prewarm, invocation count, phase timings).
nlohmann::json measure_job(const std::string& name, const Call& call, const Job& job, const std::string& report_path);

}  // namespace jsonlab
