// c/errors.hpp - how the C API turns C++ failures into return values.
//
// Every C entry runs its C++ body through guarded(): what it throws becomes
// an errno value returned to the caller and a message kept for
// sluice_last_error() on this thread. Nothing thrown crosses into C.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace sluice::detail::c_api {

// Keeps `message` as this thread's last error and returns `error`. Never
// throws: a message that cannot be stored is replaced by a fixed one.
int fail(int error, std::string_view message) noexcept;

// The errno value and message of the exception being handled (inside a
// catch): a std::system_error's code and what(), ENOMEM for std::bad_alloc
// and std::length_error, EIO for anything else; kept as with fail().
int fail_with_current_exception() noexcept;

// EINVAL naming the C function and what was wrong with an argument.
int invalid_argument(std::string_view function, std::string_view what) noexcept;

// Runs `body`, which returns 0, SLUICE_EOF or nothing (then 0); returns
// that, or what fail_with_current_exception() makes of what it throws.
template <class Body>
int guarded(Body&& body) noexcept {
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<Body&>>) {
      body();
      return 0;
    } else {
      return body();
    }
  } catch (...) {
    return fail_with_current_exception();
  }
}

// Copies the caller's options struct `given` (whose first field, `size`,
// says how many bytes of it the caller knows) over `into`, which holds the
// defaults: NULL keeps them. A size above this version's struct with a
// nonzero byte past it (an option this version does not know) is refused,
// returning EINVAL naming `function`, and so is one below it: every struct
// is still at its first version. The first field added to one will make
// the sizes of its earlier versions welcome, the fields they lack keeping
// their defaults.
template <class Options>
int copy_options(const Options* given, Options& into, std::string_view function) noexcept {
  if (given == nullptr) return 0;
  if (given->size < sizeof(Options))
    return invalid_argument(function,
                            "options.size is smaller than this version's options "
                            "(fill them with the _options_init function first)");
  const auto* bytes = reinterpret_cast<const unsigned char*>(given);
  for (std::size_t i = sizeof(Options); i < given->size; ++i)
    if (bytes[i] != 0)
      return invalid_argument(function, "options set a field this version of sluice does not know");
  std::memcpy(&into, given, sizeof(Options));
  into.size = sizeof(Options);
  return 0;
}

}  // namespace sluice::detail::c_api
