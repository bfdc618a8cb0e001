// Verification before timing: a variant's result must denote exactly the dataset. A parse result's canonical digest
// (canonical.hpp) must equal the manifest's; a serializer's output, read back with simdjson's DOM, must too. So a parse
// that loses a value, skips part of the document or returns an empty result is caught, never timed as a win.
#pragma once

#include <nlohmann/json.hpp>

#include "datasets.hpp"
#include "variants.hpp"

namespace jsonlab {

// The verification record of the lab contract (docs/lab-contract.md section 3), plus `operation_error` when the
// variant could not perform the operation at all.
nlohmann::json verify(const Variant& variant, const Payload& payload, const std::string& operation);

}  // namespace jsonlab
