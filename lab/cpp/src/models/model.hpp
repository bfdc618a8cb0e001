// The vocabulary of the lab's typed models (corpus_models.hpp): a model is a plain struct declared once with
// JSONLAB_MODEL, which also describes its members (JSON name and member pointer) to the generic readers and writer
// (from_nlohmann.hpp, from_simdjson.hpp, to_value.hpp), so no member is listed twice and none can be forgotten by one
// library and not the other. Member types say what the file holds:
//   std::string, std::int64_t / std::uint64_t (integers, exact beyond 2^53), double, bool, a nested model,
//   std::vector<T> (an array), Map<T> (an object whose keys are data, in the order its reader met them),
//   std::optional<T> (null or a T), Maybe<T> (absent or present), Maybe<std::optional<T>> (absent, null or a T).
// A member whose JSON name is a C++ keyword is written with a trailing underscore (protected_), which its name drops.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../lab_error.hpp"

namespace jsonlab::models {

// A member that some objects of the file do not have: absent (present == false) or present with a value.
template <typename T>
struct Maybe {
    bool present = false;
    T value{};
};

// An object keyed by data (ids, codes): its members in the order the reader met them (simdjson: the document's;
// nlohmann: sorted, its objects being std::map), which the canonical form does not depend on (it sorts members).
template <typename T>
using Map = std::vector<std::pair<std::string, T>>;

// A model type as a value, for the dispatch from a dataset to its model (corpus_models.hpp, typed_models.hpp).
template <typename T>
struct ModelTag {
    using type = T;
};

// One described member: its JSON name and where it lives in the struct.
template <typename S, typename M>
struct Field {
    using type = M;
    std::string_view name;
    M S::*member;
};

constexpr std::string_view json_name(std::string_view member) {
    return member.size() > 1 && member.back() == '_' ? member.substr(0, member.size() - 1) : member;
}

// Describe<T>::fields is the tuple of T's Fields, for every struct declared with JSONLAB_MODEL.
template <typename T>
struct Describe {
    static constexpr bool described = false;
};

template <typename T> struct is_maybe : std::false_type {};
template <typename T> struct is_maybe<Maybe<T>> : std::true_type {};
template <typename T> struct is_optional : std::false_type {};
template <typename T> struct is_optional<std::optional<T>> : std::true_type {};
template <typename T> struct is_vector : std::false_type {};
template <typename T> struct is_vector<std::vector<T>> : std::true_type {};
template <typename T> struct is_map : std::false_type {};
template <typename T> struct is_map<std::vector<std::pair<std::string, T>>> : std::true_type {};
template <typename T> inline constexpr bool always_false = false;

template <typename T>
inline constexpr std::size_t field_count = std::tuple_size_v<std::decay_t<decltype(Describe<T>::fields)>>;

// Calls f(field) for every described member of T, in declaration order.
template <typename T, typename F>
constexpr void for_each_field(F&& f) {
    std::apply([&](const auto&... field) { (f(field), ...); }, Describe<T>::fields);
}

// Bit i set: member i must be in every object (it is not a Maybe). Readers fail on an object that lacks one.
template <typename T>
constexpr std::uint64_t required_mask() {
    static_assert(field_count<T> <= 64, "a model struct has at most 64 members");
    std::uint64_t mask = 0;
    std::size_t i = 0;
    for_each_field<T>([&](const auto& field) {
        using M = typename std::decay_t<decltype(field)>::type;
        if (!is_maybe<M>::value) mask |= std::uint64_t(1) << i;
        ++i;
    });
    return mask;
}

template <typename T>
bool has_field(std::string_view name) {
    bool found = false;
    for_each_field<T>([&](const auto& field) { found = found || field.name == name; });
    return found;
}

// The errors of every typed reader: a member the model does not know is never skipped (a reader that skips data does
// less work than its peers), and a required member that is missing is never defaulted.
template <typename T>
[[noreturn]] void unknown_member(std::string_view name) {
    throw LabError("typed model " + std::string(Describe<T>::name) + " has no member '" + std::string(name) +
                       "': the document holds data the model does not describe",
                   "add the member to its model (lab/cpp/src/models/corpus_models.hpp, or the declared model file)");
}

template <typename T>
[[noreturn]] void missing_members(std::uint64_t seen) {
    std::string names;
    std::size_t i = 0;
    for_each_field<T>([&](const auto& field) {
        if ((required_mask<T>() >> i & 1) && !(seen >> i & 1)) {
            names += (names.empty() ? "'" : ", '") + std::string(field.name) + "'";
        }
        ++i;
    });
    throw LabError("typed model " + std::string(Describe<T>::name) + ": the document lacks member " + names,
                   "make the member a Maybe<...> in lab/cpp/src/models/corpus_models.hpp if it may be absent");
}

[[noreturn]] inline void wrong_type(const std::string& expected, const std::string& found) {
    throw LabError("typed model: expected " + expected + ", found " + found,
                   "the model's member type must follow the file (lab/cpp/src/models/corpus_models.hpp)");
}

}  // namespace jsonlab::models

// Declares `struct Name` with the members MEMBERS lists, as F(type, member) entries, and its description.
#define JSONLAB_MODEL_MEMBER(type, member) type member{};
#define JSONLAB_MODEL_FIELD(type, member) \
    ::jsonlab::models::Field<Self, type>{::jsonlab::models::json_name(#member), &Self::member},
#define JSONLAB_MODEL(Name, MEMBERS)                                       \
    struct Name {                                                          \
        MEMBERS(JSONLAB_MODEL_MEMBER)                                      \
    };                                                                     \
    template <>                                                            \
    struct Describe<Name> {                                                \
        using Self = Name;                                                 \
        static constexpr bool described = true;                            \
        static constexpr std::string_view name = #Name;                    \
        static constexpr auto fields = std::tuple{MEMBERS(JSONLAB_MODEL_FIELD)}; \
    };
