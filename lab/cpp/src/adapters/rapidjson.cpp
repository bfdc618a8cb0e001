// RapidJSON (Debian's rapidjson-dev, header-only): a rapidjson::Document parsed from the text (a fresh Document per
// call, as a program parsing one message does) and in situ (ParseInsitu into a writable copy of the text, which the
// call makes first: RapidJSON overwrites its input, so every call needs a fresh copy, and the copy is timed).
// Both parse with kParseFullPrecisionFlag: the default flags take a fast path that can round a number 1 ulp away from
// the double it denotes, which the canonical digest would reject on canada.json. Serialization: a Writer over a
// StringBuffer from a parsed Document (compact JSON text).
//
// RapidJSON's SIMD paths are compile-time, so its code is compiled once per path (a "kernel",
// rapidjson_kernel.hpp/.cpp) and the ISA level picks one at run time (JSONLAB_RAPIDJSON_SIMD, rapidjson_simd.hpp).
// This file holds no RapidJSON code: every call below goes to the kernel in effect when the cell is bound (`env`
// reports it as rapidjson_simd, a cell as well).
#include <cstring>
#include <memory>

#include "adapters.hpp"
#include "rapidjson_simd.hpp"
#include "../lab_error.hpp"

namespace jsonlab::adapters {
namespace {

// Builds a canonical Value from a kernel's walk of a parsed document.
class Builder {
public:
    rapidjson_kernels::Visitor visitor() {
        return {this,
                [](void* self) { static_cast<Builder*>(self)->add(Value::null()); },
                [](void* self, bool b) { static_cast<Builder*>(self)->add(Value::boolean(b)); },
                [](void* self, double d) { static_cast<Builder*>(self)->add(Value::of_number(d)); },
                [](void* self, const char* data, std::size_t size) {
                    static_cast<Builder*>(self)->add(Value::of_string(std::string(data, size)));
                },
                [](void* self, const char* data, std::size_t size) {
                    static_cast<Builder*>(self)->keys_.back().assign(data, size);
                },
                [](void* self) { static_cast<Builder*>(self)->open(Value::array()); },
                [](void* self) { static_cast<Builder*>(self)->open(Value::object()); },
                [](void* self) { static_cast<Builder*>(self)->close(); }};
    }
    Value take() { return std::move(root_); }

private:
    void add(Value value) {
        if (open_.empty()) {
            root_ = std::move(value);
        } else if (open_.back().kind == Value::Kind::Array) {
            open_.back().items.push_back(std::move(value));
        } else {
            open_.back().members.emplace_back(std::move(keys_.back()), std::move(value));
        }
    }
    void open(Value container) {
        open_.push_back(std::move(container));
        keys_.emplace_back();
    }
    void close() {
        Value done = std::move(open_.back());
        open_.pop_back();
        keys_.pop_back();
        add(std::move(done));
    }

    Value root_;
    std::vector<Value> open_;         // the arrays and objects being filled, outermost first
    std::vector<std::string> keys_;   // the key of the member being read, per open container
};

void parsed_or_throw(const rapidjson_kernels::ParseError& error) {
    if (error.message != nullptr) {
        throw LabError(std::string("RapidJSON could not parse the dataset: ") + error.message + " at offset " +
                           std::to_string(error.offset),
                       "its other cells still run");
    }
}

std::shared_ptr<rapidjson_kernels::Document> parse_document(const RapidjsonKernel& kernel, const std::string& text) {
    rapidjson_kernels::ParseError error;
    rapidjson_kernels::Document* doc = kernel.parse_document(text.data(), text.size(), &error);
    parsed_or_throw(error);
    return std::shared_ptr<rapidjson_kernels::Document>(doc, kernel.free_document);
}

std::string write(const RapidjsonKernel& kernel, const rapidjson_kernels::Document* doc) {
    std::string out;
    auto append = [](void* context, const char* data, std::size_t size) {
        static_cast<std::string*>(context)->append(data, size);
    };
    kernel.write(doc, append, &out);
    return out;
}

// Which kernels this build has, and who picks one.
std::string kernel_note() {
    std::string names;
    for (const auto* kernel : rapidjson_kernels_compiled()) {
        names += (names.empty() ? "" : ", ") + std::string(kernel->name);
    }
    return "; RapidJSON's SIMD path is one of this build's kernels (" + names +
           "), chosen by the ISA level (JSONLAB_RAPIDJSON_SIMD; `env` and cell.json record it as rapidjson_simd)";
}

}  // namespace

std::vector<Variant> rapidjson_variants() {
    const std::string version = rapidjson_kernels_compiled().front()->version;  // the same headers in every kernel
    const std::string note = kernel_note();
    Variant normal{
        "rapidjson",
        "RapidJSON",
        version,
        "utf8_bytes",
        "document",
        {DESERIALIZE, SERIALIZE},
        "RapidJSON: a fresh Document per call parses the text (full-precision numbers); a Writer over a "
        "StringBuffer writes a parsed Document back to compact JSON text" +
            note,
        [](const Payload& payload, const std::string& operation) -> Call {
            const RapidjsonKernel* kernel = &active_rapidjson_kernel();
            if (operation == DESERIALIZE) {
                auto text = std::make_shared<std::string>(payload.bytes);
                return [kernel, text]() { return kernel->parse(text->data(), text->size()); };
            }
            auto doc = parse_document(*kernel, payload.bytes);
            return [kernel, doc]() { return kernel->write_size(doc.get()); };
        },
        [](const Payload& payload, const std::string& operation) -> Result {
            const RapidjsonKernel& kernel = active_rapidjson_kernel();
            if (operation == DESERIALIZE) {
                Builder builder;
                parsed_or_throw(kernel.visit(payload.bytes.data(), payload.bytes.size(), builder.visitor()));
                return builder.take();
            }
            return write(kernel, parse_document(kernel, payload.bytes).get());
        },
    };
    Variant insitu{
        "rapidjson-insitu",
        "RapidJSON",
        version,
        "utf8_bytes",
        "document",
        {DESERIALIZE},
        "RapidJSON in situ: the call copies the text into a reused writable buffer, then a fresh Document parses it "
        "in place (strings point into the buffer; full-precision numbers); the copy is part of the timed call" +
            note,
        [](const Payload& payload, const std::string&) -> Call {
            const RapidjsonKernel* kernel = &active_rapidjson_kernel();
            auto text = std::make_shared<std::string>(payload.bytes);
            auto buffer = std::make_shared<std::vector<char>>(payload.bytes.size() + 1);
            return [kernel, text, buffer]() {
                std::memcpy(buffer->data(), text->data(), text->size());
                (*buffer)[text->size()] = '\0';
                return kernel->parse_insitu(buffer->data());
            };
        },
        [](const Payload& payload, const std::string&) -> Result {
            std::vector<char> buffer(payload.bytes.begin(), payload.bytes.end());
            buffer.push_back('\0');
            Builder builder;
            parsed_or_throw(active_rapidjson_kernel().visit_insitu(buffer.data(), builder.visitor()));
            return builder.take();
        },
    };
    return {normal, insitu};
}

}  // namespace jsonlab::adapters
