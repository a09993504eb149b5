// The consumer projects' program: writes a few lines with sluice::writer to
// argv[1], reads them back and exits non-zero if they differ.
#include <fstream>
#include <iterator>
#include <sluice/sluice.hpp>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  sluice::writer out(argv[1]);
  out.write("sluice ");
  out.print(42);
  out.put('\n');
  out.close();
  std::ifstream in(argv[1], std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {}) == "sluice 42\n" ? 0 : 1;
}
