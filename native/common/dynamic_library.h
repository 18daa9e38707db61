// A shared library opened with dlopen (LoadLibraryExW on Windows), owned through shared_ptr: every owner (a loader
// instance, a layer, a test) holds a reference, and the library is closed when the last one
// lets go. Opening the same path twice while it is open yields the same object.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace kl {

// Carries the library path (UTF-8), the symbol (empty when opening failed) and the reason: the
// dlerror() text, or on Windows the system's message for GetLastError() (FormatMessageW).
class LibraryError : public std::runtime_error {
 public:
  LibraryError(std::string path, std::string symbol, std::string reason);
  const std::string& path() const noexcept { return path_; }
  const std::string& symbol() const noexcept { return symbol_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string path_;
  std::string symbol_;
  std::string reason_;
};

class DynamicLibrary {
 public:
  // dlopen(path, RTLD_NOW | RTLD_LOCAL), or LoadLibraryExW with the UTF-8 path in UTF-16 (a fully
  // qualified one searching its own folder for its dependencies); throws LibraryError.
  static std::shared_ptr<DynamicLibrary> Open(const std::string& path);

  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  // nullptr when the library does not export the symbol.
  void* FindSymbol(const char* name) const noexcept;
  // Throws LibraryError naming the symbol when it is absent.
  void* RequireSymbol(const char* name) const;

  template <typename Fn>
  Fn FindFunction(const char* name) const noexcept {
    return reinterpret_cast<Fn>(FindSymbol(name));
  }
  template <typename Fn>
  Fn RequireFunction(const char* name) const {
    return reinterpret_cast<Fn>(RequireSymbol(name));
  }

  const std::string& path() const noexcept { return path_; }

  // Keeps the library mapped for the rest of the process, whoever lets go of it later
  // (VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING): dlopen with RTLD_NOLOAD | RTLD_NODELETE on the
  // open library, or a pinned module handle on Windows. false when the system refused.
  bool KeepMapped() const noexcept;

 private:
  struct PrivateTag {};

 public:
  DynamicLibrary(PrivateTag, std::string path, void* handle) noexcept;

 private:
  std::string path_;
  void* handle_;
};

// How many DynamicLibrary objects are open right now (for tests and diagnostics).
std::size_t OpenLibraryCount();

}  // namespace kl
