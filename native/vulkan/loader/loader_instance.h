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
#include <string_view>
#include <vector>

#include "common/log.h"
#include "vulkan/loader/driver.h"
#include "vulkan/loader/driver_instance.h"
#include "vulkan/loader/handle_magic.h"
#include "vulkan/loader/instance_plan.h"
#include "vulkan/loader/layer_negotiation.h"
#include "vulkan/loader/loader_device.h"
#include "vulkan/loader/physical_device_object.h"
#include "vulkan/loader/unknown_functions.h"
#include "vulkan/loader/wsi.h"

namespace kl::vulkan {

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
  // The device a live instance of this loader created and has not destroyed whose handle is
  // `device`, and that instance's handle in `instance`; nullptr (and `instance` untouched) for any
  // other value. Compares handles only: never reads through `device`.
  static std::shared_ptr<LoaderDevice> LiveDevice(VkDevice device, VkInstance* instance);
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
  // The window-system platform commands from the top of the chain (wsi.h).
  const WsiPlatformTable& wsiTable() const noexcept { return wsiTable_; }
  bool ExtensionEnabled(std::string_view name) const noexcept;

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
  // Surfaces (wsi.cc): a loader surface from the application's create info (`icd` filled for
  // its platform), its lookup, and vkDestroySurfaceKHR at the bottom of the chain.
  VkResult TerminatorCreateSurface(const char* command, std::string_view extension, const LoaderSurface::IcdSurface& icd, const void* createInfo,
                                   std::size_t createInfoSize, const VkAllocationCallbacks* allocator, VkSurfaceKHR* surface);
  void TerminatorDestroySurface(VkSurfaceKHR surface, const VkAllocationCallbacks* allocator);
  LoaderSurface* FindSurface(VkSurfaceKHR surface) const;
  // VK_EXT_debug_report at the bottom: one callback per driver that has the extension, behind one
  // loader handle; a message goes to the first driver that has the command.
  VkResult TerminatorCreateDebugReportCallback(const VkDebugReportCallbackCreateInfoEXT* info, const VkAllocationCallbacks* allocator,
                                               VkDebugReportCallbackEXT* callback);
  void TerminatorDestroyDebugReportCallback(VkDebugReportCallbackEXT callback, const VkAllocationCallbacks* allocator);
  void TerminatorDebugReportMessage(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT objectType, uint64_t object, size_t location,
                                    int32_t messageCode, const char* layerPrefix, const char* message);
  // Device extensions (device_extensions.cc): a layer's manifest list (nullptr: no such layer),
  // the terminator's vkEnumerateDeviceExtensionProperties for a terminator physical device, and
  // vkCreateDevice's check of the requested names against the chain's list and the chain's layers.
  const std::vector<VkExtensionProperties>* LayerDeviceExtensions(std::string_view layerName) const;
  VkResult TerminatorEnumerateDeviceExtensions(const PhysicalDeviceObject& pd, const char* layerName, uint32_t* count,
                                               VkExtensionProperties* properties) const;
  VkResult CheckDeviceExtensions(const PhysicalDeviceObject& pd, const VkDeviceCreateInfo& info) const;
  // The LoaderDevice whose vkCreateDevice runs on this thread (the terminator fills it in).
  static LoaderDevice*& ConstructingDevice();

  // A loader message: to the log ("vulkan").
  void Report(LogLevel level, const std::string& message) const;

  // VK_EXT_debug_utils messengers and VK_EXT_debug_report callbacks chained into
  // VkInstanceCreateInfo.pNext: they hear the loader's messages (every "vulkan*" log record emitted
  // on this thread) during vkCreateInstance and vkDestroyInstance, as the Khronos loader does, with
  // `instance` as the messages' object.
  class CreateInfoMessengers {
   public:
    CreateInfoMessengers(const void* pNext, VkInstance instance);
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
    std::vector<VkDebugReportCallbackCreateInfoEXT> reports_;
    uint64_t instance_ = 0;
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
  VkResult ApplyDeviceConfigurations(uint32_t* count, VkPhysicalDevice* devices);
  VkPhysicalDevice TrampolinePhysicalDevice(VkPhysicalDevice chainHandle);
  bool UnknownPhysicalSlotFilled(std::size_t slot) const;

  HandleObject handleObject_{&table_, this};
  std::unique_ptr<CreateInfoMessengers> createInfoMessengers_;
  gen::VkInstanceDispatchTable table_{};
  WsiPlatformTable wsiTable_;
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
  // One application-visible messenger or report callback: a driver object per driver that has the
  // extension (the loader handle is this object's address).
  template <typename Handle>
  struct PerDriverObjects {
    std::vector<std::pair<DriverInstance*, Handle>> perDriver;
  };
  std::vector<std::unique_ptr<LoaderSurface>> surfaces_;  // live loader surfaces (guarded by mutex_)
  std::vector<std::unique_ptr<PerDriverObjects<VkDebugUtilsMessengerEXT>>> messengers_;
  std::vector<std::unique_ptr<PerDriverObjects<VkDebugReportCallbackEXT>>> reportCallbacks_;
  template <auto Create, auto Destroy, typename Handle, typename Info>
  VkResult CreatePerDriver(std::vector<std::unique_ptr<PerDriverObjects<Handle>>>& list, const Info* info, const VkAllocationCallbacks* allocator,
                           Handle* out);
  template <auto Destroy, typename Handle>
  void DestroyPerDriver(std::vector<std::unique_ptr<PerDriverObjects<Handle>>>& list, Handle handle, const VkAllocationCallbacks* allocator);
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
