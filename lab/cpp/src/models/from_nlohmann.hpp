// nlohmann/json's binding of the typed models: `json.get<Model>()` calls the from_json below (found by argument-
// dependent lookup, as nlohmann users bind their types) for every struct declared with JSONLAB_MODEL (model.hpp). Each
// member is looked up by name in the parsed object (`find`, as `j.at(name).get_to(member)` does), absent only if it
// is a Maybe, null only if it is a std::optional; an object with a member the model does not know fails (LabError),
// never skips it. Scalars are checked for their JSON type before conversion: nlohmann's get<std::int64_t>() would
// silently truncate a fraction.
#pragma once

#include <limits>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace jsonlab::models {

template <typename T>
void read_json(const nlohmann::json& j, T& out);

template <typename T, std::enable_if_t<Describe<T>::described, int> = 0>
void from_json(const nlohmann::json& j, T& out) {
    if (!j.is_object()) wrong_type("an object (" + std::string(Describe<T>::name) + ")", j.type_name());
    std::size_t found = 0;
    std::uint64_t seen = 0;
    std::size_t i = 0;
    for_each_field<T>([&](const auto& field) {
        auto& member = out.*field.member;
        using M = typename std::decay_t<decltype(field)>::type;
        const auto it = j.find(field.name);
        if (it != j.end()) {
            ++found;
            seen |= std::uint64_t(1) << i;
            if constexpr (is_maybe<M>::value) {
                member.present = true;
                read_json(*it, member.value);
            } else {
                read_json(*it, member);
            }
        }
        ++i;
    });
    if ((seen & required_mask<T>()) != required_mask<T>()) missing_members<T>(seen);
    if (found != j.size()) {
        for (const auto& item : j.items()) {
            if (!has_field<T>(item.key())) unknown_member<T>(item.key());
        }
    }
}

template <typename T>
void read_json(const nlohmann::json& j, T& out) {
    if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) wrong_type("a string", j.type_name());
        out = j.get_ref<const std::string&>();
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!j.is_boolean()) wrong_type("a boolean", j.type_name());
        out = j.get<bool>();
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (!j.is_number_integer() ||
            (j.is_number_unsigned() && j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<T>::max()))) {
            wrong_type("an integer within int64", j.dump());
        }
        out = j.get<std::int64_t>();
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        if (!j.is_number_unsigned()) wrong_type("an unsigned integer", j.dump());
        out = j.get<std::uint64_t>();
    } else if constexpr (std::is_same_v<T, double>) {
        if (!j.is_number()) wrong_type("a number", j.type_name());
        out = j.get<double>();
    } else if constexpr (is_optional<T>::value) {
        if (j.is_null()) {
            out.reset();
        } else {
            read_json(j, out.emplace());
        }
    } else if constexpr (is_map<T>::value) {
        if (!j.is_object()) wrong_type("an object", j.type_name());
        out.clear();
        out.reserve(j.size());
        for (const auto& item : j.items()) {
            auto& entry = out.emplace_back();
            entry.first = item.key();
            read_json(item.value(), entry.second);
        }
    } else if constexpr (is_vector<T>::value) {
        if (!j.is_array()) wrong_type("an array", j.type_name());
        out.clear();
        out.reserve(j.size());
        for (const auto& item : j) read_json(item, out.emplace_back());
    } else if constexpr (Describe<T>::described) {
        j.get_to(out);  // through from_json above, as nlohmann binds a nested type
    } else {
        static_assert(always_false<T>, "read_json: a model member of a type the typed models do not support");
    }
}

}  // namespace jsonlab::models
