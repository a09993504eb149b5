// Writes the first million squares, one per line, to the file named on the
// command line (default numbers.txt), and reports any error.
#include <cstdio>
#include <sluice/sluice.hpp>
#include <system_error>

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : "numbers.txt";
  try {
    sluice::writer out(path);
    for (long long i = 0; i < 1'000'000; ++i) {  // long is 32 bits on Windows
      out.print(i * i);
      out.put('\n');
    }
    out.close();  // throws if a byte could not be written
  } catch (const std::system_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
