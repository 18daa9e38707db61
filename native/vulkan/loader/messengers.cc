// The debug-utils messengers: those chained to VkInstanceCreateInfo (they hear instance creation
// and destruction) and the drivers' messengers behind the terminator.
#include <algorithm>
#include <array>
#include <cstring>
#include <set>
#include <unordered_set>
#include <utility>

#include "common/two_call.h"
#include "vulkan/loader/loader_instance.h"
#include "vulkan/loader/loader_instance_internal.h"

namespace kl::vulkan {

LoaderInstance::CreateInfoMessengers::CreateInfoMessengers(const void* pNext, VkInstance instance)
    : instance_(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(instance))) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) {
      VkDebugUtilsMessengerCreateInfoEXT copy = *reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
      copy.pNext = nullptr;
      if (copy.pfnUserCallback != nullptr) messengers_.push_back(copy);
    } else if (s->sType == VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT) {
      VkDebugReportCallbackCreateInfoEXT copy = *reinterpret_cast<const VkDebugReportCallbackCreateInfoEXT*>(s);
      copy.pNext = nullptr;
      if (copy.pfnCallback != nullptr) reports_.push_back(copy);
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
  // The loader's own messages name the instance as their one object, as the Khronos loader's do.
  VkDebugUtilsObjectNameInfoEXT object{};
  object.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT;
  object.objectType = VK_OBJECT_TYPE_INSTANCE;
  object.objectHandle = instance_;
  VkDebugUtilsMessengerCallbackDataEXT data{};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessageIdName = "Loader Message";
  data.pMessage = record.message.c_str();
  data.objectCount = 1;
  data.pObjects = &object;
  for (const auto& m : messengers_) {
    if ((m.messageSeverity & severity) != 0 && (m.messageType & VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT) != 0) {
      m.pfnUserCallback(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data, m.pUserData);
    }
  }
  // VK_EXT_debug_report callbacks: the severity as a report flag (VK_EXT_debug_utils' mapping back,
  // as the Khronos loader maps it), the instance as the object, "Loader Message" as the layer prefix.
  VkDebugReportFlagsEXT flag = VK_DEBUG_REPORT_DEBUG_BIT_EXT;
  switch (record.level) {
    case LogLevel::Error: flag = VK_DEBUG_REPORT_ERROR_BIT_EXT; break;
    case LogLevel::Warn: flag = VK_DEBUG_REPORT_WARNING_BIT_EXT; break;
    case LogLevel::Info: flag = VK_DEBUG_REPORT_INFORMATION_BIT_EXT; break;
    case LogLevel::Debug: break;
  }
  for (const auto& r : reports_) {
    if ((r.flags & flag) != 0) {
      r.pfnCallback(flag, VK_DEBUG_REPORT_OBJECT_TYPE_INSTANCE_EXT, instance_, 0, 0, "Loader Message", record.message.c_str(), r.pUserData);
    }
  }
}

LoaderInstance::CreateInfoMessengers::Listening::Listening(const CreateInfoMessengers& messengers) {
  if (messengers.messengers_.empty() && messengers.reports_.empty()) return;
  const std::thread::id thread = std::this_thread::get_id();
  token_ = LogSinkRegistry::Get().Add([&messengers, thread](const LogRecord& record) {
    if (std::this_thread::get_id() == thread && record.source.starts_with("vulkan")) messengers.Deliver(record);
  });
}

LoaderInstance::CreateInfoMessengers::Listening::~Listening() {
  if (token_ != 0) LogSinkRegistry::Get().Remove(token_);
}

template <auto Create, auto Destroy, typename Handle, typename Info>
VkResult LoaderInstance::CreatePerDriver(std::vector<std::unique_ptr<PerDriverObjects<Handle>>>& list, const Info* info,
                                         const VkAllocationCallbacks* allocator, Handle* out) {
  auto objects = std::make_unique<PerDriverObjects<Handle>>();
  for (auto& di : driverInstances_) {
    const auto create = di->table.*Create;
    if (create == nullptr) continue;
    Handle handle = nullptr;
    const VkResult res = create(di->handle, info, allocator, &handle);
    if (res != VK_SUCCESS) {
      for (auto& [d, h] : objects->perDriver) (d->table.*Destroy)(d->handle, h, allocator);
      return res;
    }
    objects->perDriver.emplace_back(di.get(), handle);
  }
  *out = reinterpret_cast<Handle>(objects.get());
  std::lock_guard lock(mutex_);
  list.push_back(std::move(objects));
  return VK_SUCCESS;
}

template <auto Destroy, typename Handle>
void LoaderInstance::DestroyPerDriver(std::vector<std::unique_ptr<PerDriverObjects<Handle>>>& list, Handle handle,
                                      const VkAllocationCallbacks* allocator) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(list.begin(), list.end(), [&](const auto& o) { return reinterpret_cast<Handle>(o.get()) == handle; });
  if (it == list.end()) return;
  for (auto& [d, h] : (*it)->perDriver) (d->table.*Destroy)(d->handle, h, allocator);
  list.erase(it);
}

VkResult LoaderInstance::TerminatorCreateDebugUtilsMessenger(const VkDebugUtilsMessengerCreateInfoEXT* info,
                                                             const VkAllocationCallbacks* allocator, VkDebugUtilsMessengerEXT* messenger) {
  return CreatePerDriver<&gen::VkInstanceDispatchTable::CreateDebugUtilsMessengerEXT, &gen::VkInstanceDispatchTable::DestroyDebugUtilsMessengerEXT>(
      messengers_, info, allocator, messenger);
}

void LoaderInstance::TerminatorDestroyDebugUtilsMessenger(VkDebugUtilsMessengerEXT messenger, const VkAllocationCallbacks* allocator) {
  DestroyPerDriver<&gen::VkInstanceDispatchTable::DestroyDebugUtilsMessengerEXT>(messengers_, messenger, allocator);
}

VkResult LoaderInstance::TerminatorCreateDebugReportCallback(const VkDebugReportCallbackCreateInfoEXT* info, const VkAllocationCallbacks* allocator,
                                                             VkDebugReportCallbackEXT* callback) {
  return CreatePerDriver<&gen::VkInstanceDispatchTable::CreateDebugReportCallbackEXT, &gen::VkInstanceDispatchTable::DestroyDebugReportCallbackEXT>(
      reportCallbacks_, info, allocator, callback);
}

void LoaderInstance::TerminatorDestroyDebugReportCallback(VkDebugReportCallbackEXT callback, const VkAllocationCallbacks* allocator) {
  DestroyPerDriver<&gen::VkInstanceDispatchTable::DestroyDebugReportCallbackEXT>(reportCallbacks_, callback, allocator);
}

void LoaderInstance::TerminatorDebugReportMessage(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT objectType, uint64_t object,
                                                  size_t location, int32_t messageCode, const char* layerPrefix, const char* message) {
  for (auto& di : driverInstances_) {
    if (di->table.DebugReportMessageEXT != nullptr) {
      di->table.DebugReportMessageEXT(di->handle, flags, objectType, object, location, messageCode, layerPrefix, message);
      return;  // one delivery is enough, as for debug-utils messages
    }
  }
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

}  // namespace kl::vulkan
