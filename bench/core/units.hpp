// sluice-bench: sizes for people ("64 MiB", "62.5 MiB", "100 KiB", "64 B"),
// read and written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::bench {

inline constexpr double mb = 1e6;  // MB/s in the report: 10^6 bytes per second

// Binary units; a whole number when exact, else one decimal.
std::string format_size(std::uint64_t bytes);

// A size as the command line takes it: decimal digits, then optionally a
// unit, B or one of K, M, G, T, P, E (powers of 1024) alone or followed by B
// or iB, in either case: "512K", "64M", "1GiB", "4096". Throws
// std::invalid_argument saying why for anything else: a sign ("-5"), a
// fraction ("1.5G"), an exponent, hex ("0x10"), spaces, an unknown unit, no
// digits ("G"), or more than 2^64 - 1 bytes ("99999999999999999999",
// "16E").
std::uint64_t parse_size(std::string_view text);

// a * b and a + b, or the largest std::uint64_t where they would overflow:
// estimates for absurd sizes stay absurdly large instead of wrapping.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) noexcept;
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept;

}  // namespace sluice::bench
