// sluice::file: sync and the poison a failed sync leaves, sync_directory,
// ownership of the descriptor (release, moves, close) and the error handler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sluice/sluice.hpp>
#include <string>

#include "os/path_text.hpp"
#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::file;
using sluice::open_mode;

using file_sync = dir_test;
using file_life = dir_test;

// --- sync ---------------------------------------------------------------------

TEST_F(file_sync, sync_data_and_sync_all_make_one_call_each) {
  auto f = file::open(dir / "s");
  f.write(bytes_of("data"));
  fake_sys fake;
  f.sync_data();
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  EXPECT_EQ(fake.calls(call::sync_all), 0);
  f.sync_all();
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  EXPECT_EQ(fake.calls(call::sync_all), 1);
  f.close();
  EXPECT_EQ(read_all(dir / "s"), "data");
}

// A failed sync poisons the file: every later operation throws the same
// error without reaching the OS, and close() reports it.
void expect_poisoned_by(call failing, int error_value, const temp_dir& dir) {
  auto path = dir / "poison";
  auto f = file::open(path, {.mode = open_mode::create_new});
  f.write(bytes_of("data"));
  fake_sys fake;
  fake.fail(failing, 1, error_value);
  auto first = thrown([&] {
    if (failing == call::sync_data)
      f.sync_data();
    else
      f.sync_all();
  });
  ASSERT_TRUE(first);
  EXPECT_EQ(first->code().value(), error_value);
  EXPECT_NE(std::string(first->what()).find(quoted(path)), std::string::npos) << first->what();

  auto expect_refused = [&](auto&& operation, const char* name) {
    auto e = thrown(operation);
    ASSERT_TRUE(e) << name << " did not throw";
    EXPECT_EQ(e->code().value(), error_value) << name;
    EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
  };
  expect_refused([&] { f.write(bytes_of("more")); }, "write");
  expect_refused([&] { f.write_at(bytes_of("more"), 0); }, "write_at");
  std::span<const std::byte> parts[] = {bytes_of("a"), bytes_of("b")};
  expect_refused([&] { f.write_gather(parts); }, "write_gather");
  expect_refused([&] { f.sync_data(); }, "sync_data");
  expect_refused([&] { f.sync_all(); }, "sync_all");
  expect_refused([&] { read_text(f, 4, 0); }, "read_at");
  expect_refused([&] { f.resize(0); }, "resize");
  expect_refused([&] { f.preallocate(0, 10); }, "preallocate");
  EXPECT_EQ(fake.calls(call::sync_data) + fake.calls(call::sync_all),
            1);  // no retry reached the OS
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(fake.calls(call::read_at), 0);
  EXPECT_EQ(fake.calls(call::resize), 0);
  EXPECT_EQ(fake.calls(call::preallocate), 0);

  auto closed = thrown([&] { f.close(); });  // the sync's own error again
  ASSERT_TRUE(closed);
  EXPECT_EQ(closed->code().value(), error_value);
  EXPECT_STREQ(closed->what(), first->what());
  EXPECT_FALSE(f.is_open());
  EXPECT_EQ(fake.calls(call::close), 1);  // the descriptor is released anyway
  EXPECT_EQ(read_all(path), "data");
}

TEST_F(file_sync, failed_fdatasync_poisons_the_file) {
  expect_poisoned_by(call::sync_data, EIO, dir);
}
TEST_F(file_sync, failed_fsync_poisons_the_file) {
  expect_poisoned_by(call::sync_all, ENOSPC, dir);
}

// The one form of the sticky error (as for the writer and the journal):
// a later call is refused naming the operation, the path and the sync that
// failed; close() throws that sync's error itself, once, the descriptor
// closed; the destructor does not report it again (it was thrown).
TEST_F(file_sync, after_a_failed_sync_calls_are_refused_naming_it_and_close_throws_it) {
  auto path = dir / "refused";
  std::string printed = stderr_of([&] {
    auto f = file::open(path);
    f.write(bytes_of("data"));
    fake_sys fake;
    fake.fail(call::sync_data, 1, EIO);
    auto first = thrown([&] { f.sync_data(); });
    ASSERT_TRUE(first);
    EXPECT_EQ(std::string(first->what()),
              "sluice: fdatasync " + quoted(path) + ": " + std::strerror(EIO));
    auto refused = thrown([&] { f.write(bytes_of("more")); });
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->code().value(), EIO);
    EXPECT_EQ(std::string(refused->what()), "sluice: write " + quoted(path) +
                                                " refused after an earlier failure: fdatasync " +
                                                quoted(path) + ": " + std::strerror(EIO));
    auto closed = thrown([&] { f.close(); });
    ASSERT_TRUE(closed);
    EXPECT_EQ(closed->code().value(), EIO);
    EXPECT_STREQ(closed->what(), first->what());
    EXPECT_EQ(fake.calls(call::close), 1);
    f.close();  // closed already: nothing more
  });
  EXPECT_EQ(printed, "");
}

// A close(2) that fails on a poisoned file: close() still throws the sync's
// error, and the close's own failure goes to the error handler, as a
// writer's does.
TEST_F(file_sync, a_close_failing_after_a_failed_sync_is_reported_and_the_sync_thrown) {
  auto path = dir / "twice";
  captured_reports reports;
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::sync_data, 1, EIO);
  auto first = thrown([&] { f.sync_data(); });
  ASSERT_TRUE(first);
  fake.fail(call::close, 1, EBADF);
  auto closed = thrown([&] { f.close(); });
  ASSERT_TRUE(closed);
  EXPECT_STREQ(closed->what(), first->what());
  EXPECT_FALSE(f.is_open());
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), EBADF);
  EXPECT_EQ(reports.reports()[0].message,
            "sluice: close " + quoted(path) + " after an earlier failure: " + std::strerror(EBADF));
}

TEST_F(file_sync, poison_survives_a_move) {
  auto f = file::open(dir / "p");
  fake_sys fake;
  fake.fail(call::sync_data, 1, EIO);
  EXPECT_TRUE(thrown([&] { f.sync_data(); }));
  file moved(std::move(f));
  auto e = thrown([&] { moved.sync_data(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  file assigned;
  assigned = std::move(moved);
  EXPECT_TRUE(thrown([&] { assigned.write(bytes_of("x")); }));
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  EXPECT_TRUE(thrown([&] { assigned.close(); }));
}

TEST_F(file_sync, sync_directory_fsyncs_the_directory) {
  file::open(dir / "entry").close();
  fake_sys fake;
  sluice::sync_directory(dir.path());
  EXPECT_EQ(fake.calls(call::open), 1);
  EXPECT_TRUE(fake.opens()[0].directory);
  EXPECT_EQ(fake.calls(call::sync_directory), 1);
  EXPECT_EQ(fake.calls(call::close), 1);
}

TEST_F(file_sync, sync_directory_errors_name_the_directory) {
  auto missing = thrown([&] { sluice::sync_directory(dir / "missing"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code().value(), ENOENT);
  EXPECT_NE(std::string(missing->what()).find(quoted(dir / "missing")), std::string::npos);

  write_all(dir / "plain", "x");
  auto not_directory = thrown([&] { sluice::sync_directory(dir / "plain"); });
  ASSERT_TRUE(not_directory);
  EXPECT_EQ(not_directory->code().value(), ENOTDIR);

  fake_sys fake;
  fake.fail(call::sync_directory, 1, EIO);
  auto failed = thrown([&] { sluice::sync_directory(dir.path()); });
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->code().value(), EIO);
  EXPECT_NE(std::string(failed->what()).find("fsync directory " + quoted(dir.path())),
            std::string::npos)
      << failed->what();
  EXPECT_EQ(fake.calls(call::close), 1);  // closed on the way out

  fake.fail(call::close, 2, EIO);
  auto close_failed = thrown([&] { sluice::sync_directory(dir.path()); });
  ASSERT_TRUE(close_failed);
  EXPECT_EQ(close_failed->code().value(), EIO);
}

// --- ownership -----------------------------------------------------------------

// Whether `h` is open, asked of the backend itself (not through a fake).
bool is_open_handle(sluice::native_handle_type h) {
  sluice::detail::file_facts facts;
  return sluice::detail::real_sys().facts(h, &facts) == 0;
}

TEST_F(file_life, release_gives_the_descriptor_without_closing_it) {
  auto f = file::open(dir / "r");
  auto fd = f.native_handle();
  fake_sys fake;
  EXPECT_EQ(f.release(), fd);
  EXPECT_FALSE(f.is_open());
  EXPECT_EQ(f.native_handle(), sluice::detail::no_handle());
  EXPECT_EQ(f.release(), sluice::detail::no_handle());
  f.close();
  { file gone = std::move(f); }
  EXPECT_EQ(fake.calls(call::close), 0);
  EXPECT_TRUE(is_open_handle(fd));  // still open: ours now
  char ok[] = "ok";
  sluice::detail::io_piece piece{ok, 2};
  EXPECT_EQ(sluice::detail::real_sys().write_at(fd, &piece, 1, 0), 2);
  sluice::detail::real_sys().close(fd);
  EXPECT_EQ(read_all(dir / "r"), "ok");
}

TEST_F(file_life, close_twice_is_harmless) {
  auto f = file::open(dir / "c");
  fake_sys fake;
  f.close();
  f.close();
  EXPECT_FALSE(f.is_open());
  EXPECT_EQ(fake.calls(call::close), 1);
}

TEST_F(file_life, adopting_a_descriptor_closes_it) {
  auto fd = sluice::detail::real_sys().open(
      sluice::detail::working_directory, sluice::detail::path_text(dir / "adopted").c_str(),
      {.mode = sluice::detail::open_request::access::write, .create = true, .permissions = 0600});
  ASSERT_NE(fd, sluice::detail::no_handle());
  {
    fake_sys fake;
    file f(fd, "adopted");
    EXPECT_EQ(f.path(), "adopted");
    f.write(bytes_of("mine"));
    EXPECT_EQ(f.position(), 4u);
    { file gone = std::move(f); }
    EXPECT_EQ(fake.calls(call::close), 1);
  }
  EXPECT_FALSE(is_open_handle(fd));
  EXPECT_EQ(read_all(dir / "adopted"), "mine");
}

TEST_F(file_life, moved_from_file_is_safe_and_refuses_work) {
  auto f = file::open(dir / "m");
  file g(std::move(f));
  EXPECT_FALSE(f.is_open());
  EXPECT_TRUE(g.is_open());
  fake_sys fake;
  for (auto e : {thrown([&] { f.write(bytes_of("x")); }), thrown([&] { f.sync_data(); }),
                 thrown([&] { f.size(); }), thrown([&] { read_text(f, 1, 0); })}) {
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EBADF);
  }
  f.close();
  EXPECT_EQ(fake.calls(call::close), 0);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  g.write(bytes_of("g"));
}

TEST_F(file_life, move_assignment_closes_the_old_descriptor) {
  auto a = file::open(dir / "a");
  auto b = file::open(dir / "b");
  auto old_fd = a.native_handle();
  fake_sys fake;
  a = std::move(b);
  EXPECT_EQ(fake.calls(call::close), 1);
  EXPECT_FALSE(is_open_handle(old_fd));
  a.write(bytes_of("to b"));
  a.close();
  EXPECT_EQ(read_all(dir / "b"), "to b");
}

TEST_F(file_life, destructor_reports_a_failed_close_to_the_handler) {
  auto path = dir / "d";
  captured_reports reports;
  {
    auto f = file::open(path);
    fake_sys fake;
    fake.fail(call::close, 1, EIO);
    { file gone = std::move(f); }
    EXPECT_EQ(fake.calls(call::close), 1);
  }
  ASSERT_EQ(reports.reports().size(), 1u);
  const auto& report = reports.reports()[0];
  EXPECT_EQ(report.code.value(), EIO);
  EXPECT_NE(report.message.find("close " + quoted(path)), std::string::npos) << report.message;
  EXPECT_NE(report.message.find(std::strerror(EIO)), std::string::npos) << report.message;
}

// The form every destructor reports in (error.hpp), on stderr by default,
// once.
TEST_F(file_life, the_destructor_reports_a_failed_close_once_in_the_documented_form) {
  auto path = dir / "d";
  std::string printed = stderr_of([&] {
    auto f = file::open(path);
    fake_sys fake;
    fake.fail(call::close, 1, EIO);
    { file gone = std::move(f); }
  });
  EXPECT_EQ(printed, "sluice: close " + quoted(path) + " in its destructor: close " + quoted(path) +
                         ": " + std::strerror(EIO) + "\n");
}

TEST_F(file_life, close_reports_its_failure) {
  auto path = dir / "c";
  auto f = file::open(path);
  fake_sys fake;
  fake.fail(call::close, 1, EIO);
  auto e = thrown([&] { f.close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_NE(std::string(e->what()).find("close " + quoted(path)), std::string::npos);
  EXPECT_FALSE(f.is_open());
  f.close();  // never retried: Linux released the descriptor
  EXPECT_EQ(fake.calls(call::close), 1);
}

TEST_F(file_life, the_default_handler_prints_one_line_on_stderr) {
  auto path = dir / "d";
  captured_reports reports;
  auto mine = sluice::set_error_handler(nullptr);  // the default is back
  ASSERT_NE(mine, nullptr);
  {
    auto f = file::open(path);
    fake_sys fake;
    fake.fail(call::close, 1, EBADF);
    testing::internal::CaptureStderr();
    { file gone = std::move(f); }
  }
  std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  EXPECT_NE(printed.find("close " + quoted(path)), std::string::npos) << printed;
  EXPECT_EQ(printed.back(), '\n');
  EXPECT_NE(sluice::set_error_handler(mine), mine);  // replaced the default
  EXPECT_TRUE(reports.reports().empty());            // it went to stderr, not to ours
}

}  // namespace
