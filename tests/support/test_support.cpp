#include "support/test_support.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <vector>

#include "os/sys.hpp"
#include "sluice/writer.hpp"

namespace sluice_test {
namespace {

// $TMPDIR, or /tmp; on Windows, its own temporary directory (TMP, TEMP).
std::filesystem::path default_base() {
#ifdef _WIN32
  return std::filesystem::temp_directory_path();
#else
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/tmp";
#endif
}

// A new directory `base`/sluice-test-XXXXXX, the X's unique.
std::filesystem::path make_unique_directory(const std::filesystem::path& base) {
#ifdef _WIN32
  std::random_device seed;
  std::mt19937_64 random(seed());
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto path = base / ("sluice-test-" + std::to_string(random() % 1000000000));
    if (std::filesystem::create_directory(path)) return path;
  }
  throw std::runtime_error("no unused name for a directory under " + base.string());
#else
  std::string name = (base / "sluice-test-XXXXXX").native();
  if (::mkdtemp(name.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + name);
  return name;
#endif
}

}  // namespace

temp_dir::temp_dir() : temp_dir(default_base()) {}

temp_dir::temp_dir(const std::filesystem::path& base) : path_(make_unique_directory(base)) {}

temp_dir::~temp_dir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot open " << path << ": " << std::strerror(errno);
    return {};
  }
  std::string content(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) ADD_FAILURE() << "cannot read " << path << ": " << std::strerror(errno);
  return content;
}

void write_all(const std::filesystem::path& path, std::string_view content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

std::uint64_t size_on_disk(const std::filesystem::path& path) {
  return std::filesystem::file_size(path);
}

std::uint64_t allocated(const std::filesystem::path& path) {
#ifdef _WIN32
  DWORD high = 0;
  DWORD low = ::GetCompressedFileSizeW(path.c_str(), &high);
  if (low == INVALID_FILE_SIZE && ::GetLastError() != NO_ERROR)
    throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(),
                            "GetCompressedFileSizeW " + path.string());
  return (std::uint64_t{high} << 32) | low;
#else
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw std::system_error(errno, std::generic_category(), "stat " + path.native());
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
#endif
}

file_identity identity_of(const std::filesystem::path& path) {
#ifdef _WIN32
  HANDLE h = ::CreateFileW(path.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  BY_HANDLE_FILE_INFORMATION info{};
  bool known = h != INVALID_HANDLE_VALUE && ::GetFileInformationByHandle(h, &info);
  DWORD error = ::GetLastError();
  if (h != INVALID_HANDLE_VALUE) ::CloseHandle(h);
  if (!known) {
    ADD_FAILURE() << "cannot read what file " << path << " is: Windows error " << error;
    return {};
  }
  return {info.dwVolumeSerialNumber,
          (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow};
#else
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    ADD_FAILURE() << "cannot stat " << path << ": " << std::strerror(errno);
    return {};
  }
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
#endif
}

std::vector<std::string> entries(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void replace_with(const std::filesystem::path& path, std::string_view content) {
  sluice::writer out(path, {.buffer_size = 4096, .atomic_replace = true});
  out.write(content);
  out.close();
}

std::string pattern(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::string text(n, '\0');
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t word = random();
    std::memcpy(text.data() + i, &word, std::min<std::size_t>(8, n - i));
  }
  return text;
}

std::string read_text(sluice::file& f, std::size_t n, std::uint64_t offset) {
  std::string text(n, '\0');
  text.resize(f.read_at(std::as_writable_bytes(std::span(text.data(), n)), offset));
  return text;
}

captured_reports* captured_reports::active_ = nullptr;

captured_reports::captured_reports() {
  if (active_) throw std::logic_error("captured_reports: one at a time");
  active_ = this;
  previous_ = sluice::set_error_handler(&record);
}

captured_reports::~captured_reports() {
  sluice::set_error_handler(previous_);
  active_ = nullptr;
}

void captured_reports::record(const std::error_code& code, std::string_view message) noexcept {
  if (active_) active_->reports_.push_back({code, std::string(message)});
}

std::string stderr_of(const std::function<void()>& body) {
  sluice::error_handler installed = sluice::set_error_handler(nullptr);
  testing::internal::CaptureStderr();
  try {
    body();
  } catch (...) {
    testing::internal::GetCapturedStderr();
    sluice::set_error_handler(installed);
    throw;
  }
  std::string printed = testing::internal::GetCapturedStderr();
  sluice::set_error_handler(installed);
  return printed;
}

void put_all(sluice::writer& out, std::string_view text) {
  for (char c : text) out.put(c);
}

std::string print_numbers(sluice::writer& out, std::size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) {
    out.print(i * 7919);
    out.put('\n');
    text += std::to_string(i * 7919) + '\n';
  }
  return text;
}

int zero_by_hand(sluice::detail::handle fd, std::int64_t offset, std::int64_t length) {
  const sluice::detail::sys_table& real = sluice::detail::real_sys();
  if (real.preallocate(fd, offset, length, sluice::detail::space_mode::grow) != 0 &&
      errno != EOPNOTSUPP)
    return -1;
  static const std::vector<char> zeros(std::size_t{1} << 20);
  for (std::int64_t at = offset; at < offset + length;) {
    std::int64_t piece_size =
        std::min(static_cast<std::int64_t>(zeros.size()), offset + length - at);
    sluice::detail::io_piece piece{const_cast<char*>(zeros.data()),
                                   static_cast<std::size_t>(piece_size)};
    ssize_t n = real.write_at(fd, &piece, 1, at);
    if (n < 0) return -1;
    at += n;
  }
  return 0;
}

}  // namespace sluice_test
