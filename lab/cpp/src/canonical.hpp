// The canonical form a parse result is compared against, the same in every lab (jsonlab-canonical-v1,
// docs/lab-contract.md section 4): the document as leaf records in document order, object members sorted by the UTF-8
// bytes of their names; a leaf is a scalar, or an empty object or array. Each record is
//   <pointer byte length>:<RFC 6901 pointer> <kind> <value byte length>:<value>\n
// with kind one of null, true, false, number, string, {}, []; a number's value is the 16 hex digits of its IEEE-754
// double (big-endian, -0 written as +0). The sha256 of all records and their count are the dataset's digest
// (datasets/manifest.json). Each library's result is first converted to a Value (verification only, never timed).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace jsonlab {

inline constexpr const char* CANONICAL_RULE = "jsonlab-canonical-v1";

struct Value {
    enum class Kind { Null, True, False, Number, String, Array, Object };
    Kind kind = Kind::Null;
    double number = 0;
    std::string text;                                  // a string's UTF-8 bytes
    std::vector<Value> items;                          // an array's elements
    std::vector<std::pair<std::string, Value>> members;  // an object's members, in document order

    static Value null() { return {}; }
    static Value boolean(bool b) { return Value{b ? Kind::True : Kind::False}; }
    static Value of_number(double d) { Value v{Kind::Number}; v.number = d; return v; }
    static Value of_string(std::string s) { Value v{Kind::String}; v.text = std::move(s); return v; }
    static Value array() { return Value{Kind::Array}; }
    static Value object() { return Value{Kind::Object}; }
};

struct Digest {
    std::string sha256;
    std::size_t leaves = 0;
};

Digest canonical_digest(const Value& document);

// The first `limit` records, for a readable mismatch message.
std::vector<std::string> canonical_records(const Value& document, std::size_t limit);

}  // namespace jsonlab
