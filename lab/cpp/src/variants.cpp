#include "variants.hpp"

#include <algorithm>

#include "adapters/adapters.hpp"
#include "lab_error.hpp"
#include "models/typed_models.hpp"

namespace jsonlab {
namespace {

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

}  // namespace

std::vector<std::string> steps_of(const std::string& operation) {
    if (operation == SERIALIZE_THEN_DESERIALIZE) return {SERIALIZE, DESERIALIZE};
    if (operation == DESERIALIZE_THEN_SERIALIZE) return {DESERIALIZE, SERIALIZE};
    if (operation == DESERIALIZE_THEN_READ) return {DESERIALIZE, "read"};
    return {operation};
}

std::optional<NotApplicable> Variant::not_applicable(const Payload& payload, const std::string& operation) const {
    if (std::find(operations.begin(), operations.end(), operation) == operations.end() &&
        std::find(composites.begin(), composites.end(), operation) == composites.end()) {
        std::vector<std::string> all = operations;
        all.insert(all.end(), composites.begin(), composites.end());
        return NotApplicable{"variant '" + variant + "' cannot " + operation, "its operations: " + join(all)};
    }
    if (!datasets.empty() && std::find(datasets.begin(), datasets.end(), payload.name) == datasets.end() &&
        !(declared_models && models::is_declared(payload.model))) {
        return NotApplicable{"variant '" + variant + "' does not apply to dataset '" + payload.name + "'",
                             "it reads only the datasets it has a model for: " + join(datasets) +
                                 (declared_models ? ", and those of a declared model (datasets/models/*.toml)" : "")};
    }
    if (!payload.canonical) {
        return NotApplicable{"variant '" + variant + "' has nothing to " + operation + " dataset '" + payload.name +
                                 "' with",
                             "the dataset is not one JSON document with a canonical digest in the manifest"};
    }
    return std::nullopt;
}

bool Variant::supports(const Payload& payload, const std::string& operation) const {
    return !not_applicable(payload, operation);
}

const std::vector<Variant>& variants() {
    static const std::vector<Variant> registry = [] {
        std::vector<Variant> all;
        for (auto group : {adapters::simdjson_variants(), adapters::rapidjson_variants(),
                           adapters::nlohmann_variants(), adapters::typed_nlohmann_variants(),
                           adapters::typed_simdjson_variants()}) {
            all.insert(all.end(), group.begin(), group.end());
        }
        return all;
    }();
    return registry;
}

const Variant& find_variant(const std::string& name) {
    std::vector<std::string> names;
    for (const auto& v : variants()) {
        if (v.variant == name) return v;
        names.push_back(v.variant);
    }
    throw LabError("unknown variant '" + name + "'", "variants of this lab: " + join(names));
}

void check_operation(const std::string& operation) {
    if (std::find(OPERATIONS.begin(), OPERATIONS.end(), operation) == OPERATIONS.end() &&
        std::find(COMPOSITES.begin(), COMPOSITES.end(), operation) == COMPOSITES.end()) {
        throw LabError("unknown operation '" + operation + "'",
                       "operations: " + join(OPERATIONS) + ", composites: " + join(COMPOSITES));
    }
}

Call bind(const Variant& variant, const Payload& payload, const std::string& operation) {
    check_operation(operation);
    if (const auto reason = variant.not_applicable(payload, operation)) throw LabError(reason->what, reason->hint);
    return variant.bind(payload, operation);
}

Value read_back(const std::string& text) { return adapters::simdjson_read_back(text); }

}  // namespace jsonlab
