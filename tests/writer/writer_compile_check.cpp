// Compiled (never run) by the writer_compile.* tests (compile_check.cmake):
// what writer's overloads accept, and the calls they refuse at compile time.
// Without any macro, the spellings that must keep compiling. Each
// SLUICE_CASE_<name> adds one call: its right spelling, or with
// SLUICE_REFUSE the wrong one, which must not compile. Both are compiled, so
// a refusal for another reason (a typo, a missing header) cannot pass.
#include <cstddef>
#include <cstdint>
#include <sluice/writer.hpp>
#include <span>
#include <string>
#include <string_view>

#if defined(SLUICE_REFUSE)
#define SLUICE_PICK(wrong, right) wrong
#else
#define SLUICE_PICK(wrong, right) right
#endif

void accepted(sluice::writer& out, const void* data, const char* text, const std::string& s) {
  const char array[8] = "abc";
  out.write("a string literal");
  out.write(array);  // a const array: up to its NUL
  out.write(s);
  out.write(std::string_view(text));  // a C string, said so
  out.write(data, 4);
  out.write(text, 4);
  out.write(std::span<const unsigned char>(static_cast<const unsigned char*>(data), 4));
  out.write(std::as_bytes(std::span(array)));
  out.put('c');
  out.put(static_cast<unsigned char>(1));
  out.put(static_cast<signed char>(1));
  out.put(std::uint8_t{1});
  out.put(std::byte{1});
  out.put_le(std::uint32_t{1});
  out.put_be(1.0);
  out.put_le<std::uint16_t>(1);  // an explicit width converts
}

void one_case(sluice::writer& out, const void* data, char* mutable_text, const char* text,
              unsigned u, int i) {
  char buffer[16] = {};
#if defined(SLUICE_CASE_WRITE_CAST_POINTER)
  // fwrite(data, 1, n, f) ported with a cast: would stop at the first NUL.
  SLUICE_PICK(out.write(static_cast<const char*>(data)), out.write(data, 4));
#elif defined(SLUICE_CASE_WRITE_CONST_CHAR_POINTER)
  SLUICE_PICK(out.write(text), out.write(std::string_view(text)));
#elif defined(SLUICE_CASE_WRITE_CHAR_POINTER)
  SLUICE_PICK(out.write(mutable_text), out.write(std::string_view(mutable_text)));
#elif defined(SLUICE_CASE_WRITE_CHAR_ARRAY)
  // A buffer read with fread, written back without its size.
  SLUICE_PICK(out.write(buffer), out.write(buffer, sizeof buffer));
#elif defined(SLUICE_CASE_PUT_UNSIGNED)
  // Would keep the low byte only.
  SLUICE_PICK(out.put(u), out.put(static_cast<unsigned char>(u)));
#elif defined(SLUICE_CASE_PUT_INT)
  SLUICE_PICK(out.put(i), out.put(static_cast<char>(i)));
#elif defined(SLUICE_CASE_PUT_CHAR_ARITHMETIC)
  // 'a' + 1 is an int.
  SLUICE_PICK(out.put('a' + 1), out.put(static_cast<char>('a' + 1)));
#endif
  (void)out, (void)data, (void)mutable_text, (void)text, (void)u, (void)i, (void)buffer;
}
