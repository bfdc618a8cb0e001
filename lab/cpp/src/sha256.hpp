// SHA-256, incremental: the datasets' file hashes and the canonical digest, through OpenSSL's libcrypto (EVP), the
// implementation Debian ships (libssl-dev); the lab does not carry one of its own.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace jsonlab {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    std::string hex_digest();  // finishes the hash; the object is then spent

private:
    struct Free {
        void operator()(EVP_MD_CTX* context) const;
    };
    std::unique_ptr<EVP_MD_CTX, Free> context_;
};

std::string sha256_hex(std::string_view data);

}  // namespace jsonlab
