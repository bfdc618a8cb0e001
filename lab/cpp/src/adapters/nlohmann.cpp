// nlohmann/json (Debian's nlohmann-json3-dev, header-only), the convenient one: nlohmann::json::parse of the text into
// a json value (objects are std::map, so members come back sorted), and dump() of a parsed value (compact JSON text).
// Its composites chain the same two calls (dump() then parse of that text, parse then dump()), or parse then read
// every value through the json API (read_every_value).
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

// Reads every value of a parsed json once, as a program that parses into a tree then uses it: each member's name and
// value, each element, a string's text, a number as a double. `leaves` counts the leaves read (scalars, and empty
// objects or arrays: the canonical form's count for a correct parse); `touched` gathers what was read, and the timed
// call returns it too, so no read can be dropped by the optimizer.
struct Read {
    std::uint64_t leaves = 0;
    std::uint64_t touched = 0;
};

void read_every_value(const nlohmann::json& j, Read& read) {
    switch (j.type()) {
        case nlohmann::json::value_t::array:
            if (j.empty()) ++read.leaves;
            for (const auto& item : j) read_every_value(item, read);
            return;
        case nlohmann::json::value_t::object:
            if (j.empty()) ++read.leaves;
            for (const auto& [name, item] : j.items()) {
                read.touched += name.size();
                read_every_value(item, read);
            }
            return;
        case nlohmann::json::value_t::string: read.touched += j.get_ref<const std::string&>().size(); break;
        case nlohmann::json::value_t::boolean: read.touched += j.get<bool>() ? 1 : 0; break;
        case nlohmann::json::value_t::null: break;
        default: read.touched += j.get<double>() != 0.0 ? 1 : 0; break;
    }
    ++read.leaves;
}

Read read_every_value(const nlohmann::json& j) {
    Read read;
    read_every_value(j, read);
    return read;
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
            if (operation == DESERIALIZE_THEN_SERIALIZE) {
                return [text]() { return std::uint64_t(nlohmann::json::parse(text->begin(), text->end()).dump().size()); };
            }
            if (operation == DESERIALIZE_THEN_READ) {
                return [text]() {
                    const Read read = read_every_value(nlohmann::json::parse(text->begin(), text->end()));
                    return read.leaves + read.touched;
                };
            }
            auto parsed = std::make_shared<nlohmann::json>(
                nlohmann_guarded([&] { return nlohmann::json::parse(text->begin(), text->end()); }));
            if (operation == SERIALIZE_THEN_DESERIALIZE) {
                return [parsed]() {
                    const std::string written = parsed->dump();
                    return std::uint64_t(nlohmann::json::parse(written.begin(), written.end()).size());
                };
            }
            return [parsed]() { return std::uint64_t(parsed->dump().size()); };
        },
        [](const Payload& payload, const std::string& operation) -> Result {
            return nlohmann_guarded([&]() -> Result {
                nlohmann::json parsed = nlohmann::json::parse(payload.bytes.begin(), payload.bytes.end());
                if (operation == DESERIALIZE) return to_value(parsed);
                if (operation == DESERIALIZE_THEN_READ) {
                    return Result{std::in_place_type<std::uint64_t>, read_every_value(parsed).leaves};
                }
                if (operation == SERIALIZE_THEN_DESERIALIZE) {
                    const std::string written = parsed.dump();
                    return to_value(nlohmann::json::parse(written.begin(), written.end()));
                }
                return parsed.dump();  // serialize, and deserialize-then-serialize's result
            });
        },
    };
    json.composites = COMPOSITES;
    return {json};
}

}  // namespace jsonlab::adapters
