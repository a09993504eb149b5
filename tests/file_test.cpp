#include <gtest/gtest.h>
#include <sluice/sluice.hpp>

TEST(smoke, writes) {
  sluice::writer w("/tmp/sluice-smoke.txt");
  w.print(42);
  w.put('\n');
  w.close();
}
