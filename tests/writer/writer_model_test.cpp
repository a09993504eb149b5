// Model-based tests of sluice::writer: thousands of random sequences of
// put / write / print / reserve+commit / flush, with buffer sizes from 1 byte
// to 4 MiB, compared byte for byte with a std::string holding what the
// writer was given. Then the same with short and interrupted writes injected
// (which must not show), and with a random write failing (after which the
// file must hold exactly a prefix of the model and the writer must stick).
// Each also with write_behind, through each engine: a background thread,
// and io_uring (the real one, and the fake seam's emulated ring, which
// completes the writes in flight newest first).
//
// Every sequence has its own seed, printed on failure; set SLUICE_TEST_SEED
// to change the base seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <sluice/sluice.hpp>
#include <string>
#include <vector>

#include "support/fake_sys.hpp"
#include "support/test_support.hpp"

namespace {

using namespace sluice_test;
using sluice::writer;

constexpr std::size_t kib = 1024;
constexpr std::size_t mib = 1024 * kib;
constexpr int parts = 4;                         // the sequences are split over this many tests
constexpr int sequences_per_part = 500;          // 2000 sequences in all
constexpr int operations = 200;                  // per sequence
constexpr std::size_t large_budget = 256 * kib;  // no more large writes past this size

std::uint64_t base_seed() {
  const char* text = std::getenv("SLUICE_TEST_SEED");
  return text ? std::strtoull(text, nullptr, 0) : 0x5107'ce00'0000'0000ull;
}

// Uniform in log space over [low, high].
std::size_t log_uniform(std::mt19937_64& random, std::size_t low, std::size_t high) {
  std::uniform_real_distribution<double> exponent(std::log(double(low)),
                                                  std::log(double(high) + 1));
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::exp(exponent(random))), low, high);
}

template <class T>
std::string to_chars_text(T value) {
  char text[64];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

// One step: what it appends to the model, and how to ask the writer for it.
struct operation {
  std::string text;
  std::function<void(writer&)> run;
  bool flushes = false;
};

template <class T>
operation print_integer(std::mt19937_64& random) {
  T value;
  switch (random() % 4) {
    case 0: value = std::numeric_limits<T>::min(); break;
    case 1: value = std::numeric_limits<T>::max(); break;
    case 2: value = static_cast<T>(random() % 200) - static_cast<T>(random() % 100); break;
    default: value = static_cast<T>(random()); break;
  }
  return {to_chars_text(value), [value](writer& w) { w.print(value); }};
}

template <class T, class Bits>
operation print_floating(std::mt19937_64& random) {
  T value;
  do {
    value = random() % 4 == 0
                ? static_cast<T>(std::ldexp(double(random() % 1000), int(random() % 40) - 20))
                : std::bit_cast<T>(static_cast<Bits>(random()));
  } while (std::isnan(value));
  return {to_chars_text(value), [value](writer& w) { w.print(value); }};
}

// `n` random bytes: a slice, at a random place, of one random pool.
std::string random_text(std::mt19937_64& random, std::size_t n) {
  static const std::string pool = pattern(2 * 256 * kib, 0x9001);
  return pool.substr(random() % (pool.size() - n + 1), n);
}

operation next_operation(std::mt19937_64& random, std::size_t buffer_size, std::size_t written) {
  switch (random() % 16) {
    case 0:
    case 1:
    case 2: {
      char c = static_cast<char>(random());
      return {std::string(1, c), [c](writer& w) { w.put(c); }};
    }
    case 3:
    case 4:
    case 5: {
      std::string text = random_text(random, random() % 24);
      return {text, [text](writer& w) { w.write(std::string_view(text)); }};
    }
    case 6: {
      std::string text = random_text(random, random() % 64);
      return {text, [text](writer& w) { w.write(bytes_of(text)); }};
    }
    case 7: {
      if (written > large_budget) return {"", [](writer& w) { w.write(std::string_view()); }};
      std::size_t n = log_uniform(random, 1, std::min(3 * buffer_size + 7, 256 * kib));
      std::string text = random_text(random, n);
      return {text, [text](writer& w) { w.write(std::string_view(text)); }};
    }
    case 8:
      switch (random() % 8) {
        case 0: return print_integer<signed char>(random);
        case 1: return print_integer<unsigned short>(random);
        case 2: return print_integer<short>(random);
        case 3: return print_integer<int>(random);
        case 4: return print_integer<unsigned>(random);
        case 5: return print_integer<long>(random);
        case 6: return print_integer<unsigned long long>(random);
        default: return print_integer<std::int64_t>(random);
      }
    case 9:
    case 10:
      return random() % 2 ? print_floating<double, std::uint64_t>(random)
                          : print_floating<float, std::uint32_t>(random);
    case 11:
    case 12: {
      std::size_t n = random() % 4 == 0 && written < large_budget
                          ? log_uniform(random, 1, std::min(2 * buffer_size + 3, 64 * kib))
                          : random() % 40;
      std::size_t k = n == 0 ? 0 : random() % (n + 1);
      std::string text = random_text(random, k);
      return {text, [n, text](writer& w) {
                auto room = w.reserve(n);
                ASSERT_GE(room.size(), n);
                std::memcpy(room.data(), text.data(), text.size());
                w.commit(text.size());
              }};
    }
    case 13: return {"", [](writer& w) { w.flush(); }, true};
    default: {
      std::string text = random_text(random, random() % 8);
      return {text, [text](writer& w) { w.write(std::string_view(text)); }};
    }
  }
}

// The first offset where `a` and `b` differ, for readable failures.
std::string difference(const std::string& file, const std::string& model) {
  auto mismatch = std::mismatch(file.begin(), file.end(), model.begin(), model.end());
  return "file " + std::to_string(file.size()) + " bytes, model " + std::to_string(model.size()) +
         " bytes, first difference at " + std::to_string(mismatch.first - file.begin());
}

std::size_t round_up(std::size_t n, std::size_t block) { return (n + block - 1) / block * block; }

// Runs one random sequence against a real file. With caching::direct a flush
// leaves the partial last block buffered and the file padded to whole blocks.
void run_sequence(std::uint64_t seed, const std::filesystem::path& path,
                  sluice::writer_options options = {}) {
  std::mt19937_64 random(seed);
  std::size_t buffer_size = log_uniform(random, 1, 4 * mib);
  SCOPED_TRACE("seed " + std::to_string(seed) + ", buffer " + std::to_string(buffer_size));
  std::string model;
  options.buffer_size = buffer_size;
  writer out(path, options);
  std::size_t block =
      options.caching == sluice::caching::direct
          ? sluice::file::open(path, {.mode = sluice::open_mode::read_only}).direct_io_alignment()
          : 1;
  for (int step = 0; step < operations; ++step) {
    operation op = next_operation(random, out.buffer_size(), model.size());
    op.run(out);
    if (testing::Test::HasFatalFailure()) return;
    model += op.text;
    ASSERT_EQ(out.tell(), model.size()) << "step " << step;
    ASSERT_LE(out.buffered(), out.buffer_size()) << "step " << step;
    if (op.flushes) {
      ASSERT_EQ(out.buffered(), model.size() % block) << "step " << step;
      ASSERT_EQ(size_on_disk(path), round_up(model.size(), block)) << "step " << step;
    }
  }
  out.close();
  std::string file = read_all(path);
  EXPECT_TRUE(file == model) << difference(file, model);
}

class writer_model : public dir_test, public testing::WithParamInterface<int> {};

TEST_P(writer_model, random_sequences_match_a_string) {
  std::uint64_t first = base_seed() + static_cast<std::uint64_t>(GetParam()) * sequences_per_part;
  auto path = dir / "model";
  for (int i = 0; i < sequences_per_part; ++i) {
    run_sequence(first + i, path);
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(part, writer_model, testing::Range(0, parts));

// The engines write_behind may use, as the tests choose them.
enum class engine { none, thread, io_uring, emulated_io_uring };

std::string engine_name(const testing::TestParamInfo<engine>& info) {
  switch (info.param) {
    case engine::none: return "inline";
    case engine::thread: return "thread";
    case engine::io_uring: return "io_uring";
    case engine::emulated_io_uring: return "emulated_io_uring";
  }
  return "";
}

// Has writers with write_behind use `chosen`: a fake seam refuses io_uring
// (the thread), emulates it, or is absent (the real ring, where the kernel
// has one).
void choose(fake_sys& fake, engine chosen) {
  if (chosen == engine::emulated_io_uring)
    fake.emulate_async({.deferred = true, .newest_first = true});
}

// The same sequences with write_behind, through each engine.
class writer_model_write_behind : public dir_test, public testing::WithParamInterface<engine> {};

INSTANTIATE_TEST_SUITE_P(, writer_model_write_behind,
                         testing::Values(engine::thread, engine::io_uring,
                                         engine::emulated_io_uring),
                         engine_name);

TEST_P(writer_model_write_behind, random_sequences_match_a_string) {
  auto path = dir / "model";
  std::optional<fake_sys> fake;
  if (GetParam() != engine::io_uring) choose(fake.emplace(), GetParam());
  for (int i = 0; i < 500; ++i) {
    run_sequence(base_seed() + 4'000'000 + i, path, {.write_behind = true});
    if (HasFailure()) return;
  }
}

// The same sequences through O_DIRECT, where the test directory's
// filesystem allows it.
using writer_model_direct = dir_test;

TEST_F(writer_model_direct, random_sequences_match_a_string) {
  auto path = dir / "model";
  try {
    writer probe(path, {.caching = sluice::caching::direct});
  } catch (const std::system_error& e) {
    GTEST_SKIP() << "no O_DIRECT here: " << e.what();
  }
  for (int i = 0; i < 300; ++i) {
    run_sequence(base_seed() + 3'000'000 + i, path, {.caching = sluice::caching::direct});
    if (HasFailure()) return;
    run_sequence(base_seed() + 5'000'000 + i, path,
                 {.caching = sluice::caching::direct, .write_behind = true});
    if (HasFailure()) return;
  }
}

// The same sequences while the kernel cuts writes short and interrupts them
// at random: the writer must hide all of it.
class writer_model_faults : public dir_test, public testing::WithParamInterface<engine> {
 protected:
  bool write_behind() const { return GetParam() != engine::none; }
  // A write of nothing is continued once per write: with several in
  // flight, the fake cannot tell whose continuation a call is.
  bool may_write_nothing() const { return GetParam() != engine::emulated_io_uring; }
};

INSTANTIATE_TEST_SUITE_P(, writer_model_faults,
                         testing::Values(engine::none, engine::thread, engine::emulated_io_uring),
                         engine_name);

TEST_P(writer_model_faults, short_and_interrupted_writes_are_invisible) {
  auto path = dir / "model";
  for (int i = 0; i < 300; ++i) {
    std::uint64_t seed = base_seed() + 1'000'000 + i;
    std::mt19937_64 faults(seed * 31);
    bool stalled = false;  // two writes of nothing in a row are an error, not a fault to hide
    bool nothing_ok = may_write_nothing();
    fake_sys fake;
    choose(fake, GetParam());
    fake.on_write_at([&faults, &stalled, nothing_ok](int, std::size_t requested) {
      switch (faults() % 4) {
        case 0: return transfer_action{transfer_action::fail, EINTR};
        case 1: {
          std::size_t bytes = requested ? faults() % requested : 0;
          if (!(bytes == 0 && (stalled || !nothing_ok))) {
            stalled = bytes == 0;
            return transfer_action{transfer_action::partial, 0, bytes};
          }
          [[fallthrough]];
        }
        default: stalled = false; return transfer_action{};
      }
    });
    run_sequence(seed, path, {.write_behind = write_behind()});
    if (HasFailure()) return;
  }
}

// A write fails for good at a random point, possibly after a short write: the
// file holds exactly a prefix of what the writer was given, everything after
// it is still buffered or was refused, and the writer stays failed.
TEST_P(writer_model_faults, a_failing_write_leaves_a_prefix_and_sticks) {
  auto path = dir / "model";
  const int errors[] = {ENOSPC, EIO, EFBIG};
  int failures_seen = 0;
  for (int i = 0; i < 400; ++i) {
    std::uint64_t seed = base_seed() + 2'000'000 + i;
    std::mt19937_64 random(seed);
    std::size_t buffer_size = log_uniform(random, 1, 256 * kib);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", buffer " + std::to_string(buffer_size));
    int error_value = errors[random() % 3];
    int failing_call = 1 + static_cast<int>(random() % 12);
    std::mt19937_64 faults(seed * 31);  // the write-behind thread's own
    fake_sys fake;
    choose(fake, GetParam());
    fake.on_write_at([&](int nth, std::size_t requested) {
      if (nth == failing_call - 1 && faults() % 2)
        return transfer_action{transfer_action::partial, 0, requested ? faults() % requested : 0};
      if (nth >= failing_call) return transfer_action{transfer_action::fail, error_value};
      return transfer_action{};
    });
    std::string model;
    std::optional<sluice::write_error> failure;
    {
      writer out(path, {.buffer_size = buffer_size, .write_behind = write_behind()});
      for (int step = 0; step < operations && !failure; ++step) {
        operation op = next_operation(random, out.buffer_size(), model.size());
        std::size_t before = model.size();
        failure = thrown<sluice::write_error>([&] { op.run(out); });
        if (HasFatalFailure()) return;
        model += op.text;
        if (!failure) {
          ASSERT_EQ(out.tell(), model.size()) << "step " << step;
          continue;
        }
        ++failures_seen;
        EXPECT_EQ(failure->code().value(), error_value);
        ASSERT_LE(failure->offset(), model.size());
        EXPECT_EQ(out.tell() - out.buffered(), failure->offset());
        EXPECT_GE(out.tell(), before);
        EXPECT_LE(out.tell(), model.size());
        std::string file = read_all(path);
        ASSERT_TRUE(file == model.substr(0, failure->offset()))
            << difference(file, model.substr(0, failure->offset()));
        int calls = fake.calls(call::write_at);
        auto again = thrown<sluice::write_error>([&] { out.put('x'); });
        ASSERT_TRUE(again);
        EXPECT_EQ(again->offset(), failure->offset());
        EXPECT_TRUE(thrown<sluice::write_error>([&] { out.flush(); }));
        EXPECT_TRUE(thrown<sluice::write_error>([&] { out.close(); }));
        EXPECT_EQ(fake.calls(call::write_at), calls);
      }
      if (!failure) {
        failure = thrown<sluice::write_error>([&] { out.close(); });
        if (failure) ++failures_seen;
        EXPECT_EQ(read_all(path), model.substr(0, failure ? failure->offset() : model.size()));
      }
    }
    if (HasFailure()) return;
  }
  EXPECT_GT(failures_seen, 300);  // the plan did inject failures
}

}  // namespace
