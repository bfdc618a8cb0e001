#include "verify.hpp"

#include <cstdlib>

#include "lab_error.hpp"

namespace jsonlab {

namespace {

nlohmann::json verify_step(const Variant& variant, const Payload& payload, const std::string& operation);

// A composite is verified twice over: the step that starts from the dataset alone, as its own cell would be, then the
// chain's result against the dataset's canonical form (the document serialize-then-deserialize reads back from its own
// output, the text deserialize-then-serialize writes, or the count of leaves deserialize-then-read reads).
nlohmann::json verify_composite(const Variant& variant, const Payload& payload, const std::string& operation) {
    const std::string first = steps_of(operation).front();
    nlohmann::json alone = verify_step(variant, payload, first);
    alone["operation"] = operation;
    if (alone["status"] != "passed") {
        alone["message"] = "step " + first + " alone: " + alone["message"].get<std::string>();
        return alone;
    }
    nlohmann::json record = alone;
    record["payload_bytes"] = payload.bytes.size();
    auto failed = [&](const std::string& message) {
        record["status"] = "failed";
        record["message"] = message;
        return record;
    };
    Digest actual;
    try {
        Result result = variant.result(payload, operation);
        if (const auto* leaves = std::get_if<std::uint64_t>(&result)) {
            actual = {payload.canonical->sha256, static_cast<std::size_t>(*leaves)};
        } else if (const auto* text = std::get_if<std::string>(&result)) {
            actual = canonical_digest(read_back(*text));
        } else {
            actual = canonical_digest(std::get<Value>(result));
        }
    } catch (const std::exception& e) {
        record["operation_error"] = e.what();
        return failed(variant.library + " failed in " + operation + ": " + e.what());
    }
    const Digest& expected = *payload.canonical;
    if (actual.sha256 == expected.sha256 && actual.leaves == expected.leaves) {
        record["message"] = "step " + first + " verified alone; the chain's result matches the dataset's canonical form (" +
                            operation + ", " + std::to_string(expected.leaves) + " leaves)";
        return record;
    }
    const long long difference = static_cast<long long>(actual.leaves) - static_cast<long long>(expected.leaves);
    record["mismatch_count"] = difference == 0 ? 1 : std::llabs(difference);
    return failed("the chain's result differs from the dataset's canonical form (" + operation + "): " +
                  std::to_string(actual.leaves) + " leaves, expected " + std::to_string(expected.leaves));
}

}  // namespace

nlohmann::json verify(const Variant& variant, const Payload& payload, const std::string& operation) {
    if (steps_of(operation).size() > 1 && payload.canonical && !variant.not_applicable(payload, operation)) {
        return verify_composite(variant, payload, operation);
    }
    return verify_step(variant, payload, operation);
}

namespace {

nlohmann::json verify_step(const Variant& variant, const Payload& payload, const std::string& operation) {
    nlohmann::json record = {
        {"variant", variant.variant},   {"dataset", payload.name},     {"operation", operation},
        {"model_type", variant.model_binding}, {"payload_bytes", nullptr}, {"mismatch_count", nullptr},
        {"mismatches", nlohmann::json::array()}, {"round_trip", nullptr}, {"operation_error", nullptr},
    };
    auto failed = [&](const std::string& message) {
        record["status"] = "failed";
        record["message"] = message;
        return record;
    };
    if (!payload.canonical) {
        return failed("dataset '" + payload.name +
                      "' has no canonical digest in the manifest, so no result can be checked");
    }
    // A cell the variant does not apply to (an operation it lacks, a dataset it has no model for) is not performed:
    // `run` reports it as a failed cell with this reason, `verify` lists it as not applicable.
    if (const auto reason = variant.not_applicable(payload, operation)) {
        record["operation_error"] = reason->what;
        return failed("not applicable: " + reason->what + " (" + reason->hint + ")");
    }
    Result result;
    try {
        result = variant.result(payload, operation);
    } catch (const LabError& e) {
        record["operation_error"] = e.what();
        return failed(e.what());
    } catch (const std::exception& e) {
        record["operation_error"] = e.what();
        return failed(variant.library + " threw: " + e.what());
    }
    // payload_bytes: the JSON text one operation reads (the file as stored) or writes: what MB/s divides by the time.
    record["payload_bytes"] = payload.bytes.size();
    Value document;
    const bool parse = operation == DESERIALIZE;
    if (parse) {
        document = std::get<Value>(std::move(result));
    } else {
        const std::string& text = std::get<std::string>(result);
        record["payload_bytes"] = text.size();
        try {
            document = read_back(text);
        } catch (const LabError& e) {
            record["round_trip"] = "failed";
            return failed(std::string("the serialized output is ") + e.what());
        }
    }
    const Digest actual = canonical_digest(document);
    const Digest& expected = *payload.canonical;
    const std::string what = parse ? "parsed document" : "serialized output, read back,";
    if (actual.sha256 == expected.sha256 && actual.leaves == expected.leaves) {
        record["status"] = "passed";
        record["mismatch_count"] = 0;
        record["round_trip"] = parse ? nlohmann::json(nullptr) : nlohmann::json("passed");
        record["message"] = what + " matches the dataset's canonical form (" + std::to_string(actual.leaves) +
                            " leaves, " + CANONICAL_RULE + ")";
        return record;
    }
    const long long difference = static_cast<long long>(actual.leaves) - static_cast<long long>(expected.leaves);
    record["mismatch_count"] = difference == 0 ? 1 : std::llabs(difference);
    record["round_trip"] = parse ? nlohmann::json(nullptr) : nlohmann::json("failed");
    record["mismatches"] = canonical_records(document, 3);
    return failed(what + " differs from the dataset's canonical form: " + std::to_string(actual.leaves) +
                  " leaves, sha256 " + actual.sha256.substr(0, 12) + "...; expected " +
                  std::to_string(expected.leaves) + ", " + expected.sha256.substr(0, 12) + "...");
}

}  // namespace

}  // namespace jsonlab
