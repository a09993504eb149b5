// The C API's reader: a sluice::reader behind a handle. The end of the input
// is SLUICE_EOF, told apart from errors before the C++ call where that call
// would throw at the end (read_number, skip_line), and caught as
// end_of_file_error where it throws one (read).
#include "sluice/reader.hpp"

#include <cerrno>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>

#include "c/errors.hpp"
#include "os/handle.hpp"
#include "sluice/c.h"

namespace c_api = sluice::detail::c_api;

struct sluice_reader {
  sluice::reader in;
};

namespace {

template <class Op>
int with_reader(sluice_reader* reader, std::string_view function, Op&& op) noexcept {
  if (reader == nullptr) return c_api::invalid_argument(function, "the reader is NULL");
  return c_api::guarded([&] { return op(reader->in); });
}

int options_of(const sluice_reader_options* given, sluice::reader_options& options,
               std::string_view function) noexcept {
  sluice_reader_options c;
  sluice_reader_options_init(&c);
  if (int error = c_api::copy_options(given, c, function)) return error;
  if (c.line_end < SLUICE_LINE_END_LF || c.line_end > SLUICE_LINE_END_CRLF)
    return c_api::invalid_argument(function, "options.line_end is not a sluice_line_end");
  if (c.caching < SLUICE_CACHING_NORMAL || c.caching > SLUICE_CACHING_DIRECT)
    return c_api::invalid_argument(function, "options.caching is not a sluice_caching");
  options.buffer_size = c.buffer_size;
  options.max_line = c.max_line;
  options.line_ending = static_cast<sluice::line_end>(c.line_end);
  options.caching = static_cast<sluice::caching_mode>(c.caching);
  return 0;
}

template <class Make>
int open_reader(sluice_reader** out, std::string_view function, Make&& make) noexcept {
  if (out == nullptr) return c_api::invalid_argument(function, "out is NULL");
  *out = nullptr;
  return c_api::guarded([&] { *out = new sluice_reader{make()}; });
}

// The number at the reader's position, up to `terminator`.
template <class T>
int read_number(sluice_reader* reader, char terminator, T* value, std::string_view function) {
  if (value == nullptr) return c_api::invalid_argument(function, "value is NULL");
  return with_reader(reader, function, [&](sluice::reader& in) {
    if (in.eof()) return SLUICE_EOF;
    *value = in.read_number<T>(terminator);
    return 0;
  });
}

}  // namespace

extern "C" {

void sluice_reader_options_init(sluice_reader_options* options) {
  if (options == nullptr) return;
  *options = sluice_reader_options{};
  options->size = sizeof(sluice_reader_options);
  options->buffer_size = sluice::reader_options::default_buffer_size;
  options->max_line = sluice::reader_options::default_max_line;
}

int sluice_reader_open(sluice_reader** out, const char* path,
                       const sluice_reader_options* options) {
  if (out != nullptr) *out = nullptr;  // whatever is refused below
  sluice::reader_options how;
  if (int error = options_of(options, how, "sluice_reader_open")) return error;
  if (path == nullptr) return c_api::invalid_argument("sluice_reader_open", "the path is NULL");
  return open_reader(out, "sluice_reader_open", [&] { return sluice::reader(path, how); });
}

int sluice_reader_from_fd(sluice_reader** out, int fd, const char* name,
                          const sluice_reader_options* options) {
  if (out != nullptr) *out = nullptr;  // whatever is refused below
  sluice::reader_options how;
  if (int error = options_of(options, how, "sluice_reader_from_fd")) return error;
  return open_reader(out, "sluice_reader_from_fd", [&] {
    return sluice::reader(
        sluice::file::borrow(sluice::detail::handle_of_descriptor(fd), name ? name : ""), how);
  });
}

int sluice_reader_read_line(sluice_reader* reader, const char** line, size_t* size) {
  if (line == nullptr || size == nullptr)
    return c_api::invalid_argument("sluice_reader_read_line", "line or size is NULL");
  *line = "";
  *size = 0;
  return with_reader(reader, "sluice_reader_read_line", [&](sluice::reader& in) {
    auto next = in.read_line();
    if (!next) return SLUICE_EOF;
    if (!next->empty()) *line = next->data();
    *size = next->size();
    return 0;
  });
}

int sluice_reader_skip_line(sluice_reader* reader) {
  return with_reader(reader, "sluice_reader_skip_line", [](sluice::reader& in) {
    if (in.eof()) return SLUICE_EOF;
    in.skip_line();
    return 0;
  });
}

int sluice_reader_read(sluice_reader* reader, void* data, size_t size) {
  if (data == nullptr && size != 0)
    return c_api::invalid_argument("sluice_reader_read", "data is NULL");
  return with_reader(reader, "sluice_reader_read", [&](sluice::reader& in) {
    try {
      in.read(std::span(static_cast<std::byte*>(data), size));
    } catch (const sluice::end_of_file_error&) {
      return SLUICE_EOF;
    }
    return 0;
  });
}

int sluice_reader_read_some(sluice_reader* reader, void* data, size_t size, size_t* got) {
  if (got == nullptr || (data == nullptr && size != 0))
    return c_api::invalid_argument("sluice_reader_read_some", "data or got is NULL");
  *got = 0;
  return with_reader(reader, "sluice_reader_read_some", [&](sluice::reader& in) {
    *got = in.read_some(std::span(static_cast<std::byte*>(data), size));
    return *got == 0 && size != 0 ? SLUICE_EOF : 0;
  });
}

int sluice_reader_peek(sluice_reader* reader, size_t n, const void** data, size_t* size) {
  if (data == nullptr || size == nullptr)
    return c_api::invalid_argument("sluice_reader_peek", "data or size is NULL");
  *data = nullptr;
  *size = 0;
  return with_reader(reader, "sluice_reader_peek", [&](sluice::reader& in) {
    auto bytes = in.peek(n);
    *data = bytes.data();
    *size = bytes.size();
  });
}

int sluice_reader_consume(sluice_reader* reader, size_t n) {
  return with_reader(reader, "sluice_reader_consume", [&](sluice::reader& in) {
    try {
      in.consume(n);
    } catch (const std::out_of_range& past) {  // more than peek showed: c.h says EINVAL
      return c_api::fail(EINVAL, past.what());
    }
    return 0;
  });
}

int sluice_reader_read_i64(sluice_reader* reader, char terminator, int64_t* value) {
  return read_number(reader, terminator, value, "sluice_reader_read_i64");
}

int sluice_reader_read_u64(sluice_reader* reader, char terminator, uint64_t* value) {
  return read_number(reader, terminator, value, "sluice_reader_read_u64");
}

int sluice_reader_read_double(sluice_reader* reader, char terminator, double* value) {
  return read_number(reader, terminator, value, "sluice_reader_read_double");
}

uint64_t sluice_reader_tell(const sluice_reader* reader) {
  return reader == nullptr ? 0 : reader->in.tell();
}

int sluice_reader_close(sluice_reader* reader) {
  if (reader == nullptr) return 0;
  int error = c_api::guarded([&] { reader->in.close(); });
  delete reader;
  return error;
}

}  // extern "C"
