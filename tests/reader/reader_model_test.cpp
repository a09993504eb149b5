// Model-based tests of sluice::reader: thousands of random sequences of every
// call (get, peek + consume, read, read_some, skip, read_line, skip_line,
// read_record, read_into, tell, eof), with buffer sizes from 1 byte to 4 MiB, max_line
// from 1 byte up, both line ends, over random files (lines of every length,
// longer than the buffer and than max_line, CRLF, lone CRs, NULs, no final
// newline), compared with a std::string and a position. read_into's
// pieces have random sizes around the scatter threshold (2 KiB), so that
// copied pieces and runs read with one preadv mix. Each sequence reads
// a regular file by path, an opened file, or a pipe fed in odd-sized pieces
// by a thread; another part injects EINTR and short reads of every length
// through the fake seam, which must not show.
//
// Every sequence has its own seed, printed on failure; set SLUICE_TEST_SEED
// to change the base seed.
#include <gtest/gtest.h>

#ifndef _WIN32
#include <unistd.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/platform.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::reader;

constexpr std::size_t kib = 1024;
constexpr std::size_t mib = 1024 * kib;
constexpr int parts = 4;                 // the sequences are split over this many tests
constexpr int sequences_per_part = 400;  // 1600 sequences in all, per source
constexpr int operations = 150;          // per sequence

std::uint64_t base_seed() {
  const char* text = std::getenv("SLUICE_TEST_SEED");
  return text ? std::strtoull(text, nullptr, 0) : 0x5eade700'0000'0000ull;
}

// Uniform in log space over [low, high].
std::size_t log_uniform(std::mt19937_64& random, std::size_t low, std::size_t high) {
  std::uniform_real_distribution<double> exponent(std::log(double(low)),
                                                  std::log(double(high) + 1));
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::exp(exponent(random))), low, high);
}

// A file of random lines: lengths from 0 up to past `longest`, ended by
// "\n", "\r\n", a lone "\r" or nothing, bytes from a small alphabet with
// NULs and CRs.
std::string random_content(std::mt19937_64& random, std::size_t longest, std::size_t budget) {
  static const char alphabet[] = {'a', 'b', 'c', '\0', '\r', ' ', 'x', '\xff', '9', '\t'};
  std::string content;
  while (content.size() < budget && random() % 64 != 0) {
    std::size_t length = random() % 4 == 0 ? 0 : log_uniform(random, 1, longest);
    for (std::size_t i = 0; i < length; ++i) content += alphabet[random() % sizeof alphabet];
    switch (random() % 8) {
      case 0: content += "\r\n"; break;
      case 1: content += '\r'; break;
      case 2: break;
      default: content += '\n'; break;
    }
  }
  return content;
}

enum class source_kind { path, opened, pipe };

class model_run {
 public:
  model_run(std::string content, const sluice::reader_options& options)
      : content_(std::move(content)), options_(options) {}

  // One random call on `in`, checked against the model.
  void step(reader& in, std::mt19937_64& random) {
    std::size_t buffer = options_.buffer_size;
    switch (random() % 13) {
      case 0: check_get(in); break;
      case 1: check_peek(in, log_uniform(random, 1, 3 * buffer + 5), random); break;
      case 2: check_read(in, log_uniform(random, 1, 3 * buffer + 5)); break;
      case 3: check_read_some(in, log_uniform(random, 1, 3 * buffer + 5)); break;
      case 4: check_skip(in, log_uniform(random, 1, 3 * buffer + 5)); break;
      case 5: check_skip_line(in); break;
      case 6: check_record(in, log_uniform(random, 1, 2 * buffer + 5)); break;
      case 7: EXPECT_EQ(in.eof(), pos_ == content_.size()); break;
      case 8: check_read_into(in, random); break;
      default: check_read_line(in, random); break;
    }
    ASSERT_EQ(in.tell(), pos_);
    ASSERT_EQ(in.line_count(), lines_);
  }

  bool at_end() const noexcept { return pos_ == content_.size(); }

 private:
  std::size_t left() const noexcept { return content_.size() - pos_; }

  void check_get(reader& in) {
    int c = in.get();
    if (at_end()) {
      ASSERT_EQ(c, reader::end);
    } else {
      ASSERT_EQ(c, static_cast<unsigned char>(content_[pos_++]));
    }
  }

  void check_peek(reader& in, std::size_t n, std::mt19937_64& random) {
    auto seen = in.peek(n);
    ASSERT_GE(seen.size(), std::min(n, left()));
    ASSERT_LE(seen.size(), left());
    ASSERT_EQ(text_of(seen), content_.substr(pos_, seen.size()));
    std::size_t k = seen.empty() ? 0 : random() % (seen.size() + 1);
    in.consume(k);
    pos_ += k;
  }

  void check_read(reader& in, std::size_t n) {
    std::string got(n, '?');
    auto out = std::as_writable_bytes(std::span(got));
    if (n <= left()) {
      in.read(out);
      ASSERT_EQ(got, content_.substr(pos_, n));
      pos_ += n;
      return;
    }
    auto e = thrown<sluice::end_of_file_error>([&] { in.read(out); });
    ASSERT_TRUE(e);
    ASSERT_EQ(e->bytes_read(), left());
    ASSERT_EQ(got.substr(0, left()), content_.substr(pos_));
    pos_ = content_.size();
    ASSERT_EQ(e->offset(), pos_);
  }

  void check_read_some(reader& in, std::size_t n) {
    std::string got(n, '?');
    std::size_t k = in.read_some(std::as_writable_bytes(std::span(got)));
    if (at_end()) {
      ASSERT_EQ(k, 0u);
      return;
    }
    ASSERT_GE(k, 1u);
    ASSERT_LE(k, std::min(n, left()));
    ASSERT_EQ(got.substr(0, k), content_.substr(pos_, k));
    pos_ += k;
  }

  // Pieces of random sizes: empty, around the scatter threshold, now and
  // then larger than the buffer.
  void check_read_into(reader& in, std::mt19937_64& random) {
    std::vector<std::size_t> sizes(random() % 24);
    std::size_t total = 0;
    for (std::size_t& size : sizes) {
      size = random() % 8 == 0   ? 0
             : random() % 8 == 0 ? log_uniform(random, 1, 3 * options_.buffer_size + 5)
                                 : log_uniform(random, 256, 16 * kib);
      total += size;
    }
    scatter into(sizes);  // filled with '.', which no content holds
    std::size_t landed = std::min(total, left());
    if (total <= left()) {
      in.read_into(into.buffers());
    } else {
      auto e = thrown<sluice::end_of_file_error>([&] { in.read_into(into.buffers()); });
      ASSERT_TRUE(e);
      ASSERT_EQ(e->bytes_read(), landed);
      ASSERT_EQ(e->offset(), content_.size());
    }
    std::string joined = into.joined();
    ASSERT_EQ(joined.substr(0, landed), content_.substr(pos_, landed));
    ASSERT_EQ(joined.find_first_not_of('.', landed), std::string::npos);  // nothing past the end
    pos_ += landed;
  }

  void check_skip(reader& in, std::size_t n) {
    std::uint64_t k = in.skip(n);
    ASSERT_EQ(k, std::min(n, left()));
    pos_ += k;
  }

  // Where the line at the position ends (its '\n', or the end), and the
  // length read_line gives it.
  std::pair<std::size_t, std::size_t> line_here() const {
    std::size_t newline = content_.find('\n', pos_);
    if (newline == std::string::npos) return {content_.size(), content_.size() - pos_};
    std::size_t length = newline - pos_;
    if (options_.line_ending == sluice::line_end::crlf && length != 0 &&
        content_[newline - 1] == '\r')
      --length;
    return {newline, length};
  }

  void check_skip_line(reader& in) {
    std::uint64_t k = in.skip_line();
    std::size_t end = line_here().first;
    std::size_t expected = at_end() ? 0 : std::min(end + 1, content_.size()) - pos_;
    ASSERT_EQ(k, expected);
    if (k != 0) ++lines_;
    pos_ += k;
  }

  void check_read_line(reader& in, std::mt19937_64& random) {
    if (at_end()) {
      ASSERT_FALSE(in.read_line());
      return;
    }
    auto [end, length] = line_here();
    if (length > options_.max_line) {
      auto e = thrown<sluice::line_too_long>([&] { (void)in.read_line(); });
      ASSERT_TRUE(e) << "a line of " << length << " bytes, max_line " << options_.max_line;
      ASSERT_EQ(e->line(), lines_ + 1);
      ASSERT_EQ(e->offset(), pos_);
      if (random() % 2 == 0) check_skip_line(in);
      return;
    }
    auto line = in.read_line();
    ASSERT_TRUE(line);
    ASSERT_EQ(std::string(*line), content_.substr(pos_, length));
    pos_ = std::min(end + 1, content_.size());
    ++lines_;
  }

  void check_record(reader& in, std::size_t n) {
    if (n <= left()) {
      auto record = in.read_record(n);
      ASSERT_EQ(text_of(record), content_.substr(pos_, n));
      pos_ += n;
    } else if (at_end()) {
      ASSERT_TRUE(in.read_record(n).empty());
    } else {
      auto e = thrown<sluice::end_of_file_error>([&] { (void)in.read_record(n); });
      ASSERT_TRUE(e);
      ASSERT_EQ(e->bytes_read(), left());
      pos_ = content_.size();
    }
  }

  std::string content_;
  sluice::reader_options options_;
  std::size_t pos_ = 0;
  std::uint64_t lines_ = 0;
};

sluice::reader_options random_options(std::mt19937_64& random) {
  sluice::reader_options options;
  options.buffer_size = log_uniform(random, 1, 4 * mib);
  options.max_line = log_uniform(random, 1, 64 * kib);
  options.line_ending = random() % 2 ? sluice::line_end::crlf : sluice::line_end::lf;
  return options;
}

// One sequence over `source`: the content, the reader and the calls.
void run_sequence(const temp_dir& dir, std::uint64_t seed, source_kind source) {
  std::mt19937_64 random(seed);
  sluice::reader_options options = random_options(random);
  std::size_t longest = log_uniform(random, 1, 2 * std::max(options.max_line, std::size_t{64}));
  // Small buffers get small files, so that a sequence reads to the end soon.
  std::size_t budget = std::min(512 * kib, 200 * options.buffer_size + 1000);
  std::string content = random_content(random, longest, log_uniform(random, 1, budget));
  auto path = dir / ("model-" + std::to_string(seed));
#ifndef _WIN32
  std::optional<pipe_ends> ends;
  std::optional<sender> feeding;
#endif
  std::optional<reader> in;
  if (source == source_kind::pipe) {
#ifndef _WIN32
    ends.emplace();
    int write_end = ends->take_write_end();
    feeding.emplace([write_end] { return write_end; }, content, log_uniform(random, 1, 70000));
    in.emplace(sluice::file(::dup(ends->read_end()), "pipe"), options);
#endif
  } else {
    write_all(path, content);
    if (source == source_kind::path) {
      in.emplace(path, options);
    } else {
      in.emplace(sluice::file::open(path, {.mode = sluice::open_mode::read_only}), options);
    }
  }
  model_run model(content, options);
  for (int i = 0; i < operations && !::testing::Test::HasFatalFailure(); ++i)
    model.step(*in, random);
  while (!model.at_end() && !::testing::Test::HasFatalFailure()) model.step(*in, random);
  in.reset();
#ifndef _WIN32
  ends.reset();  // the sender, if still sending, ends with EPIPE
#endif
  std::filesystem::remove(path);
}

class reader_model : public ::testing::TestWithParam<int> {
 protected:
  void run(source_kind source, std::uint64_t salt) {
    for (int i = 0; i < sequences_per_part; ++i) {
      std::uint64_t seed = base_seed() + salt + static_cast<std::uint64_t>(GetParam()) * 100000 +
                           static_cast<std::uint64_t>(i);
      SCOPED_TRACE("seed " + std::to_string(seed) +
                   " (SLUICE_TEST_SEED=" + std::to_string(base_seed()) + ")");
      run_sequence(dir, seed, source);
      if (HasFatalFailure() || HasNonfatalFailure()) return;
    }
  }
  temp_dir dir;
};

TEST_P(reader_model, every_call_over_a_path_matches_the_model) { run(source_kind::path, 0); }

TEST_P(reader_model, every_call_over_an_opened_file_matches_the_model) {
  run(source_kind::opened, 1'000'000);
}

TEST_P(reader_model, every_call_over_a_pipe_matches_the_model) {
  SLUICE_SKIP_ON_WINDOWS("feeds a pipe(2) from a thread (pipe_ends, sender)");
  run(source_kind::pipe, 2'000'000);
}

// EINTR and short preads of every length, at random, must not show.
TEST_P(reader_model, interrupted_and_short_reads_do_not_show) {
  fake_sys fake;
  std::mt19937_64 faults(base_seed() + 7 + static_cast<std::uint64_t>(GetParam()));
  fake.on_read_at([&](auto, std::int64_t, std::size_t requested) {
    switch (faults() % 4) {
      case 0: return transfer_action{transfer_action::fail, EINTR};
      case 1: return transfer_action{transfer_action::partial, 0, 1 + faults() % requested};
      default: return transfer_action{};
    }
  });
  run(source_kind::path, 3'000'000);
}

INSTANTIATE_TEST_SUITE_P(parts, reader_model, ::testing::Range(0, parts));

}  // namespace
