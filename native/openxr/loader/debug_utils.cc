#include "openxr/loader/debug_utils.h"

#include <algorithm>

namespace kl::openxr {

void DebugUtilsMessengers::AddFromNextChain(const void* next) {
  std::lock_guard lock(mutex_);
  for (auto* s = static_cast<const XrBaseInStructure*>(next); s != nullptr; s = s->next) {
    if (s->type != XR_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) continue;
    const auto* info = reinterpret_cast<const XrDebugUtilsMessengerCreateInfoEXT*>(s);
    if (info->userCallback == nullptr) continue;
    createInfoMessengers_.push_back(LoaderMessenger{info->messageSeverities, info->messageTypes, info->userCallback, info->userData,
                                                    XR_NULL_HANDLE});
  }
}

void DebugUtilsMessengers::ForgetCreateInfoMessengers() {
  std::lock_guard lock(mutex_);
  createInfoMessengers_.clear();
}

XrDebugUtilsMessengerEXT DebugUtilsMessengers::Add(const XrDebugUtilsMessengerCreateInfoEXT& info,
                                                   XrDebugUtilsMessengerEXT runtimeMessenger) {
  auto record = std::make_unique<LoaderMessenger>(
      LoaderMessenger{info.messageSeverities, info.messageTypes, info.userCallback, info.userData, runtimeMessenger});
  const XrDebugUtilsMessengerEXT handle =
      runtimeMessenger != XR_NULL_HANDLE ? runtimeMessenger : reinterpret_cast<XrDebugUtilsMessengerEXT>(record.get());
  std::lock_guard lock(mutex_);
  messengers_.push_back(std::move(record));
  return handle;
}

bool DebugUtilsMessengers::Remove(XrDebugUtilsMessengerEXT handle, XrDebugUtilsMessengerEXT* runtimeMessenger) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(messengers_.begin(), messengers_.end(), [&](const std::unique_ptr<LoaderMessenger>& m) {
    return m->runtimeMessenger != XR_NULL_HANDLE ? m->runtimeMessenger == handle
                                                  : reinterpret_cast<XrDebugUtilsMessengerEXT>(m.get()) == handle;
  });
  if (it == messengers_.end()) return false;
  *runtimeMessenger = (*it)->runtimeMessenger;
  messengers_.erase(it);
  return true;
}

void DebugUtilsMessengers::Deliver(XrDebugUtilsMessageSeverityFlagsEXT severity, XrDebugUtilsMessageTypeFlagsEXT types,
                                   const XrDebugUtilsMessengerCallbackDataEXT& data) const {
  std::vector<LoaderMessenger> targets;
  {
    std::lock_guard lock(mutex_);
    for (const auto& m : messengers_) {
      if ((m->severities & severity) != 0 && (m->types & types) != 0) targets.push_back(*m);
    }
    for (const auto& m : createInfoMessengers_) {
      if ((m.severities & severity) != 0 && (m.types & types) != 0) targets.push_back(m);
    }
  }
  // Called without the lock: a callback may create or destroy messengers.
  for (const auto& m : targets) m.callback(severity, types, &data, m.userData);
}

void DebugUtilsMessengers::Emit(XrDebugUtilsMessageSeverityFlagsEXT severity, const std::string& functionName,
                                const std::string& message) const {
  XrDebugUtilsMessengerCallbackDataEXT data{};
  data.type = XR_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.messageId = "khronos-loader";
  data.functionName = functionName.c_str();
  data.message = message.c_str();
  Deliver(severity, XR_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, data);
}

std::size_t DebugUtilsMessengers::size() const {
  std::lock_guard lock(mutex_);
  return messengers_.size();
}

}  // namespace kl::openxr
