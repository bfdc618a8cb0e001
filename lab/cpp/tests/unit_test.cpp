// The lab's own tests (ctest): SHA-256 against a FIPS 180-4 vector, the canonical digest against the one
// harness/model/canonical.py computes for a small document (member order, pointer escaping, -0, empty containers,
// a non-ASCII string), and every variant's every operation verified on that document (the typed variants, which read
// only the corpus files they model, on a small twitter-shaped document instead). The typed models' readers are checked
// on a small test model: absent, null and present members round trip, an unknown or missing member fails, a fraction
// is no integer. Every RapidJSON kernel this CPU runs (one per SIMD path, src/adapters/rapidjson_kernel.hpp) parses,
// parses in situ, serializes and judges conformance identically (a document with long strings and whitespace runs, so
// the SIMD paths run), and choosing a kernel refuses one the CPU cannot run or the build lacks. The datasets themselves
// are checked by `jsonlab-cpp verify --strict true` (another ctest in CMakeLists.txt).
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdlib.h>
#include <iostream>
#include <string>

#include "../src/adapters/rapidjson_simd.hpp"
#include "../src/canonical.hpp"
#include "../src/lab_error.hpp"
#include "../src/models/from_nlohmann.hpp"
#include "../src/models/from_simdjson.hpp"
#include "../src/models/model.hpp"
#include "../src/models/to_value.hpp"
#include "../src/sha256.hpp"
#include "../src/variants.hpp"
#include "../src/verify.hpp"

namespace jsonlab::models {

// A member absent, null or a value (Maybe<std::optional>), keyed objects, an unsigned beyond int64, nesting.
#define JSONLAB_TEST_INNER(F) \
    F(std::uint64_t, n)       \
    F(Maybe<std::optional<std::int64_t>>, both)
JSONLAB_MODEL(TestInner, JSONLAB_TEST_INNER)

#define JSONLAB_TEST_DOCUMENT(F)                 \
    F(Maybe<std::optional<std::int64_t>>, both) \
    F(std::optional<std::string>, nullable)     \
    F(Maybe<std::string>, absent)               \
    F(Map<TestInner>, table)                    \
    F(std::vector<double>, numbers)             \
    F(bool, protected_)
JSONLAB_MODEL(TestDocument, JSONLAB_TEST_DOCUMENT)

}  // namespace jsonlab::models

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok) {
        ++failures;
        std::cerr << "FAILED: " << what << "\n";
    }
}

// From harness/model/canonical.py: canonical_digest(DOCUMENT).
const std::string DOCUMENT = "{\"b\":[1,-0.0,{}],\"a/~\":\"\xc3\xa9\",\"\":null,\"t\":[true,false,[]]}";
const jsonlab::Digest EXPECTED{"8316a008f4f9a8ab50d5a47a97e683aac58c1ceb820d317a7a9ffb4072b72396", 8};

jsonlab::models::TestDocument from_nlohmann(const std::string& text) {
    return nlohmann::json::parse(text).get<jsonlab::models::TestDocument>();
}

jsonlab::models::TestDocument from_simdjson(const std::string& text) {
    simdjson::padded_string padded(text);
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document document = parser.iterate(padded).value();
    jsonlab::models::TestDocument model;
    jsonlab::models::read_simdjson_document(document, model);
    return model;
}

using Reader = std::function<jsonlab::models::TestDocument(const std::string&)>;
const std::vector<std::pair<std::string, Reader>> READERS = {{"nlohmann", from_nlohmann},
                                                             {"simdjson On-Demand", from_simdjson}};

bool same_digest(const jsonlab::Value& a, const jsonlab::Value& b) {
    const auto x = jsonlab::canonical_digest(a), y = jsonlab::canonical_digest(b);
    return x.sha256 == y.sha256 && x.leaves == y.leaves;
}

// The message of the LabError `f` throws, or "" when it throws none (another exception counts as a LabError-less
// failure: "<other>").
std::string lab_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const jsonlab::LabError& e) {
        return e.what();
    } catch (const std::exception&) {
        return "<other>";
    }
    return "";
}

bool throws(const std::function<void()>& f) { return !lab_error_of(f).empty(); }

void test_model_readers() {
    using namespace jsonlab;
    const std::string null_both =
        R"({"both":null,"nullable":null,"table":{"k":{"n":1}},"numbers":[],"protected":true})";
    const std::string value_both =
        R"({"both":7,"nullable":"s","absent":"a","table":{"k":{"n":18446744073709551615,"both":null},"j":{"n":0,)"
        R"("both":-3}},"numbers":[1,-0.0,2.5e-3],"protected":false})";
    const std::string absent_both = R"({"nullable":null,"table":{},"numbers":[1],"protected":true})";
    for (const auto& [name, read] : READERS) {
        const auto a = read(null_both);
        expect(a.both.present && !a.both.value && !a.nullable && !a.absent.present && a.protected_ &&
                   !a.table.at(0).second.both.present,
               name + ": null member read as present and null, absent members as absent");
        const auto b = read(value_both);
        expect(b.both.present && b.both.value == 7 && b.nullable == "s" && b.absent.present && b.absent.value == "a" &&
                   b.table.size() == 2,
               name + ": present members read with their values");
        const auto c = read(absent_both);
        expect(!c.both.present && c.table.empty() && c.numbers.size() == 1, name + ": absent member read as absent");
        for (const auto* text : {&null_both, &value_both, &absent_both}) {
            expect(same_digest(models::to_value(read(*text)), read_back(*text)),
                   name + ": to_value reproduces the document's canonical digest: " + *text);
        }
        const std::string unknown = lab_error_of([&] {
            read(R"({"nullable":null,"table":{},"numbers":[],"protected":true,"extra":0})");
        });
        expect(unknown.find("has no member 'extra'") != std::string::npos,
               name + ": an unknown member fails loudly: '" + unknown + "'");
        const std::string nested = lab_error_of([&] {
            read(R"({"nullable":null,"table":{"k":{"n":1,"x":[]}},"numbers":[],"protected":true})");
        });
        expect(nested.find("TestInner has no member 'x'") != std::string::npos,
               name + ": an unknown member of a nested object fails loudly: '" + nested + "'");
        const std::string missing = lab_error_of([&] { read(R"({"table":{},"numbers":[],"protected":true})"); });
        expect(missing.find("lacks member 'nullable'") != std::string::npos,
               name + ": a missing required member fails: '" + missing + "'");
        expect(throws([&] { read(R"({"both":1.5,"nullable":null,"table":{},"numbers":[],"protected":true})"); }),
               name + ": a fraction is not read into an integer");
        expect(throws([&] { read(R"({"nullable":null,"table":{"k":{"n":-1}},"numbers":[],"protected":true})"); }),
               name + ": a negative number is not read into an unsigned integer");
        expect(throws([&] { read(R"({"nullable":1,"table":{},"numbers":[],"protected":true})"); }),
               name + ": a number is not read into a string");
    }
}

// twitter.json's shape, small: a status retweeting another, null members (in_reply_to_*, url, utc_offset, geo, place,
// contributors) and absent ones (retweeted_status, possibly_sensitive, media, source_status_id, profile_banner_url,
// user entities' url) in both states, ids beyond 2^53, escapes, and the members null throughout twitter.json given
// values (geo, place, contributors).
const std::string TWITTER_USER =
    R"({"id":1,"id_str":"1","name":"A","screen_name":"a","location":"","description":"d \u00e9","url":null,)"
    R"("entities":{"description":{"urls":[]}},"protected":false,"followers_count":1,"friends_count":2,)"
    R"("listed_count":0,"created_at":"Sun Aug 31 00:29:15 +0000 2014","favourites_count":3,"utc_offset":null,)"
    R"("time_zone":null,"geo_enabled":false,"verified":false,"statuses_count":4,"lang":"ja",)"
    R"("contributors_enabled":false,"is_translator":false,"is_translation_enabled":false,)"
    R"("profile_background_color":"C0DEED","profile_background_image_url":"http://a/b.png",)"
    R"("profile_background_image_url_https":"https://a/b.png","profile_background_tile":false,)"
    R"("profile_image_url":"http://i","profile_image_url_https":"https://i","profile_link_color":"0084B4",)"
    R"("profile_sidebar_border_color":"C0DEED","profile_sidebar_fill_color":"DDEEF6","profile_text_color":"333333",)"
    R"("profile_use_background_image":true,"default_profile":true,"default_profile_image":false,"following":false,)"
    R"("follow_request_sent":false,"notifications":false})";
const std::string TWITTER_USER_WITH_URL =
    R"({"id":9007199254740993,"id_str":"9007199254740993","name":"B","screen_name":"b","location":"Tokyo",)"
    R"("description":"","url":"http://t.co/x","entities":{"url":{"urls":[{"url":"http://t.co/x",)"
    R"("expanded_url":"http://x.jp","display_url":"x.jp","indices":[0,12]}]},"description":{"urls":[]}},)"
    R"("protected":true,"followers_count":10,"friends_count":20,"listed_count":1,)"
    R"("created_at":"Mon Sep 01 00:00:00 +0000 2014","favourites_count":0,"utc_offset":32400,"time_zone":"Tokyo",)"
    R"("geo_enabled":true,"verified":true,"statuses_count":5,"lang":"ja","contributors_enabled":false,)"
    R"("is_translator":false,"is_translation_enabled":true,"profile_background_color":"000000",)"
    R"("profile_background_image_url":"http://a","profile_background_image_url_https":"https://a",)"
    R"("profile_background_tile":true,"profile_image_url":"http://i","profile_image_url_https":"https://i",)"
    R"("profile_banner_url":"https://pbs.twimg.com/b","profile_link_color":"0084B4",)"
    R"("profile_sidebar_border_color":"FFFFFF","profile_sidebar_fill_color":"DDEEF6","profile_text_color":"333333",)"
    R"("profile_use_background_image":false,"default_profile":false,"default_profile_image":false,)"
    R"("following":false,"follow_request_sent":false,"notifications":false})";
const std::string RETWEETED =
    R"({"metadata":{"result_type":"recent","iso_language_code":"ja"},"created_at":"Sat Aug 30 12:00:00 +0000 2014",)"
    R"("id":505874924095815681,"id_str":"505874924095815681","text":"\"hi\"\n\u3042","source":"<a href=\"x\">x</a>",)"
    R"("truncated":false,"in_reply_to_status_id":null,"in_reply_to_status_id_str":null,"in_reply_to_user_id":null,)"
    R"("in_reply_to_user_id_str":null,"in_reply_to_screen_name":null,"user":)" + TWITTER_USER_WITH_URL +
    R"(,"geo":null,"coordinates":null,"place":null,"contributors":null,"retweet_count":58,"favorite_count":12,)"
    R"("entities":{"hashtags":[],"symbols":[],"urls":[],"user_mentions":[]},"favorited":false,"retweeted":false,)"
    R"("lang":"ja"})";
const std::string TWITTER =
    R"({"statuses":[{"metadata":{"result_type":"recent","iso_language_code":"ja"},)"
    R"("created_at":"Sun Aug 31 00:29:15 +0000 2014","id":505874924095815700,"id_str":"505874924095815700",)"
    R"("text":"RT @b: hi","source":"web","truncated":false,"in_reply_to_status_id":505874924095815681,)"
    R"("in_reply_to_status_id_str":"505874924095815681","in_reply_to_user_id":9007199254740993,)"
    R"("in_reply_to_user_id_str":"9007199254740993","in_reply_to_screen_name":"b","user":)" + TWITTER_USER +
    R"(,"geo":{"type":"Point","coordinates":[35.5,139.25]},"coordinates":{"type":"Point","coordinates":[139.25,35.5]},)"
    R"("place":{"id":"p1","url":"https://api/p1","place_type":"city","name":"Tokyo","full_name":"Tokyo, JP",)"
    R"("country_code":"JP","country":"Japan"},"contributors":[{"id":2,"id_str":"2","screen_name":"c"}],)"
    R"("retweeted_status":)" + RETWEETED +
    R"(,"retweet_count":58,"favorite_count":0,"entities":{"hashtags":[{"text":"tag","indices":[1,5]}],"symbols":[],)"
    R"("urls":[{"url":"http://t.co/y","expanded_url":"http://y","display_url":"y","indices":[6,20]}],)"
    R"("user_mentions":[{"screen_name":"b","name":"B","id":9007199254740993,"id_str":"9007199254740993",)"
    R"("indices":[3,5]}],"media":[{"id":505874919020699648,"id_str":"505874919020699648","indices":[21,43],)"
    R"("media_url":"http://m","media_url_https":"https://m","url":"http://t.co/m","display_url":"pic","expanded_url":)"
    R"("http://e","type":"photo","sizes":{"medium":{"w":600,"h":450,"resize":"fit"},"small":{"w":340,"h":255,)"
    R"("resize":"fit"},"thumb":{"w":150,"h":150,"resize":"crop"},"large":{"w":1024,"h":768,"resize":"fit"}},)"
    R"("source_status_id":505874924095815681,"source_status_id_str":"505874924095815681"},{"id":1,"id_str":"1",)"
    R"("indices":[0,1],"media_url":"","media_url_https":"","url":"","display_url":"","expanded_url":"","type":"photo",)"
    R"("sizes":{"medium":{"w":1,"h":1,"resize":"fit"},"small":{"w":1,"h":1,"resize":"fit"},"thumb":{"w":1,"h":1,)"
    R"("resize":"crop"},"large":{"w":1,"h":1,"resize":"fit"}}}]},"favorited":false,"retweeted":false,)"
    R"("possibly_sensitive":false,"lang":"ja"}],"search_metadata":{"completed_in":0.087,"max_id":505874924095815700,)"
    R"("max_id_str":"505874924095815700","next_results":"?max_id=505874915338104833&q=%E4%B8%80&count=100",)"
    R"("query":"%E4%B8%80","refresh_url":"?since_id=505874924095815700&q=%E4%B8%80","count":100,"since_id":0,)"
    R"("since_id_str":"0"}})";

void test_typed_variants() {
    using namespace jsonlab;
    const Value document = read_back(TWITTER);
    const Payload twitter{"twitter", TWITTER, sha256_hex(TWITTER), canonical_digest(document)};
    std::string extra = TWITTER;
    extra.replace(extra.find(R"("notifications":false})"), 22, R"("notifications":false,"extra":0})");
    const Payload unknown{"twitter", extra, sha256_hex(extra), canonical_digest(read_back(extra))};
    for (const char* name : {"nlohmann-typed", "simdjson-ondemand-typed"}) {
        const Variant& variant = find_variant(name);
        const auto record = verify(variant, twitter, DESERIALIZE);
        expect(record["status"] == "passed",
               std::string(name) + " on a twitter-shaped document: " + record["message"].get<std::string>());
        expect(bind(variant, twitter, DESERIALIZE)() == 1 + 505874924095815700ull,
               std::string(name) + ": the timed call reads the document (statuses + max_id)");
        const auto failed = verify(variant, unknown, DESERIALIZE);
        expect(failed["status"] == "failed" && !failed["operation_error"].is_null() &&
                   failed["operation_error"].get<std::string>().find("TwitterUser has no member 'extra'") !=
                       std::string::npos,
               std::string(name) + " fails on a member its model does not know: " + failed["message"].dump());
        expect(throws([&] { bind(variant, unknown, DESERIALIZE)(); }),
               std::string(name) + ": the timed call fails on a member its model does not know too");
        const Payload other{"canada", TWITTER, twitter.sha256, twitter.canonical};
        expect(verify(variant, other, DESERIALIZE)["status"] == "failed",
               std::string(name) + " reads a dataset with another dataset's model");
        const Payload sample{"sample", DOCUMENT, sha256_hex(DOCUMENT), EXPECTED};
        expect(variant.not_applicable(sample, DESERIALIZE).has_value() && !variant.supports(sample, DESERIALIZE),
               std::string(name) + " applies to a dataset it has no model for");
        expect(throws([&] { bind(variant, sample, DESERIALIZE); }),
               std::string(name) + ": bind refuses a dataset it has no model for");
        expect(verify(variant, sample, DESERIALIZE)["operation_error"].is_string(),
               std::string(name) + ": verify reports a dataset it has no model for as not performed");
    }
}

// Whitespace runs and strings longer than a 16-byte vector, with escapes and non-ASCII past the first vector, so the
// kernels' SIMD paths (whitespace skipping, string scanning, the Writer's unescaped runs) do run.
const std::string SIMD_DOCUMENT =
    "{ \t\n\r                                     \"a key longer than thirty-two bytes, with \\\"escapes\\\" and "
    "\\u00e9 after sixteen\": [                      1.5e300, -0.0, 12345678901234567890, 0.1, \"\xe2\x82\xac then "
    "a second long string that crosses several sixteen-byte boundaries\\n\", true,\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
    " false, null, {}, []                   ], \"k\": {\"nested\": \"short\", \"tabs\\tinside\": "
    "\"                                                \", \"\": \"0123456789abcdef0123456789abcdef\\u0000x\"}}";

std::string names(const std::vector<const jsonlab::adapters::RapidjsonKernel*>& kernels) {
    std::string out;
    for (const auto* k : kernels) out += (out.empty() ? "" : ",") + std::string(k->name);
    return out;
}

void test_rapidjson_kernels() {
    using namespace jsonlab;
    using namespace jsonlab::adapters;
    const auto& compiled = rapidjson_kernels_compiled();
#if defined(JSONLAB_MARCH_NATIVE)
    expect(compiled.size() == 1, "the -march=native build compiles one RapidJSON kernel: " + names(compiled));
#elif defined(__x86_64__)
    expect(names(compiled) == "sse42,sse2,none", "the portable x86-64 build's RapidJSON kernels: " + names(compiled));
#else
    expect(names(compiled) == "none", "the portable build's RapidJSON kernels here: " + names(compiled));
#endif
    const auto supported = rapidjson_kernels_supported();
    expect(!supported.empty() && supported.front() == &active_rapidjson_kernel(),
           "by default the best kernel this CPU runs is in effect: " + std::string(active_rapidjson_kernel().name));

    const Payload sample{"sample", DOCUMENT, sha256_hex(DOCUMENT), EXPECTED};
    const Payload simd{"simd", SIMD_DOCUMENT, sha256_hex(SIMD_DOCUMENT), canonical_digest(read_back(SIMD_DOCUMENT))};
    expect(simd.canonical->leaves == 13, "the SIMD document reads back: " + std::to_string(simd.canonical->leaves));
    const std::string invalid_utf8 = "[\"" + std::string(40, 'a') + "\xff" + std::string(20, 'b') + "\"]";
    const std::string unterminated = "[\"" + std::string(40, 'a');

    std::string first, first_text, first_insitu;
    std::uint64_t first_call = 0;
    for (const auto* kernel : supported) {
        const std::string name = std::string("RapidJSON kernel ") + kernel->name;
        use_rapidjson_kernel(*kernel);
        for (const auto* payload : {&sample, &simd}) {
            for (const char* variant : {"rapidjson", "rapidjson-insitu"}) {
                for (const auto& operation : find_variant(variant).operations) {
                    const auto record = verify(find_variant(variant), *payload, operation);
                    expect(record["status"] == "passed", name + ": " + variant + " " + operation + " on " +
                                                             payload->name + ": " + record["message"].dump());
                }
            }
        }
        // The same document, text and timed-call result from every kernel.
        const Value parsed = std::get<Value>(find_variant("rapidjson").result(simd, DESERIALIZE));
        const Value insitu = std::get<Value>(find_variant("rapidjson-insitu").result(simd, DESERIALIZE));
        const std::string text = std::get<std::string>(find_variant("rapidjson").result(simd, SERIALIZE));
        const std::string digest = canonical_digest(parsed).sha256;
        const std::uint64_t call = bind(find_variant("rapidjson"), simd, DESERIALIZE)() +
                                   bind(find_variant("rapidjson-insitu"), simd, DESERIALIZE)() +
                                   bind(find_variant("rapidjson"), simd, SERIALIZE)();
        if (first.empty()) {
            first = digest;
            first_text = text;
            first_insitu = canonical_digest(insitu).sha256;
            first_call = call;
        }
        expect(digest == first && digest == simd.canonical->sha256, name + ": the parsed document's digest");
        expect(canonical_digest(insitu).sha256 == first_insitu, name + ": the in situ document's digest");
        expect(text == first_text, name + ": the serialized text equals the first kernel's: " + text);
        expect(call == first_call, name + ": the timed calls' results");
        // Conformance: the default flags do not validate UTF-8, the strict ones do; both reject a broken document.
        expect(kernel->check(invalid_utf8.data(), invalid_utf8.size()) == nullptr,
               name + ": default flags accept invalid UTF-8");
        expect(kernel->check_strict(invalid_utf8.data(), invalid_utf8.size()) != nullptr,
               name + ": kParseValidateEncodingFlag rejects invalid UTF-8");
        expect(kernel->check(unterminated.data(), unterminated.size()) != nullptr &&
                   kernel->check_strict(unterminated.data(), unterminated.size()) != nullptr,
               name + ": an unterminated string is rejected");
        expect(rapidjson_isa_flags(*kernel).value("sse42", false) == (std::strcmp(kernel->name, "sse42") == 0),
               name + ": its ISA flags claim SSE4.2 exactly when it is the sse42 kernel");
    }
    expect(supported.size() == compiled.size(), "this CPU runs every kernel of this build (" + names(supported) +
                                                    " of " + names(compiled) + "): the test covers them all");

    // Choosing: a name, or the best the CPU runs; never a kernel the CPU cannot run, never an unknown name.
    const auto all = [](const RapidjsonKernel&) { return true; };
    const auto no_sse42 = [](const RapidjsonKernel& k) {
        return k.cpu_feature == nullptr || std::strcmp(k.cpu_feature, "sse4.2") != 0;
    };
    RapidjsonKernel fake_sse42 = *compiled.back(), fake_none = *compiled.back();
    fake_sse42.name = "sse42";
    fake_sse42.cpu_feature = "sse4.2";
    fake_none.name = "none";
    fake_none.cpu_feature = nullptr;
    const std::vector<const RapidjsonKernel*> pair = {&fake_sse42, &fake_none};
    expect(&choose_rapidjson_kernel(nullptr, pair, all) == &fake_sse42, "unset: the best kernel");
    expect(&choose_rapidjson_kernel("", pair, no_sse42) == &fake_none, "empty: the best kernel the CPU runs");
    expect(&choose_rapidjson_kernel("none", pair, all) == &fake_none, "a kernel by name");
    const std::string refused = lab_error_of([&] { choose_rapidjson_kernel("sse42", pair, no_sse42); });
    expect(refused.find("RapidJSON's sse42 kernel cannot run on this CPU") != std::string::npos,
           "a kernel the CPU cannot run is refused, not replaced: '" + refused + "'");
    const std::string unknown = lab_error_of([&] { choose_rapidjson_kernel("avx2", pair, all); });
    expect(unknown.find("JSONLAB_RAPIDJSON_SIMD=avx2 names no RapidJSON kernel") != std::string::npos,
           "an unknown kernel is refused: '" + unknown + "'");
    expect(throws([&] { choose_rapidjson_kernel(nullptr, pair, [](const RapidjsonKernel&) { return false; }); }),
           "no kernel the CPU runs is an error");

    // The process switch: JSONLAB_RAPIDJSON_SIMD selects, an unknown name is a LabError.
    for (const auto* kernel : supported) {
        setenv(RAPIDJSON_SIMD_VARIABLE, kernel->name, 1);
        select_rapidjson_kernel();
        expect(&active_rapidjson_kernel() == kernel, std::string("JSONLAB_RAPIDJSON_SIMD=") + kernel->name);
    }
    setenv(RAPIDJSON_SIMD_VARIABLE, "bogus", 1);
    expect(throws([] { select_rapidjson_kernel(); }), "JSONLAB_RAPIDJSON_SIMD=bogus is refused");
    unsetenv(RAPIDJSON_SIMD_VARIABLE);
    select_rapidjson_kernel();
    expect(&active_rapidjson_kernel() == supported.front(), "unset: the best kernel again");
}

}  // namespace

int main() {
    using namespace jsonlab;
    expect(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256(abc)");
    expect(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 of nothing");
    {  // FIPS 180-2's two-block message, fed in pieces that straddle a block: the same as all at once
        const std::string message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        Sha256 pieces;
        pieces.update(message.substr(0, 3));
        pieces.update(message.substr(3));
        const std::string expected = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        expect(pieces.hex_digest() == expected && sha256_hex(message) == expected, "sha256 in pieces");
    }

    const Value document = read_back(DOCUMENT);
    const Digest digest = canonical_digest(document);
    expect(digest.sha256 == EXPECTED.sha256 && digest.leaves == EXPECTED.leaves,
           "canonical digest of the sample document: " + digest.sha256 + " / " + std::to_string(digest.leaves));
    const auto records = canonical_records(document, 2);
    expect(records.size() == 2 && records[0] == "1:/ null 0:\n" && records[1] == "6:/a~1~0 string 2:\xc3\xa9\n",
           "first canonical records (sorted names, escaped pointer)");

    const Payload payload{"sample", DOCUMENT, sha256_hex(DOCUMENT), EXPECTED};
    Payload wrong = payload;
    wrong.canonical = Digest{std::string(64, '0'), 8};
    for (const auto& variant : variants()) {
        std::vector<std::string> operations = variant.operations;
        operations.insert(operations.end(), variant.composites.begin(), variant.composites.end());
        for (const auto& operation : operations) {
            if (!variant.datasets.empty()) continue;  // the typed variants read only their files: test_typed_variants
            const auto record = verify(variant, payload, operation);
            expect(record["status"] == "passed",
                   variant.variant + " " + operation + ": " + record["message"].get<std::string>());
            expect(verify(variant, wrong, operation)["status"] == "failed",
                   variant.variant + " " + operation + " passes a wrong digest");
            const Call call = bind(variant, payload, operation);
            call();  // the timed call runs on a valid document
        }
    }
    {  // composites: nlohmann chains its steps; a variant that does not is refused with its operations
        const auto chain = verify(find_variant("nlohmann"), payload, DESERIALIZE_THEN_READ);
        expect(chain["status"] == "passed" &&
                   chain["message"].get<std::string>().find("verified alone; the chain's result matches") != std::string::npos,
               "nlohmann deserialize-then-read: " + chain["message"].get<std::string>());
        expect(find_variant("nlohmann").composites == COMPOSITES, "nlohmann runs every composite");
        Variant miscounting = find_variant("nlohmann");  // its first step passes alone; the chain's count is one off
        const auto real_result = miscounting.result;
        miscounting.result = [real_result](const Payload& p, const std::string& operation) -> Result {
            Result result = real_result(p, operation);
            if (auto* leaves = std::get_if<std::uint64_t>(&result)) ++*leaves;
            return result;
        };
        const auto off = verify(miscounting, payload, DESERIALIZE_THEN_READ);
        expect(off["status"] == "failed" &&
                   off["message"].get<std::string>().find("the chain's result differs") != std::string::npos,
               "a chain whose result is wrong fails after its first step passed: " + off["message"].get<std::string>());
        const auto refused = find_variant("rapidjson").not_applicable(payload, SERIALIZE_THEN_DESERIALIZE);
        expect(refused && refused->hint.find("deserialize, serialize") != std::string::npos,
               "rapidjson does not chain its steps, and says what it runs");
        expect(steps_of(DESERIALIZE_THEN_SERIALIZE) == std::vector<std::string>{DESERIALIZE, SERIALIZE}, "steps");
        expect(throws([] { check_operation("serialize-then-shout"); }), "an unknown composite is refused");
    }
    test_model_readers();
    test_typed_variants();
    test_rapidjson_kernels();
    if (failures == 0) std::cout << "all C++ lab unit tests passed\n";
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
