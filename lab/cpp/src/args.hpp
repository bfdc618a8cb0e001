// Command-line arguments of the lab contract: `<verb> --name value ...`; a name may repeat (--variant a --variant b).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jsonlab {

class Args {
public:
    Args(int argc, char** argv);

    const std::string& verb() const { return verb_; }
    std::vector<std::string> all(const std::string& name) const;
    std::optional<std::string> optional(const std::string& name) const;
    std::string optional(const std::string& name, const std::string& fallback) const;
    std::optional<long long> optional_int(const std::string& name) const;
    std::string required(const std::string& name) const;
    bool flag(const std::string& name) const { return optional(name, "false") == "true"; }

private:
    std::string verb_;
    std::map<std::string, std::vector<std::string>> options_;
};

}  // namespace jsonlab
