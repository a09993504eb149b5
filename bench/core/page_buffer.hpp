// sluice-bench: the memory the reading methods read into. The kernel's copy
// out of the page cache runs at a speed that depends on where in a page the
// destination starts (on the VM the figures in docs/performance.md came
// from, 16 bytes in: half the speed of a page's start), so every method's
// buffer starts on a page, and no figure depends on where malloc happened
// to put it.
#pragma once

#include <cstddef>
#include <vector>

namespace sluice::bench {

class page_buffer {
 public:
  // `size` zeroed bytes (their pages faulted in now, not in a timed read).
  // From the heap, as a std::vector's are: a block freed by the last run
  // serves the next with its pages in. Throws std::bad_alloc.
  explicit page_buffer(std::size_t size);

  char* data() noexcept { return data_; }
  const char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  char& operator[](std::size_t i) noexcept { return data_[i]; }

  // Grows or shrinks it, keeping the bytes both sizes hold and zeroing
  // the new ones. Throws std::bad_alloc.
  void resize(std::size_t size);

 private:
  std::vector<char> memory_;  // a page more than size_, to start on one
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace sluice::bench
