#include "vulkan/loader/process_loader.h"

#ifdef _WIN32

namespace kl::vulkan {

// Windows has no SONAME reuse to lean on: a runtime's vulkan-1.dll import is the system's
// loader, and nothing here replaces it.
ProcessVulkanLoader InspectProcessVulkanLoader() { return {}; }

ProcessVulkanLoader ProvideProcessVulkanLoader(const std::string& libraryPath) {
  throw ProcessLoaderRefused("", "the process Vulkan loader (" + libraryPath + ") is for Linux (glibc) only, not Windows");
}

}  // namespace kl::vulkan

#else

#include <dlfcn.h>

#include <mutex>

#include "common/log.h"
#include "vulkan/loader/process_loader_abi.h"
#include "vulkan/loader/trampolines.h"

namespace kl::vulkan {
namespace {

// The object `address` lies in ("" when none).
std::string ObjectOf(const void* address) {
  Dl_info info{};
  return dladdr(address, &info) != 0 && info.dli_fname != nullptr ? info.dli_fname : "";
}

// The file behind a libvulkan.so.1 handle: where its vkGetInstanceProcAddr lies. (Not dlinfo: it
// needs GLIBC_2.34, newer than the prebuilds' glibc 2.28 baseline.)
std::string HandlePath(void* handle) {
  const void* entry = dlsym(handle, "vkGetInstanceProcAddr");
  const std::string path = entry != nullptr ? ObjectOf(entry) : "";
  return path.empty() ? std::string(process_loader::kSoname) + " (its file not found)" : path;
}

// The one process-wide record of the library this addon loaded and bound: it stays loaded until
// the process ends (runtimes loaded later hold pointers into it).
struct ProcessLoaderRegistry {
  std::mutex mutex;
  void* handle = nullptr;
  static ProcessLoaderRegistry& Get() {
    static ProcessLoaderRegistry registry;
    return registry;
  }
};

[[noreturn]] void Refuse(const std::string& library, const std::string& message) {
  Log(LogLevel::Error, "vulkan", message);
  throw ProcessLoaderRefused(library, message);
}

}  // namespace

ProcessVulkanLoader InspectProcessVulkanLoader() {
  void* handle = dlopen(process_loader::kSoname, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return {};
  ProcessVulkanLoader found;
  found.path = HandlePath(handle);
  found.kind = dlsym(handle, process_loader::kBindSymbol) != nullptr ? ProcessVulkanLoader::Kind::ThisPackage : ProcessVulkanLoader::Kind::Other;
  dlclose(handle);  // drops the reference RTLD_NOLOAD took
  return found;
}

ProcessVulkanLoader ProvideProcessVulkanLoader(const std::string& libraryPath) {
  auto& registry = ProcessLoaderRegistry::Get();
  std::lock_guard lock(registry.mutex);
  ProcessVulkanLoader before = InspectProcessVulkanLoader();
  if (before.kind == ProcessVulkanLoader::Kind::ThisPackage && registry.handle != nullptr) return before;
  if (before.kind != ProcessVulkanLoader::Kind::None) {
    Refuse(before.path, "another libvulkan.so.1 is already loaded in this process: " + before.path +
           (before.kind == ProcessVulkanLoader::Kind::ThisPackage ? " (this package's, from another copy of the addon)" : "") +
           "; a runtime loaded now would call its vkGetInstanceProcAddr, not this package's loader. Provide the process "
           "Vulkan loader before anything loads libvulkan.so.1");
  }
  // A vkGetInstanceProcAddr in the global scope (an RTLD_GLOBAL library, the executable) comes
  // before a runtime's own DT_NEEDED libraries in its symbol lookup: it would shadow ours.
  // (Looked up from here, the search also sees this addon's own export: that one is harmless.)
  if (void* global = dlsym(RTLD_DEFAULT, "vkGetInstanceProcAddr")) {
    const std::string owner = ObjectOf(global);
    if (owner != ObjectOf(reinterpret_cast<const void*>(&::vkGetInstanceProcAddr))) {
      Refuse(owner, "vkGetInstanceProcAddr is already exported to the whole process by " + (owner.empty() ? std::string("an unknown object") : owner) +
             "; a runtime would bind to it rather than to this package's libvulkan.so.1");
    }
  }
  void* handle = dlopen(libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    Refuse(libraryPath, "cannot load the process Vulkan loader " + libraryPath + ": " + (why != nullptr ? why : "dlopen failed"));
  }
  auto bind = reinterpret_cast<process_loader::BindFunction>(dlsym(handle, process_loader::kBindSymbol));
  const int bound = bind != nullptr ? bind(&ExportedFunctions()) : -3;
  if (bound != 0) {
    dlclose(handle);
    Refuse(libraryPath, libraryPath + ": " + process_loader::kBindSymbol +
           (bound == -3 ? " is missing" : bound == -1 ? " refused this addon's table (another build)" : " is bound to another copy of the addon"));
  }
  registry.handle = handle;  // never closed
  ProcessVulkanLoader after = InspectProcessVulkanLoader();
  if (after.kind != ProcessVulkanLoader::Kind::ThisPackage) {
    Refuse(libraryPath, libraryPath + " is loaded but dlopen(\"libvulkan.so.1\") does not find it: its SONAME is not libvulkan.so.1, or this C library does not "
                         "reuse loaded objects by SONAME");
  }
  Log(LogLevel::Info, "vulkan", "this process's libvulkan.so.1 is this package's Vulkan loader: " + after.path);
  return after;
}

}  // namespace kl::vulkan

#endif
