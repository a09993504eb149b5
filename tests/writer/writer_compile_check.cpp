// Compiled (not run) by the writer_compile.* tests: what writer's overloads
// accept, and what they refuse at compile time. Without a SLUICE_BAD_* macro
// everything here compiles; each SLUICE_BAD_* is one call that must not.
#include <cstddef>
#include <cstdint>
#include <sluice/writer.hpp>
#include <span>
#include <string>

void accepted(sluice::writer& out, const void* data, const char* text, std::string s) {
  char array[8] = "abc";
  out.write("a string literal");
  out.write(array);
  out.write(s);
  out.write(std::string_view(text));  // a C string, said so
  out.write(data, 4);
  out.write(text, 4);
  out.write(std::span<const unsigned char>(static_cast<const unsigned char*>(data), 4));
  out.put('c');
  out.put(static_cast<unsigned char>(1));
  out.put(static_cast<signed char>(1));
  out.put(std::byte{1});
  out.put_le(std::uint32_t{1});
  out.put_be(1.0);
}

void refused(sluice::writer& out, const void* data, char* mutable_text, unsigned u, int i) {
#if defined(SLUICE_BAD_WRITE_CAST_POINTER)
  out.write(static_cast<const char*>(data));  // would stop at the first NUL
#elif defined(SLUICE_BAD_WRITE_CHAR_POINTER)
  out.write(mutable_text);
#elif defined(SLUICE_BAD_PUT_UNSIGNED)
  out.put(u);  // would keep the low byte only
#elif defined(SLUICE_BAD_PUT_INT)
  out.put(i);
#elif defined(SLUICE_BAD_PUT_CHAR_ARITHMETIC)
  out.put('a' + 1);  // an int
#endif
  (void)out, (void)data, (void)mutable_text, (void)u, (void)i;
}
