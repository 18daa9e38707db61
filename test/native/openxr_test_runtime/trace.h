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

// "type,version,size,minInterface,maxInterface,minApi,maxApi" of what the loader sent.
template <typename LoaderInfo>
std::string DescribeLoaderInfo(const LoaderInfo* i) {
  if (i == nullptr) return "null";
  return std::to_string(i->structType) + "," + std::to_string(i->structVersion) + "," + std::to_string(i->structSize) + "," +
         std::to_string(i->minInterfaceVersion) + "," + std::to_string(i->maxInterfaceVersion) + "," +
         std::to_string(i->minApiVersion) + "," + std::to_string(i->maxApiVersion);
}

// "type,version,size" of a request header.
template <typename Request>
std::string DescribeHeader(const Request* r) {
  if (r == nullptr) return "null";
  return std::to_string(r->structType) + "," + std::to_string(r->structVersion) + "," + std::to_string(r->structSize);
}

}  // namespace kl_test
