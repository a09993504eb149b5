// The seam's switch, common to every backend: the table in use.
#include "os/sys.hpp"

#include <atomic>

namespace sluice::detail {
namespace {

// Null: the backend's own table.
std::atomic<const sys_table*> installed{nullptr};

}  // namespace

const sys_table& sys() noexcept {
  const sys_table* table = installed.load(std::memory_order_relaxed);
  return table ? *table : real_sys();
}

void set_sys(const sys_table* table) noexcept { installed.store(table, std::memory_order_relaxed); }

}  // namespace sluice::detail
