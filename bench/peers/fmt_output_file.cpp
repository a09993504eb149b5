// Built only where {fmt} was found (SLUICE_BENCH_HAVE_FMT).
#include "peers/fmt_output_file.hpp"

namespace sluice::bench {

void finish(fmt::ostream& out, const target& t) {
  out.flush();
  if (t.sync) sync_path(t.path);
  out.close();
}

}  // namespace sluice::bench
