// The `conformance` verb: `conformance --files DIR --parser NAME --out FILE [--start N]` parses every *.json file of
// DIR (in byte order of their names, the order every lab uses), from the N-th on, with one parser, and appends one
// JSON line per file to FILE, flushed before the next file starts: {file, outcome: accepted|rejected, detail, ms}. A
// file that kills the process (RapidJSON's recursive parser on a deeply nested document, say) or never returns leaves
// no line: the harness records it as crashed or hung and starts the verb again after it.
#pragma once

#include <nlohmann/json.hpp>

#include "args.hpp"

namespace jsonlab {

nlohmann::json conformance_parsers();  // for `list`
int conformance_verb(const Args& args);

}  // namespace jsonlab
