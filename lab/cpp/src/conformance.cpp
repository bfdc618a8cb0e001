#include "conformance.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <vector>

#include <simdjson.h>

#include "adapters/rapidjson_simd.hpp"

#include "datasets.hpp"
#include "lab_error.hpp"
#include "variants.hpp"

namespace jsonlab {
namespace {

// A parser's verdict on one file: empty when it accepted the file, else why it rejected it.
using Parse = std::function<std::string(const std::string& bytes)>;

struct Parser {
    std::string parser;
    std::string library;
    std::string description;
    Parse parse;
};

// RapidJSON's verdict with the kernel in effect (JSONLAB_RAPIDJSON_SIMD, as for its variants): `strict` adds
// kParseValidateEncodingFlag.
std::string rapidjson_reason(const std::string& bytes, bool strict) {
    const auto& kernel = adapters::active_rapidjson_kernel();
    const char* why = (strict ? kernel.check_strict : kernel.check)(bytes.data(), bytes.size());
    return why == nullptr ? "" : why;
}

const std::vector<Parser>& parsers() {
    static const std::vector<Parser> all = {
        {"simdjson-dom", "simdjson", "simdjson's DOM parser (validates UTF-8; the whole document, nothing after it)",
         [](const std::string& bytes) -> std::string {
             simdjson::padded_string padded(bytes);
             simdjson::dom::parser parser;
             simdjson::dom::element root;
             auto error = parser.parse(padded).get(root);
             return error ? simdjson::error_message(error) : "";
         }},
        {"rapidjson", "RapidJSON",
         "RapidJSON's Document::Parse(text, length) with its default flags (no UTF-8 validation; reading from a "
         "buffer, it skips a byte order mark); the RapidJSON kernel the ISA level selects (JSONLAB_RAPIDJSON_SIMD)",
         [](const std::string& bytes) { return rapidjson_reason(bytes, false); }},
        {"rapidjson-strict", "RapidJSON",
         "RapidJSON's Document::Parse with kParseValidateEncodingFlag (invalid UTF-8 rejected); the RapidJSON kernel "
         "the ISA level selects (JSONLAB_RAPIDJSON_SIMD)",
         [](const std::string& bytes) { return rapidjson_reason(bytes, true); }},
        {"nlohmann", "nlohmann/json", "nlohmann::json::parse (validates UTF-8; a byte order mark is skipped)",
         [](const std::string& bytes) -> std::string {
             try {
                 nlohmann::json::parse(bytes.begin(), bytes.end());
                 return "";
             } catch (const nlohmann::json::exception& e) {
                 return e.what();
             }
         }},
    };
    return all;
}

const Parser& find_parser(const std::string& name) {
    std::string names;
    for (const auto& p : parsers()) {
        if (p.parser == name) return p;
        names += (names.empty() ? "" : ", ") + p.parser;
    }
    throw LabError("unknown conformance parser '" + name + "'", "valid parsers: " + names);
}

std::string library_version(const std::string& library) {
    for (const auto& v : variants()) {
        if (v.library == library) return v.library_version;
    }
    return "unknown";
}

}  // namespace

nlohmann::json conformance_parsers() {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : parsers()) {
        out.push_back({{"parser", p.parser},
                       {"library", p.library},
                       {"library_version", library_version(p.library)},
                       {"description", p.description}});
    }
    return out;
}

int conformance_verb(const Args& args) {
    const Parser& parser = find_parser(args.required("parser"));
    const std::filesystem::path directory = args.required("files");
    if (!std::filesystem::is_directory(directory)) {
        throw LabError("no conformance folder at " + directory.string(),
                       "pass --files pointing at datasets/conformance/test_parsing");
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        const std::string name = entry.path().filename().string();
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(name);
    }
    std::sort(files.begin(), files.end());
    std::ofstream out(args.required("out"), std::ios::app);
    parser.parse("[0]");  // warmed on a valid document, then the ready line (the harness's start-up allowance ends)
    out << nlohmann::json{{"ready", true}}.dump() << "\n" << std::flush;
    const auto start = std::size_t(std::max(0LL, args.optional_int("start").value_or(0)));
    for (std::size_t i = start; i < files.size(); ++i) {
        const std::string bytes = read_file((directory / files[i]).string());
        const auto started = std::chrono::steady_clock::now();
        const std::string why = parser.parse(bytes);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        nlohmann::json line = {{"file", files[i]},
                               {"outcome", why.empty() ? "accepted" : "rejected"},
                               {"detail", why.substr(0, why.find('\n'))},
                               {"ms", std::round(ms * 1000) / 1000}};
        // Names and details may hold bytes that are not UTF-8: replaced, never a dump() exception.
        out << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n" << std::flush;
    }
    return 0;
}

}  // namespace jsonlab
