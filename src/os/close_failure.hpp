// The failure of close(2) itself, as file::close() throws it: a
// std::system_error like any other to its callers, told apart inside sluice
// from the earlier sync failure close() repeats, so that a writer that has
// already failed still reports a close that fails too.
#pragma once

#include <system_error>

namespace sluice::detail {

class close_failure : public std::system_error {
 public:
  using std::system_error::system_error;
};

}  // namespace sluice::detail
