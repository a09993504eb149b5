// When memory runs out. sluice::journal: a failed append appends nothing and
// takes no lsn, so the log stays a gapless sequence that commits, reads back
// and reopens. sluice::writer: a background failure that finds no memory to
// take its bytes back still stops the writer, and a buffer that cannot be
// allocated leaves the path untouched. A test program of its own,
// because it replaces the global operator new and aligned_alloc to make
// allocations fail on demand.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <new>
#include <optional>
#include <sluice/sluice.hpp>
#include <span>
#include <string>
#include <vector>

#include "os/page_size.hpp"
#include "support/fake_sys.hpp"
#include "support/filesystem.hpp"
#include "support/journal_test_support.hpp"

namespace {

// While set, allocations of at least this many bytes fail (on any thread:
// the journal allocates on the calling one).
std::size_t refuse_from = 0;
// While set, the next allocation fails, whatever its size.
bool refuse_next = false;

void* allocate(std::size_t size) {
  if (refuse_next) {
    refuse_next = false;
    throw std::bad_alloc();
  }
  if (refuse_from != 0 && size >= refuse_from) throw std::bad_alloc();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

// Allocations of `size` bytes or more fail until destroyed.
class refuse_large_allocations {
 public:
  explicit refuse_large_allocations(std::size_t size) { refuse_from = size; }
  ~refuse_large_allocations() { refuse_from = 0; }
  refuse_large_allocations(const refuse_large_allocations&) = delete;
  refuse_large_allocations& operator=(const refuse_large_allocations&) = delete;
};

// Writer buffers (aligned_alloc) larger than this fail while it is set.
std::atomic<std::size_t> refuse_buffers_over{0};
// While 0 or more: that many more writer buffers (aligned_alloc) come, then
// none.
std::atomic<int> buffers_left{-1};

}  // namespace

extern "C" void* aligned_alloc(std::size_t align, std::size_t size) noexcept {
  if (buffers_left >= 0 && buffers_left-- == 0) return nullptr;
  std::size_t limit = refuse_buffers_over;
  if (limit != 0 && size > limit) return nullptr;
  void* p = nullptr;
  return posix_memalign(&p, align, size) == 0 ? p : nullptr;
}

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace sluice_test;
using sluice::journal;

using journal_oom = dir_test;

constexpr std::size_t big = std::size_t{1} << 20;  // needs the pending buffer to grow

TEST_F(journal_oom, a_failed_append_takes_no_lsn_and_the_log_stays_whole) {
  {
    auto log = journal::open(dir.path());
    EXPECT_EQ(log.append(bytes_of("first")), 1u);
    std::string large(big, 'x');
    {
      refuse_large_allocations refuse(big / 2);
      EXPECT_THROW(log.append(bytes_of(large)), std::bad_alloc);
    }
    EXPECT_EQ(log.next_lsn(), 2u);
    EXPECT_EQ(log.append(bytes_of("second")), 2u);
    log.commit(2);
    EXPECT_EQ(read_records(log), (std::vector<read_record>{{1, "first"}, {2, "second"}}));
    log.close();
  }
  auto reopened = journal::open(dir.path());  // the default recovery finds nothing wrong
  EXPECT_EQ(read_records(reopened), (std::vector<read_record>{{1, "first"}, {2, "second"}}));
  EXPECT_EQ(reopened.next_lsn(), 3u);
}

TEST_F(journal_oom, a_failed_batch_appends_none_of_its_records) {
  auto log = journal::open(dir.path());
  log.write(bytes_of("before"));
  std::string small = "small", large(big, 'y');
  std::span<const std::byte> batch[] = {bytes_of(small), bytes_of(small), bytes_of(large)};
  {
    refuse_large_allocations refuse(big / 2);
    EXPECT_THROW(log.append(std::span<const std::span<const std::byte>>(batch)), std::bad_alloc);
  }
  EXPECT_EQ(log.next_lsn(), 2u);
  log.write(bytes_of("after"));
  EXPECT_EQ(read_records(log), (std::vector<read_record>{{1, "before"}, {2, "after"}}));
}

// The leader's first allocation is in moving to a new segment; failing it
// poisons the journal with ENOMEM, not with an I/O error that never was.
TEST_F(journal_oom, running_out_of_memory_while_writing_poisons_with_enomem) {
  auto log = journal::open(dir.path(), {.segment_size = 4096});
  std::string record(1500, 'r');
  log.write(bytes_of(record));
  log.write(bytes_of(record));
  std::uint64_t third = log.append(bytes_of(record));  // does not fit: a new segment
  refuse_next = true;
  EXPECT_THROW(log.commit(third), std::bad_alloc);
  refuse_next = false;
  auto e = thrown([&] { log.append(bytes_of("more")); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOMEM);
  EXPECT_NE(std::string(e->what()).find("out of memory while writing records"), std::string::npos)
      << e->what();
}

// A writer whose second buffer fails in the background (ENOSPC) while no
// buffer larger than its own can be allocated: taking the unwritten bytes
// back (150 of them, more than a buffer) needs no allocation, as the
// memory for it was reserved when the engine started.
class writer_oom : public dir_test {
 protected:
  ~writer_oom() override { refuse_buffers_over = 0; }

  // Emplaces that writer in `out`, with two buffers handed off and 50 bytes
  // buffered; the second write fails once memory is short.
  void fail_without_memory(std::optional<sluice::writer>& out, fake_sys& fake) {
    fake.on_write_at([&](int nth, std::size_t) {
      if (nth != 2) return transfer_action{};
      released_.wait();
      return transfer_action{transfer_action::fail, ENOSPC, 0};
    });
    out.emplace(dir.path() / "out",
                sluice::writer_options{.buffer_size = 100, .write_behind = true});
    for (char c : pattern(250)) out->put(c);
    refuse_buffers_over = 128;  // the 100-byte buffers still come
    release_.set_value();
  }

  // The writer after the failure: the file holds the first buffer, the
  // other 150 bytes are buffered.
  void expect_taken_back(const sluice::writer& out) {
    EXPECT_EQ(out.tell(), 250u);
    EXPECT_EQ(out.buffered(), 150u);
    EXPECT_EQ(read_all(dir.path() / "out"), pattern(250).substr(0, 100));
  }

 private:
  std::promise<void> release_;
  std::shared_future<void> released_ = release_.get_future().share();
};

// flush() throws the write failure, not a std::bad_alloc; it sticks, and no
// failed write is retried.
TEST_F(writer_oom, a_background_failure_is_taken_back_without_allocating) {
  fake_sys fake;
  std::optional<sluice::writer> out;
  fail_without_memory(out, fake);
  auto e = thrown<sluice::write_error>([&] { out->flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  EXPECT_EQ(e->offset(), 100u);
  int writes = fake.calls(call::write_at);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out->put('x'); }));
  EXPECT_EQ(fake.calls(call::write_at), writes) << "a failed write was retried";
  expect_taken_back(*out);
  captured_reports reports;
  out.reset();  // destroyed without close: flush() threw the loss, nothing more to report
  EXPECT_TRUE(reports.reports().empty());
}

// close() straight away: it throws the write failure (a std::bad_alloc on
// the way must not replace it), and every unwritten byte stays counted.
TEST_F(writer_oom, close_throws_a_background_failure_found_without_memory) {
  fake_sys fake;
  std::optional<sluice::writer> out;
  fail_without_memory(out, fake);
  auto e = thrown<sluice::write_error>([&] { out->close(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOSPC);
  expect_taken_back(*out);
  captured_reports reports;
  out.reset();
  EXPECT_TRUE(reports.reports().empty());
}

// Destroyed without a flush: the caller never saw the write failure, so
// the destructor reports it, with the bytes lost.
TEST_F(writer_oom, a_background_failure_found_by_the_destructor_is_reported) {
  fake_sys fake;
  std::optional<sluice::writer> out;
  fail_without_memory(out, fake);
  captured_reports reports;
  out.reset();
  ASSERT_EQ(reports.reports().size(), 1u);
  EXPECT_EQ(reports.reports()[0].code.value(), ENOSPC);
  EXPECT_NE(reports.reports()[0].message.find("150 bytes lost"), std::string::npos)
      << reports.reports()[0].message;
  EXPECT_EQ(read_all(dir.path() / "out"), pattern(250).substr(0, 100));
}

// caching::direct over the (emulated) ring: the first of two writes in
// flight fails (performed after the second, which landed), found when the
// next buffer is handed off while no buffer larger than the writer's can
// be allocated. The failure is thrown, the file cut back to it, and every
// byte after it stays buffered.
TEST_F(writer_oom, a_direct_failure_in_flight_is_taken_back_without_allocating) {
  if (direct_block(dir / "probe") == 0) GTEST_SKIP() << "no direct I/O here";
  std::filesystem::remove(dir / "probe");
  auto path = dir.path() / "d";
  std::string data = pattern(3 * 16384 + 100);
  fake_sys fake;
  fake.emulate_async({.deferred = true, .newest_first = true});
  fake.fail(call::write_at, 2, ENOSPC);  // the first buffer, performed after the second
  sluice::writer out(path, {.buffer_size = 16384, .caching = sluice::caching::direct});
  ASSERT_EQ(out.write_behind_engine(), sluice::write_behind_engine::io_uring);
  out.write(std::string_view(data).substr(0, 2 * 16384 + 1));  // two in flight
  refuse_buffers_over = 20000;
  auto e =
      thrown<sluice::write_error>([&] { out.write(std::string_view(data).substr(2 * 16384 + 1)); });
  refuse_buffers_over = 0;
  ASSERT_TRUE(e);
  EXPECT_EQ(e->offset(), 0u);
  EXPECT_EQ(size_on_disk(path), 0u);
  EXPECT_EQ(out.tell() - out.buffered(), 0u);
  EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
  EXPECT_EQ(size_on_disk(path), 0u) << "the file holds bytes past the failure";
  EXPECT_EQ(out.buffered(), out.tell());
}

// A writer's move is noexcept and waits for its write-behind engine: a
// failure it finds there with no memory left to describe it is recorded
// all the same (no std::terminate). The writer moved to throws an error
// that says a write failed, and holds every byte from the first one not
// written.
TEST_F(writer_oom, a_move_that_finds_a_failure_without_memory_keeps_it) {
  auto path = dir.path() / "m";
  fake_sys fake;
  fake.emulate_async();
  fake.fail(call::write_at, 1, ENOSPC);  // the first buffer, completed when submitted
  std::optional<sluice::writer> out;
  out.emplace(path, sluice::writer_options{.buffer_size = 100, .write_behind = true});
  ASSERT_EQ(out->write_behind_engine(), sluice::write_behind_engine::io_uring);
  for (char c : pattern(150)) out->put(c);  // one buffer handed off
  std::optional<sluice::writer> moved;
  {
    refuse_large_allocations refuse(1);  // every allocation fails
    moved.emplace(std::move(*out));
  }
  auto e = thrown([&] { moved->flush(); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENOMEM);
  EXPECT_EQ(std::string(e->what()),
            "sluice: write " + quoted(path) +
                ": a write failed, and no memory was left to say where or why (the writer holds "
                "every byte from the first one not written): " +
                std::strerror(ENOMEM));
  EXPECT_EQ(moved->tell(), 150u);
  EXPECT_EQ(moved->buffered(), 150u);
  EXPECT_EQ(read_all(path), "");
  EXPECT_TRUE(thrown([&] { moved->close(); }));
}

// The buffer is allocated before the path is opened: a buffer that cannot
// be had neither empties an existing file nor creates a new one.
TEST_F(writer_oom, a_buffer_that_cannot_be_allocated_leaves_the_path_alone) {
  constexpr std::size_t mib = 1 << 20;
  for (auto options :
       {sluice::writer_options{.buffer_size = mib},
        sluice::writer_options{.buffer_size = mib, .atomic_replace = true},
        sluice::writer_options{.buffer_size = mib, .durability = sluice::durability::all_on_close},
        sluice::writer_options{.buffer_size = mib, .caching = sluice::caching::direct}}) {
    write_all(dir / "existing", "old");
    refuse_buffers_over = mib / 2;
    EXPECT_THROW(sluice::writer(dir / "existing", options), std::bad_alloc);
    EXPECT_THROW(sluice::writer(dir / "new", options), std::bad_alloc);
    refuse_buffers_over = 0;
    EXPECT_EQ(read_all(dir / "existing"), "old");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"existing"});
  }
}

// caching::direct where the alignment is larger than a page (reported
// through the seam's statx): the buffer allocated before the open must be
// allocated again once the file is open and the alignment known. That
// failing loses nothing: an existing file is opened without O_TRUNC and
// emptied only once the buffer is there; a new one is left empty.
TEST_F(writer_oom, a_direct_buffer_that_cannot_be_aligned_loses_nothing) {
  if (direct_block(dir / "probe") == 0) GTEST_SKIP() << "no direct I/O here";
  constexpr std::size_t mib = 1 << 20;
  auto page = static_cast<unsigned>(sluice::detail::page_size());
  for (auto durability : {sluice::durability::none, sluice::durability::all_on_close}) {
    SCOPED_TRACE(durability == sluice::durability::none ? "none" : "all_on_close");
    sluice::writer_options options{
        .buffer_size = mib, .durability = durability, .caching = sluice::caching::direct};
    write_all(dir / "existing", "old");
    {
      fake_sys fake;
      fake.report_direct_alignment(2 * page);
      // The first buffer (a MiB, with a page of room to align it in its
      // block) comes; the one aligned on two pages needs a page more.
      refuse_buffers_over = mib + page + 64;
      EXPECT_THROW(sluice::writer(dir / "existing", options), std::bad_alloc);
      EXPECT_THROW(sluice::writer(dir / "new", options), std::bad_alloc);
      refuse_buffers_over = 0;
    }
    EXPECT_EQ(read_all(dir / "existing"), "old");
    EXPECT_EQ(read_all(dir / "new"), "");
    std::filesystem::remove(dir / "new");
    if (direct_block(dir / "probe") == 0) GTEST_SKIP() << "no direct I/O here";
    std::filesystem::remove(dir / "probe");
    fake_sys fake;
    fake.report_direct_alignment(2 * page);
    sluice::writer out(dir / "existing", options);  // the allocation succeeds: emptied
    EXPECT_EQ(size_on_disk(dir / "existing"), 0u);
    out.write(std::string_view("new"));
    out.close();
    EXPECT_EQ(read_all(dir / "existing"), "new");
  }
}

// Open descriptors of this process.
std::size_t open_descriptors() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
    ++count;
  return count;
}

// The temporary exists from its open on: an allocation failing after it
// (here, copying the old file's extended attribute) must neither leak its
// descriptor nor leave it behind, so every string it needs is made before
// it is created.
TEST_F(writer_oom, an_allocation_failing_once_the_temporary_exists_leaves_nothing_behind) {
  for (bool named : {false, true}) {
    SCOPED_TRACE(named ? "named" : "O_TMPFILE");
    write_all(dir / "t", "old");
    if (::setxattr((dir / "t").c_str(), "user.kept", "1", 1, 0) != 0)
      GTEST_SKIP() << "no user.* extended attributes here";
    std::size_t descriptors = open_descriptors();
    {
      fake_sys fake;
      if (named) fake.refuse_unnamed_temporary();
      fake.on_open([&](const std::string&, const sluice::detail::open_request& how) {
        bool temporary = named ? how.exclusive : how.unnamed_temporary;
        if (temporary) refuse_next = true;  // the first allocation after this open fails
        return 0;
      });
      EXPECT_THROW(sluice::writer(dir / "t", {.atomic_replace = true}), std::bad_alloc);
      refuse_next = false;
    }
    EXPECT_EQ(open_descriptors(), descriptors);
    EXPECT_EQ(read_all(dir / "t"), "old");
    EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"t"});
  }
}

// write_behind on its thread: the engine's buffers are allocated when it
// starts, so handing a full buffer off allocates nothing, and a write()
// that hands buffers off is accepted whole with no memory to be had.
TEST_F(writer_oom, handing_off_a_buffer_allocates_nothing) {
  fake_sys fake;
  auto path = dir.path() / "w";
  std::string data = pattern(450);
  sluice::writer out(path, sluice::writer_options{.buffer_size = 100, .write_behind = true});
  ASSERT_EQ(out.write_behind_engine(), sluice::write_behind_engine::thread);
  refuse_buffers_over = 50;
  out.write(std::string_view(data).substr(0, 150));  // below gather_threshold(): copied
  for (char c : std::string_view(data).substr(150)) out.put(c);
  refuse_buffers_over = 0;
  EXPECT_EQ(out.tell(), data.size());
  out.close();
  EXPECT_EQ(read_all(path), data);
}

// Once reserve() has grown the buffer past the engine's, a hand-off must
// allocate one: a std::bad_alloc then does not stick, and the write() has
// accepted exactly the bytes tell() advanced by, so writing the rest makes
// the file whole.
TEST_F(writer_oom, a_write_that_finds_no_memory_accepted_what_tell_counts) {
  fake_sys fake;
  auto path = dir.path() / "w";
  std::string data = pattern(1000);
  sluice::writer out(path, sluice::writer_options{.buffer_size = 100, .write_behind = true});
  auto room = out.reserve(300);  // the buffer grows to 300 bytes
  std::copy_n(data.begin(), 250, room.begin());
  out.commit(250);
  refuse_buffers_over = 200;
  EXPECT_THROW(out.write(std::string_view(data).substr(250, 150)), std::bad_alloc);
  refuse_buffers_over = 0;
  std::uint64_t accepted = out.tell() - 250;
  EXPECT_EQ(accepted, 50u) << "the buffer's room is filled before the hand-off";
  out.write(std::string_view(data).substr(250 + accepted));
  out.close();
  EXPECT_EQ(read_all(path), data);
}

// The write-behind engine (io_uring, here emulated) allocates its buffers
// once the file is open, as does caching::direct's: those failing must
// leave an existing file as it was, so it is emptied only afterwards.
TEST_F(writer_oom, engine_buffers_that_cannot_be_allocated_leave_an_existing_file_alone) {
  for (auto options :
       {sluice::writer_options{.buffer_size = 4096, .write_behind = true},
        sluice::writer_options{.buffer_size = 4096, .caching = sluice::caching::direct}}) {
    if (options.caching == sluice::caching::direct && direct_block(dir / "probe") == 0) continue;
    SCOPED_TRACE(options.write_behind ? "write_behind" : "direct");
    write_all(dir / "existing", "old content");
    {
      fake_sys fake;
      fake.emulate_async();
      buffers_left = 1;  // the writer's own buffer, then none
      EXPECT_THROW(sluice::writer(dir / "existing", options), std::bad_alloc);
      buffers_left = -1;
    }
    EXPECT_EQ(read_all(dir / "existing"), "old content");
  }
}
}  // namespace
