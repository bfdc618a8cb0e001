// The C++ lab: `jsonlab-cpp env|list|verify|run|once|conformance [--name value ...]`, the lab contract
// (docs/lab-contract.md). Errors print `error:` and `hint:` lines and exit 2.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "adapters/rapidjson_simd.hpp"
#include "args.hpp"
#include "conformance.hpp"
#include "datasets.hpp"
#include "env.hpp"
#include "lab_error.hpp"
#include "measure.hpp"
#include "models/typed_models.hpp"
#include "variants.hpp"
#include "verify.hpp"

namespace jsonlab {
namespace {

using Clock = std::chrono::steady_clock;

// Keeps a call's result from the optimizer outside the timing loop (the cold `once` call).
void benchmark_keep(std::uint64_t value) { benchmark::DoNotOptimize(value); }

void print(const nlohmann::json& value) { std::cout << value.dump(2) << "\n"; }

void write_json(const std::filesystem::path& file, const nlohmann::json& value) {
    std::ofstream out(file);
    out << value.dump(2) << "\n";
    if (!out) throw LabError("cannot write " + file.string(), "check that the --out folder is writable");
}

nlohmann::json listing() {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& v : variants()) {
        list.push_back({{"variant", v.variant},
                        {"library", v.library},
                        {"library_version", v.library_version},
                        {"payload_form", v.payload_form},
                        {"model_binding", v.model_binding},
                        {"operations", v.operations},
                        {"composites", v.composites},
                        // null: every dataset; else the only datasets it applies to (a typed model's files)
                        {"datasets", v.datasets.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.datasets)},
                        // and every dataset of these declared models (datasets/models/*.toml, the manifest's "model")
                        {"declared_models", v.declared_models ? nlohmann::json(models::DECLARED_MODELS) : nlohmann::json(nullptr)},
                        {"description", v.description}});
    }
    return {{"schema_version", 1},
            {"lab", "cpp"},
            {"operations", OPERATIONS},
            {"composites", COMPOSITES},
            {"variants", list},
            {"parsers", conformance_parsers()}};
}

struct Cell {
    const Variant& variant;
    Payload payload;
    std::string operation;
    std::string name() const { return variant.variant + "/" + payload.name + "/" + operation; }
};

Cell cell_of(const Args& args) {
    const Manifest manifest(args.required("datasets"));
    const Variant& variant = find_variant(args.required("variant"));
    Payload payload = manifest.load(manifest.find(args.required("dataset")));
    const std::string operation = args.required("operation");
    check_operation(operation);
    return {variant, std::move(payload), operation};
}

int verify_verb(const Args& args) {
    const Manifest manifest(args.required("datasets"));
    std::vector<const Variant*> chosen;
    for (const auto& name : args.all("variant")) chosen.push_back(&find_variant(name));
    if (chosen.empty()) {
        for (const auto& v : variants()) chosen.push_back(&v);
    }
    std::vector<const DatasetEntry*> entries;
    for (const auto& name : args.all("dataset")) entries.push_back(&manifest.find(name));
    if (entries.empty()) {
        for (const auto& d : manifest.datasets()) {
            if (d.canonical) entries.push_back(&d);
        }
    }
    std::vector<std::string> operations = args.all("operation");
    if (operations.empty()) {
        operations = OPERATIONS;
        operations.insert(operations.end(), COMPOSITES.begin(), COMPOSITES.end());
    }
    nlohmann::json results = nlohmann::json::array();
    bool all_passed = true;
    for (const auto* entry : entries) {
        const Payload payload = manifest.load(*entry);
        for (const auto* variant : chosen) {
            for (const auto& operation : operations) {
                check_operation(operation);
                // Not applicable (an operation the variant lacks, a dataset it has no model for): said, not verified,
                // and no record, so --strict judges only the cells that exist.
                if (const auto reason = variant->not_applicable(payload, operation)) {
                    std::cerr << "not applicable " << variant->variant << " x " << payload.name << " " << operation
                              << ": " << reason->what << "\n";
                    continue;
                }
                nlohmann::json result = verify(*variant, payload, operation);
                std::cerr << result["status"].get<std::string>() << " " << variant->variant << " x " << payload.name
                          << " " << operation << ": " << result["message"].get<std::string>() << "\n";
                all_passed = all_passed && result["status"] == "passed";
                results.push_back(std::move(result));
            }
        }
    }
    print(results);
    return args.flag("strict") && !all_passed ? 1 : 0;
}

Job job_of(const Args& args) {
    return {args.optional_int("prewarm-ms"),      args.optional_int("prewarm-quiet-ms"),
            args.optional_int("warmup-count"),    args.optional_int("iteration-count"),
            args.optional_int("iteration-time-ms"), args.optional_int("invocation-count")};
}

int run_verb(const Args& args) {
    const Cell cell = cell_of(args);
    const std::filesystem::path out = std::filesystem::absolute(args.required("out"));
    std::filesystem::create_directories(out);
    write_json(out / "env.json", environment());
    const auto verify_started = Clock::now();
    const nlohmann::json verification = verify(cell.variant, cell.payload, cell.operation);
    const double verify_ms = std::chrono::duration<double, std::milli>(Clock::now() - verify_started).count();
    write_json(out / "verification.json", verification);
    std::cerr << cell.name() << ": verification " << verification["status"].get<std::string>() << ": "
              << verification["message"].get<std::string>() << "\n";
    nlohmann::json describe = {{"schema_version", 1},
                               {"cell", cell.name()},
                               {"variant", cell.variant.variant},
                               {"library", cell.variant.library},
                               {"library_version", cell.variant.library_version},
                               {"dataset", cell.payload.name},
                               {"operation", cell.operation}};
    if (!verification["operation_error"].is_null()) {
        describe["status"] = "failed";
        describe["error"] = verification["message"];
        describe["hint"] = "the variant cannot perform this operation on this dataset (`list` names each variant's "
                           "operations and datasets)";
        write_json(out / "cell.json", describe);
        return 0;
    }
    const Call call = bind(cell.variant, cell.payload, cell.operation);
    const std::string report = "gbench.json";
    nlohmann::json measured = measure_job(cell.name(), call, job_of(args), (out / report).string());
    std::cerr << cell.name() << ": prewarm " << measured["prewarm"]["calls"] << " calls in "
              << measured["prewarm"]["ms"] << " ms (" << measured["prewarm"]["rule"].get<std::string>() << "), "
              << measured["iteration_count"] << " iterations of " << measured["invocation_count"] << " calls\n";
    nlohmann::json timings = measured["timings_ms"];
    timings["verify_ms"] = std::round(verify_ms * 10) / 10;
    describe.update({{"status", "measured"},
                     {"payload_form", cell.variant.payload_form},
                     {"model_binding", cell.variant.model_binding},
                     {"model_type", cell.variant.model_binding},
                     {"dataset_sha256", cell.payload.sha256},
                     {"description", cell.variant.description},
                     {"verification_status", verification["status"]},
                     {"invocation_count", measured["invocation_count"]},
                     {"prewarm", measured["prewarm"]},
                     {"warmup_count", measured["warmup_count"]},
                     {"iteration_count", measured["iteration_count"]},
                     {"timings_ms", timings},
                     {"simdjson_implementation", active_simdjson_implementation()},
                     {"rapidjson_simd", adapters::active_rapidjson_kernel().name},
                     {"raw_report", report}});
    write_json(out / "cell.json", describe);
    return 0;
}

int once_verb(const Args& args) {
    const Cell cell = cell_of(args);
    try {
        const Call call = bind(cell.variant, cell.payload, cell.operation);
        if (!args.flag("prepare-only")) benchmark_keep(call());
    } catch (const LabError&) {
        throw;
    } catch (const std::exception& e) {
        throw LabError(cell.variant.library + " cannot " + cell.operation + " " + cell.payload.name + " here: " +
                           e.what(),
                       "its other cells still run");
    }
    if (args.flag("report-rss")) {
        const auto hwm = proc_status("VmHWM");
        std::cout << "peak_rss_bytes " << (hwm ? std::to_string(std::stoll(*hwm) * 1024) : "") << "\n"
                  << "cpus_allowed " << proc_status("Cpus_allowed_list").value_or("") << "\n";
    }
    return 0;
}

int dispatch(int argc, char** argv) {
    const Args args(argc, argv);
    select_simdjson_implementation();
    adapters::select_rapidjson_kernel();
    const std::string& verb = args.verb();
    if (verb == "env") return print(environment()), 0;
    if (verb == "list") return print(listing()), 0;
    if (verb == "verify") return verify_verb(args);
    if (verb == "run") return run_verb(args);
    if (verb == "once") return once_verb(args);
    if (verb == "conformance") return conformance_verb(args);
    throw LabError("unknown verb '" + verb + "'", "valid verbs: env, list, verify, run, once, conformance");
}

}  // namespace
}  // namespace jsonlab

int main(int argc, char** argv) {
    try {
        return jsonlab::dispatch(argc, argv);
    } catch (const jsonlab::LabError& e) {
        std::cerr << "error: " << e.what() << "\nhint: " << e.hint() << "\n";
        return 2;
    }
}
