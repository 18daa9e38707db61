#include "common/dynamic_library.h"

#ifdef _WIN32
#include "common/windows_headers.h"

#include "common/windows_text.h"
#else
#include <dlfcn.h>
#endif

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

#ifdef _WIN32
// LoadLibraryExW with the path in UTF-16. A fully qualified path is searched with its own folder
// first for the DLLs it imports (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, as the Khronos loaders open
// runtimes and layers), then the application folder and System32 — never the current directory.
// A bare name is left to the standard search. No error dialog box: a missing dependency is an
// error code, reported.
void* OpenNative(const std::string& path) {
  auto wide = windows::Utf8ToWide(path);
  if (!wide) throw LibraryError(path, "", "the path is not valid UTF-8");
  // LoadLibraryExW wants backslashes in a path (manifests may write either).
  for (auto& c : *wide) c = c == L'/' ? L'\\' : c;
  // C:\dir\x.dll or \\server\share\x.dll
  const bool qualified = (wide->size() > 2 && (*wide)[1] == L':' && (*wide)[2] == L'\\') ||
                         (wide->size() > 1 && (*wide)[0] == L'\\' && (*wide)[1] == L'\\');
  const DWORD flags = qualified ? (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS) : 0;
  DWORD previousMode = 0;
  SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &previousMode);
  HMODULE module = LoadLibraryExW(wide->c_str(), nullptr, flags);
  const DWORD error = GetLastError();
  SetThreadErrorMode(previousMode, nullptr);
  if (module == nullptr) throw LibraryError(path, "", windows::ErrorText(error));
  return reinterpret_cast<void*>(module);
}

void CloseNative(void* handle) { FreeLibrary(reinterpret_cast<HMODULE>(handle)); }

bool PinNative(const std::string&, void* handle) {
  HMODULE pinned = nullptr;
  return GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN, reinterpret_cast<LPCWSTR>(handle), &pinned) != 0;
}

void* SymbolNative(void* handle, const char* name) {
  return reinterpret_cast<void*>(GetProcAddress(reinterpret_cast<HMODULE>(handle), name));
}

std::string LastSymbolError() { return windows::ErrorText(GetLastError()); }
#else
std::string LastDlError(const char* fallback) {
  const char* text = dlerror();
  return text != nullptr ? std::string(text) : std::string(fallback);
}

void* OpenNative(const std::string& path) {
  dlerror();  // clear a stale message so the one we report is ours
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw LibraryError(path, "", LastDlError("dlopen failed"));
  return handle;
}

void CloseNative(void* handle) { dlclose(handle); }

// The library is open already (RTLD_NOLOAD finds it by the same name); RTLD_NODELETE marks it never
// to be unloaded, and the extra reference this call took is given back at once.
bool PinNative(const std::string& path, void*) {
  void* again = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE);
  if (again == nullptr) return false;
  dlclose(again);
  return true;
}

void* SymbolNative(void* handle, const char* name) {
  dlerror();
  return dlsym(handle, name);
}

std::string LastSymbolError() { return LastDlError("symbol not found"); }
#endif

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
  void* handle = OpenNative(path);
  auto library = std::make_shared<DynamicLibrary>(PrivateTag{}, path, handle);
  registry.Remember(path, library);
  return library;
}

DynamicLibrary::DynamicLibrary(PrivateTag, std::string path, void* handle) noexcept
    : path_(std::move(path)), handle_(handle) {}

DynamicLibrary::~DynamicLibrary() {
  CloseNative(handle_);
  auto& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.Forget(path_);
}

bool DynamicLibrary::KeepMapped() const noexcept { return PinNative(path_, handle_); }

void* DynamicLibrary::FindSymbol(const char* name) const noexcept { return SymbolNative(handle_, name); }

void* DynamicLibrary::RequireSymbol(const char* name) const {
  void* symbol = SymbolNative(handle_, name);
  if (symbol == nullptr) throw LibraryError(path_, name, LastSymbolError());
  return symbol;
}

std::size_t OpenLibraryCount() {
  auto& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.LiveCount();
}

}  // namespace kl
