// sluice-text2bin: the input cut into pieces of whole records.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/ordered_chunks.hpp"
#include "text2bin/format_parser.hpp"
#include "text2bin/text_error.hpp"
#include "text2bin/text_input.hpp"

namespace text2bin {

// Reads the input in order, one thread at a time: first its head, then
// pieces of about `piece_bytes` that end where the format's whole_records
// says, the rest carried to the next piece. A stretch with no end in it
// (of the head, or of a record) is read further, the buffer doubling, up
// to `max_stretch` bytes; past that it is an error.
class piece_cutter {
 public:
  piece_cutter(text_input& in, format_parser& parser, std::size_t piece_bytes,
               std::size_t max_stretch);

  // Reads the head with parser.read_head and returns its text, valid until
  // the next call. Throws located_error (text_position.hpp) at a byte of it
  // (read_head's text_error, or at 0 for a head longer than max_stretch),
  // or std::system_error for a read.
  std::string_view read_head();

  // The next piece, its text in into.bytes[0, into.input); `last` tells
  // whether it ends the input. False once the last piece has been given
  // (an input that ends where a piece was cut gets an empty last piece).
  // Throws located_error at a byte of the piece's text (whole_records'
  // text_error, or at 0 for a record longer than max_stretch), or
  // std::system_error.
  bool next(sluice_tools::block& into, bool& last);

 private:
  // Reads up to `count` bytes to `into`; notes the input's end.
  std::size_t read(char* into, std::size_t count);
  // The error for a head or a record longer than max_stretch_, at its start.
  text_error too_long(const char* what) const;

  text_input& in_;
  format_parser& parser_;
  std::size_t piece_bytes_;
  std::size_t max_stretch_;
  std::string head_;
  std::string carry_;   // read, not yet in a piece
  bool ended_ = false;  // the input's end was read
  bool done_ = false;   // the last piece was given
};

}  // namespace text2bin
