// The C API's writer: a sluice::writer behind a handle whose first member is
// the window c.h's inline put and write fill.
//
// The window is room the C++ writer lent out through reserve(): bytes the
// inline calls store in [window_begin, window.next) are in the writer's
// buffer but not yet committed. Every exported call first settles them
// (commit), then runs the C++ call, then borrows the room left again
// (reserve(0), which never flushes), so that puts after it stay inline.
#include "sluice/writer.hpp"

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>

#include "c/errors.hpp"
#include "os/handle.hpp"
#include "sluice/c.h"

namespace c_api = sluice::detail::c_api;

struct sluice_writer {
  sluice_writer_window window{};  // first: the inline calls read it (c.h)
  char* window_begin = nullptr;   // where the bytes the window took start
  char* reserved = nullptr;       // the room sluice_writer_reserve gave, until commit
  // Owned. Not a std::unique_ptr, which is not standard-layout with every
  // compiler (clang with libstdc++), as the window's place needs.
  sluice::writer* out = nullptr;

  sluice_writer() = default;
  sluice_writer(const sluice_writer&) = delete;
  sluice_writer& operator=(const sluice_writer&) = delete;
  ~sluice_writer() { delete out; }  // the writer's destructor: closes, never throws

  // Commits the bytes the inline calls stored, and closes the window.
  void settle() noexcept {
    if (window_begin != nullptr) out->commit(static_cast<std::size_t>(window.next - window_begin));
    window = {};
    window_begin = reserved = nullptr;
  }
  // Lends `room` (from reserve) to the inline calls.
  void lend(std::span<char> room) noexcept {
    window_begin = window.next = room.data();
    window.end = room.data() + room.size();
  }
};
static_assert(std::is_standard_layout_v<sluice_writer>,
              "c.h's inline calls read the window at the handle's address");

namespace {

// Runs `op` on the writer between settling the window and lending the room
// left again; EINVAL for a NULL handle.
template <class Op>
int with_writer(sluice_writer* writer, std::string_view function, Op&& op) noexcept {
  if (writer == nullptr) return c_api::invalid_argument(function, "the writer is NULL");
  writer->settle();
  return c_api::guarded([&] {
    op(*writer->out);
    writer->lend(writer->out->reserve(0));
  });
}

int options_of(const sluice_writer_options* given, sluice::writer_options& options,
               std::string_view function) noexcept {
  sluice_writer_options c;
  sluice_writer_options_init(&c);
  if (int error = c_api::copy_options(given, c, function)) return error;
  if (c.durability < SLUICE_DURABILITY_NONE || c.durability > SLUICE_DURABILITY_WRITE_THROUGH)
    return c_api::invalid_argument(function, "options.durability is not a sluice_durability");
  if (c.caching < SLUICE_CACHING_NORMAL || c.caching > SLUICE_CACHING_DIRECT)
    return c_api::invalid_argument(function, "options.caching is not a sluice_caching");
  options.buffer_size = c.buffer_size;
  options.preallocate = c.preallocate;
  options.durability = static_cast<sluice::durability_mode>(c.durability);
  options.caching = static_cast<sluice::caching_mode>(c.caching);
  options.atomic_replace = c.atomic_replace != 0;
  options.write_behind = c.write_behind != 0;
  return 0;
}

// Makes the handle around the writer `make` returns.
template <class Make>
int open_writer(sluice_writer** out, std::string_view function, Make&& make) noexcept {
  if (out == nullptr) return c_api::invalid_argument(function, "out is NULL");
  *out = nullptr;
  return c_api::guarded([&] {
    auto handle = std::make_unique<sluice_writer>();
    handle->out = make().release();
    handle->lend(handle->out->reserve(0));
    *out = handle.release();
  });
}

int print_formatted(sluice::writer& out, const char* format, va_list args) {
  va_list again;
  va_copy(again, args);
  auto room = out.reserve(0);
  int length = std::vsnprintf(room.data(), room.size(), format, args);
  if (length >= 0 && static_cast<std::size_t>(length) >= room.size()) {
    room = out.reserve(static_cast<std::size_t>(length) + 1);  // vsnprintf ends with a NUL
    length = std::vsnprintf(room.data(), room.size(), format, again);
  }
  va_end(again);
  if (length < 0) return c_api::invalid_argument("sluice_writer_printf", "vsnprintf failed");
  out.commit(static_cast<std::size_t>(length));
  return 0;
}

}  // namespace

extern "C" {

void sluice_writer_options_init(sluice_writer_options* options) {
  if (options == nullptr) return;
  *options = sluice_writer_options{};
  options->size = sizeof(sluice_writer_options);
}

int sluice_writer_open(sluice_writer** out, const char* path,
                       const sluice_writer_options* options) {
  if (out != nullptr) *out = nullptr;  // whatever is refused below
  sluice::writer_options how;
  if (int error = options_of(options, how, "sluice_writer_open")) return error;
  if (path == nullptr) return c_api::invalid_argument("sluice_writer_open", "the path is NULL");
  return open_writer(out, "sluice_writer_open",
                     [&] { return std::make_unique<sluice::writer>(path, how); });
}

int sluice_writer_from_fd(sluice_writer** out, int fd, const char* name,
                          const sluice_writer_options* options) {
  if (out != nullptr) *out = nullptr;  // whatever is refused below
  sluice::writer_options how;
  if (int error = options_of(options, how, "sluice_writer_from_fd")) return error;
  return open_writer(out, "sluice_writer_from_fd", [&] {
    return std::make_unique<sluice::writer>(
        sluice::file::borrow(sluice::detail::handle_of_descriptor(fd), name ? name : ""), how);
  });
}

int(sluice_writer_put)(sluice_writer* writer, char c) {
  if (writer == nullptr) return c_api::invalid_argument("sluice_writer_put", "the writer is NULL");
  writer->settle();
  return c_api::guarded([&] {
    auto room = writer->out->reserve(1);
    room[0] = c;
    writer->lend(room);
    ++writer->window.next;
  });
}

int(sluice_writer_write)(sluice_writer* writer, const void* data, size_t size) {
  if (data == nullptr && size != 0)
    return c_api::invalid_argument("sluice_writer_write", "data is NULL");
  return with_writer(writer, "sluice_writer_write", [&](sluice::writer& out) {
    out.write(std::span(static_cast<const std::byte*>(data), size));
  });
}

int sluice_writer_print_i64(sluice_writer* writer, int64_t value) {
  return with_writer(writer, "sluice_writer_print_i64",
                     [&](sluice::writer& out) { out.print(value); });
}

int sluice_writer_print_u64(sluice_writer* writer, uint64_t value) {
  return with_writer(writer, "sluice_writer_print_u64",
                     [&](sluice::writer& out) { out.print(value); });
}

int sluice_writer_print_double(sluice_writer* writer, double value) {
  return with_writer(writer, "sluice_writer_print_double",
                     [&](sluice::writer& out) { out.print(value); });
}

int sluice_writer_print_fixed(sluice_writer* writer, double value, int precision) {
  if (precision < 0 || precision > 1074) {
    char what[64];  // no allocation: nothing may be thrown here
    std::snprintf(what, sizeof what, "precision %d is not in 0..1074", precision);
    return c_api::invalid_argument("sluice_writer_print_fixed", what);
  }
  return with_writer(writer, "sluice_writer_print_fixed",
                     [&](sluice::writer& out) { out.print(value, sluice::fixed(precision)); });
}

int sluice_writer_vprintf(sluice_writer* writer, const char* format, va_list args) {
  if (format == nullptr)
    return c_api::invalid_argument("sluice_writer_printf", "the format is NULL");
  int result = 0;
  int error = with_writer(writer, "sluice_writer_printf", [&](sluice::writer& out) {
    result = print_formatted(out, format, args);
  });
  return error != 0 ? error : result;
}

int sluice_writer_printf(sluice_writer* writer, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int result = sluice_writer_vprintf(writer, format, args);
  va_end(args);
  return result;
}

int sluice_writer_reserve(sluice_writer* writer, size_t n, char** room, size_t* room_size) {
  if (room == nullptr || room_size == nullptr)
    return c_api::invalid_argument("sluice_writer_reserve", "room or room_size is NULL");
  *room = nullptr;
  *room_size = 0;
  int error =
      with_writer(writer, "sluice_writer_reserve", [&](sluice::writer& out) { out.reserve(n); });
  if (error != 0) return error;
  writer->reserved = *room = writer->window.next;
  *room_size = static_cast<std::size_t>(writer->window.end - writer->window.next);
  return 0;
}

int sluice_writer_commit(sluice_writer* writer, size_t k) {
  if (writer == nullptr)
    return c_api::invalid_argument("sluice_writer_commit", "the writer is NULL");
  if (writer->reserved == nullptr || writer->reserved != writer->window.next)
    return c_api::invalid_argument("sluice_writer_commit",
                                   "no sluice_writer_reserve came just before");
  if (k > static_cast<std::size_t>(writer->window.end - writer->window.next))
    return c_api::invalid_argument("sluice_writer_commit",
                                   "k is larger than the room sluice_writer_reserve gave");
  writer->window.next += k;
  writer->reserved = nullptr;
  return 0;
}

uint64_t sluice_writer_tell(const sluice_writer* writer) {
  if (writer == nullptr) return 0;
  auto lent = writer->window_begin == nullptr ? 0 : writer->window.next - writer->window_begin;
  return writer->out->tell() + static_cast<std::uint64_t>(lent);
}

int sluice_writer_flush(sluice_writer* writer) {
  return with_writer(writer, "sluice_writer_flush", [](sluice::writer& out) { out.flush(); });
}

int sluice_writer_sync(sluice_writer* writer) {
  return with_writer(writer, "sluice_writer_sync", [](sluice::writer& out) { out.sync(); });
}

int sluice_writer_close(sluice_writer* writer) {
  if (writer == nullptr) return 0;
  writer->settle();
  int error = c_api::guarded([&] { writer->out->close(); });
  delete writer;  // a close that failed was told to the caller: the destructor stays silent
  return error;
}

void sluice_writer_destroy(sluice_writer* writer) {
  if (writer == nullptr) return;
  writer->settle();
  delete writer;
}

}  // extern "C"
