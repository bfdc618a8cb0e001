// The library adapters (one file each); variants.cpp puts their variants in one registry.
#pragma once

#include <vector>

#include "../variants.hpp"

namespace jsonlab::adapters {

std::vector<Variant> simdjson_variants();
std::vector<Variant> rapidjson_variants();
std::vector<Variant> nlohmann_variants();

// A JSON text as a canonical Value, read with simdjson's DOM (how a serializer's output is read back).
Value simdjson_read_back(const std::string& text);

}  // namespace jsonlab::adapters
