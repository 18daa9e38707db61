// LoaderInstance: creating the instance through the chain (Create), destroying it, and the
// instance extensions the drivers offer.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/direct_drivers.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

namespace {

thread_local LoaderInstance* constructingInstance = nullptr;

}  // namespace

std::vector<VkExtensionProperties> DriverExtensionProperties(const NegotiatedDriver& driver) {
  std::vector<VkExtensionProperties> props;
  const VkResult r = EnumerateTwoCall(props, VkExtensionProperties{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* count, VkExtensionProperties* out) {
    return driver.enumerateInstanceExtensionProperties(nullptr, count, out);
  });
  if (r != VK_SUCCESS) {
    Log(LogLevel::Warn, "vulkan.driver",
        DescribeDriver(driver.description) + ": vkEnumerateInstanceExtensionProperties returned " + std::to_string(r) + "; no extension is passed to it");
    return {};
  }
  // Bounded: a driver that forgets the terminator must not make us read past the element.
  for (auto& p : props) p.extensionName[VK_MAX_EXTENSION_NAME_SIZE - 1] = '\0';
  return props;
}

std::vector<std::string> DriverExtensions(const NegotiatedDriver& driver) {
  std::vector<std::string> names;
  for (const auto& p : DriverExtensionProperties(driver)) names.emplace_back(p.extensionName);
  return names;
}

// A driver's physical devices, through the two-call idiom it may get wrong.
VkResult DriverPhysicalDevices(const DriverInstance& di, std::vector<VkPhysicalDevice>& out) {
  return EnumerateTwoCall(out, VkPhysicalDevice{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* n, VkPhysicalDevice* into) {
    return di.table.EnumeratePhysicalDevices(di.handle, n, into);
  });
}

const std::vector<VkExtensionProperties>& LoaderOwnInstanceExtensions() {
  static const std::vector<VkExtensionProperties> own = [] {
    const std::pair<const char*, uint32_t> list[] = {
        {VK_EXT_DEBUG_REPORT_EXTENSION_NAME, VK_EXT_DEBUG_REPORT_SPEC_VERSION},
        {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_DEBUG_UTILS_SPEC_VERSION},
        {VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME, VK_KHR_PORTABILITY_ENUMERATION_SPEC_VERSION},
        {VK_LUNARG_DIRECT_DRIVER_LOADING_EXTENSION_NAME, VK_LUNARG_DIRECT_DRIVER_LOADING_SPEC_VERSION},
    };
    std::vector<VkExtensionProperties> out;
    for (const auto& [name, version] : list) {
      VkExtensionProperties p{};
      std::snprintf(p.extensionName, sizeof(p.extensionName), "%s", name);
      p.specVersion = version;
      out.push_back(p);
    }
    return out;
  }();
  return own;
}

void AppendExtensions(std::vector<VkExtensionProperties>& list, const std::vector<VkExtensionProperties>& more) {
  for (const auto& e : more) {
    const bool known = std::any_of(list.begin(), list.end(), [&](const VkExtensionProperties& x) {
      return std::strncmp(x.extensionName, e.extensionName, VK_MAX_EXTENSION_NAME_SIZE) == 0;
    });
    if (!known) list.push_back(e);
  }
}

std::vector<VkExtensionProperties> AvailableInstanceExtensions(const InstancePlan& plan, const std::vector<const NegotiatedDriver*>& drivers) {
  std::vector<VkExtensionProperties> out;
  for (const NegotiatedDriver* d : drivers) {
    std::vector<VkExtensionProperties> kept;
    for (const auto& e : DriverExtensionProperties(*d)) {
      const std::string name = e.extensionName;
      if (Contains(plan.withheldInstanceExtensions, name)) {
        Log(LogLevel::Debug, "vulkan.driver", DescribeDriver(d->description) + ": instance extension " + name +
                                                  " is left out: the loader must implement it (window-system surfaces) and does not yet");
      } else if (plan.disableInstanceExtensionFilter || Contains(plan.knownInstanceExtensions, name)) {
        kept.push_back(e);
      } else {
        Log(LogLevel::Debug, "vulkan.driver", DescribeDriver(d->description) + ": instance extension " + name +
                                                  " is unknown to the loader and filtered out (VK_LOADER_DISABLE_INST_EXT_FILTER keeps it)");
      }
    }
    AppendExtensions(out, kept);
  }
  AppendExtensions(out, LoaderOwnInstanceExtensions());
  return out;
}

void LoaderInstance::Report(LogLevel level, const std::string& message) const { Log(level, "vulkan", message); }

std::shared_ptr<LoaderInstance> LoaderInstance::Create(const InstancePlan& plan, const VkInstanceCreateInfo& createInfo) {
  auto li = std::make_shared<LoaderInstance>(PrivateTag{});
  li->plan_ = plan;
  li->createInfoMessengers_ = std::make_unique<CreateInfoMessengers>(createInfo.pNext, li->handle());
  const CreateInfoMessengers::Listening listening(*li->createInfoMessengers_);
  if (createInfo.pApplicationInfo != nullptr && createInfo.pApplicationInfo->apiVersion != 0) {
    li->applicationApiVersion_ = createInfo.pApplicationInfo->apiVersion;
  }
  std::vector<std::string> requested;
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount; ++i) requested.emplace_back(createInfo.ppEnabledExtensionNames[i]);
  const bool portabilityRequested =
      Contains(requested, kPortabilityEnumeration) && (createInfo.flags & kEnumeratePortabilityBit) != 0;

  // Drivers: the application's direct drivers first (VK_LUNARG_direct_driver_loading; the Khronos
  // loader scans them before the manifests), then, unless exclusive, each manifest driver that
  // loads and negotiates; the rest are dropped with their reason.
  std::vector<std::string> failures;
  DirectDrivers direct = ScanDirectDrivers(createInfo);
  for (auto& d : direct.drivers) li->drivers_.push_back(std::move(d));
  const std::vector<DriverDescription> noManifestDrivers;
  for (const DriverDescription& d : direct.exclusive ? noManifestDrivers : plan.drivers) {
    if (d.isPortabilityDriver && !portabilityRequested) {
      const std::string why = DescribeDriver(d) + " is a portability driver: skipped because the application did not enable " +
                              kPortabilityEnumeration + " with VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR";
      Log(LogLevel::Warn, "vulkan.driver", why);
      failures.push_back(why);
      continue;
    }
    try {
      li->drivers_.push_back(std::make_unique<NegotiatedDriver>(LoadDriver(d)));
      if (plan.keepLibrariesMapped) KeepMapped(*li->drivers_.back()->library);
    } catch (const VkError& e) {
      failures.push_back(e.what());
    }
  }
  if (li->drivers_.empty()) {
    std::string message = "vkCreateInstance: no usable Vulkan driver";
    for (const auto& f : failures) message += "; " + f;
    if (direct.exclusive) {
      message += " (VK_LUNARG_direct_driver_loading in exclusive mode: no direct driver could be used, manifest drivers are not loaded)";
    } else if (plan.drivers.empty()) {
      message += " (the plan names no driver)";
    }
    Log(LogLevel::Error, "vulkan", message);
    throw VkError(VK_ERROR_INCOMPATIBLE_DRIVER, message);
  }

  // Layers: those that negotiate, nearest the application first (LLP_LOADER_5).
  for (const LayerDescription& l : plan.layers) {
    if (Contains(li->layerNames_, l.name)) {
      // LLP_LOADER_3: a name already in the chain keeps its first place.
      Log(LogLevel::Warn, "vulkan.layer", "layer " + l.name + " (" + l.libraryPath + ") is listed again; only its first occurrence is used");
      continue;
    }
    try {
      li->layers_.push_back(NegotiateLayer(l));
      if (plan.keepLibrariesMapped) KeepMapped(*li->layers_.back().library);
      li->layerNames_.push_back(l.name);
    } catch (const VkError&) {
      // logged by NegotiateLayer; the layer is not used
    }
  }

  // Enabled extensions: each must come from a driver, an enabled layer or the loader.
  std::vector<const NegotiatedDriver*> loaded;
  for (const auto& d : li->drivers_) loaded.push_back(d.get());
  std::set<std::string> available;
  for (const auto& e : AvailableInstanceExtensions(plan, loaded)) available.insert(e.extensionName);
  for (const auto& l : li->layers_) {
    for (const auto& e : l.description.instanceExtensions) available.insert(e);
  }
  for (const auto& e : requested) {
    if (available.count(e) == 0) {
      const std::string message = "vkCreateInstance: instance extension " + e + " is supported by no driver, enabled layer or the loader";
      Log(LogLevel::Error, "vulkan", message);
      throw VkError(VK_ERROR_EXTENSION_NOT_PRESENT, message);
    }
  }
  li->enabledExtensions_ = requested;

  // The chain (spec "CreateInstance 示例"): link nodes from the application side down; the
  // last points at the loader's terminators.
  const std::size_t n = li->layers_.size();
  std::vector<VkLayerInstanceLink> links(n);
  for (std::size_t i = 0; i < n; ++i) {
    links[i].pNext = i + 1 < n ? &links[i + 1] : nullptr;
    links[i].pfnNextGetInstanceProcAddr = i + 1 < n ? li->layers_[i + 1].getInstanceProcAddr : TerminatorGetInstanceProcAddr;
    links[i].pfnNextGetPhysicalDeviceProcAddr =
        i + 1 < n ? li->layers_[i + 1].getPhysicalDeviceProcAddr : TerminatorGetPhysicalDeviceProcAddr;
  }
  VkLayerInstanceCreateInfo linkInfo{};
  linkInfo.sType = VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO;
  linkInfo.pNext = createInfo.pNext;
  linkInfo.function = VK_LAYER_LINK_INFO;
  linkInfo.u.pLayerInfo = n > 0 ? links.data() : nullptr;
  VkLayerInstanceCreateInfo dataCallback{};
  dataCallback.sType = VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO;
  dataCallback.pNext = &linkInfo;
  dataCallback.function = VK_LOADER_DATA_CALLBACK;
  dataCallback.u.pfnSetInstanceLoaderData = SetInstanceLoaderData;
  VkInstanceCreateInfo chainInfo = createInfo;
  chainInfo.pNext = &dataCallback;

  PFN_vkCreateInstance top = nullptr;
  PFN_vkGetInstanceProcAddr topGetInstanceProcAddr = TerminatorGetInstanceProcAddr;
  if (n > 0) {
    topGetInstanceProcAddr = li->layers_[0].getInstanceProcAddr;
    top = reinterpret_cast<PFN_vkCreateInstance>(topGetInstanceProcAddr(nullptr, "vkCreateInstance"));
    if (top == nullptr) {
      const std::string message = "layer " + li->layers_[0].description.name + " (" + li->layers_[0].description.libraryPath +
                                  "): vkGetInstanceProcAddr(NULL, \"vkCreateInstance\") returned NULL";
      Log(LogLevel::Error, "vulkan", message);
      throw VkError(VK_ERROR_INITIALIZATION_FAILED, message);
    }
  } else {
    top = reinterpret_cast<PFN_vkCreateInstance>(TerminatorGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  }
  VkInstance created = li->handle();  // the terminator finds its LoaderInstance through this
  constructingInstance = li.get();
  const VkResult res = top(&chainInfo, nullptr, &created);
  constructingInstance = nullptr;
  if (res != VK_SUCCESS) {
    const std::string message = "vkCreateInstance down the chain returned " + std::to_string(res);
    Log(LogLevel::Error, "vulkan", message);
    li->driverInstances_.clear();
    li->destroyed_ = true;
    throw VkError(res, message);
  }
  if (created != li->handle()) {
    li->Report(LogLevel::Warn, "a layer returned a VkInstance other than the loader's; calls keep using the loader's handle");
  }
  // The application's table: every instance-level command from the top of the chain.
  gen::fillVkInstanceDispatchTable(li->table_, topGetInstanceProcAddr, li->handle());
  li->wsiTable_.Fill(topGetInstanceProcAddr, li->handle());
  li->Report(LogLevel::Info, "vkCreateInstance: instance created with " + std::to_string(li->layers_.size()) + " layer(s) and " +
                                 std::to_string(li->driverInstances_.size()) + " driver instance(s)");
  return li;
}

void LoaderInstance::Destroy(const VkAllocationCallbacks* allocator) {
  std::vector<std::shared_ptr<LoaderDevice>> devices;
  {
    std::lock_guard lock(mutex_);
    if (destroyed_) return;
    destroyed_ = true;
    devices = devices_;
  }
  const CreateInfoMessengers::Listening listening(*createInfoMessengers_);
  Report(LogLevel::Info, "vkDestroyInstance: destroying the instance (" + std::to_string(devices.size()) + " live device(s)), then unloading " +
                             std::to_string(layers_.size()) + " layer(s) and " + std::to_string(drivers_.size()) + " driver(s)");
  // Children first: devices the application left live.
  for (auto& d : devices) {
    if (!d->destroyed) DestroyDevice(d.get(), allocator);
  }
  if (table_.DestroyInstance != nullptr) table_.DestroyInstance(handle(), allocator);
  table_ = gen::VkInstanceDispatchTable{};
  wsiTable_ = WsiPlatformTable{};
  {
    std::lock_guard lock(mutex_);
    surfaces_.clear();  // the loader's objects of surfaces the application left live
  }
  trampolinePhysicalDevices_.clear();
  terminatorPhysicalDevices_.clear();
  driverInstances_.clear();
  layers_.clear();   // the libraries unload when their last owner lets go
  drivers_.clear();
  handleObject_.magic.Clear();  // the trampolines refuse the handle from now on
}

LoaderInstance* ConstructingInstance() { return constructingInstance; }

}  // namespace kl::vulkan
