// Tests that need what a platform lacks (fork, pipes, signals, users,
// /proc, O_DIRECT, io_uring...): on Windows they skip, saying why, and are
// never dropped from the list without a trace.
//
// Three forms, from the least to the most of a test left out:
// - SLUICE_SKIP_ON_WINDOWS("needs fork(2)") as a test body's first line:
//   a test that compiles on Windows but cannot run there.
// - a section of a file between `#ifndef _WIN32` and `#else`, and in the
//   `#else` part SLUICE_SKIPPED_ON_WINDOWS(suite, name, reason) (TEST) or
//   SLUICE_SKIPPED_ON_WINDOWS_F(fixture, name, reason) (TEST_F): tests whose
//   bodies do not compile on Windows, standing in as one skipped test.
// - a whole file that does not compile on Windows: tests/CMakeLists.txt
//   lists it with its reason, and the Windows build compiles in its place
//   a test per suite that skips (cmake/windows_stand_ins.cmake).
// Each skip prints "not on Windows: <reason>".
#pragma once

#include <gtest/gtest.h>

#ifdef _WIN32
#define SLUICE_SKIP_ON_WINDOWS(reason) GTEST_SKIP() << "not on Windows: " << (reason)
#else
#define SLUICE_SKIP_ON_WINDOWS(reason) static_cast<void>(0)
#endif

#define SLUICE_SKIPPED_ON_WINDOWS(suite, name, reason) \
  TEST(suite, name) { GTEST_SKIP() << "not on Windows: " << (reason); }
#define SLUICE_SKIPPED_ON_WINDOWS_F(fixture, name, reason) \
  TEST_F(fixture, name) { GTEST_SKIP() << "not on Windows: " << (reason); }
