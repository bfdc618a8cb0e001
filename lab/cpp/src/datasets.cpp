#include "datasets.hpp"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lab_error.hpp"
#include "sha256.hpp"

namespace jsonlab {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LabError("cannot read " + path, "check the path (the harness passes the repository's datasets/)");
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

Manifest::Manifest(const std::string& datasets_dir) : dir_(datasets_dir), file_(datasets_dir + "/manifest.json") {
    nlohmann::json manifest;
    try {
        manifest = nlohmann::json::parse(read_file(file_));
    } catch (const LabError&) {
        throw LabError("cannot read " + file_, "pass the datasets folder of this repository with --datasets");
    } catch (const nlohmann::json::exception& e) {
        throw LabError(file_ + " is not valid JSON: " + e.what(), "restore it (git checkout -- datasets/manifest.json)");
    }
    for (const auto& d : manifest.at("datasets")) {
        DatasetEntry entry{d.at("name").get<std::string>(), d.at("path").get<std::string>(),
                           d.at("sha256").get<std::string>(), std::nullopt};
        if (d.contains("model") && d["model"].is_string()) entry.model = d["model"].get<std::string>();
        if (d.contains("canonical") && !d["canonical"].is_null()) {
            entry.canonical = Digest{d["canonical"].at("sha256").get<std::string>(),
                                     d["canonical"].at("leaves").get<std::size_t>()};
        }
        datasets_.push_back(std::move(entry));
    }
}

const DatasetEntry& Manifest::find(const std::string& name) const {
    std::string names;
    for (const auto& entry : datasets_) {
        if (entry.name == name) return entry;
        names += (names.empty() ? "" : ", ") + entry.name;
    }
    throw LabError("unknown dataset '" + name + "'", "datasets in " + file_ + ": " + names);
}

Payload Manifest::load(const DatasetEntry& entry) const {
    const std::string path = dir_ + "/" + entry.path;
    std::string bytes;
    try {
        bytes = read_file(path);
    } catch (const LabError&) {
        throw LabError("dataset '" + entry.name + "' is missing (" + path + ")",
                       "restore the datasets folder (git checkout -- datasets/)");
    }
    std::string sha256 = sha256_hex(bytes);
    if (sha256 != entry.sha256) {
        throw LabError("dataset '" + entry.name + "' (" + path + ") has sha256 " + sha256 + ", the manifest says " +
                           entry.sha256,
                       "the file was changed: restore it, or regenerate datasets and the manifest (just datasets)");
    }
    return {entry.name, std::move(bytes), std::move(sha256), entry.canonical, entry.model};
}

}  // namespace jsonlab
