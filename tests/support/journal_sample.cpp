#include "support/journal_sample.hpp"

#include <array>
#include <cstddef>
#include <span>

#include "support/test_support.hpp"

namespace sluice_test {
namespace {

constexpr std::size_t batch_from = 20;  // records batch_from .. batch_from + 2: one batch
constexpr std::size_t large_at = 30;    // the record larger than a segment

}  // namespace

sluice::journal_options journal_sample_options() {
  return {.segment_size = 4096, .zero_fill = true};
}

std::vector<std::string> journal_sample_records() {
  std::vector<std::string> records;
  for (std::size_t i = 0; i < 40; ++i) {
    std::size_t size = i == large_at ? 5000 : i * 37 % 298;
    records.push_back(pattern(size, i + 1));
  }
  return records;
}

void write_journal_sample(const std::filesystem::path& dir) {
  auto records = journal_sample_records();
  auto log = sluice::journal::open(dir, journal_sample_options());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i == batch_from) {
      std::array batch{bytes_of(records[i]), bytes_of(records[i + 1]), bytes_of(records[i + 2])};
      log.commit(log.append(std::span<const std::span<const std::byte>>(batch)));
      i += 2;
    } else {
      log.write(bytes_of(records[i]));
    }
  }
  log.close();
}

}  // namespace sluice_test
