// sluice-bench: the transaction the durable and journal scenarios commit,
// 100 records of a 16-byte key and a 100-byte value (11,600 bytes, so MB/s
// over 0.0116 is transactions per second), and the limit both scenarios
// measure it against: the transaction's bytes in one write(2), then
// fdatasync.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace sluice::bench {

class raw_file;

inline constexpr std::size_t journal_records = 100;
inline constexpr std::size_t journal_key_size = 16;
inline constexpr std::size_t journal_value_size = 100;
inline constexpr std::size_t journal_record_size = journal_key_size + journal_value_size;
inline constexpr std::size_t journal_transaction_size = journal_records * journal_record_size;

// The records of `transactions` transactions.
struct journal_work {
  std::size_t transactions;
  std::vector<char> value;  // every record's value

  // The key of record `r` of transaction `t`: 16 hex digits.
  static std::string key(std::size_t t, std::size_t r);
  // Key then value, journal_record_size bytes, into `out`.
  void record(std::size_t t, std::size_t r, char* out) const;
};
using journal_content = std::shared_ptr<const journal_work>;

journal_content make_journal_work(std::size_t transactions);

// The limit's commit: the `size` bytes of one transaction with write(2)
// (continued after EINTR and short writes), then fdatasync. No copy.
// Throws std::system_error.
void commit_raw(raw_file& out, const char* bytes, std::size_t size);

}  // namespace sluice::bench
