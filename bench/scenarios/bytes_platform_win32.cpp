// The bytes scenario's _fwrite_nolock row on Windows: the Universal C
// Runtime's (ucrtbase.dll, the C library of every program Visual C++ has
// built since 2015), on a stream the UCRT opened itself: a FILE of
// msvcrt.dll, which MinGW-w64 programs use, is not one of the UCRT's. Its
// calls are looked up once (a call through a pointer, as through an
// import); where ucrtbase.dll or a call is missing, the row fails saying so.
#include <io.h>
#include <windows.h>

#include <cerrno>
#include <memory>
#include <string>
#include <system_error>

#include "core/io.hpp"
#include "scenarios/byte_pattern.hpp"
#include "scenarios/bytes_platform.hpp"

namespace sluice::bench {
namespace {

// The UCRT's stdio calls, as ucrtbase.dll exports them.
struct ucrt_stdio {
  FILE* (*fopen)(const char*, const char*);
  int (*setvbuf)(FILE*, char*, int, size_t);
  size_t (*fwrite_nolock)(const void*, size_t, size_t, FILE*);
  int (*fflush)(FILE*);
  int (*ferror)(FILE*);
  int (*fclose)(FILE*);
  int (*fileno)(FILE*);
  intptr_t (*get_osfhandle)(int);
  int* (*errno_location)();
  std::string missing;  // the first call not found, or empty
};

template <class Call>
void find(HMODULE crt, const char* name, Call& call, std::string& missing) {
  FARPROC found = crt ? ::GetProcAddress(crt, name) : nullptr;
  call = reinterpret_cast<Call>(reinterpret_cast<void*>(found));
  if (!found && missing.empty()) missing = name;
}

const ucrt_stdio& ucrt() {
  static const ucrt_stdio calls = [] {
    ucrt_stdio c{};
    HMODULE crt = ::LoadLibraryW(L"ucrtbase.dll");
    find(crt, "fopen", c.fopen, c.missing);
    find(crt, "setvbuf", c.setvbuf, c.missing);
    find(crt, "_fwrite_nolock", c.fwrite_nolock, c.missing);
    find(crt, "fflush", c.fflush, c.missing);
    find(crt, "ferror", c.ferror, c.missing);
    find(crt, "fclose", c.fclose, c.missing);
    find(crt, "_fileno", c.fileno, c.missing);
    find(crt, "_get_osfhandle", c.get_osfhandle, c.missing);
    find(crt, "_errno", c.errno_location, c.missing);
    return c;
  }();
  if (!calls.missing.empty())
    throw std::system_error(ENOSYS, std::generic_category(),
                            "ucrtbase.dll: " + calls.missing + " not found");
  return calls;
}

[[noreturn]] void fail(const ucrt_stdio& c, const std::string& call) {
  throw std::system_error(*c.errno_location(), std::generic_category(), call);
}

// fopen("wb"), a 256 KiB setvbuf buffer, _fwrite_nolock per byte; then
// fflush (ferror checked), FlushFileBuffers when t.sync, fclose.
void run_fwrite_nolock(const target& t, std::uint64_t size) {
  const ucrt_stdio& c = ucrt();
  auto buffer = std::make_unique_for_overwrite<char[]>(big_buffer_size);
  FILE* f = c.fopen(t.path, "wb");
  if (!f) fail(c, std::string("fopen '") + t.path + "'");
  if (c.setvbuf(f, buffer.get(), _IOFBF, big_buffer_size) != 0) {
    c.fclose(f);
    throw std::runtime_error("setvbuf refused a buffer");
  }
  put_each(size, [&c, f](char byte) { c.fwrite_nolock(&byte, 1, 1, f); });
  bool failed = c.fflush(f) != 0 || c.ferror(f);
  int error = *c.errno_location();
  bool synced = failed || !t.sync ||
                ::FlushFileBuffers(reinterpret_cast<HANDLE>(c.get_osfhandle(c.fileno(f))));
  DWORD sync_error = ::GetLastError();
  int closed = c.fclose(f);
  if (failed) throw std::system_error(error, std::generic_category(), "_fwrite_nolock");
  if (!synced)
    throw std::system_error(static_cast<int>(sync_error), std::system_category(),
                            "FlushFileBuffers");
  if (closed != 0) fail(c, "fclose");
}

}  // namespace

void add_platform_bytes_rows(bench_case& c, std::uint64_t size) {
  c.methods.push_back(
      bind_method("_fwrite_nolock (UCRT), 256 KiB setvbuf", role::peer, run_fwrite_nolock, size));
}

}  // namespace sluice::bench
