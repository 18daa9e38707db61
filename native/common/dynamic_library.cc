#include "common/dynamic_library.h"

#include <dlfcn.h>

#include <mutex>
#include <unordered_map>

namespace kl {

namespace {

// The registry of open libraries: path -> the live object, so that a path opened twice shares
// one handle and one reference count. Entries are weak: the owners decide the lifetime.
class OpenLibraryRegistry {
 public:
  std::shared_ptr<DynamicLibrary> Find(const std::string& path) {
    auto it = libraries_.find(path);
    if (it == libraries_.end()) return nullptr;
    return it->second.lock();
  }
  void Remember(const std::string& path, const std::shared_ptr<DynamicLibrary>& library) {
    libraries_[path] = library;
  }
  void Forget(const std::string& path) {
    auto it = libraries_.find(path);
    if (it != libraries_.end() && it->second.expired()) libraries_.erase(it);
  }
  std::size_t LiveCount() const {
    std::size_t n = 0;
    for (const auto& [path, weak] : libraries_) n += weak.expired() ? 0 : 1;
    return n;
  }
  std::mutex mutex;

 private:
  std::unordered_map<std::string, std::weak_ptr<DynamicLibrary>> libraries_;
};

OpenLibraryRegistry& Registry() {
  static OpenLibraryRegistry registry;
  return registry;
}

std::string LastDlError(const char* fallback) {
  const char* text = dlerror();
  return text != nullptr ? std::string(text) : std::string(fallback);
}

std::string Describe(const std::string& path, const std::string& symbol, const std::string& reason) {
  if (symbol.empty()) return "cannot load library '" + path + "': " + reason;
  return "library '" + path + "' has no symbol '" + symbol + "': " + reason;
}

}  // namespace

LibraryError::LibraryError(std::string path, std::string symbol, std::string reason)
    : std::runtime_error(Describe(path, symbol, reason)),
      path_(std::move(path)),
      symbol_(std::move(symbol)),
      reason_(std::move(reason)) {}

std::shared_ptr<DynamicLibrary> DynamicLibrary::Open(const std::string& path) {
  auto& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (auto existing = registry.Find(path)) return existing;
  dlerror();  // clear a stale message so the one we report is ours
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw LibraryError(path, "", LastDlError("dlopen failed"));
  auto library = std::make_shared<DynamicLibrary>(PrivateTag{}, path, handle);
  registry.Remember(path, library);
  return library;
}

DynamicLibrary::DynamicLibrary(PrivateTag, std::string path, void* handle) noexcept
    : path_(std::move(path)), handle_(handle) {}

DynamicLibrary::~DynamicLibrary() {
  dlclose(handle_);
  auto& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.Forget(path_);
}

void* DynamicLibrary::FindSymbol(const char* name) const noexcept { return dlsym(handle_, name); }

void* DynamicLibrary::RequireSymbol(const char* name) const {
  dlerror();
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) throw LibraryError(path_, name, LastDlError("symbol not found"));
  return symbol;
}

std::size_t OpenLibraryCount() {
  auto& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.LiveCount();
}

}  // namespace kl
