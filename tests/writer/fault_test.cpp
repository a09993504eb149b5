// Faults injected at every system call the writer makes: interrupted and
// short writes must be invisible; failures must leave the file holding
// exactly the bytes before the error's offset, stick, and never be retried.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using fault = dir_test;

constexpr std::size_t mib = 1024 * 1024;

// Checks the state a writer must be in after `e`, thrown while the writer was
// asked to take `attempted` (everything it was given, in order): the file
// holds exactly the first e.offset() bytes, the rest is still buffered or was
// never accepted, and every later call throws the same error without a
// system call.
void expect_stuck(writer& out, const fake_sys& fake, const sluice::write_error& e, int error_value,
                  const std::filesystem::path& path, const std::string& attempted) {
  EXPECT_EQ(e.code(), std::error_code(error_value, std::generic_category()));
  std::string what = e.what();
  EXPECT_NE(what.find("write " + quoted(path) + " at offset " + std::to_string(e.offset())),
            std::string::npos)
      << what;
  EXPECT_EQ(size_on_disk(path), e.offset());
  EXPECT_EQ(read_all(path), attempted.substr(0, e.offset())) << "lost or duplicated bytes";
  EXPECT_EQ(out.tell() - out.buffered(), e.offset());
  EXPECT_LE(out.tell(), attempted.size());

  int pwritevs = fake.calls(call::write_at);
  int syncs = fake.calls(call::sync_data);
  auto expect_same = [&](const char* name, auto&& operation) {
    auto again = thrown<sluice::write_error>(operation);
    ASSERT_TRUE(again) << name << " did not throw the write_error";
    EXPECT_EQ(again->code(), e.code()) << name;
    EXPECT_EQ(again->offset(), e.offset()) << name;
    EXPECT_STREQ(again->what(), e.what()) << name;
  };
  expect_same("put", [&] { out.put('x'); });
  expect_same("write", [&] { out.write(std::string_view("x")); });
  expect_same("large write", [&] { out.write(std::string(3 * out.buffer_size() + 1, 'L')); });
  expect_same("flush", [&] { out.flush(); });
  expect_same("print", [&] { out.print(12345); });
  expect_same("print double", [&] { out.print(0.5); });
  expect_same("put_le", [&] { out.put_le(std::uint16_t{1}); });
  expect_same("binary write", [&] { out.write(attempted.data(), 1); });
  expect_same("reserve", [&] { out.reserve(1); });
  expect_same("sync", [&] { out.sync(); });
  EXPECT_EQ(size_on_disk(path), e.offset());
  EXPECT_EQ(out.tell() - out.buffered(), e.offset());
  expect_same("close", [&] { out.close(); });
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(fake.calls(call::write_at), pwritevs) << "a write was retried";
  EXPECT_EQ(fake.calls(call::sync_data), syncs);
  EXPECT_EQ(read_all(path), attempted.substr(0, e.offset()));
}

// --- interrupted and short writes are invisible ------------------------------------

TEST_F(fault, every_pwritev_interrupted_once_is_transparent) {
  auto path = dir / "eintr";
  fake_sys fake;
  fake.interrupt_every_write_at();
  std::string model;
  {
    writer out(path, {.buffer_size = 100});
    for (std::size_t n : {1u, 30u, 99u, 100u, 101u, 250u, 5000u, 7u}) {
      std::string chunk = pattern(n, n);
      out.write(chunk);
      model += chunk;
    }
    out.sync();
    out.print(-42);
    model += "-42";
    out.close();
  }
  EXPECT_EQ(read_all(path), model);
  const auto& calls = fake.writes_at();
  ASSERT_GT(calls.size(), 4u);
  ASSERT_EQ(calls.size() % 2, 0u);
  for (std::size_t i = 0; i < calls.size(); i += 2) {
    EXPECT_EQ(calls[i].error, EINTR);
    EXPECT_EQ(calls[i + 1].offset, calls[i].offset);  // the same call again
    EXPECT_EQ(calls[i + 1].result, static_cast<ssize_t>(calls[i + 1].requested));
  }
}

TEST_F(fault, a_short_flush_of_every_length_is_continued) {
  constexpr std::size_t n = 64;
  std::string model = pattern(n);
  for (std::size_t k = 0; k < n; ++k) {
    SCOPED_TRACE("first pwritev writes " + std::to_string(k) + " of " + std::to_string(n));
    auto path = dir / ("short" + std::to_string(k));
    fake_sys fake;
    writer out(path, {.buffer_size = 1024});
    out.write(model);
    fake.short_transfer(call::write_at, 1, k);
    out.flush();
    EXPECT_EQ(out.buffered(), 0u);
    EXPECT_EQ(out.tell(), n);
    ASSERT_EQ(fake.calls(call::write_at), 2);
    EXPECT_EQ(fake.writes_at()[1].offset, static_cast<off_t>(k));
    EXPECT_EQ(fake.writes_at()[1].requested, n - k);
    out.close();
    EXPECT_EQ(read_all(path), model);
  }
}

TEST_F(fault, a_short_gathered_write_is_continued) {
  std::string head = pattern(100, 1);
  std::string payload = pattern(mib, 2);
  std::string model = head + payload;
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{99}, std::size_t{100},
                        std::size_t{101}, std::size_t{4096}, 100 + mib / 2, 100 + mib - 1}) {
    SCOPED_TRACE("first pwritev writes " + std::to_string(k));
    auto path = dir / "gather";
    fake_sys fake;
    writer out(path, {.buffer_size = 4096});
    out.write(head);
    fake.short_transfer(call::write_at, 1, k);
    out.write(payload);
    EXPECT_EQ(out.buffered(), 0u);
    EXPECT_EQ(out.tell(), model.size());
    ASSERT_EQ(fake.calls(call::write_at), 2);
    EXPECT_EQ(fake.writes_at()[1].offset, static_cast<off_t>(k));
    EXPECT_EQ(fake.writes_at()[1].iov_count, k < 100 ? 2 : 1);
    out.close();
    EXPECT_EQ(read_all(path), model);
  }
}

TEST_F(fault, many_short_writes_in_a_row_are_continued) {
  auto path = dir / "trickle";
  std::string model = pattern(3000);
  fake_sys fake;
  fake.on_write_at([](int, std::size_t) {
    return transfer_action{transfer_action::partial, 0, 7};
  });
  writer out(path, {.buffer_size = 1000});
  out.write(model);
  out.close();
  EXPECT_EQ(read_all(path), model);
  EXPECT_EQ(fake.calls(call::write_at), static_cast<int>((3000 + 6) / 7));
}

TEST_F(fault, writes_that_transfer_nothing_twice_in_a_row_are_eio) {
  auto path = dir / "stall";
  std::string model = pattern(64);
  fake_sys fake;
  writer out(path, {.buffer_size = 1024});
  out.write(model);
  fake.short_transfer(call::write_at, 1, 10);
  fake.short_transfer(call::write_at, 2, 0);
  fake.fail(call::write_at, 3, EINTR);  // an interruption in between changes nothing
  fake.short_transfer(call::write_at, 4, 0);
  auto e = thrown<sluice::write_error>([&] { out.flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 10u);
  EXPECT_EQ(fake.calls(call::write_at), 4);  // no endless loop
  expect_stuck(out, fake, *e, EIO, path, model);
}

// --- failures after a short write ---------------------------------------------------

TEST_F(fault, a_flush_failing_after_every_short_length_keeps_the_rest_buffered) {
  constexpr std::size_t n = 64;
  std::string model = pattern(n);
  for (int error_value : {ENOSPC, EIO, EFBIG}) {
    for (std::size_t k = 0; k < n; ++k) {
      SCOPED_TRACE(std::string(std::strerror(error_value)) + " after " + std::to_string(k) +
                   " of " + std::to_string(n) + " bytes");
      auto path = dir / "fail";
      fake_sys fake;
      writer out(path, {.buffer_size = 1024});
      out.write(model);
      fake.short_transfer(call::write_at, 1, k);
      fake.fail(call::write_at, 2, error_value);
      auto e = thrown<sluice::write_error>([&] { out.flush(); });
      ASSERT_TRUE(e);
      EXPECT_EQ(e->offset(), k);
      EXPECT_EQ(e->bytes_written(), k);
      EXPECT_EQ(out.buffered(), n - k);
      EXPECT_EQ(out.tell(), n);
      expect_stuck(out, fake, *e, error_value, path, model);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_F(fault, a_gathered_write_failing_part_way_loses_and_duplicates_nothing) {
  std::string head = pattern(100, 1);
  std::string payload = pattern(mib, 2);
  std::string model = head + payload;
  for (std::size_t k : {std::size_t{0}, std::size_t{50}, std::size_t{100}, std::size_t{101},
                        100 + mib / 3, 100 + mib - 1}) {
    SCOPED_TRACE("ENOSPC after " + std::to_string(k));
    auto path = dir / "gather";
    fake_sys fake;
    writer out(path, {.buffer_size = 4096});
    out.write(head);
    fake.short_transfer(call::write_at, 1, k);
    fake.fail(call::write_at, 2, ENOSPC);
    auto e = thrown<sluice::write_error>([&] { out.write(payload); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->offset(), k);
    EXPECT_EQ(out.buffered(), k < 100 ? 100 - k : 0);
    expect_stuck(out, fake, *e, ENOSPC, path, model);
    if (HasFatalFailure()) return;
  }
}

// Each way into a write: the call that finds the buffer full gets the error.
struct trigger {
  const char* name;
  std::string attempted;  // what the call tries to add
  std::function<void(writer&)> call;
};

std::vector<trigger> triggers() {
  std::string small = pattern(10, 5);
  std::string copied = pattern(30, 6);  // below the threshold of a 64-byte buffer
  std::string gathered = pattern(500, 7);
  return {
      {"put", "p", [](writer& w) { w.put('p'); }},
      {"small write", small, [small](writer& w) { w.write(small); }},
      {"copied write", copied, [copied](writer& w) { w.write(copied); }},
      {"gathered write", gathered, [gathered](writer& w) { w.write(gathered); }},
      {"print", "-7", [](writer& w) { w.print(-7); }},
      {"print double", "0.25", [](writer& w) { w.print(0.25); }},
      {"put of a byte", "\xb7", [](writer& w) { w.put(std::byte{0xb7}); }},
      {"binary write", gathered.substr(0, 20),
       [gathered](writer& w) { w.write(static_cast<const void*>(gathered.data()), 20); }},
      {"put_le", "\x04\x03\x02\x01", [](writer& w) { w.put_le(std::uint32_t{0x01020304}); }},
      {"put_be", std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8),
       [](writer& w) { w.put_be(std::uint64_t{0x0102030405060708}); }},
      {"reserve", "", [](writer& w) { w.reserve(8); }},
      {"flush", "", [](writer& w) { w.flush(); }},
      {"sync", "", [](writer& w) { w.sync(); }},
      {"close", "", [](writer& w) { w.close(); }},
  };
}

TEST_F(fault, every_call_that_writes_reports_and_keeps_the_error) {
  for (int error_value : {ENOSPC, EIO, EFBIG}) {
    for (const auto& t : triggers()) {
      for (std::size_t k : {0u, 1u, 40u}) {
        SCOPED_TRACE(std::string(t.name) + ", " + std::strerror(error_value) + " after " +
                     std::to_string(k));
        auto path = dir / "t";
        std::string full = pattern(64, 9);  // exactly one buffer
        fake_sys fake;
        writer out(path, {.buffer_size = 64});
        out.write(full);
        fake.short_transfer(call::write_at, 1, k);
        fake.fail(call::write_at, 2, error_value);
        auto e = thrown<sluice::write_error>([&] { t.call(out); });
        ASSERT_TRUE(e);
        EXPECT_EQ(e->offset(), k);
        EXPECT_EQ(fake.calls(call::sync_data), 0);  // sync never synced unwritten data
        if (std::string(t.name) == "close") {
          EXPECT_FALSE(out.is_open());
          EXPECT_EQ(fake.calls(call::close), 1);
          EXPECT_EQ(read_all(path), full.substr(0, k));
          continue;
        }
        expect_stuck(out, fake, *e, error_value, path, full + t.attempted);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST_F(fault, an_error_without_any_short_write_is_reported_at_the_flush_offset) {
  auto path = dir / "e";
  std::string model = pattern(800);
  fake_sys fake;
  writer out(path, {.buffer_size = 256});
  fake.fail(call::write_at, 3, ENOSPC);
  std::optional<sluice::write_error> e;
  for (std::size_t at = 0; at < model.size() && !e; at += 100)  // copied: below the threshold
    e = thrown<sluice::write_error>([&] { out.write(std::string_view(model).substr(at, 100)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 512u);
  EXPECT_EQ(e->bytes_written(), 0u);
  EXPECT_EQ(out.buffered(), 256u);
  EXPECT_EQ(out.tell(), 768u);  // 32 bytes of the last write were never accepted
  expect_stuck(out, fake, *e, ENOSPC, path, model);
}

// A writer on `path` holding 70 bytes, whose next write to the OS takes 30
// of them, and the one after fails with EIO.
writer seventy_bytes_then_eio(const std::filesystem::path& path, fake_sys& fake) {
  writer out(path, {.buffer_size = 100});
  out.write(pattern(70));
  fake.short_transfer(call::write_at, 1, 30);
  fake.fail(call::write_at, 2, EIO);
  return out;
}

TEST_F(fault, the_destructor_reports_the_bytes_it_could_not_write) {
  auto path = dir / "lost";
  captured_reports reports;
  {
    fake_sys fake;
    writer out = seventy_bytes_then_eio(path, fake);
  }  // the destructor's flush writes 30 bytes, then fails
  ASSERT_EQ(reports.reports().size(), 1u);
  const auto& report = reports.reports()[0];
  EXPECT_EQ(report.code.value(), EIO);
  EXPECT_EQ(report.message,
            "sluice: close " + quoted(path) +
                " in its destructor, 40 bytes lost: write at offset 30: " + std::strerror(EIO));
  EXPECT_EQ(size_on_disk(path), 30u);
}

// A failure the caller was thrown left its trace there: the destructor does
// not report it a second time (the file holds exactly the bytes before the
// write_error's offset, as the caller was told).
TEST_F(fault, the_destructor_does_not_report_again_a_write_error_it_threw) {
  auto path = dir / "lost";
  captured_reports reports;
  {
    fake_sys fake;
    writer out = seventy_bytes_then_eio(path, fake);
    auto e = thrown<sluice::write_error>([&] { out.write(pattern(200, 2)); });  // gathered
    ASSERT_TRUE(e);
    EXPECT_EQ(e->offset(), 30u);
    EXPECT_EQ(out.buffered(), 40u);
  }
  EXPECT_TRUE(reports.reports().empty()) << reports.reports()[0].message;
  EXPECT_EQ(size_on_disk(path), 30u);
}

TEST_F(fault, the_destructor_reports_a_failure_of_its_own_flush) {
  auto path = dir / "lost";
  captured_reports reports;
  {
    fake_sys fake;
    writer out(path, {.buffer_size = 100});
    out.write(pattern(40));
    fake.fail(call::write_at, 1, ENOSPC);
  }
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), ENOSPC);
  EXPECT_NE(reports.reports()[0].message.find(quoted(path)), std::string::npos);
  EXPECT_NE(reports.reports()[0].message.find("40 bytes lost"), std::string::npos)
      << reports.reports()[0].message;
  EXPECT_EQ(size_on_disk(path), 0u);
}

// --- open ----------------------------------------------------------------------------

// A signal may interrupt open, ftruncate and fallocate before they do anything:
// each is called again, once per interruption, and then succeeds.
TEST_F(fault, interrupted_open_resize_and_preallocate_are_restarted) {
  if (auto why = needs_preallocation(dir.path()); !why.empty()) GTEST_SKIP() << why;
  auto path = dir / "interrupted";
  fake_sys fake;
  fake.fail(call::open, 1, EINTR);
  fake.fail(call::open, 2, EINTR);
  auto f = sluice::file::open(path);
  EXPECT_EQ(fake.calls(call::open), 3);
  fake.fail(call::resize, 1, EINTR);
  f.resize(100);
  EXPECT_EQ(fake.calls(call::resize), 2);
  EXPECT_EQ(f.size(), 100u);
  fake.fail(call::preallocate, 1, EINTR);
  f.preallocate(0, 4096);
  EXPECT_EQ(fake.calls(call::preallocate), 2);
  EXPECT_EQ(f.size(), 4096u);
  fake.fail(call::open, 4, EINTR);
  sluice::sync_directory(dir.path());
  EXPECT_EQ(fake.calls(call::open), 5);
}

TEST_F(fault, an_interrupted_fsync_is_not_retried) {
  auto f = sluice::file::open(dir / "f");
  fake_sys fake;
  fake.fail(call::sync_data, 1, EINTR);
  auto e = thrown([&] { f.sync_data(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINTR);
  EXPECT_EQ(fake.calls(call::sync_data), 1);
}

TEST_F(fault, open_refused_throws_before_any_data_is_accepted) {
  auto path = dir / "denied";
  fake_sys fake;
  fake.fail(call::open, 1, EACCES);
  auto e = thrown([&] { writer out(path); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EACCES);
  EXPECT_NE(std::string(e->what()).find("open " + quoted(path)), std::string::npos) << e->what();
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(fake.calls(call::close), 0);
  EXPECT_FALSE(std::filesystem::exists(path));
}

#ifndef _WIN32
// The errno with which creating `path` fails, as the unprivileged user
// `nobody` when running as root (permission bits do not stop root), or 0 if
// it was created. -1 if the test could not run.
int create_error_without_privileges(const std::filesystem::path& path) {
  auto try_create = [&] {
    try {
      writer out(path);
      return 0;
    } catch (const std::system_error& e) {
      return e.code().value();
    }
  };
  if (::geteuid() != 0) return try_create();
  pid_t child = ::fork();
  if (child == -1) return -1;
  if (child == 0) {
    constexpr uid_t nobody = 65534;
    if (::setgid(nobody) != 0 || ::setuid(nobody) != 0) ::_exit(255);
    ::_exit(try_create());
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

TEST_F(fault, open_without_permission_on_the_real_filesystem) {
  auto locked = dir / "locked";
  std::filesystem::create_directory(locked);
  namespace fs = std::filesystem;
  // Everyone may enter the test directory and read `locked`; nobody may write it.
  fs::permissions(dir.path(),
                  fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read |
                              fs::perms::others_exec);
  int error = create_error_without_privileges(locked / "file");
  fs::permissions(locked, fs::perms::owner_all);
  ASSERT_NE(error, -1) << "could not run the attempt as an unprivileged user";
  EXPECT_EQ(error, EACCES);
  EXPECT_FALSE(fs::exists(locked / "file"));
}
#else
SLUICE_SKIPPED_ON_WINDOWS_F(fault, open_without_permission_on_the_real_filesystem,
                            "POSIX permission bits, and another user in a child process (fork)")
#endif

// --- sync ----------------------------------------------------------------------------

TEST_F(fault, a_failed_sync_poisons_the_writer) {
  auto path = dir / "poison";
  fake_sys fake;
  writer out(path, {.buffer_size = 64});
  out.write(pattern(100));
  fake.fail(call::sync_data, 1, EIO);
  auto e = thrown([&] { out.sync(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("fdatasync " + quoted(path)), std::string::npos)
      << e->what();
  EXPECT_EQ(size_on_disk(path), 100u);  // written, but not known to be durable
  int pwritevs = fake.calls(call::write_at);
  auto expect_same = [&](const char* name, auto&& operation) {
    auto again = thrown(operation);
    ASSERT_TRUE(again) << name;
    EXPECT_EQ(again->code().value(), EIO) << name;
    EXPECT_STREQ(again->what(), e->what()) << name;
  };
  expect_same("put", [&] { out.put('x'); });
  expect_same("write", [&] { out.write(std::string_view("more")); });
  expect_same("print", [&] { out.print(1u); });
  expect_same("reserve", [&] { out.reserve(4); });
  expect_same("flush", [&] { out.flush(); });
  expect_same("sync", [&] { out.sync(); });
  expect_same("sync again", [&] { out.sync(); });
  expect_same("close", [&] { out.close(); });
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(fake.calls(call::sync_data), 1) << "a failed sync was retried";
  EXPECT_EQ(fake.calls(call::write_at), pwritevs);
  EXPECT_EQ(fake.calls(call::close), 1);
}

// A file at `path` whose fdatasync failed with EIO (through `fake`).
sluice::file poisoned_file(const std::filesystem::path& path, fake_sys& fake) {
  auto f = sluice::file::open(path);
  fake.fail(call::sync_data, fake.calls(call::sync_data) + 1, EIO);
  EXPECT_TRUE(thrown([&] { f.sync_data(); }));
  return f;
}

// A writer given a file whose sync failed: its first write is refused in
// the one form (naming the sync), which then sticks, and close() throws it.
TEST_F(fault, a_writer_over_a_poisoned_file_refuses_naming_the_sync_and_close_throws_it) {
  auto path = dir / "poisoned";
  std::string printed = stderr_of([&] {
    fake_sys fake;
    writer out(poisoned_file(path, fake));
    out.write(std::string_view("more"));
    auto refused = thrown([&] { out.flush(); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code().value(), EIO);
    EXPECT_EQ(std::string(refused->what()), "sluice: write " + quoted(path) +
                                                " refused after an earlier failure: fdatasync " +
                                                quoted(path) + ": " + std::strerror(EIO));
    auto closed = thrown([&] { out.close(); });
    ASSERT_TRUE(closed);
    EXPECT_STREQ(closed->what(), refused->what());
    EXPECT_EQ(fake.calls(call::write_at), 0);
  });
  EXPECT_EQ(printed, "");  // thrown, so not reported again
}

// The same refusal met by the destructor's own close is reported once, in
// the destructor's form, with the bytes it could not write.
TEST_F(fault, the_destructor_reports_a_refusal_it_met_once_in_the_documented_form) {
  auto path = dir / "poisoned";
  std::string printed = stderr_of([&] {
    fake_sys fake;
    writer out(poisoned_file(path, fake));
    out.write(std::string_view("more"));
  });
  EXPECT_EQ(printed, "sluice: close " + quoted(path) + " in its destructor, 4 bytes lost: write " +
                         quoted(path) + " refused after an earlier failure: fdatasync " +
                         quoted(path) + ": " + std::strerror(EIO) + "\n");
}

TEST_F(fault, a_poisoned_writer_destroyed_does_not_report_again_the_sync_it_threw) {
  auto path = dir / "poison";
  captured_reports reports;
  {
    fake_sys fake;
    writer out(path);
    out.write(std::string_view("data"));
    fake.fail(call::sync_data, 1, EIO);
    EXPECT_TRUE(thrown([&] { out.sync(); }));
  }
  EXPECT_TRUE(reports.reports().empty()) << reports.reports()[0].message;
}

// --- close ---------------------------------------------------------------------------

TEST_F(fault, a_failed_close_is_thrown_and_names_the_path) {
  auto path = dir / "c";
  std::string model = pattern(500);
  fake_sys fake;
  writer out(path, {.buffer_size = 64});
  out.write(model);
  fake.fail(call::close, 1, EIO);
  auto e = thrown([&] { out.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("close " + quoted(path)), std::string::npos) << e->what();
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(read_all(path), model);           // every byte was handed over before the close
  auto again = thrown([&] { out.close(); });  // the error sticks; never retried
  ASSERT_TRUE(again);
  EXPECT_EQ(again->code().value(), EIO);
  EXPECT_EQ(fake.calls(call::close), 1);
  EXPECT_TRUE(thrown([&] { out.put('x'); }));
}

TEST_F(fault, a_failed_close_in_the_destructor_goes_to_the_handler) {
  auto path = dir / "c";
  captured_reports reports;
  {
    fake_sys fake;
    writer out(path);
    out.write(std::string_view("complete"));
    fake.fail(call::close, 1, EIO);
  }
  EXPECT_EQ(read_all(path), "complete");
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), EIO);
  EXPECT_EQ(reports.reports()[0].message, "sluice: close " + quoted(path) +
                                              " in its destructor: close " + quoted(path) + ": " +
                                              std::strerror(EIO));
}

// The durability the destructor could not give is named as the sync that failed.
TEST_F(fault, a_failed_sync_in_the_destructor_is_named_to_the_handler) {
  auto path = dir / "s";
  captured_reports reports;
  {
    fake_sys fake;
    writer out(path, {.durability = sluice::durability::data_on_close});
    out.write(std::string_view("complete"));
    fake.fail(call::sync_data, 1, EIO);
  }
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), EIO);
  EXPECT_EQ(reports.reports()[0].message, "sluice: close " + quoted(path) +
                                              " in its destructor: fdatasync " + quoted(path) +
                                              ": " + std::strerror(EIO));
}

// close(2) failing after a write error: close() throws the write error,
// and the close's own failure, which may mean the OS dropped bytes it had
// accepted (NFS reports write errors at close), goes to the handler.
TEST_F(fault, a_write_error_in_close_still_closes_the_descriptor_and_reports_its_failure) {
  auto path = dir / "c";
  captured_reports reports;
  fake_sys fake;
  writer out(path);
  out.write(std::string_view("never written"));
  fake.fail(call::write_at, 1, ENOSPC);
  fake.fail(call::close, 1, EIO);  // the write error comes first
  auto e = thrown<sluice::write_error>([&] { out.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(fake.calls(call::close), 1);
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), EIO);
  EXPECT_EQ(reports.reports()[0].message,
            "sluice: close " + quoted(path) + " after an earlier failure: " + std::strerror(EIO));
}

// The same in the destructor, after a write error the caller was thrown:
// that error is not reported again, the close's failure is.
TEST_F(fault, a_close_failure_after_a_thrown_write_error_is_reported_by_the_destructor) {
  auto path = dir / "c";
  captured_reports reports;
  {
    fake_sys fake;
    writer out(path, {.buffer_size = 16});
    fake.fail(call::write_at, 1, ENOSPC);
    EXPECT_TRUE(thrown<sluice::write_error>([&] { out.write(pattern(100)); }));
    fake.fail(call::close, 1, EIO);
  }
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), EIO);
  EXPECT_EQ(reports.reports()[0].message,
            "sluice: close " + quoted(path) + " after an earlier failure: " + std::strerror(EIO));
}

}  // namespace
