// simdjson On-Demand binding typed models: a reused ondemand::parser iterates the text and the reader the model's
// description generates (lab/cpp/src/models/from_simdjson.hpp) fills the structs field by field, dispatching on
// each key, with no DOM built first. The simdjson::padded_string is made once outside the timed call, as for the
// untyped On-Demand variant. Deserialize only, and only the datasets with a model: twitter, citm_catalog, canada and
// every dataset whose manifest model is a declared one (models/typed_models.hpp).
#include <memory>

#include <simdjson.h>

#include "adapters.hpp"
#include "../lab_error.hpp"
#include "../models/from_simdjson.hpp"
#include "../models/typed_models.hpp"
#include "../models/to_value.hpp"

namespace jsonlab::adapters {
namespace {

template <typename F>
auto typed_guarded(F&& f) {
    return guarded<simdjson::simdjson_error>("simdjson On-Demand could not read the dataset into its model",
                                             std::forward<F>(f));
}

template <typename Model>
Model parse(simdjson::ondemand::parser& parser, const simdjson::padded_string& padded) {
    simdjson::ondemand::document document = parser.iterate(padded).value();
    Model model;
    models::read_simdjson_document(document, model);
    return model;
}

}  // namespace

std::vector<Variant> typed_simdjson_variants() {
    Variant typed{
        "simdjson-ondemand-typed",
        "simdjson",
        simdjson_version(),
        "utf8_bytes",
        "typed model (lab/cpp/src/models)",
        {DESERIALIZE},
        "simdjson's On-Demand API read straight into the file's typed model: one reused ondemand::parser iterates a "
        "padded_string, each object's fields dispatched on the key (an unknown member fails); twitter, citm_catalog, "
        "canada and the datasets of declared models",
        [](const Payload& payload, const std::string&) -> Call {
            auto padded = std::make_shared<simdjson::padded_string>(payload.bytes);
            auto parser = std::make_shared<simdjson::ondemand::parser>();
            return models::with_typed_model(payload, [&](auto tag) -> Call {
                using Model = typename decltype(tag)::type;
                return [padded, parser]() { return models::summary_of(parse<Model>(*parser, *padded)); };
            });
        },
        [](const Payload& payload, const std::string&) -> Result {
            simdjson::padded_string padded(payload.bytes);
            simdjson::ondemand::parser parser;
            return models::with_typed_model(payload, [&](auto tag) -> Result {
                using Model = typename decltype(tag)::type;
                return typed_guarded([&] { return models::to_value(parse<Model>(parser, padded)); });
            });
        },
        models::CORPUS_DATASETS,
        true,
    };
    return {typed};
}

}  // namespace jsonlab::adapters
