// One Vulkan instance as the loader holds it (spec "层调度初始化", "CreateInstance 示例"):
//  - the VkInstance handed to the application and the layers is `handleObject_`, whose first
//    word points at the instance dispatch table filled from the top of the chain (VK-CH-2);
//  - every driver gets its own driver instance (DriverInstance) from the terminator of
//    vkCreateInstance; a driver that fails is dropped with a logged reason;
//  - physical devices: the terminator wraps each driver's in a PhysicalDeviceObject (first word
//    the instance's dispatch key, as layers expect), the trampoline wraps the chain's again;
//  - devices: LoaderDevice, whose DeviceDispatch table the driver's VkDevice (and its queues and
//    command buffers) point at once the loader has checked the driver's loader magic.
// Destroy() destroys the devices, goes down the chain, and lets the libraries go.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "common/log.h"
#include "vulkan/loader/driver.h"
#include "vulkan/loader/layer_negotiation.h"
#include "vulkan/loader/unknown_functions.h"

namespace kl::vulkan {

class LoaderInstance;
class LoaderDevice;

struct DeviceFilters {
  bool hasDeviceSelect = false;
  uint32_t selectVendorId = 0, selectDeviceId = 0;
  // VK_LOADER_DISABLE_SELECT (a non-zero number): no Linux sorting, drivers' order as they report it.
  bool disableSort = false;
  std::vector<std::pair<uint32_t, uint32_t>> deviceIdRanges, vendorIdRanges, driverIdRanges;
};

// The plan as the native side receives it (TypeScript builds it from discovery and policy).
struct InstancePlan {
  std::vector<DriverDescription> drivers;  // load order
  std::vector<LayerDescription> layers;    // nearest the application first
  DeviceFilters deviceFilters;
  bool disableInstanceExtensionFilter = false;
  // The instance extensions the loader knows (the registry's); drivers' others are filtered out
  // unless disableInstanceExtensionFilter (VK_LOADER_DISABLE_INST_EXT_FILTER).
  std::vector<std::string> knownInstanceExtensions;
};

// vkEnumerateInstanceExtensionProperties(NULL) as this loader answers it for a plan: the union of
// the drivers' extensions (filtered as the Khronos loader filters) and the loader's own.
std::vector<std::string> AvailableInstanceExtensions(const InstancePlan& plan, const std::vector<const NegotiatedDriver*>& drivers);

struct DriverInstance {
  const NegotiatedDriver* driver = nullptr;
  VkInstance handle = nullptr;
  gen::VkInstanceDispatchTable table{};
  PFN_vkGetDeviceProcAddr getDeviceProcAddr = nullptr;
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknownPhysical{};
};

// What the trampolines check before they dispatch through a handle, as the Khronos loader's do:
// a loader object carries its kind's magic while it lives, and a handle without it (NULL, another
// loader's, a destroyed one) ends in "<command>: Invalid <parameter> [VUID-...]" and abort(), not
// in a jump through whatever its first word points at. Cleared when the object goes.
enum class HandleMagic : std::uint64_t {
  Instance = 0x4b4c56494e535431ull,                  // "KLVINST1"
  TrampolinePhysicalDevice = 0x4b4c565044545231ull,  // "KLVPDTR1": handed to the application
  TerminatorPhysicalDevice = 0x4b4c565044544d31ull,  // "KLVPDTM1": handed to the bottom of the chain
  Device = 0x4b4c5644455649ull,                      // "KLVDEVI"
};
class LiveMagic {
 public:
  explicit constexpr LiveMagic(HandleMagic magic) noexcept : value_(magic) {}
  LiveMagic(const LiveMagic&) = delete;
  LiveMagic& operator=(const LiveMagic&) = delete;
  ~LiveMagic() { Clear(); }
  bool Is(HandleMagic magic) const noexcept { return value_ == magic; }
  // Volatile: a store the compiler may not drop as dead (the object's storage is freed next).
  void Clear() noexcept { *const_cast<volatile HandleMagic*>(&value_) = HandleMagic{}; }

 private:
  HandleMagic value_;
};
static_assert(sizeof(LiveMagic) == 8);

// A physical device as the loader hands it out: by the terminator (next = the driver's handle,
// unknown = the driver's slots) or by the trampoline (next = the chain's handle, unknown = the
// chain's slots). The generic physical-device stubs rely on this layout.
struct PhysicalDeviceObject {
  explicit PhysicalDeviceObject(HandleMagic kind) noexcept : magic(kind) {}
  const void* dispatch;                   // the instance's dispatch key
  VkPhysicalDevice next;
  const PFN_vkVoidFunction* unknown;
  LiveMagic magic;
  LoaderInstance* owner;
  DriverInstance* driver;                 // terminator objects only
  VkPhysicalDeviceProperties properties;  // terminator objects only
  uint32_t driverId;                      // VkDriverId when the driver reports one, else 0
  // Where it sits on the PCI bus (VK_EXT_pci_bus_info), for the Linux sort; terminator objects only.
  bool hasPciBusInfo;
  uint32_t pciDomain, pciBus, pciDevice, pciFunction;
};
static_assert(offsetof(PhysicalDeviceObject, next) == 8 && offsetof(PhysicalDeviceObject, unknown) == 16,
              "the generic physical-device trampolines read these offsets");

struct DeviceDispatch {
  std::array<PFN_vkVoidFunction, kUnknownSlots> unknown{};  // at negative offsets from `table`, below the magic
  LiveMagic magic{HandleMagic::Device};                     // the word just below `table`: the trampolines' check
  gen::VkDeviceDispatchTable table{};
  LoaderDevice* owner = nullptr;

  static DeviceDispatch& FromTable(const gen::VkDeviceDispatchTable* table) noexcept {
    return *reinterpret_cast<DeviceDispatch*>(reinterpret_cast<char*>(const_cast<gen::VkDeviceDispatchTable*>(table)) - offsetof(DeviceDispatch, table));
  }
};
static_assert(offsetof(DeviceDispatch, magic) == 8 * kUnknownSlots && offsetof(DeviceDispatch, table) == 8 * kUnknownSlots + 8,
              "the trampolines read the magic just below the table, the generic device stubs the unknown slots below it");

// The device table behind a device-level dispatchable handle (VkDevice, VkQueue, VkCommandBuffer)
// this loader set up, or nullptr: a NULL handle, a NULL first word, or one that is not a live
// device's table. Three never-taken branches on the per-call path, as the Khronos loader's.
inline const gen::VkDeviceDispatchTable* CheckedDeviceTable(const void* object) noexcept {
  if (object == nullptr) [[unlikely]] return nullptr;
  const auto* table = *static_cast<const gen::VkDeviceDispatchTable* const*>(object);
  if (table == nullptr) [[unlikely]] return nullptr;
  const auto* magic = reinterpret_cast<const LiveMagic*>(reinterpret_cast<const char*>(table) - sizeof(LiveMagic));
  if (!magic->Is(HandleMagic::Device)) [[unlikely]] return nullptr;
  return table;
}

class LoaderDevice {
 public:
  DeviceDispatch dispatch;
  VkDevice handle = nullptr;
  LoaderInstance* instance = nullptr;
  DriverInstance* driver = nullptr;
  PFN_vkGetDeviceProcAddr topGetDeviceProcAddr = nullptr;
  bool destroyed = false;
  // Whether every queue the device was created with carried the loader magic when the terminator
  // asked the driver for it (CheckDriverQueues). Then the vkGetDeviceQueue trampolines store the
  // table into the queue they get without reading it first, as the Khronos loader does; otherwise
  // the table's two slots hold CheckingGetDeviceQueue(2), which refuse a queue without the magic,
  // and these hold the chain's functions.
  bool queuesCarryMagic = false;
  PFN_vkGetDeviceQueue uncheckedGetDeviceQueue = nullptr;
  PFN_vkGetDeviceQueue2 uncheckedGetDeviceQueue2 = nullptr;

  // The LoaderDevice of any device-level dispatchable object the loader has set up. Inline (as
  // SetDispatch): the exported trampolines use them on every call (issue 10).
  static LoaderDevice* FromObject(const void* object) noexcept {
    if (object == nullptr) return nullptr;
    const auto* table = *reinterpret_cast<const char* const*>(object);
    return reinterpret_cast<const DeviceDispatch*>(table - offsetof(DeviceDispatch, table))->owner;
  }
  // Points a dispatchable object the driver created (queue, command buffer) at `table`, the
  // device's (the first word of the VkDevice); false (and logged) when the object carries
  // neither the loader magic nor that table.
  static bool SetDispatch(void* object, const gen::VkDeviceDispatchTable* table, const char* what) noexcept {
    auto* word = static_cast<const void**>(object);
    if (*word == table) return true;  // the usual case: a queue asked for again
    if (static_cast<const VK_LOADER_DATA*>(object)->loaderMagic != ICD_LOADER_MAGIC) [[unlikely]] {
      ReportMissingLoaderMagic(object, what);
      return false;
    }
    *word = table;
    return true;
  }
  void FillUnknownSlot(std::size_t slot, const std::string& name);

 private:
  // Out of line and cold: SetDispatch's refusal stays off the per-call path.
  [[gnu::cold, gnu::noinline]] static void ReportMissingLoaderMagic(const void* object, const char* what) noexcept;
};

class LoaderInstance {
 public:
  // Loads drivers and layers, builds the chain and calls vkCreateInstance down it. Throws
  // VkError with the failing VkResult and a readable message.
  static std::shared_ptr<LoaderInstance> Create(const InstancePlan& plan, const VkInstanceCreateInfo& createInfo);

  LoaderInstance(const LoaderInstance&) = delete;
  LoaderInstance& operator=(const LoaderInstance&) = delete;
  ~LoaderInstance();

  VkInstance handle() noexcept { return reinterpret_cast<VkInstance>(&handleObject_); }
  // The LoaderInstance behind a VkInstance this loader handed out (also as a layer's handle).
  static LoaderInstance* FromHandle(VkInstance instance) noexcept {
    if (instance == nullptr) return nullptr;
    return reinterpret_cast<HandleObject*>(instance)->owner;
  }
  // The instance table behind a VkInstance the application holds, or nullptr when it is NULL or
  // not a live instance of this loader (the trampolines' check, as CheckedDeviceTable).
  static const gen::VkInstanceDispatchTable* CheckedTable(VkInstance instance) noexcept {
    if (instance == nullptr) [[unlikely]] return nullptr;
    const auto* object = reinterpret_cast<const HandleObject*>(instance);
    if (!object->magic.Is(HandleMagic::Instance)) [[unlikely]] return nullptr;
    return static_cast<const gen::VkInstanceDispatchTable*>(object->dispatch);
  }
  // Whether `instance` is the handle of a LoaderInstance that exists now (any instance of this
  // loader, JavaScript's or native code's): what the exported vkGetInstanceProcAddr asks before it
  // reads through a handle, so a handle this loader never made gets NULL, not a crash.
  static bool IsLive(VkInstance instance) noexcept;
  bool destroyed() const noexcept { return destroyed_; }
  const std::vector<std::string>& layerNames() const noexcept { return layerNames_; }
  const std::vector<std::string>& enabledExtensions() const noexcept { return enabledExtensions_; }

  // ---- the trampoline side ----
  void Destroy(const VkAllocationCallbacks* allocator);
  VkResult EnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices);
  VkResult EnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups);
  VkResult CreateDevice(PhysicalDeviceObject* physicalDevice, const VkDeviceCreateInfo* info, const VkAllocationCallbacks* allocator,
                        VkDevice* device);
  void DestroyDevice(LoaderDevice* device, const VkAllocationCallbacks* allocator);
  // vkGetInstanceProcAddr's five steps for a name the loader does not know (3 and 4).
  PFN_vkVoidFunction UnknownCommand(const char* name);
  std::shared_ptr<LoaderDevice> SharedDevice(VkDevice device) const;
  // The trampoline object of a handle EnumeratePhysicalDevices gave out, or nullptr.
  PhysicalDeviceObject* FindPhysicalDevice(VkPhysicalDevice physicalDevice) const;
  const gen::VkInstanceDispatchTable& table() const noexcept { return table_; }

  // ---- the terminator side (the bottom of the chain) ----
  VkResult TerminatorCreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator);
  void TerminatorDestroyInstance(const VkAllocationCallbacks* allocator);
  VkResult TerminatorEnumeratePhysicalDevices(uint32_t* count, VkPhysicalDevice* devices);
  VkResult TerminatorEnumeratePhysicalDeviceGroups(uint32_t* count, VkPhysicalDeviceGroupProperties* groups);
  PFN_vkVoidFunction TerminatorUnknownPhysicalDeviceCommand(const char* name);
  // VK_EXT_debug_utils at the bottom: one messenger per driver that has the extension, behind
  // one loader handle.
  VkResult TerminatorCreateDebugUtilsMessenger(const VkDebugUtilsMessengerCreateInfoEXT* info, const VkAllocationCallbacks* allocator,
                                               VkDebugUtilsMessengerEXT* messenger);
  void TerminatorDestroyDebugUtilsMessenger(VkDebugUtilsMessengerEXT messenger, const VkAllocationCallbacks* allocator);
  void TerminatorSubmitDebugUtilsMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data);
  // The LoaderDevice whose vkCreateDevice runs on this thread (the terminator fills it in).
  static LoaderDevice*& ConstructingDevice();

  // A loader message: to the log ("vulkan").
  void Report(LogLevel level, const std::string& message) const;

  // VK_EXT_debug_utils messengers chained into VkInstanceCreateInfo.pNext: they hear the
  // loader's messages (every "vulkan*" log record emitted on this thread) during vkCreateInstance
  // and vkDestroyInstance, as the Khronos loader does.
  class CreateInfoMessengers {
   public:
    explicit CreateInfoMessengers(const void* pNext);
    // While alive, loader records emitted on this thread reach the messengers.
    class Listening {
     public:
      explicit Listening(const CreateInfoMessengers& messengers);
      ~Listening();
      Listening(const Listening&) = delete;
      Listening& operator=(const Listening&) = delete;

     private:
      std::uint64_t token_ = 0;
    };

   private:
    void Deliver(const LogRecord& record) const;
    std::vector<VkDebugUtilsMessengerCreateInfoEXT> messengers_;
  };

 private:
  struct PrivateTag {};
  struct HandleObject {
    const void* dispatch;
    LoaderInstance* owner;
    LiveMagic magic{HandleMagic::Instance};
  };

 public:
  explicit LoaderInstance(PrivateTag);

 private:
  void CollectTerminatorPhysicalDevices();
  bool UnknownPhysicalSlotFilled(std::size_t slot) const;

  HandleObject handleObject_{&table_, this};
  std::unique_ptr<CreateInfoMessengers> createInfoMessengers_;
  gen::VkInstanceDispatchTable table_{};
  InstancePlan plan_;
  std::vector<std::unique_ptr<NegotiatedDriver>> drivers_;
  std::vector<std::unique_ptr<DriverInstance>> driverInstances_;
  std::vector<NegotiatedLayer> layers_;  // nearest the application first
  std::vector<std::string> layerNames_;
  std::vector<std::string> enabledExtensions_;
  uint32_t applicationApiVersion_ = VK_API_VERSION_1_0;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> terminatorPhysicalDevices_;
  bool terminatorPhysicalDevicesCollected_ = false;
  // The Khronos loader sorts physical devices on Linux only when vkGetPhysicalDeviceProperties2
  // is available to the instance (application API 1.1+, or the extension enabled or forced on).
  bool supportsGetPhysicalDeviceProperties2_ = false;
  uint32_t terminatorApiVersion_ = VK_API_VERSION_1_0;  // the apiVersion the terminator received
  bool deviceGroupCreationEnabled_ = false;             // VK_KHR_device_group_creation
  bool LinuxSortEnabled() const noexcept { return supportsGetPhysicalDeviceProperties2_ && !plan_.deviceFilters.disableSort; }
  bool IsDefaultDevice(const PhysicalDeviceObject& o) const noexcept;
  std::vector<std::unique_ptr<PhysicalDeviceObject>> trampolinePhysicalDevices_;
  std::array<PFN_vkVoidFunction, kUnknownSlots> trampolineUnknownPhysical_{};
  std::vector<std::shared_ptr<LoaderDevice>> devices_;
  struct DriverMessengers {
    std::vector<std::pair<DriverInstance*, VkDebugUtilsMessengerEXT>> perDriver;
  };
  std::vector<std::unique_ptr<DriverMessengers>> messengers_;
  mutable std::mutex mutex_;
  bool destroyed_ = false;
};

// The bottom of the instance chain (what the layer nearest the drivers gets as "next").
PFN_vkVoidFunction VKAPI_CALL TerminatorGetInstanceProcAddr(VkInstance instance, const char* name);
PFN_vkVoidFunction VKAPI_CALL TerminatorGetPhysicalDeviceProcAddr(VkInstance instance, const char* name);
PFN_vkVoidFunction VKAPI_CALL TerminatorGetDeviceProcAddr(VkDevice device, const char* name);
VkResult VKAPI_CALL SetInstanceLoaderData(VkInstance instance, void* object);
VkResult VKAPI_CALL SetDeviceLoaderData(VkDevice device, void* object);

}  // namespace kl::vulkan
