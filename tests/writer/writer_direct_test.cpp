// caching::direct: O_DIRECT transfers, all aligned, the file cut to its exact
// size at close, and the error contract kept although blocks are rewritten.
// The random sequences are in writer_model_test.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/child_process.hpp"
#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::caching;
using sluice::writer;

constexpr sluice::writer_options direct{.caching = caching::direct};

class writer_direct : public dir_test {
 protected:
  void SetUp() override {
    try {
      writer probe(dir / "probe", direct);
    } catch (const std::system_error& e) {
      GTEST_SKIP() << "no O_DIRECT here: " << e.what();
    }
  }

  std::size_t block_of(const std::filesystem::path& path) {
    return sluice::file::open(path, {.mode = sluice::open_mode::read_only}).direct_io_alignment();
  }
};

TEST_F(writer_direct, its_default_buffer_is_the_direct_default) {
  writer out(dir / "d", direct);
  EXPECT_EQ(out.buffer_size(), sluice::writer_options::default_direct_buffer_size);
  writer buffered(dir / "b");
  EXPECT_EQ(buffered.buffer_size(), sluice::writer_options::default_buffer_size);
}

TEST_F(writer_direct, every_transfer_is_aligned_and_the_file_exact_at_close) {
  auto path = dir / "d";
  std::string data = pattern(1'000'003);
  fake_sys fake;
  writer out(path, {.buffer_size = 10'000, .caching = caching::direct});
  std::size_t block = block_of(path);
  EXPECT_EQ(out.buffer_size() % block, 0u) << "the buffer is whole blocks";
  for (std::size_t at = 0; at < data.size(); at += 7777)
    out.write(std::string_view(data).substr(at, 7777));
  out.flush();
  EXPECT_EQ(size_on_disk(path) % block, 0u) << "padded until close";
  out.close();
  EXPECT_TRUE(fake.opens()[0].direct);
  ASSERT_FALSE(fake.writes_at().empty());
  for (const auto& w : fake.writes_at()) {
    EXPECT_EQ(static_cast<std::size_t>(w.offset) % block, 0u);
    EXPECT_EQ(w.requested % block, 0u);
  }
  EXPECT_EQ(size_on_disk(path), data.size());
  EXPECT_TRUE(read_all(path) == data);
}

TEST_F(writer_direct, a_large_write_is_copied_not_gathered) {
  fake_sys fake;
  writer out(dir / "d", {.buffer_size = 4096, .caching = caching::direct});
  out.put('x');
  out.write(pattern(1 << 20));
  for (const auto& w : fake.writes_at()) EXPECT_EQ(w.iov_count, 1);
  out.close();
}

TEST_F(writer_direct, without_statx_alignment_the_block_size_is_used) {
  auto path = dir / "d";
  fake_sys fake;
  fake.fail(call::direct_alignment, 1, ENOSYS);
  writer out(path, direct);
  out.write(std::string_view("through st_blksize"));
  out.close();
  EXPECT_EQ(read_all(path), "through st_blksize");
}

TEST_F(writer_direct, a_failed_write_leaves_exactly_the_bytes_before_it) {
  auto path = dir / "d";
  std::string data = pattern(30'000);
  fake_sys fake;
  writer out(path, {.buffer_size = 4096, .caching = caching::direct});
  out.write(std::string_view(data).substr(0, 5000));
  out.flush();  // 5000 bytes on disk, the file padded to 8192, 904 bytes kept
  fake.fail(call::write_at, fake.calls(call::write_at) + 1, EIO);  // the rewrite of block 2
  auto e = thrown<sluice::write_error>([&] { out.write(std::string_view(data).substr(5000)); });
  ASSERT_TRUE(e);
  auto closing = thrown<sluice::write_error>([&] { out.close(); });
  ASSERT_TRUE(closing);
  std::string file = read_all(path);
  EXPECT_EQ(file.size(), e->offset()) << "the block written before and padding are cut";
  EXPECT_EQ(file.size() + out.buffered(), out.tell()) << "nothing lost without being counted";
  EXPECT_TRUE(file == data.substr(0, file.size())) << "the file is a prefix of the data";
}

// Where io_uring serves, the next buffer fills while two O_DIRECT writes are
// in flight, as with write_behind, and every one of them is aligned.
TEST_F(writer_direct, keeps_two_writes_in_flight_where_io_uring_serves) {
  auto path = dir / "d";
  std::string data = pattern(300'001);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
  EXPECT_EQ(out.write_behind_engine(), sluice::write_behind_engine::io_uring);
  for (std::size_t at = 0; at < data.size(); at += 7777)
    out.write(std::string_view(data).substr(at, 7777));
  out.close();
  EXPECT_TRUE(read_all(path) == data);
  std::size_t block = block_of(path);
  std::size_t most = 0;
  ASSERT_GT(fake.async_submits().size(), 10u);
  for (const auto& w : fake.async_submits()) {
    most = std::max(most, w.in_flight);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w.data) % block, 0u);
    EXPECT_EQ(w.size % block, 0u);
    EXPECT_EQ(static_cast<std::size_t>(w.offset) % block, 0u);
  }
  EXPECT_EQ(most, sluice::writer_options::write_behind_depth);
}

// A write that extends the file is one the filesystem runs alone: the file
// is grown ahead instead, so that every write in flight lands inside it,
// by one preallocation per four buffers, and close() cuts it to its size.
TEST_F(writer_direct, writes_in_flight_land_inside_the_file_grown_ahead) {
  auto path = dir / "d";
  std::string data = pattern(300'001);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  fake.report_filesystem(sluice::detail::filesystem::ext4);
  std::vector<std::uintmax_t> size_at_submit;
  fake.before_each([&](call which) {
    if (which == call::async_submit) size_at_submit.push_back(std::filesystem::file_size(path));
  });
  writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
  out.write(std::string_view(data).substr(0, 200'000));
  out.flush();  // cuts the growth back: the data and the partial block's padding
  std::size_t block = block_of(path);
  EXPECT_EQ(std::filesystem::file_size(path), (200'000 + block - 1) / block * block);
  out.write(std::string_view(data).substr(200'000));
  out.close();
  EXPECT_TRUE(read_all(path) == data);
  const auto& submits = fake.async_submits();
  ASSERT_EQ(submits.size(), size_at_submit.size());
  ASSERT_GT(submits.size(), 10u);
  for (std::size_t i = 0; i < submits.size(); ++i)
    EXPECT_LE(submits[i].offset + submits[i].size, size_at_submit[i]) << "write " << i;
  EXPECT_LE(fake.calls(call::preallocate), static_cast<int>(submits.size() / 4 + 1));
}

// Elsewhere the writes extend the file themselves: on tmpfs growing zeroes
// the pages it reserves, and btrfs runs every direct write alone anyway.
TEST_F(writer_direct, the_file_grows_ahead_only_on_ext4_and_xfs) {
  using sluice::detail::filesystem;
  for (filesystem on : {filesystem::ext4, filesystem::xfs, filesystem::btrfs, filesystem::tmpfs,
                        filesystem::other}) {
    auto path = dir / "d";
    fake_sys fake;
    fake.emulate_async({.deferred = true});
    fake.report_filesystem(on);
    writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
    out.write(pattern(100'000));
    out.close();
    bool grew = fake.calls(call::preallocate) > 0;
    EXPECT_EQ(grew, on == filesystem::ext4 || on == filesystem::xfs) << static_cast<int>(on);
  }
}

// Where the file cannot be grown ahead (no fallocate, no room for more than
// the data), the writes extend it themselves: nothing is lost, and growing
// is not tried again.
TEST_F(writer_direct, a_file_that_cannot_grow_ahead_is_written_all_the_same) {
  for (int error : {EOPNOTSUPP, ENOSPC}) {
    auto path = dir / "d";
    std::string data = pattern(300'001);
    fake_sys fake;
    fake.emulate_async({.deferred = true});
    fake.report_filesystem(sluice::detail::filesystem::xfs);
    fake.fail(call::preallocate, 1, error);
    writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
    out.write(data);
    out.close();
    EXPECT_TRUE(read_all(path) == data) << std::strerror(error);
    EXPECT_EQ(fake.calls(call::preallocate), 1) << std::strerror(error);
  }
}

// Growing a file past the process's file size limit kills the process
// (SIGXFSZ): the file is grown up to the limit at most, so that a file that
// fits is written.
TEST_F(writer_direct, the_file_is_never_grown_past_the_file_size_limit) {
  auto path = dir / "d";
  std::string data = pattern(3 << 20);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    rlimit limit{(3 << 20) + 4096, (3 << 20) + 4096};
    ::signal(SIGXFSZ, SIG_DFL);
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(2);
    try {
      fake_sys fake;
      fake.emulate_async({.deferred = true});
      fake.report_filesystem(sluice::detail::filesystem::ext4);
      writer out(path, {.buffer_size = 1 << 20, .caching = caching::direct});
      out.write(data);
      out.close();
      ::_exit(read_all(path) == data ? 0 : 3);
    } catch (...) {
      ::_exit(4);
    }
  }
  int status = wait_for(child);
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// A write that fails in flight is thrown by a later call, with the contract
// of every write error: the file holds exactly the bytes before it.
TEST_F(writer_direct, a_write_failed_in_flight_leaves_exactly_the_bytes_before_it) {
  auto path = dir / "d";
  std::string data = pattern(200'000);
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  fake.fail(call::write_at, 3, ENOSPC);  // the emulated ring writes with pwritev
  writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
  ASSERT_EQ(out.write_behind_engine(), sluice::write_behind_engine::io_uring);
  auto e = thrown<sluice::write_error>([&] {
    for (std::size_t at = 0; at < data.size(); at += 7777)
      out.write(std::string_view(data).substr(at, 7777));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_EQ(out.write_behind_engine(), sluice::write_behind_engine::none) << "the engine ended";
  EXPECT_EQ(std::filesystem::file_size(path), e->offset()) << "cut back, growth ahead included";
  auto closing = thrown<sluice::write_error>([&] { out.close(); });
  ASSERT_TRUE(closing);
  std::string file = read_all(path);
  EXPECT_EQ(file.size(), e->offset());
  EXPECT_EQ(file.size() + out.buffered(), out.tell()) << "nothing lost without being counted";
  EXPECT_TRUE(file == data.substr(0, file.size())) << "the file is a prefix of the data";
}

TEST_F(writer_direct, needs_a_path_not_an_open_file) {
  auto e = thrown([&] { writer out(sluice::file::open(dir / "d"), direct); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EINVAL);
  EXPECT_NE(std::string(e->what()).find("caching::direct"), std::string::npos) << e->what();
}

TEST_F(writer_direct, works_with_atomic_replace_and_preallocate) {
  auto path = dir / "d";
  write_all(path, "old");
  std::string data = pattern(123'457);
  writer out(path, {.preallocate = 1 << 20, .caching = caching::direct, .atomic_replace = true});
  out.write(data);
  out.close();
  EXPECT_EQ(size_on_disk(path), data.size());
  EXPECT_TRUE(read_all(path) == data);
}

TEST_F(writer_direct, reserve_beyond_the_buffer_keeps_the_partial_block) {
  auto path = dir / "d";
  writer out(path, {.buffer_size = 4096, .caching = caching::direct});
  out.write(std::string_view("head "));
  out.flush();
  auto room = out.reserve(10'000);
  std::string body = pattern(10'000);
  std::copy(body.begin(), body.end(), room.begin());
  out.commit(body.size());
  out.close();
  EXPECT_EQ(read_all(path), "head " + body);
}

// tmpfs takes O_DIRECT since Linux 6.6 and refuses it before: either way the
// outcome is clear.
TEST(writer_direct_tmpfs, works_or_says_the_filesystem_refuses_o_direct) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  temp_dir shm("/dev/shm");
  auto path = shm / "d";
  try {
    writer out(path, direct);
    out.write(std::string_view("on tmpfs"));
    out.close();
    EXPECT_EQ(read_all(path), "on tmpfs");
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), EINVAL);
    EXPECT_NE(std::string(e.what()).find("refuses O_DIRECT"), std::string::npos) << e.what();
  }
}

// Two writes in flight over the emulated ring, the first failing after the
// second landed, and the writer moved meanwhile: the writer moved to
// throws the failure, the file is cut back to it, and every byte after it
// stays buffered.
TEST_F(writer_direct, a_failure_in_flight_is_thrown_by_the_writer_moved_to) {
  auto path = dir / "d";
  std::string data = pattern(200'000);
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  fake.fail(call::write_at, 2, ENOSPC);
  std::optional<writer> first(
      std::in_place, path,
      sluice::writer_options{.buffer_size = 16 * 1024, .caching = caching::direct});
  first->write(std::string_view(data).substr(0, 40'000));  // two in flight
  writer second(std::move(*first));
  first.reset();
  auto e = thrown<sluice::write_error>([&] {
    second.write(std::string_view(data).substr(40'000));
    second.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { second.close(); }));
  std::string file = read_all(path);
  EXPECT_EQ(file.size(), e->offset());
  EXPECT_EQ(file.size() + second.buffered(), second.tell());
  EXPECT_TRUE(file == data.substr(0, file.size()));
}

// flush() wrote a partial block padded with zeros; rewriting that block
// with what follows fails. Until close() the file still holds the padded
// block written before, past the failure's offset (at most one block);
// close() cuts the file to the offset.
TEST_F(writer_direct, a_failed_rewrite_of_a_padded_block_leaves_it_until_close) {
  auto path = dir / "d";
  std::string data = pattern(100'000);
  fake_sys fake;
  fake.emulate_async({.deferred = true});
  writer out(path, {.buffer_size = 16 * 1024, .caching = caching::direct});
  out.write(std::string_view(data).substr(0, 5000));
  out.flush();
  fake.fail(call::write_at, fake.calls(call::write_at) + 1, EIO);
  auto e = thrown<sluice::write_error>([&] {
    out.write(std::string_view(data).substr(5000, 20'000));
    out.flush();
  });
  ASSERT_TRUE(e);
  std::size_t block = block_of(path);
  EXPECT_EQ(e->offset() % block, 0u);
  EXPECT_GE(size_on_disk(path), e->offset());
  EXPECT_LE(size_on_disk(path), e->offset() + block) << "more than one padded block";
  EXPECT_EQ(read_all(path).substr(0, e->offset()), data.substr(0, e->offset()));
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  std::string file = read_all(path);
  EXPECT_EQ(file.size(), e->offset());
  EXPECT_EQ(file.size() + out.buffered(), out.tell());
}

// reserve() grew the buffer past its size and space was reserved; then a
// write in flight fails. The file is cut back to the failure, every
// transfer stayed aligned, and every byte after it stays buffered.
TEST_F(writer_direct, a_failure_after_the_buffer_grew_keeps_every_transfer_aligned) {
  auto path = dir / "d";
  std::string data = pattern(300'000);
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  writer out(path, {.buffer_size = 16 * 1024, .preallocate = 1 << 20, .caching = caching::direct});
  out.write(std::string_view(data).substr(0, 100));
  auto room = out.reserve(50'000);
  std::copy(data.begin() + 100, data.begin() + 50'100, room.begin());
  out.commit(50'000);
  fake.fail(call::write_at, fake.calls(call::write_at) + 2, ENOSPC);
  auto e = thrown<sluice::write_error>([&] {
    for (std::size_t at = 50'100; at < data.size(); at += 7777)
      out.write(std::string_view(data).substr(at, std::min<std::size_t>(7777, data.size() - at)));
    out.flush();
  });
  ASSERT_TRUE(e);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  std::string file = read_all(path);
  EXPECT_EQ(file.size(), e->offset());
  EXPECT_EQ(file.size() + out.buffered(), out.tell());
  EXPECT_TRUE(file == data.substr(0, file.size()));
  for (const auto& w : fake.async_submits()) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(w.data) % 4096, 0u);
    EXPECT_EQ(w.size % 512, 0u);
  }
}
}  // namespace
