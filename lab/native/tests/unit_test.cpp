// The lab's own tests (ctest): SHA-256 against a FIPS 180-4 vector, the canonical digest against the one
// harness/tools/canonical.py computes for a small document (member order, pointer escaping, -0, empty containers,
// a non-ASCII string), and every variant's every operation verified on that document. The datasets themselves are
// checked by `jsonlab-native verify --strict true` (a second ctest in CMakeLists.txt).
#include <cstdlib>
#include <iostream>
#include <string>

#include "../src/canonical.hpp"
#include "../src/sha256.hpp"
#include "../src/variants.hpp"
#include "../src/verify.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    if (!ok) {
        ++failures;
        std::cerr << "FAILED: " << what << "\n";
    }
}

// From harness/tools/canonical.py: canonical_digest(DOCUMENT).
const std::string DOCUMENT = "{\"b\":[1,-0.0,{}],\"a/~\":\"\xc3\xa9\",\"\":null,\"t\":[true,false,[]]}";
const jsonlab::Digest EXPECTED{"8316a008f4f9a8ab50d5a47a97e683aac58c1ceb820d317a7a9ffb4072b72396", 8};

}  // namespace

int main() {
    using namespace jsonlab;
    expect(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256(abc)");
    expect(sha256_hex(std::string(1000, 'x')).size() == 64, "sha256 over several blocks");

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
        for (const auto& operation : variant.operations) {
            const auto record = verify(variant, payload, operation);
            expect(record["status"] == "passed",
                   variant.variant + " " + operation + ": " + record["message"].get<std::string>());
            expect(verify(variant, wrong, operation)["status"] == "failed",
                   variant.variant + " " + operation + " passes a wrong digest");
            const Call call = bind(variant, payload, operation);
            call();  // the timed call runs on a valid document
        }
    }
    if (failures == 0) std::cout << "all native lab unit tests passed\n";
    return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
