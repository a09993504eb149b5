// Runs the C tests (c_tests.h) under GoogleTest, so that ctest and the
// sanitizer presets run them: one test per C function, each in a fresh
// directory, its recorded failure (file:line, the check, what was found)
// shown when it returns 1. After each test the fake seam and the default
// error handler are put back, even if the test stopped half way.
#include <gtest/gtest.h>

#include "c/c_check.h"
#include "c/c_tests.h"
#include "support/c_fake_sys.h"
#include "support/test_support.hpp"

namespace {

class c_test : public sluice_test::dir_test {
 protected:
  void run(int (*test)(const char* dir)) {
    c_check_reset();
    int result = test(dir.path().c_str());
    EXPECT_EQ(result, 0) << c_check_failure();
    if (result == 0) {
      EXPECT_STREQ(c_check_failure(), "") << "a check failed, yet the test returned 0";
    }
  }
  void TearDown() override {
    c_fake_remove();
    sluice_set_error_handler(nullptr);
  }
};

using c_writer = c_test;
using c_writer_fault = c_test;
using c_reader = c_test;
using c_reader_fault = c_test;
using c_numbers = c_test;
using c_journal = c_test;
using c_journal_fault = c_test;
using c_no_inline = c_test;
using c_handles = c_test;

#define SLUICE_C_TEST(suite, name) \
  TEST_F(c_##suite, name) { run(c_##suite##_##name); }
SLUICE_C_TESTS(SLUICE_C_TEST)

}  // namespace
