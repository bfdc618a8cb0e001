// A typed model converted back to the lab's canonical Value (canonical.hpp), for verification only (never timed): the
// model's description (model.hpp) drives it, writing exactly the members the document had (a Maybe that was absent is
// left out, a std::optional that was null is null), so the digest of the result equals the file's only if the typed
// reader kept every value. Integers become doubles here as in every lab's canonical form (the canonical parser turns
// the same digits into the same nearest double).
#pragma once

#include "../canonical.hpp"
#include "model.hpp"

namespace jsonlab::models {

template <typename T>
Value to_value(const T& x) {
    if constexpr (std::is_same_v<T, std::string>) {
        return Value::of_string(x);
    } else if constexpr (std::is_same_v<T, bool>) {
        return Value::boolean(x);
    } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) {
        return Value::of_number(static_cast<double>(x));
    } else if constexpr (std::is_same_v<T, double>) {
        return Value::of_number(x);
    } else if constexpr (is_optional<T>::value) {
        return x ? to_value(*x) : Value::null();
    } else if constexpr (is_map<T>::value) {
        Value out = Value::object();
        out.members.reserve(x.size());
        for (const auto& [key, item] : x) out.members.emplace_back(key, to_value(item));
        return out;
    } else if constexpr (is_vector<T>::value) {
        Value out = Value::array();
        out.items.reserve(x.size());
        for (const auto& item : x) out.items.push_back(to_value(item));
        return out;
    } else if constexpr (Describe<T>::described) {
        Value out = Value::object();
        for_each_field<T>([&](const auto& field) {
            const auto& member = x.*field.member;
            using M = typename std::decay_t<decltype(field)>::type;
            if constexpr (is_maybe<M>::value) {
                if (member.present) out.members.emplace_back(std::string(field.name), to_value(member.value));
            } else {
                out.members.emplace_back(std::string(field.name), to_value(member));
            }
        });
        return out;
    } else {
        static_assert(always_false<T>, "to_value: a model member of a type the typed models do not support");
    }
}

}  // namespace jsonlab::models
