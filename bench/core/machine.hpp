// sluice-bench: what the figures were measured on, for the report.
#pragma once

#include <string>

namespace sluice::bench {

struct machine_info {
  std::string cpu;         // "model name" of /proc/cpuinfo, or "unknown"
  unsigned cores;          // hardware threads
  std::string kernel;      // "Linux 6.1.0-18-amd64 x86_64", "Windows 10.0.22631 x86_64"
  std::string date;        // UTC, ISO 8601: "2024-05-01T12:00:00Z"
  std::string filesystem;  // of `dir`, from statfs: "ext4", "xfs", "tmpfs"...;
                           // Windows: GetVolumeInformationW's "NTFS", "ReFS"...
};

machine_info describe_machine(const std::string& dir);

}  // namespace sluice::bench
