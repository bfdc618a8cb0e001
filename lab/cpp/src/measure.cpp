#include "measure.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <vector>

#include "lab_error.hpp"

namespace jsonlab {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double STABLE_WITHIN = 0.02;

double elapsed_ms(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

struct Window {
    long long calls = 0;
    double ns_per_call = 0;
};

// Calls `call` for `ms` of wall time (at least once).
Window window(const Call& call, double ms) {
    const auto started = Clock::now();
    Window w;
    do {
        benchmark::DoNotOptimize(call());
        ++w.calls;
    } while (elapsed_ms(started) < ms);
    w.ns_per_call = elapsed_ms(started) * 1e6 / double(w.calls);
    return w;
}

struct Prewarm {
    long long calls = 0;
    double ms = 0;
    std::string rule = "none";
    std::optional<double> ns_per_call;
};

Prewarm prewarm(const Call& call, long long prewarm_ms, long long quiet_ms) {
    Prewarm out;
    if (prewarm_ms <= 0) return out;
    const auto started = Clock::now();
    const double window_ms = double(quiet_ms > 0 ? quiet_ms : prewarm_ms);
    std::optional<Window> previous;
    out.rule = quiet_ms > 0 ? "cap" : "fixed-time";
    while (elapsed_ms(started) < double(prewarm_ms)) {
        Window last = window(call, std::min(window_ms, double(prewarm_ms) - elapsed_ms(started)));
        out.calls += last.calls;
        out.ns_per_call = last.ns_per_call;
        if (quiet_ms > 0 && previous &&
            std::abs(last.ns_per_call - previous->ns_per_call) <= STABLE_WITHIN * previous->ns_per_call) {
            out.rule = "speed-stable";
            break;
        }
        previous = last;
    }
    out.ms = elapsed_ms(started);
    return out;
}

double rounded(double x) { return std::round(x * 10) / 10; }

}  // namespace

nlohmann::json measure_job(const std::string& name, const Call& call, const Job& job, const std::string& report_path) {
    const Prewarm warm = prewarm(call, job.prewarm_ms.value_or(0), job.prewarm_quiet_ms.value_or(0));
    const double ns_per_call = warm.ns_per_call.value_or(window(call, 20).ns_per_call);
    const long long iteration_time_ms = job.iteration_time_ms.value_or(100);
    const long long batch = job.invocation_count.value_or(
        std::max(1LL, std::llround(double(iteration_time_ms) * 1e6 / std::max(ns_per_call, 1.0))));
    const long long warmup_count = job.warmup_count.value_or(1);
    const long long iteration_count = job.iteration_count.value_or(15);
    if (iteration_count < 1) throw LabError("--iteration-count must be at least 1", "pass a positive count");

    const auto warmup_started = Clock::now();
    for (long long i = 0; i < warmup_count * batch; ++i) benchmark::DoNotOptimize(call());
    const double warmup_ms = elapsed_ms(warmup_started);

    benchmark::RegisterBenchmark(name.c_str(), [&call](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(call());
    })
        ->Iterations(batch)
        ->Repetitions(int(iteration_count))
        ->UseRealTime()
        ->Unit(benchmark::kNanosecond);
    std::vector<std::string> arguments = {"jsonlab-cpp", "--benchmark_out=" + report_path,
                                          "--benchmark_out_format=json",
                                          "--benchmark_display_aggregates_only=true"};
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    int argc = int(argv.size());
    benchmark::Initialize(&argc, argv.data());
    benchmark::ConsoleReporter console(benchmark::ConsoleReporter::OO_None);
    console.SetOutputStream(&std::cerr);
    console.SetErrorStream(&std::cerr);
    const auto measured_started = Clock::now();
    const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&console);
    const double actual_ms = elapsed_ms(measured_started);
    benchmark::Shutdown();
    if (ran == 0) throw LabError("Google Benchmark ran no benchmark", "see the lines above in the cell's log");

    nlohmann::json prewarm_json = {{"calls", warm.calls}, {"ms", rounded(warm.ms)}, {"rule", warm.rule}};
    prewarm_json["ns_per_call"] = warm.ns_per_call ? nlohmann::json(*warm.ns_per_call) : nlohmann::json(nullptr);
    return {
        {"prewarm", prewarm_json},
        {"invocation_count", batch},
        {"invocation_count_from", job.invocation_count ? "job" : "prewarm speed"},
        {"warmup_count", warmup_count},
        {"iteration_count", iteration_count},
        {"timings_ms",
         {{"prewarm_ms", rounded(warm.ms)}, {"warmup_ms", rounded(warmup_ms)}, {"actual_ms", rounded(actual_ms)}}},
    };
}

}  // namespace jsonlab
