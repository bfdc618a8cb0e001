// RapidJSON (Debian's rapidjson-dev, header-only): a rapidjson::Document parsed from the text (a fresh Document per
// call, as a program parsing one message does) and in situ (ParseInsitu into a writable copy of the text, which the
// call makes first: RapidJSON overwrites its input, so every call needs a fresh copy, and the copy is timed).
// Both parse with kParseFullPrecisionFlag: the default flags take a fast path that can round a number 1 ulp away from
// the double it denotes, which the canonical digest would reject on canada.json. Serialization: a Writer over a
// StringBuffer from a parsed Document (compact JSON text).
#include <cstring>
#include <memory>

#include "rapidjson_config.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "adapters.hpp"
#include "../lab_error.hpp"

namespace jsonlab::adapters {
namespace {

constexpr unsigned FLAGS = rapidjson::kParseFullPrecisionFlag;

Value to_value(const rapidjson::Value& v) {
    if (v.IsNull()) return Value::null();
    if (v.IsBool()) return Value::boolean(v.GetBool());
    if (v.IsNumber()) return Value::of_number(v.GetDouble());
    if (v.IsString()) return Value::of_string(std::string(v.GetString(), v.GetStringLength()));
    if (v.IsArray()) {
        Value out = Value::array();
        for (const auto& item : v.GetArray()) out.items.push_back(to_value(item));
        return out;
    }
    Value out = Value::object();
    for (const auto& member : v.GetObject()) {
        out.members.emplace_back(std::string(member.name.GetString(), member.name.GetStringLength()),
                                 to_value(member.value));
    }
    return out;
}

void parsed_or_throw(const rapidjson::Document& doc) {
    if (doc.HasParseError()) {
        throw LabError(std::string("RapidJSON could not parse the dataset: ") +
                           rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
                           std::to_string(doc.GetErrorOffset()),
                       "its other cells still run");
    }
}

std::string write(const rapidjson::Document& doc) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    doc.Accept(writer);
    return std::string(buffer.GetString(), buffer.GetSize());
}

const std::string VERSION = RAPIDJSON_VERSION_STRING;

}  // namespace

std::vector<Variant> rapidjson_variants() {
    Variant normal{
        "rapidjson",
        "RapidJSON",
        VERSION,
        "utf8_bytes",
        "document",
        {DESERIALIZE, SERIALIZE},
        "RapidJSON: a fresh Document per call parses the text (full-precision numbers); a Writer over a "
        "StringBuffer writes a parsed Document back to compact JSON text",
        [](const Payload& payload, const std::string& operation) -> Call {
            auto text = std::make_shared<std::string>(payload.bytes);
            if (operation == DESERIALIZE) {
                return [text]() {
                    rapidjson::Document doc;
                    doc.Parse<FLAGS>(text->data(), text->size());
                    return std::uint64_t(doc.GetType()) + doc.HasParseError();
                };
            }
            auto doc = std::make_shared<rapidjson::Document>();
            doc->Parse<FLAGS>(text->data(), text->size());
            parsed_or_throw(*doc);
            return [doc]() {
                rapidjson::StringBuffer buffer;
                rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
                doc->Accept(writer);
                return std::uint64_t(buffer.GetSize());
            };
        },
        [](const Payload& payload, const std::string& operation) -> Result {
            rapidjson::Document doc;
            doc.Parse<FLAGS>(payload.bytes.data(), payload.bytes.size());
            parsed_or_throw(doc);
            if (operation == DESERIALIZE) return to_value(doc);
            return write(doc);
        },
    };
    Variant insitu{
        "rapidjson-insitu",
        "RapidJSON",
        VERSION,
        "utf8_bytes",
        "document",
        {DESERIALIZE},
        "RapidJSON in situ: the call copies the text into a reused writable buffer, then a fresh Document parses it "
        "in place (strings point into the buffer; full-precision numbers); the copy is part of the timed call",
        [](const Payload& payload, const std::string&) -> Call {
            auto text = std::make_shared<std::string>(payload.bytes);
            auto buffer = std::make_shared<std::vector<char>>(payload.bytes.size() + 1);
            return [text, buffer]() {
                std::memcpy(buffer->data(), text->data(), text->size());
                (*buffer)[text->size()] = '\0';
                rapidjson::Document doc;
                doc.ParseInsitu<FLAGS>(buffer->data());
                return std::uint64_t(doc.GetType()) + doc.HasParseError();
            };
        },
        [](const Payload& payload, const std::string&) -> Result {
            std::vector<char> buffer(payload.bytes.begin(), payload.bytes.end());
            buffer.push_back('\0');
            rapidjson::Document doc;
            doc.ParseInsitu<FLAGS>(buffer.data());
            parsed_or_throw(doc);
            return to_value(doc);
        },
    };
    return {normal, insitu};
}

}  // namespace jsonlab::adapters
