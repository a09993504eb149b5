// write_behind through io_uring: which engine a writer gets, and the io_uring
// engine's behaviour through the fake seam's emulated ring: several writes
// in flight, short and interrupted completions continued, a failure with
// writes in flight leaving exactly a prefix (a failed submission the ring
// keeps, completions lost, included), registered buffers, direct I/O
// alignment; then real files through the real ring and the thread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <sluice/sluice.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::write_behind_engine;
using sluice::writer;

using uring_write_behind = dir_test;

constexpr sluice::writer_options behind{.buffer_size = 100, .write_behind = true};

// Writes `model` a byte at a time through a new writer at `path`, closes
// it, and checks the file; returns the engine the writer used.
write_behind_engine write_through(const std::filesystem::path& path, const std::string& model,
                                  sluice::writer_options options = behind) {
  writer out(path, options);
  write_behind_engine engine = out.write_behind_engine();
  put_all(out, model);
  EXPECT_EQ(out.tell(), model.size());
  out.close();
  EXPECT_EQ(read_all(path), model);
  return engine;
}

// Whether this kernel (and its seccomp policy) lets a process use io_uring.
bool real_ring_works(const std::filesystem::path& path) {
  writer probe(path, behind);
  return probe.write_behind_engine() == write_behind_engine::io_uring;
}

TEST_F(uring_write_behind, the_engine_follows_the_options_and_the_ring) {
  std::string model = pattern(1000);
  fake_sys fake;
  EXPECT_EQ(write_through(dir / "a", model, {}), write_behind_engine::none);
  EXPECT_EQ(write_through(dir / "b", model), write_behind_engine::thread);  // no ring: ENOSYS
  fake.emulate_async();
  EXPECT_EQ(write_through(dir / "c", model), write_behind_engine::io_uring);
  // Options that need work after each write keep the thread.
  EXPECT_EQ(write_through(dir / "d", model,
                          {.buffer_size = 100,
                           .durability = sluice::durability::write_through,
                           .write_behind = true}),
            write_behind_engine::thread);
  EXPECT_EQ(write_through(
                dir / "e", model,
                {.buffer_size = 100, .caching = sluice::caching::no_cache, .write_behind = true}),
            write_behind_engine::thread);
  // A sync at close starts each write's writeback on the page cache (the
  // thread's job); direct I/O has none to start.
  EXPECT_EQ(write_through(dir / "f", model,
                          {.buffer_size = 100,
                           .durability = sluice::durability::all_on_close,
                           .write_behind = true}),
            write_behind_engine::thread);
  if (direct_block(dir / "probe") == 0)
    GTEST_SKIP() << "no O_DIRECT in " << dir.path() << ": the direct writer's engine is not tried";
  EXPECT_EQ(write_through(dir / "g", model,
                          {.durability = sluice::durability::all_on_close,
                           .caching = sluice::caching::direct,
                           .write_behind = true}),
            write_behind_engine::io_uring);
}

TEST_F(uring_write_behind, a_refused_ring_falls_back_to_the_thread) {
  for (int error : {EPERM, ENOSYS, ENOMEM}) {
    fake_sys fake;
    fake.emulate_async();
    fake.fail(call::async_open, 1, error);
    EXPECT_EQ(write_through(dir / "out", pattern(1000)), write_behind_engine::thread);
    EXPECT_EQ(fake.calls(call::async_submit), 0);
  }
}

TEST_F(uring_write_behind, a_pipe_keeps_the_thread) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  fake_sys fake;
  fake.emulate_async();
  writer out(sluice::file(ends[1], "pipe"), behind);
  EXPECT_EQ(out.write_behind_engine(), write_behind_engine::thread);
  EXPECT_EQ(fake.calls(call::async_open), 0);
  out.close();
  ::close(ends[0]);
}

// O_APPEND puts every write at the end: only one at a time keeps the order.
TEST_F(uring_write_behind, an_appended_file_keeps_the_thread) {
  auto path = dir / "out";
  write_all(path, "head:");
  std::string model = pattern(1000);
  fake_sys fake;
  fake.emulate_async();
  writer out(sluice::file::open(path, {.mode = sluice::open_mode::append}), behind);
  EXPECT_EQ(out.write_behind_engine(), write_behind_engine::thread);
  put_all(out, model);
  out.close();
  EXPECT_EQ(read_all(path), "head:" + model);
}

TEST_F(uring_write_behind, writes_are_in_flight_together_on_the_callers_thread) {
  auto path = dir / "out";
  std::string model = pattern(10'000);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  std::thread::id caller = std::this_thread::get_id();
  bool elsewhere = false;
  fake.on_write_at([&](int, std::size_t) {
    elsewhere |= std::this_thread::get_id() != caller;
    return transfer_action{};
  });
  EXPECT_EQ(write_through(path, model), write_behind_engine::io_uring);
  EXPECT_FALSE(elsewhere);
  ASSERT_EQ(fake.async_submits().size(), 99u);  // every full buffer; close() writes the last
  std::size_t most = 0;
  std::uint64_t expected_offset = 0;
  for (const auto& record : fake.async_submits()) {
    most = std::max(most, record.in_flight);
    EXPECT_EQ(record.offset, static_cast<off_t>(expected_offset));
    expected_offset += record.size;
  }
  EXPECT_EQ(most, sluice::writer_options::write_behind_depth);
  EXPECT_EQ(fake.calls(call::async_open), 1);
  EXPECT_EQ(fake.calls(call::async_close), 1);
}

TEST_F(uring_write_behind, registered_buffers_are_written_with_write_fixed) {
  std::string model = pattern(5000);
  fake_sys fake;
  fake.emulate_async();
  write_through(dir / "out", model);
  ASSERT_EQ(fake.calls(call::async_register), 1);
  const auto& writes = fake.async_submits();
  ASSERT_EQ(writes.size(), 49u);
  EXPECT_EQ(writes[0].buffer_index, -1);  // the buffer the writer had before
  for (std::size_t i = 1; i < writes.size(); ++i) {
    EXPECT_GE(writes[i].buffer_index, 0) << "write " << i;
    EXPECT_TRUE(writes[i].in_registered) << "write " << i;
  }
}

TEST_F(uring_write_behind, refused_registration_means_plain_writes) {
  std::string model = pattern(5000);
  fake_sys fake;
  fake.emulate_async();
  fake.fail(call::async_register, 1, ENOMEM);  // past RLIMIT_MEMLOCK
  EXPECT_EQ(write_through(dir / "out", model), write_behind_engine::io_uring);
  ASSERT_EQ(fake.async_submits().size(), 49u);
  for (const auto& record : fake.async_submits()) EXPECT_EQ(record.buffer_index, -1);
}

// A reserve() beyond the buffer grows it: the grown buffers are not the
// registered ones and go as plain writes.
TEST_F(uring_write_behind, a_grown_buffer_is_written_unregistered) {
  auto path = dir / "out";
  std::string model = pattern(450) + std::string(1000, 'r') + pattern(3000, 3);
  fake_sys fake;
  fake.emulate_async();
  writer out(path, behind);
  put_all(out, model.substr(0, 450));
  auto room = out.reserve(1000);
  std::fill_n(room.data(), 1000, 'r');
  out.commit(1000);
  put_all(out, model.substr(1450));
  out.close();
  EXPECT_EQ(read_all(path), model);
  for (const auto& record : fake.async_submits()) {
    if (record.buffer_index >= 0) {
      EXPECT_TRUE(record.in_registered);
    }
  }
  EXPECT_EQ(fake.async_submits().back().buffer_index, -1);
}

TEST_F(uring_write_behind, short_completions_are_continued) {
  for (std::size_t cut : {1, 7, 50, 99}) {
    SCOPED_TRACE("cut to " + std::to_string(cut));
    auto path = dir / "out";
    std::string model = pattern(3000);
    fake_sys fake;
    fake.emulate_async({.deferred = true, .newest_first = true});
    // Every other write is cut short, continuations included.
    fake.on_write_at([cut](int nth, std::size_t requested) {
      if (nth % 2 == 0 || requested <= cut) return transfer_action{};
      return transfer_action{transfer_action::partial, 0, cut};
    });
    EXPECT_EQ(write_through(path, model), write_behind_engine::io_uring);
    EXPECT_GT(fake.async_submits().size(), 29u);
  }
}

TEST_F(uring_write_behind, a_write_of_nothing_is_continued_once) {
  auto path = dir / "out";
  std::string model = pattern(3000);
  fake_sys fake;
  fake.emulate_async();
  fake.short_transfer(call::write_at, 1, 0);
  fake.short_transfer(call::write_at, 5, 0);
  EXPECT_EQ(write_through(path, model), write_behind_engine::io_uring);
  EXPECT_EQ(fake.async_submits().size(), 29u + 2u);
}

TEST_F(uring_write_behind, interrupted_completions_and_waits_are_retried) {
  auto path = dir / "out";
  std::string model = pattern(3050);  // close() writes the last 50 bytes, unharmed
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.on_write_at([](int nth, std::size_t requested) {
    if (requested != 100) return transfer_action{};
    if (nth % 3 == 1) return transfer_action{transfer_action::fail, EINTR};
    if (nth % 3 == 2) return transfer_action{transfer_action::fail, EAGAIN};
    return transfer_action{};
  });
  for (int nth : {1, 2, 5, 9}) fake.fail(call::async_complete, nth, EINTR);
  EXPECT_EQ(write_through(path, model), write_behind_engine::io_uring);
  EXPECT_EQ(fake.async_submits().size(), 3 * 30u);
}

TEST_F(uring_write_behind, a_write_of_nothing_twice_fails_with_eio) {
  auto path = dir / "out";
  fake_sys fake;
  fake.emulate_async();
  fake.on_write_at([](int, std::size_t) {
    return transfer_action{transfer_action::partial, 0, 0};
  });
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, pattern(150));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_EQ(fake.async_submits().size(), 2u);
  EXPECT_TRUE(thrown([&] { out.close(); }));
}

// Two writes in flight; the first fails after `written` bytes while the
// second lands: the file is cut back to the prefix, the writer takes back
// every byte from the first missing one, and the error sticks.
void expect_prefix_after_failure_in_flight(const std::filesystem::path& path, int error,
                                           std::size_t written) {
  SCOPED_TRACE("errno " + std::to_string(error) + ", " + std::to_string(written) + " written");
  std::string model = pattern(1000);
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  // The second write submitted is performed first and succeeds; then the
  // first: cut short, then failing.
  fake.on_write_at([&](int nth, std::size_t requested) {
    if (nth == 2 && written > 0) return transfer_action{transfer_action::partial, 0, written};
    if (nth >= 2) return transfer_action{transfer_action::fail, error};
    (void)requested;
    return transfer_action{};
  });
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, model.substr(0, 250));  // two buffers in flight, 50 bytes buffered
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), error);
  EXPECT_EQ(e->offset(), written);
  EXPECT_NE(std::string(e->what()).find("write " + quoted(path) + " at offset " +
                                        std::to_string(written)),
            std::string::npos)
      << e->what();
  EXPECT_EQ(out.tell(), 250u);
  EXPECT_EQ(out.tell() - out.buffered(), written);
  EXPECT_EQ(out.buffered(), 250u - written);
  EXPECT_EQ(out.write_behind_engine(), write_behind_engine::none);
  EXPECT_EQ(read_all(path), model.substr(0, written));
  EXPECT_GE(fake.calls(call::resize), 1);
  int writes = fake.calls(call::write_at);
  auto again = thrown<sluice::write_error>([&] { out.put('x'); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->offset(), written);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.flush(); }));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(fake.calls(call::write_at), writes) << "a failed write was retried";
  EXPECT_EQ(read_all(path), model.substr(0, written));
}

// Waiting for completions fails: no write in flight can be known to be
// over, so each counts as failed, from the first byte of the first; the
// ring is drained before the file is cut back, and the writer holds every
// byte again.
TEST_F(uring_write_behind, a_failed_wait_fails_every_write_in_flight) {
  auto path = dir / "out";
  std::string model = pattern(250);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.fail(call::async_complete, 1, EBADF);
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, model);  // two buffers in flight, 50 bytes buffered
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_EQ(fake.async_submits().size(), 2u);
  EXPECT_EQ(out.tell(), 250u);
  EXPECT_EQ(out.buffered(), 250u) << "every byte in flight is the writer's again";
  EXPECT_EQ(out.write_behind_engine(), write_behind_engine::none);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(read_all(path), "");
}

TEST_F(uring_write_behind, a_failure_with_a_later_write_landed_leaves_exactly_a_prefix) {
  for (int error : {ENOSPC, EIO})
    for (std::size_t written : {0, 30})
      expect_prefix_after_failure_in_flight(dir / "out", error, written);
}

// As above, but the file cannot be cut back: the error says so, since the
// file may then hold the later write's bytes past the failure.
TEST_F(uring_write_behind, a_failure_whose_cut_back_fails_says_what_may_remain) {
  auto path = dir / "out";
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  fake.on_write_at([&](int nth, std::size_t) {
    return nth >= 2 ? transfer_action{transfer_action::fail, ENOSPC} : transfer_action{};
  });
  fake.fail(call::resize, 1, EIO);
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, pattern(250));  // two buffers in flight, 50 bytes buffered
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_NE(std::string(e->what()).find("write " + quoted(path) +
                                        " at offset 0 (and cutting the file back to 0 bytes "
                                        "failed: " +
                                        std::strerror(EIO)),
            std::string::npos)
      << e->what();
  EXPECT_EQ(size_on_disk(path), 200u) << "the later write landed and stayed";
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
}

// A failure found while handing off (every buffer in flight): the buffer
// being handed off comes back too, in order.
TEST_F(uring_write_behind, a_failure_found_at_a_hand_off_takes_every_buffer_back) {
  auto path = dir / "out";
  std::string model = pattern(1000);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.fail(call::write_at, 2, ENOSPC);
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] { put_all(out, model); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 100u);
  EXPECT_EQ(out.tell() - out.buffered(), 100u);
  // The third hand-off found the first write done, the fourth the failure
  // (the put() that made it throws without taking its byte).
  EXPECT_EQ(out.tell(), 400u);
  EXPECT_EQ(read_all(path), model.substr(0, 100));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(read_all(path), model.substr(0, 100));
}

TEST_F(uring_write_behind, a_failed_submission_is_the_failure) {
  auto path = dir / "out";
  std::string model = pattern(1000);
  fake_sys fake;
  fake.emulate_async();
  fake.fail(call::async_submit, 3, EBUSY);
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, model);
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBUSY);
  EXPECT_EQ(e->offset(), 200u);
  EXPECT_EQ(read_all(path), model.substr(0, 200));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
}

// The ring keeps the second buffer's failed submission queued, as io_uring
// does; the first buffer's write comes back short and needs continuing.
// Submitting its rest would send the failed write too, whose bytes the
// writer takes back: nothing more is submitted, the first write fails
// where it got to, and the failed one never reaches the file.
TEST_F(uring_write_behind, a_failed_submission_never_reaches_the_file_later) {
  auto path = dir / "out";
  std::string model = pattern(250);
  fake_sys fake;
  fake.emulate_async({.newest_first = true, .keep_failed = true});
  fake.short_transfer(call::write_at, 1, 30);
  fake.fail(call::async_submit, 2, EAGAIN);
  writer out(path, behind);
  auto e = thrown<sluice::write_error>([&] {
    put_all(out, model);  // two buffers handed off, 50 bytes buffered
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EAGAIN);
  EXPECT_EQ(e->offset(), 30u);
  EXPECT_EQ(out.tell() - out.buffered(), 30u);
  EXPECT_EQ(read_all(path), model.substr(0, 30));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(read_all(path), model.substr(0, 30));
  for (const auto& record : fake.async_submits())
    EXPECT_LT(record.offset, 100) << "the failed submission went out";
}

// Waiting fails with a write in flight, which the ring completes later
// (here when drained, or else when closed): it must be over before the
// file is cut back, so that the file does not end with bytes the writer
// took back.
TEST_F(uring_write_behind, a_write_in_flight_when_waiting_fails_cannot_land_after_the_cut) {
  auto path = dir / "out";
  std::string model = pattern(150);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.fail(call::async_complete, 1, EBADR);  // completions were dropped
  writer out(path, behind);
  put_all(out, model);  // one buffer in flight, 50 bytes buffered
  auto e = thrown<sluice::write_error>([&] { out.flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADR);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_EQ(std::string(e->what()),
            "sluice: write " + quoted(path) + " at offset 0: " + std::strerror(EBADR));
  EXPECT_EQ(out.buffered(), 150u);
  EXPECT_EQ(fake.calls(call::async_drain), 1);
  EXPECT_EQ(read_all(path), "");
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(read_all(path), "") << "a write in flight landed after the cut";
}

// The same, but the ring cannot be drained either: the write may still
// land, and the error says so.
TEST_F(uring_write_behind, a_ring_that_cannot_be_drained_is_reported) {
  auto path = dir / "out";
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.fail(call::async_complete, 1, EBADR);
  fake.fail(call::async_drain, 1, EBADR);
  writer out(path, behind);
  put_all(out, pattern(150));
  auto e = thrown<sluice::write_error>([&] { out.flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_EQ(std::string(e->what()),
            "sluice: write " + quoted(path) +
                " at offset 0 (and the writes in flight could not be waited for: bytes after "
                "that offset may still land): " +
                std::strerror(EBADR));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
}

TEST_F(uring_write_behind, a_destroyed_writer_reports_the_exact_bytes_lost) {
  auto path = dir / "out";
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  fake.fail(call::write_at, 2, EIO);  // the first buffer, performed after the second
  std::vector<captured_reports::report> told;
  {
    captured_reports reports;
    {
      writer out(path, behind);
      put_all(out, pattern(250));  // two buffers in flight, 50 bytes buffered
    }
    told = reports.reports();
  }
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].message,
            "sluice: close " + quoted(path) +
                " in its destructor, 250 bytes lost: write at offset 0: " + std::strerror(EIO));
  EXPECT_EQ(read_all(path), "");
}

TEST_F(uring_write_behind, every_direct_write_is_aligned) {
  auto path = dir / "out";
  std::size_t block = direct_block(path);
  if (block == 0) GTEST_SKIP() << "no O_DIRECT in " << dir.path();
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  std::size_t buffer_size = 16 * block;  // 8 KiB on ext4 and XFS, 64 KiB on btrfs and tmpfs
  writer out(
      path, {.buffer_size = buffer_size, .caching = sluice::caching::direct, .write_behind = true});
  EXPECT_EQ(out.write_behind_engine(), write_behind_engine::io_uring);
  std::string model = print_numbers(out, 20 * buffer_size);
  out.close();
  EXPECT_EQ(read_all(path), model);
  EXPECT_GT(fake.async_submits().size(), 10u);
  for (const auto& record : fake.async_submits()) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(record.data) % block, 0u);
    EXPECT_EQ(record.size % block, 0u);
    EXPECT_EQ(record.offset % static_cast<off_t>(block), 0);
  }
}

// A few MiB through real files, with io_uring and with the thread, normal
// and direct.
void expect_same_bytes(const std::filesystem::path& path, sluice::caching caching,
                       write_behind_engine engine) {
  std::string model = pattern(5 * 1024 * 1024 + 12345, 7);
  writer out(path, {.caching = caching, .write_behind = true});
  ASSERT_EQ(out.write_behind_engine(), engine);
  for (std::size_t at = 0; at < model.size(); at += 1000)
    out.write(std::string_view(model).substr(at, 1000));
  out.close();
  EXPECT_TRUE(read_all(path) == model);
  EXPECT_EQ(size_on_disk(path), model.size());
}

TEST_F(uring_write_behind, real_files_hold_every_byte) {
  if (!real_ring_works(dir / "probe")) GTEST_SKIP() << "io_uring is not available here";
  expect_same_bytes(dir / "normal", sluice::caching::normal, write_behind_engine::io_uring);
  {
    fake_sys fake;  // ring refused: the thread, writing for real
    expect_same_bytes(dir / "normal-thread", sluice::caching::normal, write_behind_engine::thread);
  }
  if (direct_block(dir / "probe") == 0) GTEST_SKIP() << "no O_DIRECT in " << dir.path();
  expect_same_bytes(dir / "direct", sluice::caching::direct, write_behind_engine::io_uring);
  fake_sys fake;
  expect_same_bytes(dir / "direct-thread", sluice::caching::direct, write_behind_engine::thread);
  fake.use_real_async();  // the real ring behind the fake seam
  expect_same_bytes(dir / "direct-seam", sluice::caching::direct, write_behind_engine::io_uring);
}

}  // namespace
