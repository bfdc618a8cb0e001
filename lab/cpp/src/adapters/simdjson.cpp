// simdjson (Debian's libsimdjson-dev): the DOM API (a parser reused across calls, as simdjson's documentation
// recommends, parsing into its tape) and the On-Demand API walking every value of the document, so that both do the
// work a document parse does: every string unescaped, every number converted to a double, every key read. Input is a
// simdjson::padded_string made once outside the timed call (simdjson needs SIMDJSON_PADDING readable bytes past the
// end). Serialization is simdjson::to_string of a DOM element (minified JSON text).
#include <cstring>
#include <memory>

#include <simdjson.h>

#include "adapters.hpp"
#include "../lab_error.hpp"

namespace jsonlab::adapters {
namespace {

Value dom_value(simdjson::dom::element element) {
    switch (element.type()) {
        // The array or object is held in a local first: `.value()` of a temporary simdjson_result is a reference into
        // it, which a range-for would iterate after the temporary is gone (undefined behaviour, a crash at -O1).
        case simdjson::dom::element_type::ARRAY: {
            Value out = Value::array();
            const simdjson::dom::array array = element.get_array().value();
            for (simdjson::dom::element child : array) out.items.push_back(dom_value(child));
            return out;
        }
        case simdjson::dom::element_type::OBJECT: {
            Value out = Value::object();
            const simdjson::dom::object object = element.get_object().value();
            for (simdjson::dom::key_value_pair field : object) {
                out.members.emplace_back(std::string(field.key), dom_value(field.value));
            }
            return out;
        }
        case simdjson::dom::element_type::INT64: return Value::of_number(double(element.get_int64().value()));
        case simdjson::dom::element_type::UINT64: return Value::of_number(double(element.get_uint64().value()));
        case simdjson::dom::element_type::DOUBLE: return Value::of_number(element.get_double().value());
        case simdjson::dom::element_type::STRING: return Value::of_string(std::string(element.get_string().value()));
        case simdjson::dom::element_type::BOOL: return Value::boolean(element.get_bool().value());
        case simdjson::dom::element_type::NULL_VALUE: return Value::null();
    }
    throw LabError("simdjson returned an element of unknown type", "report it: the lab does not know this type");
}

// The On-Demand walk, shared by the timed call (Sink = Tally, which only accumulates) and verification (Sink = Build,
// which builds a Value): both read every value the same way.
struct Tally {
    std::uint64_t total = 0;
    void number(double d) {
        std::uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        total += bits;
    }
    void string(std::string_view s) { total += s.size(); }
    void boolean(bool b) { total += b; }
    void null() { ++total; }
    void begin_array() { ++total; }
    void begin_object() { ++total; }
    void key(std::string_view k) { total += k.size(); }
    void end() {}
};

struct Build {
    std::vector<Value> stack;
    std::vector<std::string> keys;
    Value root;
    void add(Value v) {
        if (stack.empty()) {
            root = std::move(v);
        } else if (stack.back().kind == Value::Kind::Array) {
            stack.back().items.push_back(std::move(v));
        } else {
            stack.back().members.emplace_back(std::move(keys.back()), std::move(v));
            keys.pop_back();
        }
    }
    void number(double d) { add(Value::of_number(d)); }
    void string(std::string_view s) { add(Value::of_string(std::string(s))); }
    void boolean(bool b) { add(Value::boolean(b)); }
    void null() { add(Value::null()); }
    void begin_array() { stack.push_back(Value::array()); }
    void begin_object() { stack.push_back(Value::object()); }
    void key(std::string_view k) { keys.emplace_back(k); }
    void end() {
        Value done = std::move(stack.back());
        stack.pop_back();
        add(std::move(done));
    }
};

template <typename Sink>
void walk(simdjson::ondemand::value value, Sink& sink);

template <typename Sink>
void walk_array(simdjson::ondemand::array array, Sink& sink) {
    sink.begin_array();
    for (auto child : array) walk(child.value(), sink);
    sink.end();
}

template <typename Sink>
void walk_object(simdjson::ondemand::object object, Sink& sink) {
    sink.begin_object();
    for (auto field : object) {
        sink.key(field.unescaped_key().value());
        walk(field.value().value(), sink);
    }
    sink.end();
}

// is_null() answers a bool or a simdjson_result<bool> depending on the simdjson version.
inline bool as_bool(bool b) { return b; }
inline bool as_bool(simdjson::simdjson_result<bool> r) { return r.value(); }

// A scalar, read from a value or from a scalar document's root alike.
template <typename Sink, typename Node>
void scalar(simdjson::ondemand::json_type type, Node& node, Sink& sink) {
    switch (type) {
        case simdjson::ondemand::json_type::number: sink.number(node.get_double().value()); break;
        case simdjson::ondemand::json_type::string: sink.string(node.get_string().value()); break;
        case simdjson::ondemand::json_type::boolean: sink.boolean(node.get_bool().value()); break;
        case simdjson::ondemand::json_type::null:
            if (!as_bool(node.is_null())) throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
            sink.null();
            break;
        default: throw simdjson::simdjson_error(simdjson::INCORRECT_TYPE);
    }
}

template <typename Sink>
void walk(simdjson::ondemand::value value, Sink& sink) {
    simdjson::ondemand::json_type type = value.type().value();
    if (type == simdjson::ondemand::json_type::array) return walk_array(value.get_array().value(), sink);
    if (type == simdjson::ondemand::json_type::object) return walk_object(value.get_object().value(), sink);
    scalar(type, value, sink);
}

// A whole document, then nothing after it.
template <typename Sink>
void walk_document(simdjson::ondemand::document& doc, Sink& sink) {
    simdjson::ondemand::json_type type = doc.type().value();
    if (type == simdjson::ondemand::json_type::array) {
        walk_array(doc.get_array().value(), sink);
    } else if (type == simdjson::ondemand::json_type::object) {
        walk_object(doc.get_object().value(), sink);
    } else {
        scalar(type, doc, sink);
    }
    // Nothing after the document (simdjson 3.0 has no document::at_end(): current_location() is an error once the
    // whole document has been read).
    if (!doc.current_location().error()) throw simdjson::simdjson_error(simdjson::TRAILING_CONTENT);
}

// simdjson's errors, as the cell's error ("simdjson DOM parse failed: ...").
template <typename F>
auto simdjson_guarded(const char* what, F&& f) {
    return guarded<simdjson::simdjson_error>(std::string("simdjson ") + what + " failed", std::forward<F>(f));
}

// SIMDJSON_VERSION is a bare token before simdjson 3.1; the version enum exists in every release.
const std::string VERSION = std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
                            std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." +
                            std::to_string(simdjson::SIMDJSON_VERSION_REVISION);

}  // namespace

std::string simdjson_version() { return VERSION; }

Value simdjson_read_back(const std::string& text) {
    simdjson::padded_string padded(text);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    auto error = parser.parse(padded).get(root);
    if (error) throw LabError(std::string("not JSON: ") + simdjson::error_message(error), "");
    return dom_value(root);
}

std::vector<Variant> simdjson_variants() {
    Variant dom{
        "simdjson-dom",
        "simdjson",
        VERSION,
        "utf8_bytes",
        "document",
        {DESERIALIZE, SERIALIZE},
        "simdjson's DOM: one reused dom::parser parses a padded_string into its tape; to_string serializes the "
        "parsed element back to minified JSON text",
        [](const Payload& payload, const std::string& operation) -> Call {
            auto padded = std::make_shared<simdjson::padded_string>(payload.bytes);
            auto parser = std::make_shared<simdjson::dom::parser>();
            if (operation == DESERIALIZE) {
                return [padded, parser]() {
                    return std::uint64_t(parser->parse(*padded).value().type());
                };
            }
            simdjson::dom::element root = simdjson_guarded("parse", [&] { return parser->parse(*padded).value(); });
            return [padded, parser, root]() { return std::uint64_t(simdjson::to_string(root).size()); };
        },
        [](const Payload& payload, const std::string& operation) -> Result {
            simdjson::padded_string padded(payload.bytes);
            simdjson::dom::parser parser;
            return simdjson_guarded("DOM parse", [&]() -> Result {
                simdjson::dom::element root = parser.parse(padded).value();
                if (operation == DESERIALIZE) return dom_value(root);
                return simdjson::to_string(root);
            });
        },
    };
    Variant on_demand{
        "simdjson-ondemand",
        "simdjson",
        VERSION,
        "utf8_bytes",
        "document",
        {DESERIALIZE},
        "simdjson's On-Demand API: one reused ondemand::parser iterates a padded_string and the call walks every "
        "value (each key and string unescaped, each number read as a double), the work a document parse does",
        [](const Payload& payload, const std::string&) -> Call {
            auto padded = std::make_shared<simdjson::padded_string>(payload.bytes);
            auto parser = std::make_shared<simdjson::ondemand::parser>();
            return [padded, parser]() {
                simdjson::ondemand::document doc = parser->iterate(*padded).value();
                Tally tally;
                walk_document(doc, tally);
                return tally.total;
            };
        },
        [](const Payload& payload, const std::string&) -> Result {
            simdjson::padded_string padded(payload.bytes);
            simdjson::ondemand::parser parser;
            return simdjson_guarded("On-Demand walk", [&]() -> Result {
                simdjson::ondemand::document doc = parser.iterate(padded).value();
                Build build;
                walk_document(doc, build);
                return std::move(build.root);
            });
        },
    };
    return {dom, on_demand};
}

}  // namespace jsonlab::adapters
