#include "core/machine.hpp"

#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/utsname.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>
#include <utility>

namespace sluice::bench {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    auto colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "unknown";
}

std::string kernel() {
  utsname names{};
  if (::uname(&names) != 0) return "unknown";
  return std::string(names.sysname) + " " + names.release + " " + names.machine;
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  char text[32];
  if (!::gmtime_r(&now, &utc) || !std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc))
    return "unknown";
  return text;
}

// statfs's f_type, named. ext2 and ext3 share ext4's magic; kernels of
// today mount all three with the ext4 driver.
std::string filesystem_of(const std::string& dir) {
  constexpr std::array<std::pair<unsigned long, const char*>, 15> names = {{
      {EXT4_SUPER_MAGIC, "ext4"},
      {XFS_SUPER_MAGIC, "xfs"},
      {BTRFS_SUPER_MAGIC, "btrfs"},
      {TMPFS_MAGIC, "tmpfs"},
      {F2FS_SUPER_MAGIC, "f2fs"},
      {0x2fc12fc1, "zfs"},
      {0xca451a4e, "bcachefs"},
      {OVERLAYFS_SUPER_MAGIC, "overlayfs"},
      {NFS_SUPER_MAGIC, "nfs"},
      {0xff534d42, "cifs"},
      {0xfe534d42, "smb2"},
      {0x65735546, "fuse"},
      {V9FS_MAGIC, "9p"},
      {RAMFS_MAGIC, "ramfs"},
      {0x2011bab0, "exfat"},
  }};
  struct statfs info {};
  if (::statfs(dir.c_str(), &info) != 0) return "unknown";
  for (const auto& [magic, name] : names)
    if (static_cast<unsigned long>(info.f_type) == magic) return name;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(info.f_type));
  return hex;
}

}  // namespace

machine_info describe_machine(const std::string& dir) {
  return {cpu_model(), std::thread::hardware_concurrency(), kernel(), utc_now(),
          filesystem_of(dir)};
}

}  // namespace sluice::bench
