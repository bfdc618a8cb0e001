// One RapidJSON kernel (rapidjson_kernel.hpp): every RapidJSON operation of the lab, compiled for one SIMD path.
// CMakeLists.txt compiles this file once per path, naming it in JSONLAB_RAPIDJSON_KERNEL (none, sse2, sse42; the
// -march=native build: native, whose path is the one its flags allow) with that path's RAPIDJSON_SSE2/RAPIDJSON_SSE42
// (and -msse4.2 for sse42). RapidJSON lives in a namespace of the kernel's own (jsonlab_rapidjson_<kernel>), so the
// kernels' template instances never share a symbol; everything else here has internal linkage, and the only external
// name is the kernel's table. Nothing of the lab but rapidjson_kernel.hpp (trivial types) and no standard library
// container is included: code compiled with -msse4.2 must not define an inline function baseline code could call
// (ctest `kernel-symbols` checks the objects).
#ifndef JSONLAB_RAPIDJSON_KERNEL
#error "compile this file with JSONLAB_RAPIDJSON_KERNEL=<kernel> (CMakeLists.txt does)"
#endif

#define JSONLAB_CAT2(a, b) a##b
#define JSONLAB_CAT(a, b) JSONLAB_CAT2(a, b)
#define JSONLAB_STR2(a) #a
#define JSONLAB_STR(a) JSONLAB_STR2(a)

#define RAPIDJSON_NAMESPACE JSONLAB_CAT(jsonlab_rapidjson_, JSONLAB_RAPIDJSON_KERNEL)
#define RAPIDJSON_NAMESPACE_BEGIN namespace RAPIDJSON_NAMESPACE {
#define RAPIDJSON_NAMESPACE_END }

// The -march=native build: the path the CPU's flags allow (SSE4.2 where it has it, as a program compiled with
// -march=native and RAPIDJSON_SSE42 would), none beyond x86-64.
#if defined(JSONLAB_RAPIDJSON_NATIVE)
#if defined(__SSE4_2__)
#define RAPIDJSON_SSE42
#elif defined(__SSE2__)
#define RAPIDJSON_SSE2
#endif
#endif

#if defined(RAPIDJSON_SSE42) && !defined(__SSE4_2__)
#error "the sse42 kernel must be compiled with -msse4.2"
#endif
#if defined(RAPIDJSON_SSE2) && !defined(__SSE2__)
#error "the sse2 kernel needs SSE2"
#endif

#include "rapidjson_kernel.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace {

namespace rj = RAPIDJSON_NAMESPACE;
using jsonlab::rapidjson_kernels::ParseError;
using jsonlab::rapidjson_kernels::Visitor;

#if defined(RAPIDJSON_SSE42)
constexpr const char* PATH = "sse42";
constexpr const char* CPU_FEATURE = "sse4.2";
#elif defined(RAPIDJSON_SSE2)
constexpr const char* PATH = "sse2";
constexpr const char* CPU_FEATURE = "sse2";
#else
constexpr const char* PATH = "none";
constexpr const char* CPU_FEATURE = nullptr;
#endif

constexpr bool same(const char* a, const char* b) { return *a == *b && (*a == '\0' || same(a + 1, b + 1)); }
#if !defined(JSONLAB_RAPIDJSON_NATIVE)
static_assert(same(PATH, JSONLAB_STR(JSONLAB_RAPIDJSON_KERNEL)),
              "JSONLAB_RAPIDJSON_KERNEL names another SIMD path than the RAPIDJSON_* macro compiled in");
#endif

constexpr unsigned FLAGS = rj::kParseFullPrecisionFlag;

rj::Document* from(jsonlab::rapidjson_kernels::Document* document) { return reinterpret_cast<rj::Document*>(document); }
const rj::Document* from(const jsonlab::rapidjson_kernels::Document* document) {
    return reinterpret_cast<const rj::Document*>(document);
}

ParseError error_of(const rj::Document& doc) {
    if (!doc.HasParseError()) return {};
    return {rj::GetParseError_En(doc.GetParseError()), doc.GetErrorOffset()};
}

std::uint64_t parse(const char* text, std::size_t size) {
    rj::Document doc;
    doc.Parse<FLAGS>(text, size);
    return std::uint64_t(doc.GetType()) + doc.HasParseError();
}

std::uint64_t parse_insitu(char* buffer) {
    rj::Document doc;
    doc.ParseInsitu<FLAGS>(buffer);
    return std::uint64_t(doc.GetType()) + doc.HasParseError();
}

jsonlab::rapidjson_kernels::Document* parse_document(const char* text, std::size_t size, ParseError* error) {
    auto* doc = new rj::Document();
    doc->Parse<FLAGS>(text, size);
    *error = error_of(*doc);
    if (error->message == nullptr) return reinterpret_cast<jsonlab::rapidjson_kernels::Document*>(doc);
    delete doc;
    return nullptr;
}

void free_document(jsonlab::rapidjson_kernels::Document* document) { delete from(document); }

std::uint64_t write_size(const jsonlab::rapidjson_kernels::Document* document) {
    rj::StringBuffer buffer;
    rj::Writer<rj::StringBuffer> writer(buffer);
    from(document)->Accept(writer);
    return std::uint64_t(buffer.GetSize());
}

void write(const jsonlab::rapidjson_kernels::Document* document,
           void (*append)(void* context, const char* data, std::size_t size), void* context) {
    rj::StringBuffer buffer;
    rj::Writer<rj::StringBuffer> writer(buffer);
    from(document)->Accept(writer);
    append(context, buffer.GetString(), buffer.GetSize());
}

void walk(const rj::Value& v, const Visitor& out) {
    if (v.IsNull()) return out.null_value(out.context);
    if (v.IsBool()) return out.boolean(out.context, v.GetBool());
    if (v.IsNumber()) return out.number(out.context, v.GetDouble());
    if (v.IsString()) return out.string(out.context, v.GetString(), v.GetStringLength());
    if (v.IsArray()) {
        out.start_array(out.context);
        for (const auto& item : v.GetArray()) walk(item, out);
        return out.end_container(out.context);
    }
    out.start_object(out.context);
    for (const auto& member : v.GetObject()) {
        out.key(out.context, member.name.GetString(), member.name.GetStringLength());
        walk(member.value, out);
    }
    out.end_container(out.context);
}

ParseError visit(const char* text, std::size_t size, const Visitor& visitor) {
    rj::Document doc;
    doc.Parse<FLAGS>(text, size);
    const ParseError error = error_of(doc);
    if (error.message == nullptr) walk(doc, visitor);
    return error;
}

ParseError visit_insitu(char* buffer, const Visitor& visitor) {
    rj::Document doc;
    doc.ParseInsitu<FLAGS>(buffer);
    const ParseError error = error_of(doc);
    if (error.message == nullptr) walk(doc, visitor);
    return error;
}

template <unsigned Flags>
const char* check(const char* text, std::size_t size) {
    rj::Document doc;
    doc.Parse<Flags>(text, size);
    return doc.HasParseError() ? rj::GetParseError_En(doc.GetParseError()) : nullptr;
}

}  // namespace

namespace jsonlab::rapidjson_kernels {

const Kernel JSONLAB_CAT(kernel_, JSONLAB_RAPIDJSON_KERNEL) = {
    PATH,
    CPU_FEATURE,
    RAPIDJSON_VERSION_STRING,
    parse,
    parse_insitu,
    parse_document,
    free_document,
    write_size,
    write,
    visit,
    visit_insitu,
    check<rj::kParseDefaultFlags>,
    check<rj::kParseValidateEncodingFlag>,
};

}  // namespace jsonlab::rapidjson_kernels
