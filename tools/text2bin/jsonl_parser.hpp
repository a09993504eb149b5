// sluice-text2bin: JSON Lines, one object per line, to records.
#pragma once

#include <memory>

#include "text2bin/convert.hpp"
#include "text2bin/format_parser.hpp"
#include "text2bin/record_encoder.hpp"

namespace text2bin {

// The JSON Lines format (docs/sluice-text2bin.md): each line holds one JSON
// object whose keys are exactly the schema's field names, in any order, and
// whose values are numbers (null for NaN in a float or double field), as
// sluice-bin2text writes them and as other producers do: any JSON
// whitespace, escaped keys, any valid JSON number form, blank lines, CRLF
// line ends. An integer field takes a number with a fraction or exponent
// only if its value is an exact integer (1.0, 1e2); a float field's value is
// the one nearest the text. No head (read_head returns 0); whole records end
// after a '\n'. Errors name the byte they are at: malformed JSON, a missing,
// unknown or repeated key, a value that is not a number, a number out of its
// field's range, invalid UTF-8 or a control character in a key, text after
// the object. `encoder` must outlive the parser; `work` is not kept.
std::unique_ptr<format_parser> make_jsonl_parser(const job& work, const record_encoder& encoder);

}  // namespace text2bin
