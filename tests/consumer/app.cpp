// The consumer projects' program: uses the public API by the names programs
// outside the repository rely on (the former names of renamed options and
// modes included), through the installed headers, and exits non-zero if
// what it wrote does not read back. argv[1]: a scratch directory.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sluice/sluice.hpp>
#include <span>
#include <string>

namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::span<const std::byte> bytes_of(std::string_view text) {
  return std::as_bytes(std::span(text));
}

// sluice::writer with every option, spelled as before the _mode names.
bool writer_round_trip(const std::filesystem::path& dir) {
  auto path = dir / "writer.txt";
  sluice::writer_options options;
  options.buffer_size = 4096;
  options.preallocate = 1 << 16;
  options.durability = sluice::durability::all_on_close;
  options.caching = sluice::caching::normal;
  sluice::writer out(path, options);
  out.write("sluice ");
  out.print(42);
  out.put(' ');
  out.print(0.5);
  auto room = out.reserve(3);
  room[0] = ' ';
  room[1] = 'x';
  room[2] = '\n';
  out.commit(3);
  bool told = out.tell() == 16;
  out.flush();
  out.sync();
  out.close();
  sluice::writer replaced(path, {.durability = sluice::durability_mode::data_on_close,
                                 .caching = sluice::caching_mode::normal,
                                 .atomic_replace = true});
  replaced.write(read_all(path));
  replaced.close();
  return told && read_all(path) == "sluice 42 0.5 x\n";
}

// Binary output, written behind: through io_uring where the library was
// built with liburing, which a shared libsluice then links by itself.
bool binary_round_trip(const std::filesystem::path& dir) {
  auto path = dir / "binary.bin";
  const unsigned char blob[3] = {0, 1, 0};
  sluice::writer out(path, {.write_behind = true});
  out.write(blob, sizeof blob);
  out.put_le(std::uint16_t{0x0201});
  out.put_be(std::uint32_t{0x03040506});
  out.put(std::byte{7});
  out.close();
  return read_all(path) == std::string("\0\1\0\1\2\3\4\5\6\7", 10);
}

// sluice::file through open_options, and its queries on a const file.
bool file_round_trip(const std::filesystem::path& dir) {
  auto path = dir / "file.bin";
  sluice::open_options options;
  options.mode = sluice::open_mode::create_new;
  sluice::file f = sluice::file::open(path, options);
  f.write_at(bytes_of("abcd"), 0);
  std::array<std::span<const std::byte>, 2> pieces{bytes_of("ef"), bytes_of("gh")};
  f.seek(4);
  f.write_gather(pieces);
  f.sync_data();
  const sluice::file& queried = f;
  bool sized = queried.size() == 8 && !queried.is_stream();
  std::array<std::byte, 8> back{};
  bool read = f.read_at(back, 0) == 8;
  f.close();
  sluice::sync_directory(dir);
  return sized && read && std::string(reinterpret_cast<const char*>(back.data()), 8) == "abcdefgh";
}

bool ostream_round_trip(const std::filesystem::path& dir) {
  auto path = dir / "ostream.txt";
  sluice::ostream out(path);
  out << "n=" << 7 << '\n';
  out.close();
  return read_all(path) == "n=7\n";
}

bool journal_round_trip(const std::filesystem::path& dir) {
  auto path = dir / "journal";
  std::filesystem::create_directory(path);
  {
    sluice::journal log = sluice::journal::open(path, {});
    std::uint64_t first = log.append(bytes_of("one"));
    log.commit(first);
    log.write(bytes_of("two"));
    if (log.first_lsn() != 1 || log.next_lsn() != 3) return false;
    log.close();
  }
  sluice::journal log = sluice::journal::open(path);
  std::string seen;
  for (auto record : log.read_from(1))
    seen.append(reinterpret_cast<const char*>(record.data.data()), record.data.size());
  log.truncate_before(1);
  log.close();
  return seen == "onetwo";
}

}  // namespace

// The installed <sluice/version.hpp> names the version the package was
// found as (SLUICE_EXPECTED_VERSION, from find_package or pkg-config).
bool version_matches_package() {
  static_assert(SLUICE_VERSION ==
                SLUICE_VERSION_MAJOR * 10000 + SLUICE_VERSION_MINOR * 100 + SLUICE_VERSION_PATCH);
  std::string parts = std::to_string(SLUICE_VERSION_MAJOR) + '.' +
                      std::to_string(SLUICE_VERSION_MINOR) + '.' +
                      std::to_string(SLUICE_VERSION_PATCH);
  return parts == SLUICE_VERSION_STRING && std::string(SLUICE_EXPECTED_VERSION) == parts;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (!version_matches_package()) return 8;
  std::filesystem::path dir = argv[1];
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  if (!writer_round_trip(dir)) return 3;
  if (!file_round_trip(dir)) return 4;
  if (!ostream_round_trip(dir)) return 5;
  if (!journal_round_trip(dir)) return 6;
  if (!binary_round_trip(dir)) return 7;
  return 0;
}
