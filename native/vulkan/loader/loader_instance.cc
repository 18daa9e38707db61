#include "vulkan/loader/loader_instance.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"

namespace kl::vulkan {

namespace {

constexpr const char* kPortabilityEnumeration = "VK_KHR_portability_enumeration";
constexpr VkFlags kEnumeratePortabilityBit = 0x00000001;  // VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR

thread_local LoaderInstance* constructingInstance = nullptr;

std::vector<std::string> DriverExtensions(const NegotiatedDriver& driver) {
  std::vector<std::string> names;
  std::vector<VkExtensionProperties> props;
  const VkResult r = EnumerateTwoCall(props, VkExtensionProperties{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* count, VkExtensionProperties* out) {
    return driver.enumerateInstanceExtensionProperties(nullptr, count, out);
  });
  if (r != VK_SUCCESS) {
    Log(LogLevel::Warn, "vulkan.driver",
        DescribeDriver(driver.description) + ": vkEnumerateInstanceExtensionProperties returned " + std::to_string(r) + "; no extension is passed to it");
    return names;
  }
  // Bounded: a driver that forgets the terminator must not make us read past the element.
  for (const auto& p : props) names.emplace_back(p.extensionName, strnlen(p.extensionName, VK_MAX_EXTENSION_NAME_SIZE));
  return names;
}

// A driver's physical devices, through the two-call idiom it may get wrong.
VkResult DriverPhysicalDevices(const DriverInstance& di, std::vector<VkPhysicalDevice>& out) {
  return EnumerateTwoCall(out, VkPhysicalDevice{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* n, VkPhysicalDevice* into) {
    return di.table.EnumeratePhysicalDevices(di.handle, n, into);
  });
}

bool Contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

bool InRanges(const std::vector<std::pair<uint32_t, uint32_t>>& ranges, uint32_t value) {
  if (ranges.empty()) return true;
  return std::any_of(ranges.begin(), ranges.end(), [&](const auto& r) { return value >= r.first && value <= r.second; });
}

// Linux order of the Khronos loader: discrete, integrated, virtual, CPU, other.
// The Khronos loader's Linux order of device types (loader_linux.c): discrete, integrated,
// virtual, other, CPU, then anything unknown.
int TypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_OTHER: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 5;
  }
}

constexpr const char* kGetPhysicalDeviceProperties2 = "VK_KHR_get_physical_device_properties2";
constexpr const char* kDeviceGroupCreation = "VK_KHR_device_group_creation";

bool IsVulkan10(uint32_t version) { return VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) == 0; }

// compare_devices of the Khronos loader on Linux, without its default-device rule: type, then
// devices with PCI bus info before those without, by domain, bus, device, function, then
// deviceID XOR vendorID. Negative: a first.
int CompareLinux(const PhysicalDeviceObject& a, const PhysicalDeviceObject& b) {
  const int ta = TypeRank(a.properties.deviceType), tb = TypeRank(b.properties.deviceType);
  if (ta != tb) return ta < tb ? -1 : 1;
  if (a.hasPciBusInfo != b.hasPciBusInfo) return a.hasPciBusInfo ? -1 : 1;
  if (a.hasPciBusInfo) {
    const std::array<uint32_t, 4> pa{a.pciDomain, a.pciBus, a.pciDevice, a.pciFunction};
    const std::array<uint32_t, 4> pb{b.pciDomain, b.pciBus, b.pciDevice, b.pciFunction};
    if (pa != pb) return pa < pb ? -1 : 1;
  }
  const uint32_t xa = a.properties.deviceID ^ a.properties.vendorID, xb = b.properties.deviceID ^ b.properties.vendorID;
  return xa == xb ? 0 : (xa < xb ? -1 : 1);
}

// Whether the driver offers VK_EXT_pci_bus_info for this device, and then its address.
void ReadPciBusInfo(const DriverInstance& di, uint32_t applicationApiVersion, PhysicalDeviceObject& o) {
  o.hasPciBusInfo = false;
  if (di.table.EnumerateDeviceExtensionProperties == nullptr) return;
  uint32_t count = 0;
  if (di.table.EnumerateDeviceExtensionProperties(o.next, nullptr, &count, nullptr) != VK_SUCCESS || count == 0) return;
  std::vector<VkExtensionProperties> extensions(count);
  if (di.table.EnumerateDeviceExtensionProperties(o.next, nullptr, &count, extensions.data()) < 0) return;
  const bool offered = std::any_of(extensions.begin(), extensions.begin() + std::min<std::size_t>(count, extensions.size()),
                                   [](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME) == 0; });
  if (!offered) return;
  // As the Khronos loader: the core function when application and device are 1.1+, else the KHR one.
  const bool core = !IsVulkan10(applicationApiVersion) && o.properties.apiVersion >= VK_API_VERSION_1_1;
  const PFN_vkGetPhysicalDeviceProperties2 get =
      core ? di.table.GetPhysicalDeviceProperties2 : reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(di.table.GetPhysicalDeviceProperties2KHR);
  if (get == nullptr) return;
  VkPhysicalDevicePCIBusInfoPropertiesEXT pci{};
  pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props2.pNext = &pci;
  get(o.next, &props2);
  o.hasPciBusInfo = true;
  o.pciDomain = pci.pciDomain;
  o.pciBus = pci.pciBus;
  o.pciDevice = pci.pciDevice;
  o.pciFunction = pci.pciFunction;
}

}  // namespace

std::vector<std::string> AvailableInstanceExtensions(const InstancePlan& plan, const std::vector<const NegotiatedDriver*>& drivers) {
  std::set<std::string> names{kPortabilityEnumeration};
  for (const NegotiatedDriver* d : drivers) {
    for (auto& e : DriverExtensions(*d)) {
      if (plan.disableInstanceExtensionFilter || Contains(plan.knownInstanceExtensions, e)) {
        names.insert(std::move(e));
      } else {
        Log(LogLevel::Debug, "vulkan.driver", DescribeDriver(d->description) + ": instance extension " + e +
                                                  " is unknown to the loader and filtered out (VK_LOADER_DISABLE_INST_EXT_FILTER keeps it)");
      }
    }
  }
  return {names.begin(), names.end()};
}

LoaderDevice*& LoaderInstance::ConstructingDevice() {
  thread_local LoaderDevice* device = nullptr;
  return device;
}

void LoaderDevice::ReportMissingLoaderMagic(const void* object, const char* what) noexcept {
  try {
    Log(LogLevel::Error, "vulkan",
        std::string(what) + " " + std::to_string(reinterpret_cast<uintptr_t>(object)) +
            " from the driver does not start with the loader magic value 0x01CDC0DE (LoaderDriverInterface: dispatchable objects)");
  } catch (...) {
    // Out of memory while building the message: the caller still refuses the object.
  }
}

void LoaderDevice::FillUnknownSlot(std::size_t slot, const std::string& name) {
  dispatch.unknown[slot] = topGetDeviceProcAddr != nullptr ? topGetDeviceProcAddr(handle, name.c_str()) : nullptr;
}

void LoaderInstance::Report(LogLevel level, const std::string& message) const { Log(level, "vulkan", message); }

LoaderInstance::CreateInfoMessengers::CreateInfoMessengers(const void* pNext) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) {
      VkDebugUtilsMessengerCreateInfoEXT copy = *reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
      copy.pNext = nullptr;
      if (copy.pfnUserCallback != nullptr) messengers_.push_back(copy);
    }
  }
}

void LoaderInstance::CreateInfoMessengers::Deliver(const LogRecord& record) const {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
  switch (record.level) {
    case LogLevel::Error: severity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT; break;
    case LogLevel::Warn: severity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT; break;
    case LogLevel::Info: severity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT; break;
    case LogLevel::Debug: break;
  }
  VkDebugUtilsMessengerCallbackDataEXT data{};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessageIdName = "Loader Message";
  data.pMessage = record.message.c_str();
  for (const auto& m : messengers_) {
    if ((m.messageSeverity & severity) != 0 && (m.messageType & VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT) != 0) {
      m.pfnUserCallback(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data, m.pUserData);
    }
  }
}

LoaderInstance::CreateInfoMessengers::Listening::Listening(const CreateInfoMessengers& messengers) {
  if (messengers.messengers_.empty()) return;
  const std::thread::id thread = std::this_thread::get_id();
  token_ = LogSinkRegistry::Get().Add([&messengers, thread](const LogRecord& record) {
    if (std::this_thread::get_id() == thread && record.source.starts_with("vulkan")) messengers.Deliver(record);
  });
}

LoaderInstance::CreateInfoMessengers::Listening::~Listening() {
  if (token_ != 0) LogSinkRegistry::Get().Remove(token_);
}

std::shared_ptr<LoaderInstance> LoaderInstance::Create(const InstancePlan& plan, const VkInstanceCreateInfo& createInfo) {
  auto li = std::make_shared<LoaderInstance>(PrivateTag{});
  li->plan_ = plan;
  li->createInfoMessengers_ = std::make_unique<CreateInfoMessengers>(createInfo.pNext);
  const CreateInfoMessengers::Listening listening(*li->createInfoMessengers_);
  if (createInfo.pApplicationInfo != nullptr && createInfo.pApplicationInfo->apiVersion != 0) {
    li->applicationApiVersion_ = createInfo.pApplicationInfo->apiVersion;
  }
  std::vector<std::string> requested;
  for (uint32_t i = 0; i < createInfo.enabledExtensionCount; ++i) requested.emplace_back(createInfo.ppEnabledExtensionNames[i]);
  const bool portabilityRequested =
      Contains(requested, kPortabilityEnumeration) && (createInfo.flags & kEnumeratePortabilityBit) != 0;

  // Drivers: each one that loads and negotiates; the rest are dropped with their reason.
  std::vector<std::string> failures;
  for (const DriverDescription& d : plan.drivers) {
    if (d.isPortabilityDriver && !portabilityRequested) {
      const std::string why = DescribeDriver(d) + " is a portability driver: skipped because the application did not enable " +
                              kPortabilityEnumeration + " with VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR";
      Log(LogLevel::Warn, "vulkan.driver", why);
      failures.push_back(why);
      continue;
    }
    try {
      li->drivers_.push_back(std::make_unique<NegotiatedDriver>(LoadDriver(d)));
    } catch (const VkError& e) {
      failures.push_back(e.what());
    }
  }
  if (li->drivers_.empty()) {
    std::string message = "vkCreateInstance: no usable Vulkan driver";
    for (const auto& f : failures) message += "; " + f;
    if (plan.drivers.empty()) message += " (the plan names no driver)";
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
      li->layerNames_.push_back(l.name);
    } catch (const VkError&) {
      // logged by NegotiateLayer; the layer is not used
    }
  }

  // Enabled extensions: each must come from a driver, an enabled layer or the loader.
  std::vector<const NegotiatedDriver*> loaded;
  for (const auto& d : li->drivers_) loaded.push_back(d.get());
  const std::vector<std::string> fromDrivers = AvailableInstanceExtensions(plan, loaded);
  std::set<std::string> available(fromDrivers.begin(), fromDrivers.end());
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
  li->Report(LogLevel::Info, "vkCreateInstance: instance created with " + std::to_string(li->layers_.size()) + " layer(s) and " +
                                 std::to_string(li->driverInstances_.size()) + " driver instance(s)");
  return li;
}

namespace {
// The one registry of the VkInstance handles whose LoaderInstance exists now.
struct LiveInstanceRegistry {
  std::mutex mutex;
  std::unordered_set<const void*> handles;
  static LiveInstanceRegistry& Get() {
    static LiveInstanceRegistry registry;
    return registry;
  }
};
}  // namespace

LoaderInstance::LoaderInstance(PrivateTag) {
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  live.handles.insert(&handleObject_);
}

bool LoaderInstance::IsLive(VkInstance instance) noexcept {
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  return live.handles.contains(instance);
}

LoaderInstance::~LoaderInstance() {
  if (!destroyed_) Destroy(nullptr);
  auto& live = LiveInstanceRegistry::Get();
  std::lock_guard lock(live.mutex);
  live.handles.erase(&handleObject_);
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
  trampolinePhysicalDevices_.clear();
  terminatorPhysicalDevices_.clear();
  driverInstances_.clear();
  layers_.clear();   // the libraries unload when their last owner lets go
  drivers_.clear();
  handleObject_.magic.Clear();  // the trampolines refuse the handle from now on
}

// ---- physical devices ----

VkResult LoaderInstance::EnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::vector<VkPhysicalDevice> chain;
  const VkResult res = EnumerateTwoCall(chain, VkPhysicalDevice{}, VK_INCOMPLETE, [&](uint32_t, uint32_t* n, VkPhysicalDevice* out) {
    return table_.EnumeratePhysicalDevices(handle(), n, out);
  });
  if (res != VK_SUCCESS) return res;
  std::lock_guard lock(mutex_);
  // One trampoline object per chain handle, kept for the instance's life (handles stay stable).
  std::vector<VkPhysicalDevice> wrapped;
  for (VkPhysicalDevice pd : chain) {
    auto it = std::find_if(trampolinePhysicalDevices_.begin(), trampolinePhysicalDevices_.end(),
                           [&](const auto& o) { return o->next == pd; });
    if (it == trampolinePhysicalDevices_.end()) {
      auto o = std::make_unique<PhysicalDeviceObject>(HandleMagic::TrampolinePhysicalDevice);
      o->dispatch = &table_;
      o->next = pd;
      o->unknown = trampolineUnknownPhysical_.data();
      o->owner = this;
      o->driver = nullptr;
      trampolinePhysicalDevices_.push_back(std::move(o));
      it = trampolinePhysicalDevices_.end() - 1;
    }
    wrapped.push_back(reinterpret_cast<VkPhysicalDevice>(it->get()));
  }
  if (devices == nullptr) {
    *count = static_cast<uint32_t>(wrapped.size());
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min<uint32_t>(*count, static_cast<uint32_t>(wrapped.size()));
  std::copy_n(wrapped.begin(), copy, devices);
  *count = copy;
  return copy < wrapped.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult LoaderInstance::EnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  if (table_.EnumeratePhysicalDeviceGroups == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  // Make sure the trampoline objects exist, then translate the chain's handles.
  uint32_t n = 0;
  VkResult res = EnumeratePhysicalDevices(&n, nullptr);
  if (res != VK_SUCCESS) return res;
  std::vector<VkPhysicalDevice> all(n);
  EnumeratePhysicalDevices(&n, all.data());
  res = table_.EnumeratePhysicalDeviceGroups(handle(), count, groups);
  if (res < 0 || groups == nullptr) return res;
  std::lock_guard lock(mutex_);
  for (uint32_t g = 0; g < *count; ++g) {
    for (uint32_t i = 0; i < groups[g].physicalDeviceCount; ++i) {
      for (const auto& o : trampolinePhysicalDevices_) {
        if (o->next == groups[g].physicalDevices[i]) groups[g].physicalDevices[i] = reinterpret_cast<VkPhysicalDevice>(o.get());
      }
    }
  }
  return res;
}

void LoaderInstance::CollectTerminatorPhysicalDevices() {
  if (terminatorPhysicalDevicesCollected_) return;
  terminatorPhysicalDevicesCollected_ = true;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> all;
  // The Khronos loader keeps its drivers in a list it prepends to, so their devices come last
  // driver first; the sort below is stable, so that order decides its ties.
  for (auto it = driverInstances_.rbegin(); it != driverInstances_.rend(); ++it) {
    auto& di = *it;
    if (di->table.EnumeratePhysicalDevices == nullptr) continue;
    std::vector<VkPhysicalDevice> handles;
    const VkResult listed = DriverPhysicalDevices(*di, handles);
    if (listed != VK_SUCCESS) {
      Report(LogLevel::Warn, DescribeDriver(di->driver->description) + ": vkEnumeratePhysicalDevices returned " + std::to_string(listed) +
                                 "; its devices are left out");
      continue;
    }
    for (std::size_t i = 0; i < handles.size(); ++i) {
      auto o = std::make_unique<PhysicalDeviceObject>(HandleMagic::TerminatorPhysicalDevice);
      o->dispatch = &table_;
      o->next = handles[i];
      o->unknown = di->unknownPhysical.data();
      o->owner = this;
      o->driver = di.get();
      std::memset(&o->properties, 0, sizeof(o->properties));
      di->table.GetPhysicalDeviceProperties(handles[i], &o->properties);
      o->driverId = 0;
      if (o->properties.apiVersion >= VK_API_VERSION_1_2 && di->table.GetPhysicalDeviceProperties2 != nullptr) {
        VkPhysicalDeviceDriverProperties driverProps{};
        driverProps.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        VkPhysicalDeviceProperties2 props2{};
        props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        props2.pNext = &driverProps;
        di->table.GetPhysicalDeviceProperties2(handles[i], &props2);
        o->driverId = static_cast<uint32_t>(driverProps.driverID);
      }
      if (LinuxSortEnabled()) ReadPciBusInfo(*di, terminatorApiVersion_, *o);
      else o->hasPciBusInfo = false;
      all.push_back(std::move(o));
    }
  }
  // The device filters of the current Khronos loader.
  const DeviceFilters& f = plan_.deviceFilters;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> kept;
  for (auto& o : all) {
    const auto& p = o->properties;
    std::string why;
    if (!InRanges(f.deviceIdRanges, p.deviceID)) why = "VK_LOADER_DEVICE_ID_FILTER";
    else if (!InRanges(f.vendorIdRanges, p.vendorID)) why = "VK_LOADER_VENDOR_ID_FILTER";
    else if (!InRanges(f.driverIdRanges, o->driverId)) why = "VK_LOADER_DRIVER_ID_FILTER";
    if (!why.empty()) {
      Report(LogLevel::Info, std::string("physical device ") + p.deviceName + " left out by " + why);
      continue;
    }
    kept.push_back(std::move(o));
  }
  // The Khronos loader's Linux sort (linux_read_sorted_physical_devices): the VK_LOADER_DEVICE_SELECT
  // device first, then CompareLinux; stable (glibc's qsort is a merge sort), so ties keep the
  // drivers' order. Off without vkGetPhysicalDeviceProperties2 or with VK_LOADER_DISABLE_SELECT.
  if (LinuxSortEnabled()) {
    std::stable_sort(kept.begin(), kept.end(), [&](const auto& a, const auto& b) {
      if (IsDefaultDevice(*a) != IsDefaultDevice(*b)) return IsDefaultDevice(*a);
      return CompareLinux(*a, *b) < 0;
    });
  }
  terminatorPhysicalDevices_ = std::move(kept);
}

bool LoaderInstance::IsDefaultDevice(const PhysicalDeviceObject& o) const noexcept {
  const DeviceFilters& f = plan_.deviceFilters;
  return f.hasDeviceSelect && o.properties.vendorID == f.selectVendorId && o.properties.deviceID == f.selectDeviceId;
}

VkResult LoaderInstance::TerminatorEnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::lock_guard lock(mutex_);
  CollectTerminatorPhysicalDevices();
  const uint32_t total = static_cast<uint32_t>(terminatorPhysicalDevices_.size());
  if (devices == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min(*count, total);
  for (uint32_t i = 0; i < copy; ++i) devices[i] = reinterpret_cast<VkPhysicalDevice>(terminatorPhysicalDevices_[i].get());
  *count = copy;
  return copy < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult LoaderInstance::TerminatorEnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups) {
  // As the Khronos loader: each driver's own groups (vkEnumeratePhysicalDeviceGroups, or the KHR
  // command when VK_KHR_device_group_creation is enabled), each device of a driver without it a
  // group of one; on Linux the devices in each group, then the groups by their first device, sorted
  // as the physical devices are. Devices a filter left out leave their groups.
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::lock_guard lock(mutex_);
  CollectTerminatorPhysicalDevices();
  auto ours = [&](VkPhysicalDevice driverHandle) -> PhysicalDeviceObject* {
    for (const auto& o : terminatorPhysicalDevices_) {
      if (o->next == driverHandle) return o.get();
    }
    return nullptr;
  };
  std::vector<std::vector<PhysicalDeviceObject*>> all;
  std::vector<VkBool32> subset;
  for (auto it = driverInstances_.rbegin(); it != driverInstances_.rend(); ++it) {  // last driver first, as the devices
    auto& di = *it;
    const PFN_vkEnumeratePhysicalDeviceGroups enumerate =
        deviceGroupCreationEnabled_ ? reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroups>(di->table.EnumeratePhysicalDeviceGroupsKHR)
                                    : di->table.EnumeratePhysicalDeviceGroups;
    std::vector<std::pair<std::vector<VkPhysicalDevice>, VkBool32>> driverGroups;
    if (enumerate == nullptr) {
      std::vector<VkPhysicalDevice> handles;
      if (DriverPhysicalDevices(*di, handles) != VK_SUCCESS) continue;
      for (VkPhysicalDevice h : handles) driverGroups.push_back({{h}, VK_FALSE});
    } else {
      uint32_t n = 0;
      if (enumerate(di->handle, &n, nullptr) != VK_SUCCESS) {
        Report(LogLevel::Warn, DescribeDriver(di->driver->description) + ": vkEnumeratePhysicalDeviceGroups failed; its groups are left out");
        continue;
      }
      std::vector<VkPhysicalDeviceGroupProperties> props(n);
      for (auto& p : props) p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
      if (enumerate(di->handle, &n, props.data()) < 0) continue;
      for (uint32_t g = 0; g < std::min<std::size_t>(n, props.size()); ++g) {
        const uint32_t size = std::min<uint32_t>(props[g].physicalDeviceCount, VK_MAX_DEVICE_GROUP_SIZE);
        driverGroups.push_back({std::vector<VkPhysicalDevice>(props[g].physicalDevices, props[g].physicalDevices + size), props[g].subsetAllocation});
      }
    }
    for (const auto& [handles, subsetAllocation] : driverGroups) {
      std::vector<PhysicalDeviceObject*> members;
      for (VkPhysicalDevice h : handles) {
        if (PhysicalDeviceObject* o = ours(h)) members.push_back(o);
      }
      if (members.empty()) continue;
      all.push_back(std::move(members));
      subset.push_back(subsetAllocation);
    }
  }
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (LinuxSortEnabled()) {
    auto before = [&](const PhysicalDeviceObject* a, const PhysicalDeviceObject* b) {
      if (IsDefaultDevice(*a) != IsDefaultDevice(*b)) return IsDefaultDevice(*a);
      return CompareLinux(*a, *b) < 0;
    };
    for (auto& members : all) std::stable_sort(members.begin(), members.end(), before);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return before(all[a].front(), all[b].front()); });
  }
  const uint32_t total = static_cast<uint32_t>(all.size());
  if (groups == nullptr) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t copy = std::min(*count, total);
  for (uint32_t i = 0; i < copy; ++i) {
    const auto& members = all[order[i]];
    groups[i].physicalDeviceCount = static_cast<uint32_t>(members.size());
    std::fill(std::begin(groups[i].physicalDevices), std::end(groups[i].physicalDevices), nullptr);
    for (std::size_t m = 0; m < members.size(); ++m) groups[i].physicalDevices[m] = reinterpret_cast<VkPhysicalDevice>(members[m]);
    groups[i].subsetAllocation = subset[order[i]];
  }
  *count = copy;
  return copy < total ? VK_INCOMPLETE : VK_SUCCESS;
}

// ---- devices ----

// A device whose driver made a queue without the loader magic gets these in its table's two
// slots: the chain's function, then the queue refused (NULL, and logged) unless it carries the
// magic or already the table. The trampolines then store the table only into a queue let through.
namespace {
void RefuseWithoutMagic(LoaderDevice* ld, VkQueue* queue) noexcept {
  if (*queue != nullptr && !LoaderDevice::SetDispatch(*queue, &ld->dispatch.table, "VkQueue")) *queue = nullptr;
}
void VKAPI_CALL CheckingGetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* queue) {
  LoaderDevice* ld = LoaderDevice::FromObject(device);
  ld->uncheckedGetDeviceQueue(device, family, index, queue);
  RefuseWithoutMagic(ld, queue);
}
void VKAPI_CALL CheckingGetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info, VkQueue* queue) {
  LoaderDevice* ld = LoaderDevice::FromObject(device);
  if (ld->uncheckedGetDeviceQueue2 == nullptr) {  // not in the chain (a 1.0 device): nothing to get
    *queue = nullptr;
    return;
  }
  ld->uncheckedGetDeviceQueue2(device, info, queue);
  RefuseWithoutMagic(ld, queue);
}
}  // namespace

VkResult LoaderInstance::CreateDevice(PhysicalDeviceObject* physicalDevice, const VkDeviceCreateInfo* info,
                                      const VkAllocationCallbacks* allocator, VkDevice* device) {
  if (info == nullptr || device == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  auto ld = std::make_shared<LoaderDevice>();
  ld->instance = this;
  ld->dispatch.owner = ld.get();

  // Device chain (spec "层调度初始化"): VkLayerDeviceLink per layer that has its own
  // vkGetDeviceProcAddr (as the Khronos loader, a layer without one stays out of the device
  // chain), the last pointing at the loader's terminator vkGetInstanceProcAddr and the
  // terminator vkGetDeviceProcAddr.
  std::vector<const NegotiatedLayer*> deviceLayers;
  for (const auto& l : layers_) {
    if (l.getDeviceProcAddr != nullptr) deviceLayers.push_back(&l);
  }
  const std::size_t n = deviceLayers.size();
  std::vector<VkLayerDeviceLink> links(n);
  for (std::size_t i = 0; i < n; ++i) {
    links[i].pNext = i + 1 < n ? &links[i + 1] : nullptr;
    links[i].pfnNextGetInstanceProcAddr = i + 1 < n ? deviceLayers[i + 1]->getInstanceProcAddr : TerminatorGetInstanceProcAddr;
    links[i].pfnNextGetDeviceProcAddr = i + 1 < n ? deviceLayers[i + 1]->getDeviceProcAddr : TerminatorGetDeviceProcAddr;
  }
  VkLayerDeviceCreateInfo linkInfo{};
  linkInfo.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO;
  linkInfo.pNext = info->pNext;
  linkInfo.function = VK_LAYER_LINK_INFO;
  linkInfo.u.pLayerInfo = n > 0 ? links.data() : nullptr;
  VkLayerDeviceCreateInfo dataCallback{};
  dataCallback.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO;
  dataCallback.pNext = &linkInfo;
  dataCallback.function = VK_LOADER_DATA_CALLBACK;
  dataCallback.u.pfnSetDeviceLoaderData = SetDeviceLoaderData;
  VkDeviceCreateInfo chainInfo = *info;
  chainInfo.pNext = &dataCallback;

  PFN_vkCreateDevice top = n > 0 ? reinterpret_cast<PFN_vkCreateDevice>(deviceLayers[0]->getInstanceProcAddr(handle(), "vkCreateDevice"))
                                 : reinterpret_cast<PFN_vkCreateDevice>(TerminatorGetInstanceProcAddr(handle(), "vkCreateDevice"));
  if (top == nullptr) {
    Report(LogLevel::Error, "vkCreateDevice: the top of the chain has no vkCreateDevice");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  LoaderDevice*& constructing = ConstructingDevice();
  LoaderDevice* previous = constructing;
  constructing = ld.get();
  VkDevice created = nullptr;
  const VkResult res = top(physicalDevice->next, &chainInfo, allocator, &created);
  constructing = previous;
  if (res != VK_SUCCESS) return res;
  if (ld->handle == nullptr) {
    Report(LogLevel::Error, "vkCreateDevice succeeded but never reached the loader's terminator");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  // The device table from the top of the chain: the first layer's vkGetDeviceProcAddr, or the
  // driver's own when no layer is enabled (device commands then go straight to the driver).
  ld->topGetDeviceProcAddr = n > 0 ? deviceLayers[0]->getDeviceProcAddr : ld->driver->getDeviceProcAddr;
  ld->handle = created;
  gen::fillVkDeviceDispatchTable(ld->dispatch.table, ld->topGetDeviceProcAddr, created);
  if (!ld->queuesCarryMagic) {
    ld->uncheckedGetDeviceQueue = std::exchange(ld->dispatch.table.GetDeviceQueue, CheckingGetDeviceQueue);
    ld->uncheckedGetDeviceQueue2 = std::exchange(ld->dispatch.table.GetDeviceQueue2, CheckingGetDeviceQueue2);
  }
  const std::size_t slots = UnknownCommandSlots::Get().Count();
  for (std::size_t s = 0; s < slots; ++s) ld->FillUnknownSlot(s, UnknownCommandSlots::Get().NameOf(s));
  {
    std::lock_guard lock(mutex_);
    devices_.push_back(ld);
  }
  *device = created;
  return VK_SUCCESS;
}

void LoaderInstance::DestroyDevice(LoaderDevice* device, const VkAllocationCallbacks* allocator) {
  if (device == nullptr || device->destroyed) return;
  device->destroyed = true;
  device->dispatch.magic.Clear();  // the trampolines refuse its device, queues and command buffers from now on
  if (device->dispatch.table.DestroyDevice != nullptr) device->dispatch.table.DestroyDevice(device->handle, allocator);
  std::lock_guard lock(mutex_);
  devices_.erase(std::remove_if(devices_.begin(), devices_.end(), [&](const auto& d) { return d.get() == device; }), devices_.end());
}

std::shared_ptr<LoaderDevice> LoaderInstance::SharedDevice(VkDevice device) const {
  std::lock_guard lock(mutex_);
  for (const auto& d : devices_) {
    if (d->handle == device) return d;
  }
  return nullptr;
}

PhysicalDeviceObject* LoaderInstance::FindPhysicalDevice(VkPhysicalDevice physicalDevice) const {
  std::lock_guard lock(mutex_);
  for (const auto& o : trampolinePhysicalDevices_) {
    if (reinterpret_cast<VkPhysicalDevice>(o.get()) == physicalDevice) return o.get();
  }
  return nullptr;
}

// ---- unknown commands ----

PFN_vkVoidFunction LoaderInstance::UnknownCommand(const char* name) {
  if (std::strncmp(name, "vk", 2) != 0) return nullptr;
  // Step 3: a physical-device command if a layer or a driver says so through GetPhysicalDeviceProcAddr.
  PFN_vkVoidFunction top = nullptr;
  for (const auto& l : layers_) {
    if (l.getPhysicalDeviceProcAddr != nullptr) {
      top = l.getPhysicalDeviceProcAddr(handle(), name);
      if (top != nullptr) break;
    }
  }
  if (top == nullptr) top = TerminatorGetPhysicalDeviceProcAddr(handle(), name);
  const auto slot = UnknownCommandSlots::Get().SlotFor(name);
  if (!slot) {
    Report(LogLevel::Warn, std::string("vkGetInstanceProcAddr: no free slot for the unknown command ") + name);
    return nullptr;
  }
  if (top != nullptr) {
    trampolineUnknownPhysical_[*slot] = top;
    return PhysicalDeviceStub(*slot);
  }
  // Step 4: an unknown device command, resolved per device through vkGetDeviceProcAddr.
  std::lock_guard lock(mutex_);
  for (auto& d : devices_) d->FillUnknownSlot(*slot, name);
  return DeviceStub(*slot);
}

PFN_vkVoidFunction LoaderInstance::TerminatorUnknownPhysicalDeviceCommand(const char* name) {
  const auto slot = UnknownCommandSlots::Get().SlotFor(name);
  if (!slot) return nullptr;
  bool any = false;
  for (auto& di : driverInstances_) {
    PFN_vkVoidFunction fn = nullptr;
    if (di->driver->getPhysicalDeviceProcAddr != nullptr) fn = di->driver->getPhysicalDeviceProcAddr(di->handle, name);
    di->unknownPhysical[*slot] = fn;
    any = any || fn != nullptr;
  }
  return any ? PhysicalDeviceStub(*slot) : nullptr;
}

// ---- the instance terminators ----

VkResult LoaderInstance::TerminatorCreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator) {
  const bool portabilityRequested = Contains(enabledExtensions_, kPortabilityEnumeration) && (info->flags & kEnumeratePortabilityBit) != 0;
  terminatorApiVersion_ = info->pApplicationInfo != nullptr && info->pApplicationInfo->apiVersion != 0 ? info->pApplicationInfo->apiVersion : VK_API_VERSION_1_0;
  supportsGetPhysicalDeviceProperties2_ = !IsVulkan10(terminatorApiVersion_);
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (std::strcmp(info->ppEnabledExtensionNames[i], kGetPhysicalDeviceProperties2) == 0) supportsGetPhysicalDeviceProperties2_ = true;
    if (std::strcmp(info->ppEnabledExtensionNames[i], kDeviceGroupCreation) == 0) deviceGroupCreationEnabled_ = true;
  }
  for (const auto& d : drivers_) {
    const std::vector<std::string> supported = DriverExtensions(*d);
    // Each driver gets only the extensions it supports, no layers, and (before interface
    // version 5) apiVersion 1.0 when it only knows 1.0.
    std::vector<const char*> extensions;
    for (uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
      if (Contains(supported, info->ppEnabledExtensionNames[i])) extensions.push_back(info->ppEnabledExtensionNames[i]);
    }
    // As the Khronos loader on Linux: VK_KHR_get_physical_device_properties2 forced on where the
    // application or the driver is 1.0 and the driver has it (the device sort reads PCI bus info).
    if ((IsVulkan10(terminatorApiVersion_) || IsVulkan10(d->instanceApiVersion)) && Contains(supported, kGetPhysicalDeviceProperties2)) {
      if (std::none_of(extensions.begin(), extensions.end(), [](const char* e) { return std::strcmp(e, kGetPhysicalDeviceProperties2) == 0; })) {
        extensions.push_back(kGetPhysicalDeviceProperties2);
      }
      supportsGetPhysicalDeviceProperties2_ = true;
    }
    VkInstanceCreateInfo driverInfo = *info;
    driverInfo.enabledLayerCount = 0;
    driverInfo.ppEnabledLayerNames = nullptr;
    driverInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    driverInfo.ppEnabledExtensionNames = extensions.data();
    if (!portabilityRequested || !Contains(supported, kPortabilityEnumeration)) driverInfo.flags &= ~kEnumeratePortabilityBit;
    VkApplicationInfo appInfo{};
    if (info->pApplicationInfo != nullptr) {
      appInfo = *info->pApplicationInfo;
      if (d->interfaceVersion < 5 && d->instanceApiVersion < VK_API_VERSION_1_1 && appInfo.apiVersion > VK_API_VERSION_1_0) {
        appInfo.apiVersion = VK_API_VERSION_1_0;
      }
      driverInfo.pApplicationInfo = &appInfo;
    }
    auto di = std::make_unique<DriverInstance>();
    di->driver = d.get();
    const VkResult res = d->createInstance(&driverInfo, allocator, &di->handle);
    if (res != VK_SUCCESS) {
      Log(LogLevel::Warn, "vulkan.driver", DescribeDriver(d->description) + " not used: its vkCreateInstance returned " + std::to_string(res));
      continue;
    }
    gen::fillVkInstanceDispatchTable(di->table, d->getInstanceProcAddr, di->handle);
    di->getDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(d->getInstanceProcAddr(di->handle, "vkGetDeviceProcAddr"));
    // What the loader itself calls on every driver instance.
    const std::pair<const void*, const char*> required[] = {
        {reinterpret_cast<const void*>(di->table.DestroyInstance), "vkDestroyInstance"},
        {reinterpret_cast<const void*>(di->table.EnumeratePhysicalDevices), "vkEnumeratePhysicalDevices"},
        {reinterpret_cast<const void*>(di->table.GetPhysicalDeviceProperties), "vkGetPhysicalDeviceProperties"},
        {reinterpret_cast<const void*>(di->table.CreateDevice), "vkCreateDevice"},
        {reinterpret_cast<const void*>(di->getDeviceProcAddr), "vkGetDeviceProcAddr"},
    };
    const auto missing = std::find_if(std::begin(required), std::end(required), [](const auto& r) { return r.first == nullptr; });
    if (missing != std::end(required)) {
      Log(LogLevel::Warn, "vulkan.driver",
          DescribeDriver(d->description) + " not used: its vkGetInstanceProcAddr(instance, \"" + missing->second + "\") returned NULL");
      if (di->table.DestroyInstance != nullptr) di->table.DestroyInstance(di->handle, allocator);
      continue;
    }
    driverInstances_.push_back(std::move(di));
  }
  if (driverInstances_.empty()) {
    Log(LogLevel::Error, "vulkan", "vkCreateInstance: every driver failed to create its instance");
    return VK_ERROR_INCOMPATIBLE_DRIVER;
  }
  return VK_SUCCESS;
}

VkResult LoaderInstance::TerminatorCreateDebugUtilsMessenger(const VkDebugUtilsMessengerCreateInfoEXT* info,
                                                             const VkAllocationCallbacks* allocator, VkDebugUtilsMessengerEXT* messenger) {
  auto m = std::make_unique<DriverMessengers>();
  for (auto& di : driverInstances_) {
    if (di->table.CreateDebugUtilsMessengerEXT == nullptr) continue;
    VkDebugUtilsMessengerEXT handle = nullptr;
    const VkResult res = di->table.CreateDebugUtilsMessengerEXT(di->handle, info, allocator, &handle);
    if (res != VK_SUCCESS) {
      for (auto& [d, h] : m->perDriver) d->table.DestroyDebugUtilsMessengerEXT(d->handle, h, allocator);
      return res;
    }
    m->perDriver.emplace_back(di.get(), handle);
  }
  *messenger = reinterpret_cast<VkDebugUtilsMessengerEXT>(m.get());
  std::lock_guard lock(mutex_);
  messengers_.push_back(std::move(m));
  return VK_SUCCESS;
}

void LoaderInstance::TerminatorDestroyDebugUtilsMessenger(VkDebugUtilsMessengerEXT messenger, const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(messengers_.begin(), messengers_.end(),
                         [&](const auto& m) { return reinterpret_cast<VkDebugUtilsMessengerEXT>(m.get()) == messenger; });
  if (it == messengers_.end()) return;
  for (auto& [d, h] : (*it)->perDriver) d->table.DestroyDebugUtilsMessengerEXT(d->handle, h, allocator);
  messengers_.erase(it);
}

void LoaderInstance::TerminatorSubmitDebugUtilsMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data) {
  for (auto& di : driverInstances_) {
    if (di->table.SubmitDebugUtilsMessageEXT != nullptr) {
      di->table.SubmitDebugUtilsMessageEXT(di->handle, severity, types, data);
      return;  // one delivery is enough: every driver's messengers share the application's callbacks
    }
  }
}

void LoaderInstance::TerminatorDestroyInstance(const VkAllocationCallbacks* allocator) {
  for (auto& di : driverInstances_) di->table.DestroyInstance(di->handle, allocator);
  terminatorPhysicalDevices_.clear();
  driverInstances_.clear();
}

LoaderInstance* ConstructingInstance() { return constructingInstance; }

}  // namespace kl::vulkan
