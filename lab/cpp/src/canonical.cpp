#include "canonical.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>

#include "sha256.hpp"

namespace jsonlab {
namespace {

std::string escape_token(const std::string& name) {
    std::string out;
    for (char c : name) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string number_bits(double value) {
    if (value == 0) value = 0;  // -0 as +0
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    static const char* digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, bits >>= 4) out[i] = digits[bits & 0xf];
    return out;
}

std::string record(const std::string& pointer, const char* kind, const std::string& text) {
    return std::to_string(pointer.size()) + ":" + pointer + " " + kind + " " + std::to_string(text.size()) + ":" +
           text + "\n";
}

// Calls `emit` with each record in canonical order; stops early when it returns false.
bool walk(const Value& value, const std::string& pointer, const std::function<bool(const std::string&)>& emit) {
    switch (value.kind) {
        case Value::Kind::Null: return emit(record(pointer, "null", ""));
        case Value::Kind::True: return emit(record(pointer, "true", ""));
        case Value::Kind::False: return emit(record(pointer, "false", ""));
        case Value::Kind::Number: return emit(record(pointer, "number", number_bits(value.number)));
        case Value::Kind::String: return emit(record(pointer, "string", value.text));
        case Value::Kind::Array:
            if (value.items.empty()) return emit(record(pointer, "[]", ""));
            for (std::size_t i = 0; i < value.items.size(); ++i) {
                if (!walk(value.items[i], pointer + "/" + std::to_string(i), emit)) return false;
            }
            return true;
        case Value::Kind::Object: {
            if (value.members.empty()) return emit(record(pointer, "{}", ""));
            std::vector<const std::pair<std::string, Value>*> sorted;
            for (const auto& member : value.members) sorted.push_back(&member);
            // std::string compares as unsigned bytes: the UTF-8 byte order every lab sorts by.
            std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
            for (auto* member : sorted) {
                if (!walk(member->second, pointer + "/" + escape_token(member->first), emit)) return false;
            }
            return true;
        }
    }
    return true;
}

}  // namespace

Digest canonical_digest(const Value& document) {
    Sha256 hash;
    std::size_t leaves = 0;
    walk(document, "", [&](const std::string& line) {
        hash.update(line);
        ++leaves;
        return true;
    });
    return {hash.hex_digest(), leaves};
}

std::vector<std::string> canonical_records(const Value& document, std::size_t limit) {
    std::vector<std::string> out;
    walk(document, "", [&](const std::string& line) {
        if (out.size() >= limit) return false;
        out.push_back(line);
        return true;
    });
    return out;
}

}  // namespace jsonlab
