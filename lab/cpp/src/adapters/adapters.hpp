// The library adapters (one file each; the typed variants, which bind lab/cpp/src/models, one file per library);
// variants.cpp puts their variants in one registry.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "../lab_error.hpp"
#include "../variants.hpp"

namespace jsonlab::adapters {

// Runs f; the library's own exception (type E) becomes a LabError that starts with `what` (the cell fails with it,
// the run goes on). Every adapter guards its untimed calls (binding, verification) this way.
template <typename E, typename F>
auto guarded(const std::string& what, F&& f) {
    try {
        return f();
    } catch (const E& e) {
        throw LabError(what + ": " + e.what(), "its other cells still run");
    }
}

std::vector<Variant> simdjson_variants();
std::vector<Variant> rapidjson_variants();
std::vector<Variant> nlohmann_variants();
std::vector<Variant> typed_nlohmann_variants();
std::vector<Variant> typed_simdjson_variants();

// The library versions the variants report (the headers compiled in).
std::string simdjson_version();
std::string nlohmann_version();

// A JSON text as a canonical Value, read with simdjson's DOM (how a serializer's output is read back).
Value simdjson_read_back(const std::string& text);

}  // namespace jsonlab::adapters
