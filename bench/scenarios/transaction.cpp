// sluice-bench: the durable and journal scenarios' transaction and its
// raw limit.
#include "scenarios/transaction.hpp"

#include <algorithm>

#include "core/content.hpp"
#include "core/io.hpp"

namespace sluice::bench {

namespace {

// The low 32 bits of `v` as 8 lowercase hex digits at `out`.
void put_hex8(std::size_t v, char* out) {
  for (int i = 7; i >= 0; --i, v >>= 4) out[i] = "0123456789abcdef"[v & 15];
}

// The key of record `r` of transaction `t` at `out`, without snprintf or an
// allocation: the load builds 100 keys per transaction on every committing
// thread, and should cost next to nothing beside the methods it measures.
void put_key(std::size_t t, std::size_t r, char* out) {
  put_hex8(t, out);
  put_hex8(r, out + 8);
}

}  // namespace

std::string journal_work::key(std::size_t t, std::size_t r) {
  std::string text(journal_key_size, '0');
  put_key(t, r, text.data());
  return text;
}

void journal_work::record(std::size_t t, std::size_t r, char* out) const {
  put_key(t, r, out);
  std::copy(value.begin(), value.end(), out + journal_key_size);
}

journal_content make_journal_work(std::size_t transactions) {
  return std::make_shared<const journal_work>(
      journal_work{transactions, pattern_bytes(journal_value_size)});
}

void commit_raw(raw_file& out, const char* bytes, std::size_t size) {
  out.write_all(bytes, size);
  out.sync_data();
}

}  // namespace sluice::bench
