// sluice::writer: buffering, the gather path, reserve/commit, moves, close,
// and use after close.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sluice/sluice.hpp>
#include <string>
#include <utility>

#include "os/page_size.hpp"
#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

using writer_basics = dir_test;
using writer_gather = dir_test;
using writer_life = dir_test;

constexpr std::size_t mib = 1024 * 1024;

// --- buffering -----------------------------------------------------------------

TEST_F(writer_basics, writes_everything_in_order) {
  auto path = dir / "out.txt";
  writer out(path);
  EXPECT_TRUE(out.is_open());
  EXPECT_EQ(out.path(), path.string());
  out.put('a');
  out.write(std::string_view("bc"));
  out.write(bytes_of("de"));
  out.print(42);
  out.put('\n');
  EXPECT_EQ(out.tell(), 8u);
  out.close();
  EXPECT_FALSE(out.is_open());
  EXPECT_EQ(read_all(path), "abcde42\n");
}

TEST_F(writer_basics, default_buffer_is_used_and_nothing_is_written_before_it_fills) {
  auto path = dir / "out";
  fake_sys fake;
  writer out(path);
  EXPECT_EQ(out.buffer_size(), sluice::writer_options::default_buffer_size);
  std::string data = pattern(sluice::writer_options::default_buffer_size);
  out.write(data);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(out.buffered(), data.size());
  out.put('!');
  ASSERT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.writes_at()[0].requested, data.size());
  EXPECT_EQ(out.buffered(), 1u);
  out.close();
  EXPECT_EQ(read_all(path), data + "!");
}

TEST_F(writer_basics, flush_hands_the_bytes_to_the_os_and_tell_makes_no_call) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 1000});
  out.write(std::string_view("hello"));
  EXPECT_EQ(size_on_disk(path), 0u);
  fake_sys fake;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out.tell(), 5u);
  out.flush();
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(out.buffered(), 0u);
  EXPECT_EQ(out.tell(), 5u);
  EXPECT_EQ(size_on_disk(path), 5u);
  out.flush();  // nothing buffered: no call
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.calls(call::facts), 0);
}

TEST_F(writer_basics, sync_flushes_then_fdatasyncs_once) {
  auto path = dir / "out";
  writer out(path);
  fake_sys fake;
  out.write(std::string_view("durable"));
  out.sync();
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.calls(call::sync_data), 1);
  EXPECT_EQ(size_on_disk(path), 7u);
  out.close();
  EXPECT_EQ(fake.calls(call::sync_data), 1);  // durability none: close does not sync
  EXPECT_EQ(fake.calls(call::close), 1);
}

TEST_F(writer_basics, one_byte_buffer_works) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 1});
  EXPECT_EQ(out.buffer_size(), 1u);
  std::string model;
  for (int i = 0; i < 50; ++i) {
    out.put(static_cast<char>('a' + i % 26));
    model += static_cast<char>('a' + i % 26);
    out.write(std::string_view("xy"));
    model += "xy";
    EXPECT_EQ(out.tell(), model.size());
  }
  out.close();
  EXPECT_EQ(read_all(path), model);
}

TEST_F(writer_basics, empty_writes_change_nothing) {
  auto path = dir / "out";
  fake_sys fake;
  writer out(path, {.buffer_size = 4});
  out.write(std::string_view());  // a null data pointer: must not reach memcpy
  out.write(std::span<const std::byte>());
  out.write(std::string_view("abcd"));
  out.write(std::string_view());  // at a full buffer
  EXPECT_EQ(out.tell(), 4u);
  EXPECT_EQ(fake.calls(call::write_at), 0);
  out.close();
  out.write(std::string_view());  // closed: the buffer pointer is null too
  EXPECT_EQ(out.tell(), 4u);
  EXPECT_EQ(read_all(path), "abcd");
}

TEST_F(writer_basics, reserve_and_commit_format_into_the_buffer) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 64});
  auto room = out.reserve(10);
  ASSERT_GE(room.size(), 10u);
  std::memcpy(room.data(), "0123456789", 10);
  out.commit(4);  // only the first four count
  EXPECT_EQ(out.tell(), 4u);
  auto empty = out.reserve(0);
  out.commit(0);
  EXPECT_EQ(empty.size(), 60u);
  out.write(std::string_view("!"));
  out.close();
  EXPECT_EQ(read_all(path), "0123!");
}

// The kernel copies the buffer into page-cache pages: it starts on a page
// (docs/performance.md has the figures), whatever its size, and after it
// grew, with and without write_behind.
TEST_F(writer_basics, the_buffer_starts_on_a_page) {
  auto page = static_cast<std::uintptr_t>(sluice::detail::page_size());
  auto on_a_page = [&](std::span<char> room) {
    return reinterpret_cast<std::uintptr_t>(room.data()) % page == 0;
  };
  for (bool behind : {false, true}) {
    writer out(dir / "out", {.buffer_size = 64, .write_behind = behind});
    EXPECT_TRUE(on_a_page(out.reserve(1))) << behind;
    EXPECT_TRUE(on_a_page(out.reserve(100000))) << behind;  // grown
    out.write(std::string_view("x"));
    out.flush();  // write_behind: the next buffer
    out.write(std::string_view("y"));
    out.flush();
    EXPECT_TRUE(on_a_page(out.reserve(1))) << behind;
    out.close();
  }
}

TEST_F(writer_basics, reserve_beyond_the_buffer_size_grows_it) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 16});
  out.write(std::string_view("abc"));
  std::string big = pattern(1000);
  auto room = out.reserve(big.size());
  ASSERT_GE(room.size(), big.size());
  EXPECT_GE(out.buffer_size(), big.size());
  EXPECT_EQ(out.tell(), 3u);
  std::memcpy(room.data(), big.data(), big.size());
  out.commit(big.size());
  EXPECT_EQ(out.tell(), 1003u);
  out.write(std::string_view("z"));
  out.close();
  EXPECT_EQ(read_all(path), "abc" + big + "z");
}

// No buffer holds SIZE_MAX bytes (nor a size that rounds past it): refused
// with bad_alloc, never a span larger than the memory behind it.
TEST_F(writer_basics, a_reserve_no_buffer_can_hold_is_refused_and_the_writer_goes_on) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 16});
  out.write(std::string_view("abc"));
  constexpr std::size_t huge = std::numeric_limits<std::size_t>::max();
  EXPECT_THROW(out.reserve(huge), std::bad_alloc);
  EXPECT_THROW(out.reserve(huge - 3), std::bad_alloc);
  EXPECT_THROW(out.print("x", sluice::pad(huge)), std::bad_alloc);
  EXPECT_EQ(out.tell(), 3u);
  out.write(std::string_view("def"));
  out.close();
  EXPECT_EQ(read_all(path), "abcdef");
}

TEST_F(writer_basics, a_buffer_size_no_buffer_can_hold_is_refused) {
  constexpr std::size_t huge = std::numeric_limits<std::size_t>::max();
  EXPECT_THROW(writer(dir / "a", {.buffer_size = huge - 8}), std::bad_alloc);
  EXPECT_THROW(writer(dir / "b", {.buffer_size = huge - 8, .caching = sluice::caching::direct}),
               std::bad_alloc);
}

TEST_F(writer_basics, reserve_that_does_not_fit_flushes_first) {
  auto path = dir / "out";
  writer out(path, {.buffer_size = 16});
  out.write(std::string_view("0123456789"));
  fake_sys fake;
  auto room = out.reserve(8);
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(room.size(), 16u);
  EXPECT_EQ(out.buffered(), 0u);
  EXPECT_EQ(size_on_disk(path), 10u);
}

TEST_F(writer_basics, writer_of_an_append_file_starts_at_its_size) {
  auto path = dir / "log";
  write_all(path, "hello");
  auto target = sluice::file::open(path, {.mode = sluice::open_mode::append});
  writer out(std::move(target), {.buffer_size = 4});
  EXPECT_EQ(out.tell(), 5u);
  out.write(std::string_view(" world"));
  EXPECT_EQ(out.tell(), 11u);
  out.put('\n');
  out.close();
  EXPECT_EQ(read_all(path), "hello world\n");
}

TEST_F(writer_basics, writer_of_a_file_continues_from_its_position) {
  auto path = dir / "f";
  auto target = sluice::file::open(path, {.mode = sluice::open_mode::create_new});
  target.write(bytes_of("head:"));
  writer out(std::move(target));
  EXPECT_EQ(out.tell(), 5u);
  out.write(std::string_view("body"));
  out.close();
  EXPECT_EQ(read_all(path), "head:body");
}

TEST_F(writer_basics, a_writer_of_a_closed_file_is_refused) {
  sluice::file closed;
  auto e = thrown([&] { writer out(std::move(closed)); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EBADF);
}

TEST_F(writer_basics, open_failures_throw_before_any_data_is_accepted) {
  auto missing = thrown([&] { writer out(dir / "no" / "file"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->code().value(), ENOENT);
  EXPECT_NE(std::string(missing->what()).find("open " + quoted(dir / "no" / "file")),
            std::string::npos)
      << missing->what();
  EXPECT_FALSE(std::filesystem::exists(dir / "no"));

  auto directory = thrown([&] { writer out(dir.path()); });
  ASSERT_TRUE(directory);
  EXPECT_EQ(directory->code().value(), EISDIR);
}

TEST_F(writer_basics, the_path_constructor_truncates) {
  auto path = dir / "t";
  write_all(path, "a much longer old content");
  writer out(path);
  out.write(std::string_view("new"));
  out.close();
  EXPECT_EQ(read_all(path), "new");
}

// --- the gather path --------------------------------------------------------------

TEST_F(writer_gather, buffered_bytes_and_a_large_payload_cost_one_pwritev) {
  auto path = dir / "g";
  std::string head = pattern(100, 1);
  std::string payload = pattern(mib, 2);
  fake_sys fake;
  writer out(path);
  out.write(head);
  out.write(payload);
  ASSERT_EQ(fake.calls(call::write_at), 1);
  const auto& call = fake.writes_at()[0];
  EXPECT_EQ(call.offset, 0);
  EXPECT_EQ(call.requested, 100 + mib);
  EXPECT_EQ(call.iov_count, 2);
  EXPECT_EQ(call.result, static_cast<ssize_t>(100 + mib));
  EXPECT_EQ(out.buffered(), 0u);
  EXPECT_EQ(out.tell(), 100 + mib);
  out.close();
  EXPECT_EQ(fake.calls(call::write_at), 1);  // nothing left for close
  EXPECT_EQ(read_all(path), head + payload);
}

TEST_F(writer_gather, a_large_payload_with_nothing_buffered_goes_out_alone) {
  auto path = dir / "g";
  std::string payload = pattern(200000);
  fake_sys fake;
  writer out(path, {.buffer_size = 4096});
  out.write(payload);
  ASSERT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.writes_at()[0].requested, payload.size());
  EXPECT_EQ(fake.writes_at()[0].iov_count, 1);
  out.put('.');
  out.close();
  EXPECT_EQ(read_all(path), payload + ".");
}

TEST_F(writer_gather, the_threshold_is_twice_the_buffer) {
  writer out(dir / "g", {.buffer_size = 4096});
  EXPECT_EQ(out.gather_threshold(), 8192u);
}

TEST_F(writer_gather, a_payload_below_the_threshold_is_copied) {
  auto path = dir / "g";
  std::string model;
  fake_sys fake;
  writer out(path, {.buffer_size = 4096});
  std::string first = pattern(3000, 1);
  std::string below = pattern(out.gather_threshold() - 1, 2);  // does not fit in 1096
  out.write(first);
  out.write(below);
  model = first + below;
  // Only full buffers went out, from the buffer alone; the rest is buffered.
  ASSERT_EQ(fake.calls(call::write_at), static_cast<int>(model.size() / 4096));
  for (const auto& w : fake.writes_at()) {
    EXPECT_EQ(w.requested, 4096u);
    EXPECT_EQ(w.iov_count, 1);
  }
  EXPECT_EQ(out.buffered(), model.size() % 4096);
  out.close();
  EXPECT_EQ(read_all(path), model);
}

TEST_F(writer_gather, a_payload_at_the_threshold_is_gathered) {
  auto path = dir / "g";
  fake_sys fake;
  writer out(path, {.buffer_size = 4096});
  std::string first = pattern(3000, 1);
  std::string at = pattern(out.gather_threshold(), 2);
  out.write(first);
  out.write(at);
  ASSERT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(fake.writes_at()[0].requested, first.size() + at.size());
  EXPECT_EQ(fake.writes_at()[0].iov_count, 2);
  EXPECT_EQ(out.buffered(), 0u);
  out.close();
  EXPECT_EQ(read_all(path), first + at);
}

TEST_F(writer_gather, small_writes_cost_one_call_per_full_buffer) {
  auto path = dir / "g";
  fake_sys fake;
  writer out(path, {.buffer_size = 4096});
  std::string model;
  std::string chunk = pattern(out.gather_threshold() - 1, 3);
  for (int i = 0; i < 50; ++i) {
    out.write(std::string_view(chunk).substr(0, 1 + (i * 997) % chunk.size()));
    model.append(chunk, 0, 1 + (i * 997) % chunk.size());
  }
  EXPECT_EQ(fake.calls(call::write_at), static_cast<int>(model.size() / 4096));
  for (std::size_t i = 0; i < fake.writes_at().size(); ++i) {
    EXPECT_EQ(fake.writes_at()[i].requested, 4096u);
    EXPECT_EQ(fake.writes_at()[i].offset, static_cast<off_t>(i * 4096));
  }
  out.close();
  EXPECT_EQ(fake.calls(call::write_at), static_cast<int>((model.size() + 4095) / 4096));
  EXPECT_EQ(read_all(path), model);
}

// --- moves, close, use after close ----------------------------------------------

TEST_F(writer_life, moved_from_writer_is_safe_and_refuses_work) {
  auto path = dir / "m";
  writer a(path, {.buffer_size = 32});
  a.write(std::string_view("abc"));
  writer b(std::move(a));
  EXPECT_FALSE(a.is_open());
  EXPECT_TRUE(b.is_open());
  EXPECT_EQ(b.tell(), 3u);
  fake_sys fake;
  for (auto e :
       {thrown([&] { a.put('x'); }), thrown([&] { a.write(std::string_view("x")); }),
        thrown([&] { a.print(1); }), thrown([&] { a.print(1.5); }), thrown([&] { a.reserve(1); }),
        thrown([&] { a.flush(); }), thrown([&] { a.sync(); })}) {
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EBADF);
  }
  a.close();
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(fake.calls(call::close), 0);
  b.put('d');
  b.close();
  EXPECT_EQ(read_all(path), "abcd");
}

TEST_F(writer_life, move_assignment_closes_the_old_target_completely) {
  auto first = dir / "first";
  auto second = dir / "second";
  writer a(first, {.buffer_size = 1024});
  std::string data = pattern(1500);
  for (std::size_t at = 0; at < data.size(); at += 500) a.write(data.substr(at, 500));
  EXPECT_EQ(a.buffered(), 1500u - 1024);
  writer b(second);
  b.write(std::string_view("second"));
  fake_sys fake;
  a = std::move(b);
  EXPECT_EQ(fake.calls(call::close), 1);
  EXPECT_EQ(read_all(first), data);
  EXPECT_EQ(a.tell(), 6u);
  a.write(std::string_view("!"));
  a.close();
  EXPECT_EQ(read_all(second), "second!");
  EXPECT_FALSE(b.is_open());
}

TEST_F(writer_life, self_move_assignment_keeps_the_writer) {
  auto path = dir / "s";
  writer a(path);
  a.write(std::string_view("keep"));
  writer& alias = a;
  a = std::move(alias);
  EXPECT_TRUE(a.is_open());
  EXPECT_EQ(a.tell(), 4u);
  a.close();
  EXPECT_EQ(read_all(path), "keep");
}

TEST_F(writer_life, close_twice_is_harmless) {
  auto path = dir / "c";
  writer out(path);
  out.write(std::string_view("x"));
  fake_sys fake;
  out.close();
  out.close();
  EXPECT_EQ(fake.calls(call::close), 1);
  EXPECT_EQ(fake.calls(call::write_at), 1);
  EXPECT_EQ(read_all(path), "x");
}

TEST_F(writer_life, use_after_close_throws_ebadf_naming_the_path) {
  auto path = dir / "closed";
  writer out(path);
  out.write(std::string_view("done"));
  out.close();
  fake_sys fake;
  for (auto e :
       {thrown([&] { out.put('x'); }), thrown([&] { out.write(std::string_view("x")); }),
        thrown([&] { out.write(bytes_of(pattern(100000))); }), thrown([&] { out.print(7u); }),
        thrown([&] { out.print(2.5f); }), thrown([&] { out.reserve(10); }),
        thrown([&] { out.flush(); }), thrown([&] { out.sync(); })}) {
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EBADF);
    EXPECT_NE(std::string(e->what()).find(quoted(path)), std::string::npos) << e->what();
  }
  EXPECT_EQ(fake.calls(call::write_at), 0);
  EXPECT_EQ(fake.calls(call::sync_data), 0);
  EXPECT_EQ(read_all(path), "done");
}

TEST_F(writer_life, destructor_flushes_and_closes) {
  auto path = dir / "d";
  captured_reports reports;
  {
    writer out(path);
    out.write(std::string_view("flushed by the destructor"));
  }
  EXPECT_EQ(read_all(path), "flushed by the destructor");
  EXPECT_TRUE(reports.reports().empty());
}

// The constructors throw std::system_error in sluice's words, never a
// std::filesystem exception.
TEST_F(writer_life, an_empty_path_is_enoent_in_sluices_words) {
  for (auto options : {sluice::writer_options{}, sluice::writer_options{.atomic_replace = true},
                       sluice::writer_options{.durability = sluice::durability::all_on_close}}) {
    auto e = thrown([&] { writer out("", options); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), ENOENT);
    EXPECT_EQ(std::string(e->what()), std::string("sluice: open '': ") + std::strerror(ENOENT));
  }
}

}  // namespace
