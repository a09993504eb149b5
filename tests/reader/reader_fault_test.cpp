// sluice::reader under failures injected through the fake seam, at every
// call that reads: a refill (get, peek, read_line, read_record, eof), a
// large read() straight into the caller's memory, skip()'s fstat, and the
// fstat at construction. EINTR and short reads of every length must not
// show; EIO names the path and offset, changes nothing, and the next call
// reads again; a file cut between two reads is "file shrank".
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <sluice/sluice.hpp>
#include <string>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::reader;

constexpr std::size_t buffer = 4096;

// The lines of `content` read with `in`, joined again with newlines.
std::string reread(reader& in) {
  std::string all;
  while (auto line = in.read_line()) {
    all += *line;
    all += '\n';
  }
  return all;
}

// A content of lines of every length around the buffer.
std::string lines_content() {
  std::string content;
  for (std::size_t length = 0; content.size() < 5 * buffer; length += 37)
    content += pattern(length % (buffer + 100), length).substr(0, length % (buffer + 100)) + "\n";
  for (char& c : content)
    if (c == '\n' && &c != &content.back() && (&c - content.data()) % 41 != 0) c = 'n';
  return content;
}

class reader_fault : public dir_test {
 protected:
  void SetUp() override { write_all(path, content); }
  std::string content = lines_content();
  std::filesystem::path path = dir / "in";
};

TEST_F(reader_fault, short_reads_of_every_length_do_not_show) {
  for (std::size_t bytes = 1; bytes < buffer; bytes += bytes < 64 ? 1 : 97) {
    SCOPED_TRACE("first read short, " + std::to_string(bytes) + " bytes");
    fake_sys fake;
    fake.short_transfer(call::read_at, 1, bytes);
    fake.short_transfer(call::read_at, 3, bytes / 2 + 1);
    reader in(path, {.buffer_size = buffer});
    ASSERT_EQ(reread(in), content);
  }
}

TEST_F(reader_fault, eintr_at_every_read_does_not_show) {
  fake_sys fake;
  bool interrupt = false;
  fake.on_read_at([&](auto, std::int64_t, std::size_t) {
    interrupt = !interrupt;
    return interrupt ? transfer_action{transfer_action::fail, EINTR} : transfer_action{};
  });
  reader in(path, {.buffer_size = buffer});
  EXPECT_EQ(reread(in), content);
  EXPECT_GT(fake.calls(call::read_at), 4);
}

// Each way a call reaches the file, failing with EIO at its first read:
// the error names the offset, and the same call then succeeds.
struct read_site {
  const char* name;
  std::function<std::string(reader&)> call;
};

TEST_F(reader_fault, eio_at_every_read_site_names_the_offset_and_the_next_call_reads_again) {
  const read_site sites[] = {
      {"get", [](reader& in) { return std::string(1, static_cast<char>(in.get())); }},
      {"peek", [](reader& in) { return text_of(in.peek(10).first(10)); }},
      {"read_line", [](reader& in) { return std::string(*in.read_line()); }},
      {"read_record", [](reader& in) { return text_of(in.read_record(100)); }},
      {"read",
       [](reader& in) {  // larger than the buffer: straight into `out`
         std::string out(3 * buffer, '?');
         in.read(std::as_writable_bytes(std::span(out)));
         return out;
       }},
      {"read_some",
       [](reader& in) {
         std::string out(10, '?');
         out.resize(in.read_some(std::as_writable_bytes(std::span(out))));
         return out;
       }},
      {"eof", [](reader& in) { return std::string(in.eof() ? "end" : "more"); }},
  };
  for (const read_site& site : sites) {
    SCOPED_TRACE(site.name);
    reader in(path, {.buffer_size = buffer});
    EXPECT_EQ(in.skip(buffer + 3), buffer + 3);  // no read: the next one is at buffer + 3
    std::string expected;
    {
      reader model(path, {.buffer_size = buffer});
      model.skip(buffer + 3);
      expected = site.call(model);
    }
    fake_sys fake;
    fake.fail(call::read_at, 1, EIO);
    auto e = thrown([&] { site.call(in); });
    ASSERT_TRUE(e);
    EXPECT_EQ(e->code().value(), EIO);
    EXPECT_NE(std::string(e->what()).find("sluice: read " + quoted(path) + " at offset 4099"),
              std::string::npos)
        << e->what();
    EXPECT_EQ(in.tell(), buffer + 3);
    EXPECT_EQ(site.call(in), expected);
  }
}

TEST_F(reader_fault, a_failed_stat_in_skip_and_at_open_is_thrown) {
  {
    reader in(path, {.buffer_size = buffer});
    fake_sys fake;
    fake.fail(call::facts, 1, EIO);
    EXPECT_TRUE(thrown([&] { in.skip(3 * buffer); }));
    EXPECT_EQ(in.tell(), 0u);
    EXPECT_EQ(in.skip(3 * buffer), 3 * buffer);
  }
  fake_sys fake;
  fake.fail(call::facts, 1, EIO);
  auto e = thrown([&] { reader in(path); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), EIO);
}

TEST_F(reader_fault, a_file_cut_between_two_reads_is_file_shrank) {
  fake_sys fake;
  fake.on_read_at([&](auto, std::int64_t, std::size_t) {
    if (fake.calls(call::read_at) == 2) {
      std::filesystem::resize_file(path, buffer + 10);
    }
    return transfer_action{};
  });
  reader in(path, {.buffer_size = buffer});
  auto e = thrown([&] { reread(in); });
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code().value(), ENODATA);
  EXPECT_NE(std::string(e->what()).find("file shrank to 4106 bytes, " +
                                        std::to_string(content.size()) + " at open"),
            std::string::npos)
      << e->what();
}

TEST_F(reader_fault, a_file_cut_inside_a_short_read_is_file_shrank) {
  fake_sys fake;
  fake.on_read_at([&](auto, std::int64_t, std::size_t requested) {
    if (fake.calls(call::read_at) != 1) return transfer_action{};
    std::filesystem::resize_file(path, 100);  // after the first part, before the rest
    return transfer_action{transfer_action::partial, 0, requested / 2};
  });
  reader in(path, {.buffer_size = buffer});
  auto e = thrown([&] { (void)in.get(); });
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("file shrank to 100 bytes"), std::string::npos)
      << e->what();
}

}  // namespace
