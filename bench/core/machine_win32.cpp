// What the figures were measured on, on Windows: the CPU's name from the
// registry, the version from RtlGetVersion (GetVersionEx reports the version
// a program's manifest names, not the running one), the filesystem from
// GetVolumeInformationW on the directory's volume.
#include <windows.h>

#include <ctime>
#include <filesystem>
#include <string>
#include <thread>

#include "core/machine.hpp"

namespace sluice::bench {
namespace {

std::string narrow(const wchar_t* text) { return std::filesystem::path(text).string(); }

std::string cpu_model() {
  wchar_t name[256];
  DWORD size = sizeof name;
  if (::RegGetValueW(HKEY_LOCAL_MACHINE, L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0",
                     L"ProcessorNameString", RRF_RT_REG_SZ, nullptr, name, &size) != ERROR_SUCCESS)
    return "unknown";
  return narrow(name);
}

// "Windows 10.0.22631 x86_64": RtlGetVersion, from ntdll, where it is.
std::string kernel() {
  using get_version = LONG(WINAPI*)(OSVERSIONINFOW*);
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  auto call = ntdll ? reinterpret_cast<get_version>(
                          reinterpret_cast<void*>(::GetProcAddress(ntdll, "RtlGetVersion")))
                    : nullptr;
  OSVERSIONINFOW version{};
  version.dwOSVersionInfoSize = sizeof version;
  if (!call || call(&version) != 0) return "Windows (version unknown) x86_64";
  return "Windows " + std::to_string(version.dwMajorVersion) + "." +
         std::to_string(version.dwMinorVersion) + "." + std::to_string(version.dwBuildNumber) +
         " x86_64";
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  char text[32];
  if (::gmtime_s(&utc, &now) != 0 || !std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc))
    return "unknown";
  return text;
}

// "NTFS", "ReFS", "FAT32"... of the volume holding `dir`, or "unknown".
std::string filesystem_of(const std::string& dir) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(dir, error);
  wchar_t root[MAX_PATH];
  wchar_t name[MAX_PATH + 1];
  if (error || !::GetVolumePathNameW(absolute.c_str(), root, MAX_PATH) ||
      !::GetVolumeInformationW(root, nullptr, 0, nullptr, nullptr, nullptr, name, MAX_PATH + 1))
    return "unknown";
  return narrow(name);
}

}  // namespace

machine_info describe_machine(const std::string& dir) {
  return {cpu_model(), std::thread::hardware_concurrency(), kernel(), utc_now(),
          filesystem_of(dir)};
}

}  // namespace sluice::bench
