#include "args.hpp"

#include <cstdlib>

#include "lab_error.hpp"

namespace jsonlab {

Args::Args(int argc, char** argv) {
    if (argc < 2) throw LabError("no verb given", "verbs: env, list, verify, run, once, conformance");
    verb_ = argv[1];
    for (int i = 2; i < argc; i += 2) {
        std::string name = argv[i];
        if (name.rfind("--", 0) != 0 || i + 1 >= argc) {
            throw LabError("malformed arguments near '" + name + "'", "options come as --name value pairs");
        }
        options_[name.substr(2)].push_back(argv[i + 1]);
    }
}

std::vector<std::string> Args::all(const std::string& name) const {
    auto found = options_.find(name);
    return found == options_.end() ? std::vector<std::string>{} : found->second;
}

std::optional<std::string> Args::optional(const std::string& name) const {
    auto found = options_.find(name);
    if (found == options_.end()) return std::nullopt;
    return found->second.back();
}

std::string Args::optional(const std::string& name, const std::string& fallback) const {
    return optional(name).value_or(fallback);
}

std::optional<long long> Args::optional_int(const std::string& name) const {
    auto value = optional(name);
    if (!value) return std::nullopt;
    char* end = nullptr;
    long long n = std::strtoll(value->c_str(), &end, 10);
    if (value->empty() || *end != '\0') {
        throw LabError("--" + name + " must be an integer, got '" + *value + "'", "pass a whole number");
    }
    return n;
}

std::string Args::required(const std::string& name) const {
    auto value = optional(name);
    if (!value) throw LabError("--" + name + " is required for '" + verb_ + "'", "pass --" + name + " <value>");
    return *value;
}

}  // namespace jsonlab
