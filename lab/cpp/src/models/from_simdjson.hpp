// simdjson On-Demand's binding of the typed models: the text is read straight into the structs, with no DOM built
// first. Each object's fields are iterated once and dispatched on the key (unescaped) to the member's reader, a table
// generated from the model's description (model.hpp); keys are looked for from the member after the last one matched,
// so a document in the model's member order costs one comparison per key. A key the model does not know fails
// (LabError), never skipped; a required member not met fails too. A type mismatch is simdjson's own error
// (INCORRECT_TYPE, NUMBER_ERROR), thrown by value() as a simdjson_error: get_int64() refuses a fraction.
#pragma once

#include <array>

#include <simdjson.h>

#include "model.hpp"

namespace jsonlab::models {

template <typename T>
void read_simdjson(simdjson::ondemand::value value, T& out);

template <typename T>
void read_simdjson_object(simdjson::ondemand::object object, T& out);

namespace detail {

template <typename T, std::size_t I>
void read_member(simdjson::ondemand::value value, T& out) {
    constexpr const auto& field = std::get<I>(Describe<T>::fields);
    auto& member = out.*field.member;
    using M = typename std::decay_t<decltype(field)>::type;
    if constexpr (is_maybe<M>::value) {
        member.present = true;
        read_simdjson(value, member.value);
    } else {
        read_simdjson(value, member);
    }
}

template <typename T>
using MemberReader = void (*)(simdjson::ondemand::value, T&);

template <typename T, std::size_t... I>
constexpr std::array<MemberReader<T>, sizeof...(I)> member_readers(std::index_sequence<I...>) {
    return {&read_member<T, I>...};
}

template <typename T, std::size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> member_names(std::index_sequence<I...>) {
    return {std::get<I>(Describe<T>::fields).name...};
}

}  // namespace detail

template <typename T>
void read_simdjson_object(simdjson::ondemand::object object, T& out) {
    constexpr std::size_t count = field_count<T>;
    static constexpr auto names = detail::member_names<T>(std::make_index_sequence<count>{});
    static constexpr auto readers = detail::member_readers<T>(std::make_index_sequence<count>{});
    constexpr std::uint64_t required = required_mask<T>();
    std::uint64_t seen = 0;
    std::size_t next = 0;
    for (auto field : object) {
        const std::string_view key = field.unescaped_key().value();
        std::size_t index = count;
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t candidate = next + k < count ? next + k : next + k - count;
            if (names[candidate] == key) {
                index = candidate;
                break;
            }
        }
        if (index == count) unknown_member<T>(key);
        readers[index](field.value().value(), out);
        seen |= std::uint64_t(1) << index;
        next = index + 1 < count ? index + 1 : 0;
    }
    if ((seen & required) != required) missing_members<T>(seen);
}

template <typename T>
void read_simdjson(simdjson::ondemand::value value, T& out) {
    if constexpr (std::is_same_v<T, std::string>) {
        out = std::string_view(value.get_string().value());
    } else if constexpr (std::is_same_v<T, bool>) {
        out = value.get_bool().value();
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        out = value.get_int64().value();
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        out = value.get_uint64().value();
    } else if constexpr (std::is_same_v<T, double>) {
        out = value.get_double().value();
    } else if constexpr (is_optional<T>::value) {
        if (value.is_null().value()) {
            out.reset();
        } else {
            read_simdjson(value, out.emplace());
        }
    } else if constexpr (is_map<T>::value) {
        out.clear();
        simdjson::ondemand::object object = value.get_object().value();
        for (auto field : object) {
            auto& entry = out.emplace_back();
            entry.first = std::string_view(field.unescaped_key().value());
            read_simdjson(field.value().value(), entry.second);
        }
    } else if constexpr (is_vector<T>::value) {
        out.clear();
        simdjson::ondemand::array array = value.get_array().value();
        for (auto item : array) read_simdjson(item.value(), out.emplace_back());
    } else if constexpr (Describe<T>::described) {
        read_simdjson_object(value.get_object().value(), out);
    } else {
        static_assert(always_false<T>, "read_simdjson: a model member of a type the typed models do not support");
    }
}

// A whole document into its model (an object, or for a declared model's root also an array or a keyed object), then
// nothing may follow it (simdjson 3.0 has no document::at_end(): current_location() is an error once the whole
// document has been read).
template <typename T>
void read_simdjson_document(simdjson::ondemand::document& document, T& out) {
    if constexpr (Describe<T>::described) {
        read_simdjson_object(document.get_object().value(), out);
    } else if constexpr (is_map<T>::value) {
        out.clear();
        for (auto field : document.get_object().value()) {
            auto& entry = out.emplace_back();
            entry.first = std::string_view(field.unescaped_key().value());
            read_simdjson(field.value().value(), entry.second);
        }
    } else if constexpr (is_vector<T>::value) {
        out.clear();
        for (auto item : document.get_array().value()) read_simdjson(item.value(), out.emplace_back());
    } else {
        static_assert(always_false<T>, "read_simdjson_document: a document root is an object or an array");
    }
    if (!document.current_location().error()) throw simdjson::simdjson_error(simdjson::TRAILING_CONTENT);
}

}  // namespace jsonlab::models
