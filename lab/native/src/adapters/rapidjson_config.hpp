// RapidJSON's compile-time SIMD paths (whitespace skipping, string scanning): on in the -march=native build where the
// CPU has SSE4.2 (RAPIDJSON_SSE42), off in the portable build, as a program compiled with Debian's flags has them.
// Included before any RapidJSON header; `env` reports which (`rapidjson_simd`).
#pragma once

#if defined(JSONLAB_MARCH_NATIVE) && defined(__SSE4_2__) && !defined(RAPIDJSON_SSE42)
#define RAPIDJSON_SSE42
#endif

namespace jsonlab {

inline const char* rapidjson_simd() {
#if defined(RAPIDJSON_SSE42)
    return "sse4.2";
#elif defined(RAPIDJSON_SSE2)
    return "sse2";
#elif defined(RAPIDJSON_NEON)
    return "neon";
#else
    return "none";
#endif
}

}  // namespace jsonlab
