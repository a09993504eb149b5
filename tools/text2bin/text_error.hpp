// sluice-text2bin: what a parser throws at bad input.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace text2bin {

// Bad input at byte `at()` of the text a parser was given (its head or a
// piece of records): what() says what was expected and what was found,
//   expected ',' or a line end after field 'x', found 'q'
// without a position. The driver turns `at` into the input's line, column
// and byte offset (convert.hpp), since only it knows where the text sits.
class text_error : public std::runtime_error {
 public:
  text_error(std::size_t at, const std::string& what) : std::runtime_error(what), at_(at) {}

  std::size_t at() const noexcept { return at_; }

 private:
  std::size_t at_;
};

}  // namespace text2bin
