// Test components report what happened to them by appending lines to the file named by
// KL_TEST_TRACE (read at every write, so a test can point it at a fresh file before each case).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kl_test {

inline void Trace(const std::string& line) {
  const char* path = std::getenv("KL_TEST_TRACE");
  if (path == nullptr || path[0] == '\0') return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fputs(line.c_str(), f);
    std::fputc('\n', f);
    std::fclose(f);
  }
}

}  // namespace kl_test
