#include "rapidjson_simd.hpp"

#include <cstdlib>
#include <cstring>

#include "../lab_error.hpp"

namespace jsonlab::adapters {
namespace {

const RapidjsonKernel* selected = nullptr;

std::string names_of(const std::vector<const RapidjsonKernel*>& kernels) {
    std::string names;
    for (const auto* kernel : kernels) names += (names.empty() ? "" : ", ") + std::string(kernel->name);
    return names;
}

}  // namespace

const std::vector<const RapidjsonKernel*>& rapidjson_kernels_compiled() {
    // CMakeLists.txt defines JSONLAB_RAPIDJSON_HAS_<KERNEL> for each kernel it compiles.
    static const std::vector<const RapidjsonKernel*> compiled = {
#if defined(JSONLAB_RAPIDJSON_HAS_NATIVE)
        &rapidjson_kernels::kernel_native,
#endif
#if defined(JSONLAB_RAPIDJSON_HAS_SSE42)
        &rapidjson_kernels::kernel_sse42,
#endif
#if defined(JSONLAB_RAPIDJSON_HAS_SSE2)
        &rapidjson_kernels::kernel_sse2,
#endif
#if defined(JSONLAB_RAPIDJSON_HAS_NONE)
        &rapidjson_kernels::kernel_none,
#endif
    };
    return compiled;
}

bool cpu_runs(const RapidjsonKernel& kernel) {
    if (kernel.cpu_feature == nullptr) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (std::strcmp(kernel.cpu_feature, "sse4.2") == 0) return __builtin_cpu_supports("sse4.2");
    if (std::strcmp(kernel.cpu_feature, "sse2") == 0) return __builtin_cpu_supports("sse2");
#endif
    return false;  // a feature this check does not know: not assumed
}

std::vector<const RapidjsonKernel*> rapidjson_kernels_supported() {
    std::vector<const RapidjsonKernel*> out;
    for (const auto* kernel : rapidjson_kernels_compiled()) {
        if (cpu_runs(*kernel)) out.push_back(kernel);
    }
    return out;
}

const RapidjsonKernel& choose_rapidjson_kernel(const char* wanted, const std::vector<const RapidjsonKernel*>& compiled,
                                               const std::function<bool(const RapidjsonKernel&)>& runs_here) {
    if (wanted == nullptr || *wanted == '\0') {
        for (const auto* kernel : compiled) {
            if (runs_here(*kernel)) return *kernel;
        }
        throw LabError("this CPU runs none of this build's RapidJSON kernels (" + names_of(compiled) + ")",
                       "report it: the kernel `none` needs no instruction-set extension");
    }
    for (const auto* kernel : compiled) {
        if (std::strcmp(kernel->name, wanted) != 0) continue;
        if (!runs_here(*kernel)) {
            throw LabError(std::string("RapidJSON's ") + wanted + " kernel cannot run on this CPU (it needs " +
                               (kernel->cpu_feature ? kernel->cpu_feature : "nothing this CPU has") + ")",
                           "ask for a lower ISA level (or none): this CPU lacks the instructions it needs");
        }
        return *kernel;
    }
#if defined(JSONLAB_MARCH_NATIVE)
    const std::string why = " (this -march=native build compiled RapidJSON for this CPU only: the ISA levels below "
                            "native do not apply to it)";
#else
    const std::string why;
#endif
    throw LabError(std::string(RAPIDJSON_SIMD_VARIABLE) + "=" + wanted + " names no RapidJSON kernel of this build",
                   "kernels of this build: " + names_of(compiled) + why);
}

void select_rapidjson_kernel() {
    use_rapidjson_kernel(choose_rapidjson_kernel(std::getenv(RAPIDJSON_SIMD_VARIABLE), rapidjson_kernels_compiled(),
                                                 [](const RapidjsonKernel& kernel) { return cpu_runs(kernel); }));
}

void use_rapidjson_kernel(const RapidjsonKernel& kernel) { selected = &kernel; }

const RapidjsonKernel& active_rapidjson_kernel() {
    if (selected == nullptr) {
        selected = &choose_rapidjson_kernel(nullptr, rapidjson_kernels_compiled(),
                                            [](const RapidjsonKernel& kernel) { return cpu_runs(kernel); });
    }
    return *selected;
}

nlohmann::json rapidjson_isa_flags(const RapidjsonKernel& kernel) {
    const std::string name = kernel.name;
#if defined(__aarch64__)
    const bool neon = name == "neon";
    return {{"adv_simd", neon}, {"vector128", neon}};
#else
    const int level = name == "sse42" ? 2 : name == "sse2" ? 1 : 0;
    return {{"sse2", level >= 1},      {"sse3", level >= 2},  {"ssse3", level >= 2},
            {"sse41", level >= 2},     {"sse42", level >= 2}, {"vector128", level >= 1}};
#endif
}

}  // namespace jsonlab::adapters
