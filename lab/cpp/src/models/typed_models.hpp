// Which typed model a dataset binds in the typed variants (nlohmann-typed, simdjson-ondemand-typed): the corpus files
// by name (corpus_models.hpp, written by hand), and any dataset whose manifest "model" is a declared one
// ("<space>.<root>", datasets/models/*.toml), whose structs the harness writes into declared/declared_models.hpp
// before every build (harness/codegen/cpp.py; generated, never committed). A build made without the harness has
// no declared models, and says so when a dataset asks for one.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../datasets.hpp"
#include "corpus_models.hpp"
#include "model.hpp"

#if __has_include("declared/declared_models.hpp")
#include "declared/declared_models.hpp"
#else
namespace jsonlab::models {
inline const std::vector<std::string> DECLARED_MODELS = {};
template <typename F>
auto with_declared_model(const std::string& model, F&& f) -> decltype(f(ModelTag<int>{})) {
    throw LabError("this build has no declared model '" + model + "'",
                   "build the lab through the harness (just build), which writes src/models/declared/ first");
}
}  // namespace jsonlab::models
#endif

namespace jsonlab::models {

// Reads a declared model by its manifest name ("every-primitive.all").
inline bool is_declared(const std::string& model) {
    return !model.empty() && std::find(DECLARED_MODELS.begin(), DECLARED_MODELS.end(), model) != DECLARED_MODELS.end();
}

// f(ModelTag<the dataset's model>{}): a corpus file's by its name, else a declared model's by the manifest's "model".
template <typename F>
decltype(auto) with_typed_model(const Payload& payload, F&& f) {
    if (std::find(CORPUS_DATASETS.begin(), CORPUS_DATASETS.end(), payload.name) != CORPUS_DATASETS.end()) {
        return with_corpus_model(payload.name, std::forward<F>(f));
    }
    return with_declared_model(payload.model, std::forward<F>(f));
}

// What a timed call returns for a declared model: a number read from the parsed value's top level only (sizes,
// presence), so the parse is not optimized away and nothing more is read than a caller would touch.
template <typename T>
std::uint64_t shallow(const T& x) {
    if constexpr (is_vector<T>::value || std::is_same_v<T, std::string>) {
        return x.size();
    } else if constexpr (is_optional<T>::value) {
        return x.has_value();
    } else if constexpr (is_maybe<T>::value) {
        return x.present;
    } else if constexpr (std::is_arithmetic_v<T>) {
        return static_cast<std::uint64_t>(x);
    } else {
        return 1;  // a nested model
    }
}

template <typename T>
std::uint64_t declared_summary(const T& m);

// What a timed call of a typed variant returns: the corpus models' own summary, else a declared model's.
template <typename T>
std::uint64_t summary_of(const T& m) {
    if constexpr (std::is_same_v<T, TwitterSearch> || std::is_same_v<T, CitmCatalog> ||
                  std::is_same_v<T, CanadaCollection>) {
        return summary(m);
    } else {
        return declared_summary(m);
    }
}

template <typename T>
std::uint64_t declared_summary(const T& m) {
    if constexpr (Describe<T>::described) {
        std::uint64_t sum = 0;
        for_each_field<T>([&](const auto& field) { sum += shallow(m.*field.member); });
        return sum;
    } else {
        return shallow(m);
    }
}

}  // namespace jsonlab::models
