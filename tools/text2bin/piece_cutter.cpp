#include "text2bin/piece_cutter.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "text2bin/text_error.hpp"
#include "text2bin/text_position.hpp"

namespace text2bin {
namespace {

// Room for `size` bytes at the start of `b`, keeping its first `used`.
char* keep_room(sluice_tools::block& b, std::size_t used, std::size_t size) {
  if (size > b.capacity) {
    auto bigger = std::make_unique_for_overwrite<char[]>(size);
    if (used != 0) std::memcpy(bigger.get(), b.bytes.get(), used);
    b.bytes = std::move(bigger);
    b.capacity = size;
  }
  return b.bytes.get();
}

}  // namespace

piece_cutter::piece_cutter(text_input& in, format_parser& parser, std::size_t piece_bytes,
                           std::size_t max_stretch)
    : in_(in),
      parser_(parser),
      piece_bytes_(std::max<std::size_t>(piece_bytes, 1)),
      max_stretch_(std::max(max_stretch, piece_bytes_)) {}

std::size_t piece_cutter::read(char* into, std::size_t count) {
  std::size_t got = in_.read(into, count);
  if (got < count) ended_ = true;
  return got;
}

text_error piece_cutter::too_long(const char* what) const {
  return text_error(0, "no " + std::string(what) + " ends within " + std::to_string(max_stretch_) +
                           " bytes from here (the longest one read in whole)");
}

std::string_view piece_cutter::read_head() {
  // A head is short: read a little first (more only if it goes on), so that
  // the text after it, carried to the first piece, is short too.
  constexpr std::size_t first_read = std::size_t{64} << 10;
  std::string text;
  for (std::size_t size = std::min(piece_bytes_, first_read);;
       size = std::min(2 * size, max_stretch_)) {
    std::size_t had = text.size();
    text.resize(size);
    text.resize(had + read(text.data() + had, size - had));
    std::optional<std::size_t> taken;
    try {
      taken = parser_.read_head(text, ended_);
    } catch (const text_error& e) {
      throw located_error(e, text);
    }
    if (taken) {
      carry_.assign(text, *taken);
      text.resize(*taken);
      head_ = std::move(text);
      return head_;
    }
    if (ended_) throw std::logic_error("read_head asked for more text at the input's end");
    if (text.size() >= max_stretch_) throw located_error(too_long("head"), text);
  }
}

bool piece_cutter::next(sluice_tools::block& into, bool& last) {
  if (done_) return false;
  std::size_t size = carry_.size();
  std::size_t want = std::max(piece_bytes_, 2 * size);
  char* text = keep_room(into, 0, want);
  std::memcpy(text, carry_.data(), size);
  if (!ended_) size += read(text + size, want - size);
  std::size_t cut;
  for (;;) {
    try {
      cut = parser_.whole_records(std::string_view(text, size), ended_);
    } catch (const text_error& e) {
      throw located_error(e, std::string_view(text, size));
    }
    if (cut != 0 || ended_) break;
    if (size >= max_stretch_) throw located_error(too_long("record"), std::string_view(text, size));
    want = std::min(2 * size, max_stretch_);
    text = keep_room(into, size, want);
    size += read(text + size, want - size);
  }
  if (ended_ && cut != size) throw std::logic_error("whole_records left text at the input's end");
  last = ended_;
  done_ = last;
  carry_.assign(text + cut, size - cut);
  into.input = cut;
  return true;
}

}  // namespace text2bin
