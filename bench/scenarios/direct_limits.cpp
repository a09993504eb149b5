#include <fcntl.h>

#include <cstdlib>
#include <memory>
#include <new>

#include "core/io.hpp"
#include "scenarios/large_file.hpp"
#ifdef SLUICE_BENCH_HAVE_URING
#include "scenarios/direct_in_flight.hpp"
#endif

namespace sluice::bench {
namespace {

constexpr std::size_t direct_block = 4096;  // O_DIRECT alignment of the limits' writes

using aligned_piece = std::unique_ptr<char, decltype(&std::free)>;

// The file's piece in a page-aligned buffer, as O_DIRECT needs it.
aligned_piece aligned_copy(const large_file& file) {
  aligned_piece buffer(static_cast<char*>(std::aligned_alloc(direct_block, large_piece_size)),
                       &std::free);
  if (!buffer) throw std::bad_alloc();
  std::copy(file.piece.begin(), file.piece.end(), buffer.get());
  return buffer;
}

// A limit for direct I/O: O_DIRECT write(2)s of 1 MiB from a page-aligned
// buffer; a last piece that is not whole 4 KiB blocks is written padded,
// then the file is cut to its size.
void run_direct_write(const target& t, const large_content& file) {
  aligned_piece buffer = aligned_copy(*file);
  raw_file out(t.path, O_WRONLY | O_DIRECT);
  write_pieces(*file, [&](const char*, std::size_t n) {
    out.write_all(buffer.get(), (n + direct_block - 1) / direct_block * direct_block);
  });
  resize_file(out.fd(), file->size);
  out.finish(t.sync);
}

#ifdef SLUICE_BENCH_HAVE_URING
// The other limit for direct I/O: the same writes, 8 in flight (io_uring).
void run_direct_in_flight(const target& t, const large_content& file) {
  aligned_piece buffer = aligned_copy(*file);
  raw_file out(t.path, O_WRONLY | O_DIRECT);
  write_direct_in_flight(out.fd(), buffer.get(), large_piece_size, file->size, direct_block, 8);
  resize_file(out.fd(), file->size);
  out.finish(t.sync);
}
#endif

}  // namespace

void add_direct_limits(bench_case& c, const large_content& file,
                       const std::function<std::string(const target&)>& observe) {
  c.methods.push_back(
      observing(bind_method("O_DIRECT write(2), 1 MiB a call", role::limit, run_direct_write, file),
                observe));
#ifdef SLUICE_BENCH_HAVE_URING
  c.methods.push_back(observing(bind_method("O_DIRECT io_uring, 8 x 1 MiB in flight", role::limit,
                                            run_direct_in_flight, file),
                                observe));
#else
  c.skipped.emplace_back("O_DIRECT io_uring limit: skipped, liburing not found at build time");
#endif
}

}  // namespace sluice::bench
