#include "sha256.hpp"

#include <openssl/evp.h>

#include "lab_error.hpp"

namespace jsonlab {
namespace {

void require(int ok, const char* what) {
    if (ok != 1) throw LabError(std::string("OpenSSL's SHA-256 failed in ") + what, "check the libssl3 install");
}

}  // namespace

void Sha256::Free::operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
    if (!context_) throw LabError("OpenSSL could not allocate a digest context", "the process is out of memory");
    require(EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr), "EVP_DigestInit_ex");
}

void Sha256::update(const void* data, std::size_t size) {
    require(EVP_DigestUpdate(context_.get(), data, size), "EVP_DigestUpdate");
}

std::string Sha256::hex_digest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(context_.get(), digest, &length), "EVP_DigestFinal_ex");
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

std::string sha256_hex(std::string_view data) {
    Sha256 hash;
    hash.update(data);
    return hash.hex_digest();
}

}  // namespace jsonlab
