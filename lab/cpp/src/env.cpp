#include "env.hpp"

#include <cstdlib>
#include <stdlib.h>
#include <fstream>
#include <map>
#include <thread>

#include <simdjson.h>

#include "adapters/rapidjson_simd.hpp"
#include "lab_error.hpp"
#include "variants.hpp"

#ifndef JSONLAB_BENCHMARK_VERSION
#define JSONLAB_BENCHMARK_VERSION "unknown"
#endif
#ifndef JSONLAB_CXX_FLAGS
#define JSONLAB_CXX_FLAGS "unknown"
#endif
#ifndef JSONLAB_FLAVOR
#define JSONLAB_FLAVOR "portable"
#endif

extern char** environ;

namespace jsonlab {
namespace {

const char* IMPLEMENTATION_VARIABLE = "SIMDJSON_FORCE_IMPLEMENTATION";

std::string os_name() {
    std::ifstream in("/etc/os-release");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            std::string value = line.substr(12);
            if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
            return value;
        }
    }
    return "Linux";
}

std::string arch() {
#if defined(__x86_64__)
    return "x64";
#elif defined(__aarch64__)
    return "arm64";
#else
    return "unknown";
#endif
}

// The flags of what two kernels use together (each flag true when either kernel uses it).
nlohmann::json union_of(nlohmann::json flags, const nlohmann::json& more) {
    for (const auto& [name, used] : more.items()) flags[name] = flags.value(name, false) || used.get<bool>();
    return flags;
}

// The instruction-set flags a simdjson kernel uses (names as harness/config/isa_levels.toml's `expect` tables).
nlohmann::json isa_flags(const std::string& kernel) {
#if defined(__aarch64__)
    const bool neon = kernel == "arm64";
    return {{"adv_simd", neon}, {"vector128", neon}};
#else
    const int level = kernel == "icelake" ? 4 : kernel == "haswell" ? 3 : kernel == "westmere" ? 2 : 0;
    return {
        {"sse2", level >= 2},     {"sse3", level >= 2},      {"ssse3", level >= 2},     {"sse41", level >= 2},
        {"sse42", level >= 2},    {"pclmulqdq", level >= 2}, {"avx", level >= 3},       {"avx2", level >= 3},
        {"bmi1", level >= 3},     {"bmi2", level >= 3},      {"avx512f", level >= 4},   {"avx512bw", level >= 4},
        {"vector128", level >= 2}, {"vector256", level >= 3}, {"vector512", level >= 4},
    };
#endif
}

std::string compiler_version() {
#if defined(__clang__)
    return std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) + "." +
           std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
    return std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." + std::to_string(__GNUC_PATCHLEVEL__);
#else
    return "unknown";
#endif
}

std::string compiler_name() {
#if defined(__clang__)
    return "Clang";
#else
    return "GCC";
#endif
}

// The runtime as lab.toml's [isa_switches] names it: the compiler, and "(-march=native)" for a build tied to its CPU.
std::string runtime_name() {
    const std::string flavor = JSONLAB_FLAVOR;
    return compiler_name() + (flavor == "native" ? " (-march=native)" : "");
}

}  // namespace

void select_simdjson_implementation() {
    const char* wanted = std::getenv(IMPLEMENTATION_VARIABLE);
    if (wanted == nullptr) return;
    if (*wanted == '\0') {
        // simdjson would read an empty name as an unknown kernel and fail every parse: empty means "not set".
        unsetenv(IMPLEMENTATION_VARIABLE);
        return;
    }
    std::string names;
    for (auto implementation : simdjson::get_available_implementations()) {
        names += (names.empty() ? "" : ", ") + std::string(implementation->name());
    }
    const simdjson::implementation* chosen = simdjson::get_available_implementations()[wanted];
    if (chosen == nullptr) {
        throw LabError(std::string(IMPLEMENTATION_VARIABLE) + "=" + wanted + " names no simdjson kernel of this build",
                       "kernels of this build: " + names);
    }
    if (!chosen->supported_by_runtime_system()) {
        throw LabError(std::string("simdjson's ") + wanted + " kernel cannot run on this CPU",
                       "ask for a lower ISA level (or none): this CPU lacks the instructions it needs");
    }
    simdjson::get_active_implementation() = chosen;
}

std::string active_simdjson_implementation() { return std::string(simdjson::get_active_implementation()->name()); }

std::optional<std::string> proc_status(const std::string& field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(field + ":", 0) == 0) {
            std::string value = line.substr(field.size() + 1);
            const auto start = value.find_first_not_of(" \t");
            return start == std::string::npos ? std::string() : value.substr(start);
        }
    }
    return std::nullopt;
}

nlohmann::json environment() {
    const std::string kernel = active_simdjson_implementation();
    const auto& rapidjson_kernel = adapters::active_rapidjson_kernel();
    nlohmann::json libraries = nlohmann::json::object();
    for (const auto& v : variants()) libraries[v.library] = v.library_version;
    libraries["Google Benchmark"] = JSONLAB_BENCHMARK_VERSION;
    nlohmann::json switches = nlohmann::json::object();
    for (char** entry = environ; *entry != nullptr; ++entry) {
        std::string text = *entry;
        const auto equals = text.find('=');
        const std::string name = text.substr(0, equals);
        if (name.rfind("JSONLAB_", 0) == 0 || name.rfind("SIMDJSON_", 0) == 0) switches[name] = text.substr(equals + 1);
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (auto implementation : simdjson::get_available_implementations()) {
        if (implementation->supported_by_runtime_system()) kernels.push_back(std::string(implementation->name()));
    }
    nlohmann::json rapidjson_kernels = nlohmann::json::array();
    for (const auto* k : adapters::rapidjson_kernels_supported()) rapidjson_kernels.push_back(k->name);
    const auto cpus = proc_status("Cpus_allowed_list");
    return {
        {"schema_version", 1},
        {"lab", "cpp"},
        {"language", "C++"},
        {"runtime", runtime_name()},
        {"runtime_version", compiler_version()},
        {"runtime_description", compiler_name() + " " + compiler_version() + ", C++17, " + JSONLAB_CXX_FLAGS},
        {"arch", arch()},
        {"os", os_name()},
        {"processor_count", std::thread::hardware_concurrency()},
        {"cpus_allowed", cpus ? nlohmann::json(*cpus) : nlohmann::json(nullptr)},
        {"jit", false},
        {"compiler_flags", JSONLAB_CXX_FLAGS},
        {"build_flavor", JSONLAB_FLAVOR},
        {"runtime_switches", switches},
        // The SIMD code the process runs: simdjson's kernel and RapidJSON's, together.
        {"isa", union_of(isa_flags(kernel), adapters::rapidjson_isa_flags(rapidjson_kernel))},
        {"isa_readback", true},
        {"simdjson_implementation", kernel},
        {"simdjson_supported_implementations", kernels},
        {"rapidjson_simd", rapidjson_kernel.name},
        {"rapidjson_supported_simd", rapidjson_kernels},
        {"libraries", libraries},
    };
}

}  // namespace jsonlab
