// The C face of fake_sys (c_fake_sys.h): one fake, owned here.
#include "support/c_fake_sys.h"

#include <cerrno>
#include <cstdlib>
#include <memory>

#include "support/fake_sys.hpp"

namespace {

using sluice_test::call;
using sluice_test::fake_sys;

std::unique_ptr<fake_sys>& installed() {
  static std::unique_ptr<fake_sys> fake;
  return fake;
}

call entry(c_fake_call which) {
  switch (which) {
    case C_FAKE_OPEN: return call::open;
    case C_FAKE_CLOSE: return call::close;
    case C_FAKE_WRITE_AT: return call::write_at;
    case C_FAKE_READ_AT: return call::read_at;
    case C_FAKE_WRITE_STREAM: return call::write_stream;
    case C_FAKE_READ_STREAM: return call::read_stream;
    case C_FAKE_SYNC_DATA: return call::sync_data;
    case C_FAKE_SYNC_ALL: return call::sync_all;
    case C_FAKE_SYNC_DIRECTORY: return call::sync_directory;
    case C_FAKE_PREALLOCATE: return call::preallocate;
    case C_FAKE_WRITEBACK: return call::writeback;
    case C_FAKE_DROP_CACHE: return call::drop_cache;
  }
  std::abort();  // a value outside the enum: a broken test
}

}  // namespace

extern "C" int c_fake_install(void) {
  if (installed()) return EBUSY;
  try {
    installed() = std::make_unique<fake_sys>();
  } catch (...) {
    return EBUSY;  // another fake_sys, made by C++ code, is active
  }
  return 0;
}

extern "C" void c_fake_remove(void) { installed().reset(); }

extern "C" void c_fake_fail(c_fake_call which, int nth, int error) {
  if (installed()) installed()->fail(entry(which), nth, error);
}

extern "C" void c_fake_short_transfer(c_fake_call which, int nth, size_t bytes) {
  if (!installed()) return;
  try {
    installed()->short_transfer(entry(which), nth, bytes);
  } catch (...) {
    std::abort();  // not a transfer: a broken test
  }
}

extern "C" void c_fake_interrupt_every_write(void) {
  if (!installed()) return;
  installed()->interrupt_every_write_at();
  installed()->interrupt_every_write_stream();
}

extern "C" int c_fake_calls(c_fake_call which) {
  return installed() ? installed()->calls(entry(which)) : 0;
}
