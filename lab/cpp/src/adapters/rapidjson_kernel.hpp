// RapidJSON's SIMD paths (whitespace skipping, string scanning and copying, the Writer's unescaped runs) are chosen at
// compile time (RAPIDJSON_SSE2, RAPIDJSON_SSE42), so the lab compiles its RapidJSON code once per path, each in a
// translation unit of its own (rapidjson_kernel.cpp) with RapidJSON in a namespace of its own (RAPIDJSON_NAMESPACE
// jsonlab_rapidjson_<kernel>): a "kernel". rapidjson_simd.cpp picks one at run time (JSONLAB_RAPIDJSON_SIMD), as
// simdjson picks its own.
//
// This header is the only thing a kernel shares with the rest of the lab, so it holds trivial types only: function
// pointers, C strings, sizes. A kernel's translation unit includes nothing else of the lab and no standard library
// container, so the one compiled with -msse4.2 defines no inline function (a weak symbol the linker keeps one copy of)
// that baseline code could end up calling; ctest's `kernel-symbols` checks that every symbol it exports names its own
// namespace, and that it has no static initializer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jsonlab::rapidjson_kernels {

// A parse error: `message` (RapidJSON's English text, a static string) is null when the text parsed.
struct ParseError {
    const char* message = nullptr;
    std::size_t offset = 0;
};

// Receives a parsed document's values in document order (the adapter builds its canonical Value from them).
struct Visitor {
    void* context;
    void (*null_value)(void* context);
    void (*boolean)(void* context, bool value);
    void (*number)(void* context, double value);
    void (*string)(void* context, const char* data, std::size_t size);
    void (*key)(void* context, const char* data, std::size_t size);
    void (*start_array)(void* context);
    void (*start_object)(void* context);
    void (*end_container)(void* context);
};

// A parsed rapidjson Document of one kernel, opaque outside it.
struct Document;

// Every operation of the lab's RapidJSON variants and conformance parsers, compiled for one SIMD path. The variants
// parse with kParseFullPrecisionFlag (rapidjson.cpp says why); the conformance parsers with the default flags or with
// kParseValidateEncodingFlag.
struct Kernel {
    const char* name;         // the SIMD path: "none", "sse2", "sse42" (JSONLAB_RAPIDJSON_SIMD's values)
    const char* cpu_feature;  // what the CPU must have to run it (__builtin_cpu_supports' name), or null: any CPU
    const char* version;      // RAPIDJSON_VERSION_STRING of the headers compiled in
    // The timed calls: a fresh Document parses text[0, size), or the NUL-terminated writable buffer in place; the
    // result is the document's type plus 1 when the parse failed.
    std::uint64_t (*parse)(const char* text, std::size_t size);
    std::uint64_t (*parse_insitu)(char* buffer);
    // A Document kept for serialization (null, with `error` set, when the text does not parse), and its release.
    Document* (*parse_document)(const char* text, std::size_t size, ParseError* error);
    void (*free_document)(Document* document);
    // The timed serialize call: a Writer over a fresh StringBuffer writes the Document; the result is the text's size.
    std::uint64_t (*write_size)(const Document* document);
    // The same, the compact JSON text handed to `append` (verification).
    void (*write)(const Document* document, void (*append)(void* context, const char* data, std::size_t size),
                  void* context);
    // Verification: a fresh Document parses the text (or the buffer in place) and the visitor sees every value.
    ParseError (*visit)(const char* text, std::size_t size, const Visitor& visitor);
    ParseError (*visit_insitu)(char* buffer, const Visitor& visitor);
    // Conformance: Document::Parse(text, size) with the default flags, or with kParseValidateEncodingFlag; the reason
    // it rejected the text, or null when it accepted it.
    const char* (*check)(const char* text, std::size_t size);
    const char* (*check_strict)(const char* text, std::size_t size);
};

// The kernels; each is defined only where CMakeLists.txt compiles it (rapidjson_simd.cpp lists those of this build).
extern const Kernel kernel_none;
extern const Kernel kernel_sse2;
extern const Kernel kernel_sse42;
extern const Kernel kernel_native;  // the -march=native build's only kernel: the path its flags allow

}  // namespace jsonlab::rapidjson_kernels
