// An error the user can act on: the lab prints `error: <what>` and `hint: <fix>` and exits 2 (the lab contract).
#pragma once

#include <stdexcept>
#include <string>

namespace jsonlab {

class LabError : public std::runtime_error {
public:
    LabError(const std::string& what, std::string hint) : std::runtime_error(what), hint_(std::move(hint)) {}
    const std::string& hint() const noexcept { return hint_; }

private:
    std::string hint_;
};

}  // namespace jsonlab
