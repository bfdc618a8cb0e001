// nlohmann/json binding typed models: nlohmann::json::parse of the text, then get<Model>() through the from_json the
// model's description generates (lab/cpp/src/models/from_nlohmann.hpp), the way nlohmann users bind their types.
// Deserialize only, and only the datasets with a model: twitter, citm_catalog, canada (models/corpus_models.hpp) and
// every dataset whose manifest model is a declared one (models/typed_models.hpp).
#include <memory>

#include <nlohmann/json.hpp>

#include "adapters.hpp"
#include "../lab_error.hpp"
#include "../models/from_nlohmann.hpp"
#include "../models/typed_models.hpp"
#include "../models/to_value.hpp"

namespace jsonlab::adapters {
namespace {

template <typename F>
auto typed_guarded(F&& f) {
    return guarded<nlohmann::json::exception>("nlohmann/json could not read the dataset into its model",
                                               std::forward<F>(f));
}

template <typename Model>
Model parse(const std::string& text) {
    if constexpr (models::Describe<Model>::described) {
        return nlohmann::json::parse(text.begin(), text.end()).get<Model>();
    } else {  // a declared model's root that is an array or a keyed object
        Model model;
        models::read_json(nlohmann::json::parse(text.begin(), text.end()), model);
        return model;
    }
}

}  // namespace

std::vector<Variant> typed_nlohmann_variants() {
    Variant typed{
        "nlohmann-typed",
        "nlohmann/json",
        nlohmann_version(),
        "utf8_bytes",
        "typed model (lab/cpp/src/models)",
        {DESERIALIZE},
        "nlohmann::json::parse of the text, then get<Model>() into the file's typed model through from_json (members "
        "looked up by name; an unknown member fails); twitter, citm_catalog, canada and the datasets of declared models",

        [](const Payload& payload, const std::string&) -> Call {
            auto text = std::make_shared<std::string>(payload.bytes);
            return models::with_typed_model(payload, [&](auto tag) -> Call {
                using Model = typename decltype(tag)::type;
                return [text]() { return models::summary_of(parse<Model>(*text)); };
            });
        },
        [](const Payload& payload, const std::string&) -> Result {
            return models::with_typed_model(payload, [&](auto tag) -> Result {
                using Model = typename decltype(tag)::type;
                return typed_guarded([&] { return models::to_value(parse<Model>(payload.bytes)); });
            });
        },
        models::CORPUS_DATASETS,
        true,
    };
    return {typed};
}

}  // namespace jsonlab::adapters
