// nlohmann/json (Debian's nlohmann-json3-dev, header-only), the convenient one: nlohmann::json::parse of the text into
// a json value (objects are std::map, so members come back sorted), and dump() of a parsed value (compact JSON text).
#include <memory>

#include <nlohmann/json.hpp>

#include "adapters.hpp"
#include "../lab_error.hpp"

namespace jsonlab::adapters {
namespace {

Value to_value(const nlohmann::json& j) {
    switch (j.type()) {
        case nlohmann::json::value_t::null: return Value::null();
        case nlohmann::json::value_t::boolean: return Value::boolean(j.get<bool>());
        case nlohmann::json::value_t::number_integer: return Value::of_number(double(j.get<std::int64_t>()));
        case nlohmann::json::value_t::number_unsigned: return Value::of_number(double(j.get<std::uint64_t>()));
        case nlohmann::json::value_t::number_float: return Value::of_number(j.get<double>());
        case nlohmann::json::value_t::string: return Value::of_string(j.get<std::string>());
        case nlohmann::json::value_t::array: {
            Value out = Value::array();
            for (const auto& item : j) out.items.push_back(to_value(item));
            return out;
        }
        case nlohmann::json::value_t::object: {
            Value out = Value::object();
            for (const auto& [name, item] : j.items()) out.members.emplace_back(name, to_value(item));
            return out;
        }
        default: break;
    }
    throw LabError("nlohmann/json returned a value that is not JSON (binary or discarded)", "report it");
}

// nlohmann/json's errors, as the cell's error.
template <typename F>
auto nlohmann_guarded(F&& f) {
    return guarded<nlohmann::json::exception>("nlohmann/json could not parse the dataset", std::forward<F>(f));
}

const std::string VERSION = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                            std::to_string(NLOHMANN_JSON_VERSION_PATCH);

}  // namespace

std::string nlohmann_version() { return VERSION; }

std::vector<Variant> nlohmann_variants() {
    Variant json{
        "nlohmann",
        "nlohmann/json",
        VERSION,
        "utf8_bytes",
        "document",
        {DESERIALIZE, SERIALIZE},
        "nlohmann::json::parse of the text into a json value; dump() of a parsed value to compact JSON text",
        [](const Payload& payload, const std::string& operation) -> Call {
            auto text = std::make_shared<std::string>(payload.bytes);
            if (operation == DESERIALIZE) {
                return [text]() { return std::uint64_t(nlohmann::json::parse(text->begin(), text->end()).size()); };
            }
            auto parsed = std::make_shared<nlohmann::json>(
                nlohmann_guarded([&] { return nlohmann::json::parse(text->begin(), text->end()); }));
            return [parsed]() { return std::uint64_t(parsed->dump().size()); };
        },
        [](const Payload& payload, const std::string& operation) -> Result {
            return nlohmann_guarded([&]() -> Result {
                nlohmann::json parsed = nlohmann::json::parse(payload.bytes.begin(), payload.bytes.end());
                if (operation == DESERIALIZE) return to_value(parsed);
                return parsed.dump();
            });
        },
    };
    return {json};
}

}  // namespace jsonlab::adapters
