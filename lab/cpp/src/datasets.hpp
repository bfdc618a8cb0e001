// The datasets folder the harness mounts: manifest.json names every file with its sha256 and canonical digest; a file
// that does not match is refused, so a cell never times a different input than the one its row names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "canonical.hpp"

namespace jsonlab {

struct DatasetEntry {
    std::string name;
    std::string path;  // relative to the datasets folder
    std::string sha256;
    std::optional<Digest> canonical;  // absent: not one JSON document (e.g. JSON lines)
    std::string model{};              // the manifest's "model" ("" for none): a declared one is "<space>.<root>"
};

struct Payload {
    std::string name;
    std::string bytes;  // the file as stored (a byte order mark, if any, included: what a server receives)
    std::string sha256;
    std::optional<Digest> canonical;
    std::string model{};  // the manifest's "model" ("" for none)
};

class Manifest {
public:
    explicit Manifest(const std::string& datasets_dir);
    const DatasetEntry& find(const std::string& name) const;
    const std::vector<DatasetEntry>& datasets() const { return datasets_; }
    Payload load(const DatasetEntry& entry) const;

private:
    std::string dir_;
    std::string file_;
    std::vector<DatasetEntry> datasets_;
};

std::string read_file(const std::string& path);

}  // namespace jsonlab
