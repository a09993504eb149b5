#include "journal_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "directory.hpp"
#include "journal_format.hpp"
#include "sluice/detail/sys.hpp"
#include "sluice/error.hpp"
#include "transfer.hpp"

namespace sluice::detail {
namespace {

constexpr std::size_t window_size = std::size_t{1} << 20;

// Appends the names of one getdents64 buffer.
void parse_entries(const char* buffer, std::size_t size, std::vector<std::string>& names) {
  for (std::size_t at = 0; at < size;) {
    dirent64 entry;
    std::size_t fixed = offsetof(dirent64, d_name);
    std::memcpy(&entry, buffer + at, fixed);
    std::string name(buffer + at + fixed);
    if (name != "." && name != "..") names.push_back(std::move(name));
    at += entry.d_reclen;
  }
}

// Writes zeros over [0, size) of `segment`, 1 MiB per pwritev.
void write_zeros(file& segment, std::uint64_t size) {
  for (std::uint64_t at = 0; at < size;) {
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(zero_block_size, size - at));
    segment.write_at(zero_block().first(n), at);
    at += n;
  }
}

// fallocate's mode that zeroes a range into written blocks without writing
// the zeros (linux/falloc.h from Linux 6.17 on, which Debian 12 lacks).
constexpr int write_zeroes_mode = 0x80;

// Whether the disk zeroed [0, size) of `segment` into written blocks. False
// where the kernel, the filesystem or the disk cannot (EOPNOTSUPP, or EINVAL
// from one that does not know the mode). Throws system_error on any other
// failure (ENOSPC, EIO).
bool zeroed_by_disk(file& segment, std::uint64_t size) {
  if (restart_interrupted([&] {
        return sys().fallocate(segment.native_handle(), write_zeroes_mode, 0,
                               static_cast<off_t>(size));
      }) == 0)
    return true;
  if (errno == EOPNOTSUPP || errno == EINVAL) return false;
  throw_error(errno, "preallocate", segment.path(), 0);
}

// Reserves [0, size) of the new `segment` (create_segment() says how).
segment_blocks reserve_blocks(file& segment, std::uint64_t size, bool zero_fill) {
  if (zeroed_by_disk(segment, size)) return segment_blocks::written_uncached;
  try {
    segment.preallocate(0, size);
  } catch (const std::system_error& e) {
    if (e.code().value() != EOPNOTSUPP) throw;
    segment.resize(size);  // sparse, but the size is fixed all the same
  }
  if (!zero_fill) return segment_blocks::unwritten;
  write_zeros(segment, size);
  return segment_blocks::written_cached;
}

// What a file that is not a regular one is, for messages.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

file open_segment(const std::filesystem::path& path, open_mode mode) {
  int access = mode == open_mode::read_only ? O_RDONLY : O_RDWR;
  int fd = restart_interrupted(
      [&] { return sys().open(path.c_str(), access | O_CLOEXEC | O_NONBLOCK, 0); });
  if (fd < 0) throw_error(errno, "open", path.native());
  file segment(fd, path.native());
  struct stat st {};
  if (sys().fstat(fd, &st) != 0) throw_error(errno, "stat", path.native());
  if (!S_ISREG(st.st_mode))
    throw std::system_error(EINVAL, std::generic_category(),
                            describe("open journal segment", path.native()) + ": it is " +
                                kind_of(st.st_mode) + ", not a journal segment");
  if (sys().setfl(fd, access) != 0) throw_error(errno, "fcntl", path.native());
  return segment;
}

std::span<const std::byte, zero_block_size> zero_block() {
  static const std::byte zeros[zero_block_size]{};
  return std::span(zeros);
}

std::vector<std::string> list_directory(const std::filesystem::path& dir) {
  file directory = open_directory(dir);
  std::vector<std::string> names;
  std::vector<char> buffer(32 * 1024);
  for (;;) {
    ssize_t n = sys().getdents64(directory.native_handle(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_error(errno, "list directory", dir.native());
    if (n == 0) break;
    parse_entries(buffer.data(), static_cast<std::size_t>(n), names);
  }
  directory.close();
  return names;
}

void remove_file(const std::filesystem::path& path) {
  if (sys().unlink(path.c_str()) != 0) throw_error(errno, "remove", path.native());
}

void rename_file(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (sys().rename(from.c_str(), to.c_str()) != 0) throw_error(errno, "rename", from.native());
}

bool make_directory(const std::filesystem::path& dir) {
  bool created = sys().mkdir(dir.c_str(), 0777) == 0;
  if (!created) {
    if (errno != EEXIST) throw_error(errno, "create directory", dir.native());
    open_directory(dir).close();  // ENOTDIR if it is something else
  }
  // Also when it existed: its creator may have died before this sync.
  std::filesystem::path parent = dir.parent_path();
  sync_directory(parent.empty() ? "." : parent);
  return created;
}

new_segment create_segment(const std::filesystem::path& dir, std::uint64_t number,
                           std::uint64_t first_lsn, std::uint64_t size, bool zero_fill) {
  std::filesystem::path final_path = dir / segment_name(number);
  std::filesystem::path temporary = final_path;
  temporary += ".tmp";
  file segment = file::open(temporary, {.mode = open_mode::create_new});
  segment_blocks blocks = reserve_blocks(segment, size, zero_fill);
  segment.write_at(encode_segment_header({.number = number, .first_lsn = first_lsn, .size = size}),
                   0);
  segment.sync_data();
  rename_file(temporary, final_path);
  sync_directory(dir);
  return {file(segment.release(), final_path.native()), blocks};
}

file reuse_spare(const std::filesystem::path& dir, std::uint64_t spare, std::uint64_t number,
                 std::uint64_t first_lsn, std::uint64_t size, std::uint32_t salt) {
  std::filesystem::path spare_path = dir / spare_name(spare);
  file segment = open_segment(spare_path, open_mode::open_existing);
  if (segment.size() != size) {
    segment.close();
    remove_file(spare_path);
    return {};
  }
  segment.write_at(
      encode_segment_header(
          {.number = number, .first_lsn = first_lsn, .size = size, .reused = true, .salt = salt}),
      0);
  segment.sync_data();
  std::filesystem::path final_path = dir / segment_name(number);
  rename_file(spare_path, final_path);
  sync_directory(dir);
  return file(segment.release(), final_path.native());
}

void seal_segment(file& segment, std::uint64_t offset, std::uint64_t size, const seal_info& seal) {
  if (offset + seal_size > size) return;
  std::vector<std::byte> bytes = encode_seal(seal.next_lsn, seal.next_number, seal.salt);
  // Zeros to the page end, as after a batch: a write that ends inside a
  // page that is not cached makes the kernel read that page first.
  bytes.resize(std::min(size, page_end(offset + seal_size)) - offset);
  segment.write_at(bytes, offset);
  segment.sync_data();
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> read_window::data_ranges(
    std::uint64_t offset) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  int fd = source_.native_handle();
  while (offset < limit_) {
    off_t data = sys().lseek(fd, static_cast<off_t>(offset), SEEK_DATA);
    if (data < 0 && errno == ENXIO) break;  // nothing but holes to the end
    if (data < 0 || static_cast<std::uint64_t>(data) < offset) data = static_cast<off_t>(offset);
    if (static_cast<std::uint64_t>(data) >= limit_) break;
    off_t hole = sys().lseek(fd, data, SEEK_HOLE);
    std::uint64_t end = hole > data ? std::min(static_cast<std::uint64_t>(hole), limit_) : limit_;
    ranges.emplace_back(static_cast<std::uint64_t>(data), end);
    offset = end;
  }
  return ranges;
}

void read_window::drop_cached_after(std::uint64_t offset) const noexcept {
  std::uint64_t from = page_end(offset);
  if (from < limit_)
    (void)sys().fadvise(source_.native_handle(), static_cast<off_t>(from),
                        static_cast<off_t>(limit_ - from), POSIX_FADV_DONTNEED);
}

std::span<const std::byte> read_window::bytes(std::uint64_t offset, std::size_t n) {
  if (offset >= limit_) return {};
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit_ - offset));
  if (offset < start_ || offset + n > start_ + buffer_.size()) {
    std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::max(n, window_size), limit_ - offset));
    buffer_.resize(want);
    buffer_.resize(source_.read_at(buffer_, offset));
    start_ = offset;
    n = std::min(n, buffer_.size());
  }
  return {buffer_.data() + (offset - start_), n};
}

}  // namespace sluice::detail
