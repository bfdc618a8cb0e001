// The library adapters (one file each; the typed variants, which bind lab/native/src/models, one file per library);
// variants.cpp puts their variants in one registry.
#pragma once

#include <vector>

#include "../variants.hpp"

namespace jsonlab::adapters {

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
