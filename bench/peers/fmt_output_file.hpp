// sluice-bench: {fmt}'s fmt::output_file as a peer. {fmt} is optional
// (SLUICE_BENCH_HAVE_FMT): a scenario adds its {fmt} row with add_fmt_peer(),
// which stands the same note in for it where {fmt} is missing, so the
// scenario needs no #if of its own.
#pragma once

#include <string>
#include <utility>

#ifdef SLUICE_BENCH_HAVE_FMT
#include <fmt/os.h>
#endif

#include "core/bench_case.hpp"
#include "core/io.hpp"

namespace sluice::bench {

#ifdef SLUICE_BENCH_HAVE_FMT
// fmt::ostream does not show its descriptor: flush, fdatasync t.path
// through a second one when t.sync, close. Throws on failure.
void finish(fmt::ostream& out, const target& t);

// Opens fmt::output_file(t.path) with a 256 KiB buffer, calls write(out),
// then finish(). fmt::ostream's destructor flushes and lets a failure
// escape, which ends the process (std::terminate) when it runs while a
// write error unwinds. So after a failure the stream is moved to the heap
// and never destroyed: its buffer and descriptor leak, once per failed
// method, since a failed method is not run again.
template <class Write>
void write_with_fmt(const target& t, Write&& write) {
  auto out = fmt::output_file(t.path, fmt::buffer_size = big_buffer_size);
  try {
    write(out);
    finish(out, t);
  } catch (...) {
    static_cast<void>(new fmt::ostream(std::move(out)));
    throw;
  }
}
#endif

// Adds to `c` the peer row `name`, whose runs write t.path with
// write(out, t) through write_with_fmt(), when {fmt} was found at build
// time; else, in its place, the note "fmt::output_file: skipped, {fmt} not
// found at build time". `write` takes the stream as `auto&`, so that its
// body is compiled only where {fmt} is.
template <class Write>
void add_fmt_peer(bench_case& c, [[maybe_unused]] std::string name, [[maybe_unused]] Write write) {
#ifdef SLUICE_BENCH_HAVE_FMT
  c.methods.push_back({std::move(name), role::peer, [write](const target& t) {
                         write_with_fmt(t, [&](fmt::ostream& out) { write(out, t); });
                       }});
#else
  c.skipped.emplace_back("fmt::output_file: skipped, {fmt} not found at build time");
#endif
}

}  // namespace sluice::bench
