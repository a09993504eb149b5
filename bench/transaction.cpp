// sluice-bench: the durable and journal scenarios' transaction and its
// raw limit.
#include "transaction.hpp"

#include <algorithm>
#include <cstdio>

#include "content.hpp"
#include "io.hpp"

namespace sluice::bench {

std::string journal_work::key(std::size_t t, std::size_t r) {
  char text[journal_key_size + 1];
  std::snprintf(text, sizeof text, "%08zx%08zx", t, r);
  return text;
}

void journal_work::record(std::size_t t, std::size_t r, char* out) const {
  std::string k = key(t, r);
  std::copy(value.begin(), value.end(), std::copy(k.begin(), k.end(), out));
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
