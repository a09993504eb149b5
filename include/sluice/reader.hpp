// sluice/reader.hpp - sluice::reader, buffered input from one file.
//
// A reader fills a buffer with large reads and hands out what it holds:
// bytes, lines and fixed-size records, most of them as views into the
// buffer, without a copy. It is the writer's twin: not synchronized (one
// thread at a time), move-only, and get(), tell(), peek(), consume(),
// read_record() and read_line() of what is buffered are inline (a bounds
// check); everything else is out of line.
//
// Lines are found by scanning the buffer once, 64 bytes at a time with
// vector instructions (AVX-512BW or AVX2 where the CPU has it, chosen once
// at run time; SSE2 on every other x86-64; eight bytes at a time
// elsewhere), into an index of the newlines of 8 KiB at a time: read_line()
// takes the next entry inline, with no memchr per line and no branch that
// depends on the line lengths.
//
// Reads go through sluice::file (<sluice/file.hpp>): interrupted calls are
// restarted and short reads continued, so each refill is one pread of a
// whole buffer on a regular file (one more at the end of the file). On a
// pipe, FIFO, socket or standard input (file::borrow(STDIN_FILENO, ...)) a
// refill is one read of what has arrived (file::read_some_at()): a line is
// handed out as soon as its newline comes, so a reader also serves a
// protocol or a terminal, not only a stream read to its end.
//
// Errors (see <sluice/error.hpp>): std::system_error whose code() is the
// errno and whose what() names the operation, the path and the offset:
//   sluice: read 'in.txt' at offset 1048576: Input/output error
// A failed read changes nothing the reader holds: the next call tries again
// from tell(). (Bytes that read() or read_into() had already copied into
// the caller's memory before it failed are consumed: tell() counts them.)
// On a stream it sticks instead (later calls throw it again): the bytes the
// failed call had taken from the stream cannot be read again.
// The end of the file is not an error: get() returns reader::end,
// read_line() and read_record() nothing, read_some() 0. A call that needs
// bytes the file does not have (read() of an exact count) throws
// end_of_file_error. A regular file that ends below the size it had when
// the reader opened it (another process cut it) is an error, never a crash:
//   sluice: read 'in.txt' at offset 4096: file shrank to 4096 bytes, 65536 at open: No data
//   available
// A file that grows is read as it grows: past the end a call reads again.
//
// Example:
//   sluice::reader in("access.log");
//   std::uint64_t errors = 0;
//   for (std::string_view line : in.lines())      // a view into the buffer
//     if (line.find(" 500 ") != line.npos) ++errors;
//
//   sluice::reader data("points.bin");
//   while (auto record = data.read_record(16); !record.empty())
//     use(record);                                // 16 bytes, valid until the next call
//
//   sluice::reader capture("packets.bin");
//   std::byte header[16];
//   std::vector<std::byte> payload(64 * 1024);
//   std::span<std::byte> parts[] = {header, payload};
//   capture.read_into(parts);  // the header copied, the payload read straight into
//
//   sluice::reader piped(sluice::file::borrow(STDIN_FILENO, "standard input"));
//   while (auto line = piped.read_line()) handle(*line);
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "sluice/fields.hpp"
#include "sluice/file.hpp"
#include "sluice/writer.hpp"  // caching_mode, detail::free_deleter

namespace sluice {

// How a reader ends its lines (reader_options::line_ending).
enum class line_end {
  lf,    // "\n" ends a line; a '\r' before it stays in the line
  crlf,  // "\n" ends a line, and a '\r' just before it is dropped too
};

// How a reader buffers its file and what it does with the page cache.
struct reader_options {
  // Bytes read from the file at a time.
  // Default: 1 MiB (measured: docs/performance.md#reader-buffer-size).
  // Cost: the buffer's memory (and 32 KiB more for the line search's
  // index), and one read per buffer. The buffer grows (doubling) to hold a
  // line up to max_line, a peek(n) or a read_record(n) larger than it, and
  // keeps that size. A program holding many readers open at once should
  // give it a smaller value. 0 means the default.
  std::size_t buffer_size = default_buffer_size;
  // The longest line read_line() returns, in bytes, without its line end.
  // Default: 1 MiB.
  // Failure: a longer line throws line_too_long (see there) before the
  // buffer grows past max_line + 2 bytes.
  std::size_t max_line = default_max_line;
  // What ends a line (line_end above).
  // Default: line_end::lf.
  line_end line_ending = line_end::lf;
  // What the reader does with the page cache.
  //  normal: tells the kernel the file is read from start to end
  //    (POSIX_FADV_SEQUENTIAL, one posix_fadvise at construction), so that
  //    it reads further ahead.
  //  no_cache: drops from the page cache what lies behind the position, in
  //    whole pages (POSIX_FADV_DONTNEED, one posix_fadvise per buffer read;
  //    the kernel keeps those of a folio the position is in, up to 2 MiB
  //    back), and at close() everything to the end of the file, so that
  //    reading a file larger than memory does not evict everything else.
  //    The kernel keeps one cache per file: this evicts those pages for every
  //    process, also the ones another process was reading. Opt-in for that
  //    reason.
  //  direct: O_DIRECT, past the page cache: every read is aligned to
  //    file::direct_io_alignment() in memory, offset and length, and the
  //    buffer is rounded up to it. Only for reader(path) on a regular file:
  //    reader(file&&) throws EINVAL; a filesystem that refuses O_DIRECT
  //    (tmpfs before Linux 6.6) throws EINVAL saying so.
  // Default: caching_mode::normal. A refused hint (a pipe) is ignored.
  caching_mode caching = caching_mode::normal;

  static constexpr std::size_t default_buffer_size = 1024 * 1024;
  static constexpr std::size_t default_max_line = 1024 * 1024;
};

// A line longer than reader_options::max_line. code() is EMSGSIZE; what()
// says the path, the line's number and the offset where it starts:
//   sluice: read_line 'in.txt' at offset 4096: line 3 is longer than 1048576 bytes: Message too
//   long
// The reader is left at the start of that line: skip_line() goes past it.
class line_too_long : public std::system_error {
 public:
  line_too_long(const std::string& what, std::uint64_t line, std::uint64_t offset);
  // The line's number, from 1 (lines read_line() and skip_line() went past, plus one).
  std::uint64_t line() const noexcept { return line_; }
  // The file offset of the line's first byte.
  std::uint64_t offset() const noexcept { return offset_; }

 private:
  std::uint64_t line_;
  std::uint64_t offset_;
};

// The end of the file met where a call needed more bytes (read() of an
// exact count, read_record() of a partial record). code() is ENODATA:
//   sluice: read 'in.bin' at offset 100: end of file after 4 of 16 bytes: No data available
// The bytes that were there are consumed.
class end_of_file_error : public std::system_error {
 public:
  end_of_file_error(const std::string& what, std::uint64_t offset, std::uint64_t bytes_read);
  // Where the file ended.
  std::uint64_t offset() const noexcept { return offset_; }
  // How many bytes of the request there were.
  std::uint64_t bytes_read() const noexcept { return bytes_read_; }

 private:
  std::uint64_t offset_;
  std::uint64_t bytes_read_;
};

class reader {
 public:
  class line_range;

  // What get() returns at the end of the file.
  static constexpr int end = -1;

  // Opens `path` for reading (open_mode::read_only; O_DIRECT with
  // caching_mode::direct). Throws std::system_error naming the path if it
  // cannot be opened. Cost: the open, one or two fstat, the caching hint.
  explicit reader(const std::filesystem::path& path, reader_options options = {});
  // Reads `source` from its position(): a file opened with file::open, or
  // file::borrow(STDIN_FILENO, "standard input"), whose descriptor close()
  // leaves open. Cost: one fstat, the caching hint.
  explicit reader(file&& source, reader_options options = {});
  reader(reader&& other) noexcept;
  reader& operator=(reader&& other) noexcept;
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;
  // Closes the file (no_cache: drops its pages first); a failing close goes
  // to the error handler, never thrown.
  ~reader();

  // The next byte (0-255), or reader::end at the end of the file. Inline
  // while bytes are buffered; a refill otherwise.
  int get() {
    if (pos_ != end_) return static_cast<unsigned char>(*pos_++);
    return get_slow();
  }

  // At least `n` bytes from the position, fewer only at the end of the file
  // (empty there): everything buffered, as a view valid until the next call
  // that is not tell(). Consumes nothing. Zero-copy; reads (and grows the
  // buffer to `n`) only if fewer than `n` are buffered.
  std::span<const std::byte> peek(std::size_t n = 1) {
    if (static_cast<std::size_t>(end_ - pos_) >= n && n != 0) return {pos_, end_};
    return peek_slow(n);
  }

  // Moves past `n` bytes that the last peek() returned. No system call.
  // Throws std::out_of_range (and moves nothing) if fewer are buffered.
  void consume(std::size_t n) {
    if (n > static_cast<std::size_t>(end_ - pos_)) throw_consume_past(n);
    pos_ += n;
  }

  // Fills `out` exactly. Buffered bytes are copied; the rest of a request of
  // at least the buffer's size is read straight into `out` (one pread, no
  // copy; not with caching_mode::direct). Throws end_of_file_error if the
  // file ends first (what was there is in `out` and consumed).
  void read(std::span<std::byte> out);

  // Copies up to out.size() bytes: what is buffered, or else one refill's
  // worth (a request of at least the buffer's size read straight into
  // `out`). Returns the count, 0 only at the end of the file (or for an
  // empty `out`).
  std::size_t read_some(std::span<std::byte> out);

  // Moves `n` bytes on. Returns how many it moved, fewer only at the end of
  // the file. Past the buffer, a regular file is not read: one fstat to see
  // where it ends; a stream is read and discarded.
  std::uint64_t skip(std::uint64_t n);

  // Scatter: fills `pieces` in order with the next bytes, as if they were
  // one buffer of their total size (an empty piece takes nothing), e.g. the
  // fields of a record read into their own places.
  // Cost: buffered bytes are copied. Once the buffer is empty, a piece of
  // less than 2 KiB is copied out of a refilled buffer (one read per
  // buffer), and a run of pieces of 2 KiB or more is read straight into
  // them with one preadv per IOV_MAX pieces, no copy
  // (docs/performance.md#the-scatter-threshold). On a stream, a borrowed
  // descriptor and with caching_mode::direct, every piece is copied through
  // the buffer.
  // Failure: throws end_of_file_error if the file ends first: bytes_read()
  // bytes landed, filling the pieces in order up to there, and are consumed.
  // A failed read throws std::system_error naming the offset; tell() then
  // counts the bytes that landed before the failed read, and the next call
  // reads from there.
  void read_into(std::span<const std::span<std::byte>> pieces);

  // The next line, without its line end ("\n", or "\r\n" with line_end::crlf),
  // as a view into the buffer valid until the next call that is not tell();
  // nothing at the end of the file. A last line without a line end is
  // returned too; an empty file has no line, "\n" has one empty line.
  // Zero-copy: a line that does not fit in what is buffered is moved to the
  // front of the buffer with the rest of the buffer refilled after it.
  // Throws line_too_long for a line longer than max_line, leaving the reader
  // at its start. Inline while the next newline is among those found.
  std::optional<std::string_view> read_line() {
    if (next_newline_ != newlines_end_) {
      const std::byte* newline = index_base_ + *next_newline_;
      // One comparison for two cases the slow part handles: a newline
      // before the position (passed by get() or consume()) wraps the
      // unsigned length past max_line, as a line too long does.
      auto length = static_cast<std::size_t>(newline - pos_);
      if (length <= options_.max_line) [[likely]] {
        const char* text = reinterpret_cast<const char*>(pos_);
        ++next_newline_;
        pos_ = const_cast<std::byte*>(newline) + 1;
        ++lines_;
        if (options_.line_ending == line_end::crlf && length != 0 && text[length - 1] == '\r')
          --length;
        return std::string_view(text, length);
      }
    }
    return read_line_slow();
  }

  // Moves past the rest of the current line and its line end, however long
  // (after line_too_long, say), buffering at most a buffer of it. Returns
  // the bytes skipped, 0 at the end of the file.
  std::uint64_t skip_line();

  // A range of the lines read_line() returns, for range-for:
  //   for (std::string_view line : in.lines()) ...
  // Each line is valid until the iterator moves; errors are thrown from the
  // increment (and from begin()).
  line_range lines() noexcept;

  // The next `n` bytes as a view valid until the next call that is not
  // tell(); empty at the end of the file (and for n == 0). Zero-copy when
  // the record is whole in the buffer (inline); a record that straddles the
  // buffer's end is moved to its front (a copy of its buffered part) and
  // the rest read after it; the buffer grows to `n` if smaller. Throws
  // end_of_file_error if the file ends inside the record (the part is
  // consumed).
  std::span<const std::byte> read_record(std::size_t n) {
    if (static_cast<std::size_t>(end_ - pos_) >= n) {
      std::span<const std::byte> record(pos_, n);
      pos_ += n;
      return record;
    }
    return read_record_slow(n);
  }

  // The offset of the next byte to be read: bytes read so far, plus the
  // position the file started at. O(1), no system call.
  std::uint64_t tell() const noexcept { return base_ + static_cast<std::uint64_t>(pos_ - begin_); }

  // True if no byte is left: nothing is buffered and a read finds the end.
  // Inline while bytes are buffered; a refill when the buffer is empty.
  bool eof() { return pos_ == end_ && fill(1) == 0; }

  // Lines read so far: by read_line(), skip_line() and read_fields(), and
  // those whose last field read_number(..., '\n') took. O(1).
  std::uint64_t line_count() const noexcept { return lines_; }

  const std::string& path() const noexcept { return source_.path(); }

  // Closes the file and reports its failure (std::system_error). A later
  // close() does nothing; other calls after it are refused with EBADF.
  void close();

  // Fields and numbers (<sluice/fields.hpp>, <sluice/parse.hpp>).

  // The next line, as read_line() returns it, split at `delimiter`: numbers
  // read with next<T>() refuse a bad field with a parse_error that names
  // this file's path, the line's number (line_count()) and the field's
  // offset in the file:
  //   sluice: parse int32 "12x" in 'data.csv' at line 7, offset 4096: expected a decimal integer
  // Nothing at the end of the file. Valid until the next call that is not
  // tell(). Cost: read_line()'s; throws what it throws.
  std::optional<fields> read_fields(char delimiter = ',') {
    auto line = read_line();
    if (!line) return std::nullopt;
    return fields(*line, delimiter, path(), lines_, offset_of(line->data()));
  }

  // `field` as a T, exactly as parse<T>(field) reads it (<sluice/parse.hpp>),
  // for a field the caller split from the last line read_line() returned:
  // its parse_error names this file's path, line_count() and the field's
  // offset in the file. A text that is not a view into the reader's buffer
  // is refused as parse<T> refuses it, not located. Cost: parse<T>'s.
  template <detail::text_number T>
  T parse(std::string_view field) const;
  // An integer in `base` (2..36), as parse<T>(field, base) reads it.
  template <detail::text_integer T>
  T parse(std::string_view field, int base) const;

  // The number at the position, read in place from the buffer: the field up
  // to the next `terminator` or line end ('\n', "\r\n" with line_end::crlf,
  // or the end of the file), read as parse<T> reads a text; the field and
  // its terminator are consumed. A row "int64,double,int32":
  //   while (!in.eof()) {
  //     auto id = in.read_number<std::int64_t>(',');
  //     auto x = in.read_number<double>(',');
  //     auto n = in.read_number<std::int32_t>('\n');  // also the end of the file
  //   }
  // Throws parse_error as parse<T> does, naming this file's path, the line
  // (line_count() + 1) and the field's offset (tell()); also EINVAL for a
  // field ended by its line's end where `terminator` was not '\n' ("the
  // line ends before ','"). After a refusal nothing is consumed: skip_line()
  // moves past the rest of the line. A field longer than max_line throws
  // line_too_long, its offset() the field's.
  // Cost: std::from_chars at the position, inline, stopping at the
  // terminator (each byte read once, no search for the line's end); a
  // refill where the field reaches the end of what is buffered; a search
  // for the field's end before reading it where `terminator` may be part
  // of a number (a digit, a letter, '.', '+', '-', '_', '(', ')') or ends a
  // CRLF line.
  template <detail::text_number T>
  T read_number(char terminator) {
    return read_number_in<T>(terminator, 10);
  }
  // An integer in `base` (2..36), as parse<T>(text, base) reads it.
  template <detail::text_integer T>
  T read_number(char terminator, int base) {
    if (base < 2 || base > 36) detail::refuse_base(base);
    return read_number_in<T>(terminator, base);
  }

 private:
  template <detail::text_number T>
  T read_number_in(char terminator, int base) {
    T value;
    const auto* at = reinterpret_cast<const char*>(pos_);
    const auto* last = reinterpret_cast<const char*>(end_);
    auto result = detail::from_chars_of(at, last, value, base);
    if (result.ec == std::errc{} && result.ptr != last && *result.ptr == terminator &&
        !fields::may_be_in_a_number(terminator) &&
        static_cast<std::size_t>(result.ptr - at) <= options_.max_line) [[likely]] {
      pos_ = reinterpret_cast<std::byte*>(const_cast<char*>(result.ptr)) + 1;
      if (terminator == '\n') ++lines_;
      return value;
    }
    read_number_slow(value, terminator, base);
    return value;
  }
  // Buffers the field at the position, reads it and consumes it
  // (src/reader/numbers.cpp).
  template <detail::text_number T>
  void read_number_slow(T& value, char terminator, int base);
  // The file offset of `at`, a byte of the buffer.
  std::uint64_t offset_of(const char* at) const noexcept {
    return base_ + static_cast<std::uint64_t>(at - reinterpret_cast<const char*>(begin_));
  }
  // Where `field` was read, for its parse_error: not located outside the buffer.
  detail::text_origin origin_of(std::string_view field) const noexcept;

  int get_slow();
  std::span<const std::byte> peek_slow(std::size_t n);
  std::span<const std::byte> read_record_slow(std::size_t n);
  std::size_t take_buffered(std::span<std::byte> out) noexcept;
  bool bypasses(std::size_t size) const noexcept;
  std::size_t read_around(std::span<std::byte> out);
  std::size_t refill_into(std::span<std::byte> out);
  [[noreturn]] void throw_consume_past(std::size_t n) const;
  [[noreturn]] void throw_end_of_file(const char* operation, std::size_t got,
                                      std::size_t wanted) const;
  [[noreturn]] void throw_line_too_long(const char* operation = "read_line") const;
  std::optional<std::string_view> read_line_slow();

  // Scatter reads (src/reader/scatter.cpp).
  std::size_t copy_buffered(std::span<const std::span<std::byte>> pieces) noexcept;
  std::size_t copy_into(std::span<std::byte> out);
  std::size_t straight_run(std::span<const std::span<std::byte>> pieces,
                           std::size_t filled) const noexcept;
  std::size_t read_straight(std::span<const std::span<std::byte>> run, std::size_t filled);

  void start(bool opened_here);

  // Buffer and refill (src/reader/refill.cpp).
  void start_buffer(std::size_t capacity, std::uint64_t offset);
  std::size_t fill(std::size_t want);
  bool read_more(std::size_t want);
  void make_room(std::size_t want);
  void grow(std::size_t capacity, const std::byte* keep, std::size_t kept);
  void adopt(std::unique_ptr<char[], detail::free_deleter> memory, std::size_t capacity) noexcept;
  std::size_t read_file(std::span<std::byte> into, std::uint64_t offset);
  void restart_at(std::uint64_t offset) noexcept;
  [[noreturn]] void throw_shrank(std::uint64_t offset) const;

  // Caching (src/reader/caching.cpp).
  void apply_caching_at_open();
  void drop_behind() noexcept;
  void drop_rest() noexcept;

  // Lines (src/reader/lines.cpp).
  const std::byte* next_newline() noexcept;
  void index_from(const std::byte* from) noexcept;
  void forget_newlines() noexcept;
  std::size_t line_room() const noexcept;

  // The buffer: [pos_, end_) is read and not consumed; begin_ holds the byte
  // at file offset base_.
  std::byte* pos_ = nullptr;
  std::byte* end_ = nullptr;
  std::byte* begin_ = nullptr;
  std::uint64_t base_ = 0;
  std::size_t capacity_ = 0;
  std::unique_ptr<char[], detail::free_deleter> storage_;

  // The line search: the offsets from index_base_ of the newlines found in
  // [tell(), indexed_to_), those in [next_newline_, newlines_end_) not yet
  // passed (an entry before pos_ was passed by get() or consume()). Empty
  // once the buffer moves; then no newline lies in [tell(), indexed_to_).
  std::unique_ptr<std::uint32_t[]> newlines_;
  const std::uint32_t* next_newline_ = nullptr;
  const std::uint32_t* newlines_end_ = nullptr;
  const std::byte* index_base_ = nullptr;
  std::uint64_t indexed_to_ = 0;
  std::uint64_t lines_ = 0;

  file source_;
  reader_options options_;
  std::size_t align_ = 1;           // offsets and lengths of reads (direct: the device's)
  bool seekable_ = false;           // a regular file read at offsets: shrinking is checked
  std::uint64_t size_at_open_ = 0;  // seekable: the size when the reader opened it
  std::uint64_t dropped_to_ = 0;    // no_cache: pages before this were dropped
  std::exception_ptr failure_;      // a stream's failed read, which sticks
};

// reader::lines(): an input range of string_views.
class reader::line_range {
 public:
  class iterator {
   public:
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(reader* source) : source_(source) { ++*this; }
    std::string_view operator*() const noexcept { return line_; }
    iterator& operator++() {
      auto next = source_->read_line();
      if (next) {
        line_ = *next;
      } else {
        source_ = nullptr;
      }
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(std::default_sentinel_t) const noexcept { return source_ == nullptr; }

   private:
    reader* source_ = nullptr;
    std::string_view line_;
  };

  explicit line_range(reader* source) noexcept : source_(source) {}
  iterator begin() { return iterator(source_); }
  std::default_sentinel_t end() const noexcept { return {}; }

 private:
  reader* source_;
};

inline reader::line_range reader::lines() noexcept { return line_range(this); }

template <detail::text_number T>
T reader::parse(std::string_view field) const {
  T value;
  if (detail::from_chars_whole(field, value, 10)) [[likely]]
    return value;
  detail::parse_field(field, value, 10, origin_of(field));
  return value;
}

template <detail::text_integer T>
T reader::parse(std::string_view field, int base) const {
  if (base < 2 || base > 36) detail::refuse_base(base);
  T value;
  if (detail::from_chars_whole(field, value, base)) [[likely]]
    return value;
  detail::parse_field(field, value, base, origin_of(field));
  return value;
}

}  // namespace sluice
