// The variants this lab offers: one adapter each, as in lab/dotnet/src/Adapters and lab/reference-node/src/variants.js.
// An adapter names its library and version, the payload form it reads or writes, the model binding, the operations it
// can perform, the datasets it applies to (a typed model reads only the files it models; none listed: every dataset),
// and two functions: `bind`, which prepares everything outside the timed call and returns the call itself, and
// `result`, which performs the same operation once and hands back what it produced (a document as a canonical Value,
// or serialized text) for verification. Adding a variant is adding one entry to the registry in variants.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "canonical.hpp"
#include "datasets.hpp"

namespace jsonlab {

inline const std::string DESERIALIZE = "deserialize";
inline const std::string SERIALIZE = "serialize";
inline const std::vector<std::string> OPERATIONS = {DESERIALIZE, SERIALIZE};
// Composite operations: two steps in one timed call (docs/experiments.md "Composite operations"), each the same library
// call as the step alone, the second reading what the first made inside the call. A variant whose steps chain lists
// them in `composites`; its `result` hands back the chain's own result (deserialize-then-read: the leaves it read).
inline const std::string SERIALIZE_THEN_DESERIALIZE = "serialize-then-deserialize";
inline const std::string DESERIALIZE_THEN_SERIALIZE = "deserialize-then-serialize";
inline const std::string DESERIALIZE_THEN_READ = "deserialize-then-read";
inline const std::vector<std::string> COMPOSITES = {SERIALIZE_THEN_DESERIALIZE, DESERIALIZE_THEN_SERIALIZE,
                                                    DESERIALIZE_THEN_READ};
// The steps of an operation, in order (one for a single step).
std::vector<std::string> steps_of(const std::string& operation);

// The timed call. It returns a value derived from its result, which the timing loop keeps from the optimizer.
using Call = std::function<std::uint64_t()>;
// What one operation produced: the parsed document, or the serialized text (or, for deserialize-then-read, the number
// of leaves read).
using Result = std::variant<Value, std::string, std::uint64_t>;

// Why a variant does not apply to a cell, as a LabError would say it.
struct NotApplicable {
    std::string what;
    std::string hint;
};

struct Variant {
    std::string variant;
    std::string library;
    std::string library_version;
    std::string payload_form;
    std::string model_binding;
    std::vector<std::string> operations;
    std::string description;
    std::function<Call(const Payload&, const std::string& operation)> bind;
    std::function<Result(const Payload&, const std::string& operation)> result;
    std::vector<std::string> datasets{};  // the only datasets it applies to; empty: every one
    bool declared_models = false;         // also every dataset whose manifest model is a declared one
    std::vector<std::string> composites{};  // the composite operations it runs (COMPOSITES)

    // Why it cannot perform `operation` on `payload` (an operation it lacks, a dataset it has no model for, a dataset
    // without a canonical digest), or nothing when it can.
    std::optional<NotApplicable> not_applicable(const Payload& payload, const std::string& operation) const;
    bool supports(const Payload& payload, const std::string& operation) const;
};

const std::vector<Variant>& variants();
const Variant& find_variant(const std::string& name);
// The call of a variant for one operation on one payload, with a clear error when it cannot perform it.
Call bind(const Variant& variant, const Payload& payload, const std::string& operation);
void check_operation(const std::string& operation);

// The canonical Value of a JSON text, read with simdjson's DOM (a serializer's output is verified this way).
Value read_back(const std::string& text);

}  // namespace jsonlab
