// sluice-text2bin: the parser of each input format.
#pragma once

#include <memory>

#include "text2bin/convert.hpp"
#include "text2bin/format_parser.hpp"
#include "text2bin/record_encoder.hpp"

namespace text2bin {

// The parser of job.format, with job's options, reading records into
// `encoder`'s layout; it keeps a reference to `encoder`, which must outlive
// it. Throws std::invalid_argument for a format this build cannot read yet.
std::unique_ptr<format_parser> make_parser(const job& work, const record_encoder& encoder);

}  // namespace text2bin
