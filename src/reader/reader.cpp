// sluice::reader: construction, moves, close, and the error types.
#include "sluice/reader.hpp"

#include <cerrno>
#include <string>
#include <utility>

#include "os/error_messages.hpp"
#include "os/open_path.hpp"

namespace sluice {
namespace {

// caching_mode::normal reads from start to end: said at open where the OS
// takes the hint there (Windows), and by apply_caching_at_open() after it.
file open_source(const std::filesystem::path& path, const reader_options& options) {
  return detail::open_path(
      path, {.mode = open_mode::read_only, .direct = options.caching == caching_mode::direct},
      options.caching == caching_mode::normal);
}

}  // namespace

line_too_long::line_too_long(const std::string& what, std::uint64_t line, std::uint64_t offset)
    : std::system_error(EMSGSIZE, std::generic_category(), what), line_(line), offset_(offset) {}

end_of_file_error::end_of_file_error(const std::string& what, std::uint64_t offset,
                                     std::uint64_t bytes_read)
    : std::system_error(ENODATA, std::generic_category(), what),
      offset_(offset),
      bytes_read_(bytes_read) {}

reader::reader(const std::filesystem::path& path, reader_options options)
    : source_(open_source(path, options)), options_(options) {
  start(true);
}

reader::reader(file&& source, reader_options options)
    : source_(std::move(source)), options_(options) {
  start(false);
}

// Learns what the file is, allocates the buffer and gives the caching hint.
void reader::start(bool opened_here) {
  if (options_.buffer_size == 0) options_.buffer_size = reader_options::default_buffer_size;
  if (options_.caching == caching_mode::direct) {
    if (!opened_here) {
      throw std::system_error(EINVAL, std::generic_category(),
                              detail::describe("reader", path()) +
                                  ": caching_mode::direct needs reader(path), which opens "
                                  "the file with O_DIRECT");
    }
    align_ = source_.direct_io_alignment();
  }
  seekable_ = !source_.is_stream() && !source_.sequential();
  if (seekable_) size_at_open_ = source_.size();
  start_buffer(options_.buffer_size, source_.position());
  apply_caching_at_open();
}

reader::reader(reader&& other) noexcept
    : pos_(std::exchange(other.pos_, nullptr)),
      end_(std::exchange(other.end_, nullptr)),
      begin_(std::exchange(other.begin_, nullptr)),
      base_(other.base_),
      capacity_(std::exchange(other.capacity_, 0)),
      storage_(std::move(other.storage_)),
      newlines_(std::move(other.newlines_)),
      next_newline_(std::exchange(other.next_newline_, nullptr)),
      newlines_end_(std::exchange(other.newlines_end_, nullptr)),
      index_base_(other.index_base_),
      indexed_to_(other.indexed_to_),
      lines_(other.lines_),
      source_(std::move(other.source_)),
      options_(other.options_),
      align_(other.align_),
      seekable_(other.seekable_),
      size_at_open_(other.size_at_open_),
      dropped_to_(other.dropped_to_),
      failure_(std::move(other.failure_)) {}

reader& reader::operator=(reader&& other) noexcept {
  if (this != &other) {
    this->~reader();
    new (this) reader(std::move(other));
  }
  return *this;
}

reader::~reader() {
  if (source_.is_open()) drop_rest();
}  // source_'s destructor closes, reporting a failure to the error handler

void reader::close() {
  if (!source_.is_open()) return;
  drop_rest();
  forget_newlines();
  pos_ = end_ = begin_;  // nothing more to hand out
  source_.close();
}

}  // namespace sluice
