#include "core/result_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace sluice::bench {
namespace {

// Results up to this long are shown whole in the error.
constexpr std::size_t shown = 120;

std::string difference(const std::string& got, const std::string& expected,
                       const std::string& reference_method) {
  if (got.size() <= shown && expected.size() <= shown)
    return "'" + got + "' where " + reference_method + " computed '" + expected + "'";
  auto at = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end()).first;
  return std::to_string(got.size()) + " bytes that differ from " + reference_method + "'s (" +
         std::to_string(expected.size()) + " bytes) at byte " + std::to_string(at - got.begin());
}

}  // namespace

void result_check::check(const std::string& method, std::string result) {
  if (reference_method_.empty()) {
    reference_ = std::move(result);
    reference_method_ = method;
    return;
  }
  if (result != reference_)
    throw std::runtime_error("wrong result: " + difference(result, reference_, reference_method_));
}

}  // namespace sluice::bench
