// `VulkanInstance`: a LoaderInstance held directly (created through the chain or adopted from
// native code), its physical devices, and a debug messenger that keeps every message.
#include "vulkan/addon/vulkan.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "addon/errors.h"
#include "vulkan/addon/vulkan_arguments.h"
#include "vulkan/loader/published_plan.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi {

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL CollectVulkanMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  auto* out = static_cast<CollectedVulkanMessages*>(userData);
  std::lock_guard lock(out->mutex);
  out->messages.push_back({static_cast<uint32_t>(severity), types, data->pMessageIdName != nullptr ? data->pMessageIdName : "",
                           data->pMessage != nullptr ? data->pMessage : ""});
  return VK_FALSE;
}

Napi::Object MessageToJs(Napi::Env env, const CollectedVulkanMessages::Message& m) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("severity", Napi::Number::New(env, m.severity));
  o.Set("types", Napi::Number::New(env, m.types));
  o.Set("messageIdName", m.messageIdName);
  o.Set("message", m.message);
  return o;
}

// A listener's messenger callback. On the listener's own thread (and not from inside the listener)
// the JavaScript function is called here, inside the Vulkan call that raised the message; from any
// other thread the message is copied and queued for that thread's event loop.
VKAPI_ATTR VkBool32 VKAPI_CALL DeliverVulkanMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  auto* listener = static_cast<VulkanInstance::JsListener*>(userData);
  CollectedVulkanMessages::Message m{static_cast<uint32_t>(severity), types, data->pMessageIdName != nullptr ? data->pMessageIdName : "",
                                     data->pMessage != nullptr ? data->pMessage : ""};
  if (std::this_thread::get_id() == listener->thread && listener->delivering == 0) {
    Napi::Env env(listener->env);
    Napi::HandleScope scope(env);
    ++listener->delivering;
    try {
      listener->callback.Call({MessageToJs(env, m)});
    } catch (const Napi::Error& e) {
      // Not through the driver's and the layers' frames: the listener's exception is reported as
      // uncaught, as one thrown from an event listener would be.
      napi_fatal_exception(env, e.Value());
    }
    --listener->delivering;
    return VK_FALSE;
  }
  auto copy = std::make_unique<CollectedVulkanMessages::Message>(std::move(m));
  const napi_status status = listener->tsfn.NonBlockingCall(copy.get(), [](Napi::Env env, Napi::Function fn, CollectedVulkanMessages::Message* message) {
    std::unique_ptr<CollectedVulkanMessages::Message> owned(message);
    if (env != nullptr && fn != nullptr) fn.Call({MessageToJs(env, *owned)});
  });
  if (status == napi_ok) copy.release();
  return VK_FALSE;
}

Napi::Array MessagesToJs(Napi::Env env, CollectedVulkanMessages& collected) {
  std::vector<CollectedVulkanMessages::Message> messages;
  {
    std::lock_guard lock(collected.mutex);
    messages.swap(collected.messages);
  }
  Napi::Array a = Napi::Array::New(env, messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    Napi::Object m = Napi::Object::New(env);
    m.Set("severity", Napi::Number::New(env, messages[i].severity));
    m.Set("types", Napi::Number::New(env, messages[i].types));
    m.Set("messageIdName", messages[i].messageIdName);
    m.Set("message", messages[i].message);
    a.Set(static_cast<uint32_t>(i), m);
  }
  return a;
}

// Marks the JavaScript objects that really are VulkanInstance wrappers (napi_type_tag_object).
constexpr napi_type_tag kVulkanInstanceTag = {0x6b6c766b696e7374ULL, 0x56756c6b616e4931ULL};

constexpr VkDebugUtilsMessageSeverityFlagsEXT kAllSeverities = 0x1 | 0x10 | 0x100 | 0x1000;
constexpr VkDebugUtilsMessageTypeFlagsEXT kAllTypes = 0x1 | 0x2 | 0x4;

}  // namespace

Napi::Function VulkanInstance::Define(Napi::Env env) {
  return DefineClass(env, "VulkanInstance",
                     {
                         InstanceMethod<&VulkanInstance::EnumeratePhysicalDevices>("enumeratePhysicalDevices"),
                         InstanceMethod<&VulkanInstance::EnumeratePhysicalDeviceGroups>("enumeratePhysicalDeviceGroups"),
                         InstanceMethod<&VulkanInstance::GetInstanceProcAddr>("getInstanceProcAddr"),
                         InstanceMethod<&VulkanInstance::Destroy>("destroy"),
                         InstanceMethod<&VulkanInstance::StartDebugMessenger>("startDebugMessenger"),
                         InstanceMethod<&VulkanInstance::TakeDebugMessages>("takeDebugMessages"),
                         InstanceMethod<&VulkanInstance::AddDebugListener>("addDebugListener"),
                         InstanceMethod<&VulkanInstance::RemoveDebugListener>("removeDebugListener"),
                         InstanceAccessor<&VulkanInstance::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&VulkanInstance::Handle>("handle"),
                         InstanceAccessor<&VulkanInstance::LayerNames>("layerNames"),
                     });
}

VulkanInstance::VulkanInstance(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanInstance>(info) {
  Napi::Env env = info.Env();
  if (info.Length() == 1 && info[0].IsBigInt()) {
    // Adoption: a VkInstance native code (an OpenXR runtime, through xrCreateVulkanInstanceKHR)
    // created with the exported vkCreateInstance; from now on this object owns it.
    const auto handle = reinterpret_cast<VkInstance>(static_cast<uintptr_t>(BigIntArgument(env, info[0], "instance")));
    instance_ = vulkan::PublishedPlans::Get().TakeNativeInstance(vulkan::LoaderInstance::FromHandle(handle));
    if (!instance_ || instance_->destroyed()) {
      throw ArgumentError(env, "the VkInstance was not created through this package's exported vkCreateInstance, or is already owned");
    }
    napi_type_tag_object(env, info.This(), &kVulkanInstanceTag);
    return;
  }
  if (info.Length() < 2 || !info[1].IsObject()) throw ArgumentError(env, "new VulkanInstance(plan, createInfo)");
  vulkan::InstancePlan plan = ReadPlan(env, info[0]);
  Napi::Object ci = info[1].As<Napi::Object>();
  InstanceCreateInfoHolder holder;
  ReadInstanceCreateInfo(env, ci, holder);
  ReadDirectDrivers(env, ci, holder);
  VkInstanceCreateInfo& create = holder.create;
  plan.retainedLibraries = holder.directLibraries;

  // A messenger chained into pNext hears vkCreateInstance (and, kept, vkDestroyInstance).
  Napi::Value collect = ci.Get("collectCreateMessages");
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};
  if (collect.IsBoolean() && collect.As<Napi::Boolean>().Value()) {
    collected_ = std::make_unique<CollectedVulkanMessages>();
    messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messengerInfo.messageSeverity = kAllSeverities;
    messengerInfo.messageType = kAllTypes;
    messengerInfo.pfnUserCallback = CollectVulkanMessage;
    messengerInfo.pUserData = collected_.get();
    messengerInfo.pNext = create.pNext;
    create.pNext = &messengerInfo;
  }
  napi_type_tag_object(env, info.This(), &kVulkanInstanceTag);
  try {
    instance_ = vulkan::LoaderInstance::Create(plan, create);
  } catch (const vulkan::VkError& e) {
    throw VkErrorToJs(env, e.result(), e.what());
  }
}

VulkanInstance::~VulkanInstance() {
  StopDebugMessenger();
  DestroyListeners();
  // Collected without destroy(): the last owner destroys it (~LoaderInstance). An XR session
  // created on one of its devices holds it until xrDestroySession is done with the device.
  instance_.reset();
}

vulkan::LoaderInstance& VulkanInstance::Live(Napi::Env env) const {
  if (!instance_ || instance_->destroyed()) throw VkErrorToJs(env, VK_ERROR_VALIDATION_FAILED, "the Vulkan instance was destroyed");
  return *instance_;
}

std::shared_ptr<vulkan::LoaderInstance> VulkanInstance::LiveShared(Napi::Env env, Napi::Value value) {
  bool tagged = false;
  if (!value.IsObject() || napi_check_object_type_tag(env, value, &kVulkanInstanceTag, &tagged) != napi_ok || !tagged) {
    throw ArgumentError(env, "expected a VulkanInstance");
  }
  VulkanInstance* wrap = Napi::ObjectWrap<VulkanInstance>::Unwrap(value.As<Napi::Object>());
  wrap->Live(env);
  return wrap->instance_;
}

// vkEnumeratePhysicalDeviceGroups through the chain: [{ physicalDevices: bigint[], subsetAllocation }].
Napi::Value VulkanInstance::EnumeratePhysicalDeviceGroups(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VkInstance instance = Live(env).handle();
  const auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDeviceGroups>(vkGetInstanceProcAddr(instance, "vkEnumeratePhysicalDeviceGroups"));
  if (enumerate == nullptr) throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, "vkEnumeratePhysicalDeviceGroups is not available");
  uint32_t count = 0;
  VkResult res = enumerate(instance, &count, nullptr);
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumeratePhysicalDeviceGroups failed");
  std::vector<VkPhysicalDeviceGroupProperties> groups(count);
  for (auto& g : groups) g.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
  res = enumerate(instance, &count, groups.data());
  if (res < 0) throw VkErrorToJs(env, res, "vkEnumeratePhysicalDeviceGroups failed");
  Napi::Array out = Napi::Array::New(env, count);
  for (uint32_t g = 0; g < count; ++g) {
    Napi::Array members = Napi::Array::New(env, groups[g].physicalDeviceCount);
    for (uint32_t i = 0; i < groups[g].physicalDeviceCount; ++i) {
      members.Set(i, Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(groups[g].physicalDevices[i]))));
    }
    Napi::Object o = Napi::Object::New(env);
    o.Set("physicalDevices", members);
    o.Set("subsetAllocation", Napi::Boolean::New(env, groups[g].subsetAllocation == VK_TRUE));
    out.Set(g, o);
  }
  return out;
}

Napi::Value VulkanInstance::EnumeratePhysicalDevices(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  vulkan::LoaderInstance& li = Live(env);
  VkInstance instance = li.handle();
  uint32_t count = 0;
  VkResult res = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumeratePhysicalDevices failed");
  std::vector<VkPhysicalDevice> devices(count);
  res = vkEnumeratePhysicalDevices(instance, &count, devices.data());
  if (res < 0) throw VkErrorToJs(env, res, "vkEnumeratePhysicalDevices failed");
  Napi::Array out = Napi::Array::New(env, count);
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(devices[i], &p);
    Napi::Object props = Napi::Object::New(env);
    props.Set("deviceName", std::string(p.deviceName));
    props.Set("vendorID", Napi::Number::New(env, p.vendorID));
    props.Set("deviceID", Napi::Number::New(env, p.deviceID));
    props.Set("deviceType", Napi::Number::New(env, p.deviceType));
    props.Set("apiVersion", Napi::Number::New(env, p.apiVersion));
    props.Set("driverVersion", Napi::Number::New(env, p.driverVersion));
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, nullptr);
    std::vector<VkQueueFamilyProperties> fp(families);
    vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, fp.data());
    Napi::Array queueFamilies = Napi::Array::New(env, families);
    for (uint32_t f = 0; f < families; ++f) {
      Napi::Object q = Napi::Object::New(env);
      q.Set("queueFlags", Napi::Number::New(env, fp[f].queueFlags));
      q.Set("queueCount", Napi::Number::New(env, fp[f].queueCount));
      q.Set("timestampValidBits", Napi::Number::New(env, fp[f].timestampValidBits));
      queueFamilies.Set(f, q);
    }
    Napi::Object o = Napi::Object::New(env);
    o.Set("handle", Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(devices[i]))));
    o.Set("properties", props);
    o.Set("queueFamilies", queueFamilies);
    out.Set(i, o);
  }
  return out;
}

Napi::Value VulkanInstance::GetInstanceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "getInstanceProcAddr(name: string)");
  vulkan::LoaderInstance& li = Live(env);
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  PFN_vkVoidFunction fn = vkGetInstanceProcAddr(li.handle(), name.c_str());
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(fn)));
}

void VulkanInstance::StopDebugMessenger() {
  if (messenger_ != nullptr && instance_ && !instance_->destroyed()) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance_->handle(), "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy != nullptr) destroy(instance_->handle(), messenger_, nullptr);
  }
  messenger_ = nullptr;
}

Napi::Value VulkanInstance::StartDebugMessenger(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  vulkan::LoaderInstance& li = Live(env);
  if (messenger_ != nullptr) return env.Undefined();
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(li.handle(), "vkCreateDebugUtilsMessengerEXT"));
  if (create == nullptr) throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, "vkCreateDebugUtilsMessengerEXT is not available (enable VK_EXT_debug_utils)");
  if (!collected_) collected_ = std::make_unique<CollectedVulkanMessages>();
  VkDebugUtilsMessengerCreateInfoEXT ci{};
  ci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  ci.messageSeverity = kAllSeverities;
  ci.messageType = kAllTypes;
  ci.pfnUserCallback = CollectVulkanMessage;
  ci.pUserData = collected_.get();
  const VkResult res = create(li.handle(), &ci, nullptr, &messenger_);
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkCreateDebugUtilsMessengerEXT failed");
  return env.Undefined();
}

void VulkanInstance::DestroyListeners() {
  for (auto& l : listeners_) {
    if (instance_ && !instance_->destroyed()) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance_->handle(), "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy != nullptr) destroy(instance_->handle(), l->handle, nullptr);
    }
    l->tsfn.Release();
  }
  listeners_.clear();
}

Napi::Value VulkanInstance::AddDebugListener(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsFunction() || !info[1].IsNumber() || !info[2].IsNumber()) {
    throw ArgumentError(env, "addDebugListener(listener: function, severities: number, types: number)");
  }
  vulkan::LoaderInstance& li = Live(env);
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(li.handle(), "vkCreateDebugUtilsMessengerEXT"));
  if (create == nullptr) throw VkErrorToJs(env, VK_ERROR_EXTENSION_NOT_PRESENT, "vkCreateDebugUtilsMessengerEXT is not available (enable VK_EXT_debug_utils)");
  auto l = std::make_unique<JsListener>();
  l->env = env;
  l->thread = std::this_thread::get_id();
  l->callback = Napi::Persistent(info[0].As<Napi::Function>());
  l->tsfn = Napi::ThreadSafeFunction::New(env, info[0].As<Napi::Function>(), "khronos-loader Vulkan debug listener", 0, 1);
  l->tsfn.Unref(env);  // a listener does not keep the process alive
  VkDebugUtilsMessengerCreateInfoEXT ci{};
  ci.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  ci.messageSeverity = info[1].As<Napi::Number>().Uint32Value() & kAllSeverities;
  ci.messageType = info[2].As<Napi::Number>().Uint32Value() & kAllTypes;
  ci.pfnUserCallback = DeliverVulkanMessage;
  ci.pUserData = l.get();
  const VkResult res = create(li.handle(), &ci, nullptr, &l->handle);
  if (res != VK_SUCCESS) {
    l->tsfn.Release();
    throw VkErrorToJs(env, res, "vkCreateDebugUtilsMessengerEXT failed");
  }
  l->id = nextListenerId_++;
  const uint32_t id = l->id;
  listeners_.push_back(std::move(l));
  return Napi::Number::New(env, id);
}

Napi::Value VulkanInstance::RemoveDebugListener(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsNumber()) throw ArgumentError(env, "removeDebugListener(id: number)");
  const uint32_t id = info[0].As<Napi::Number>().Uint32Value();
  for (auto it = listeners_.begin(); it != listeners_.end(); ++it) {
    if ((*it)->id != id) continue;
    if ((*it)->delivering > 0) throw VkErrorToJs(env, VK_ERROR_VALIDATION_FAILED_EXT, "a debug listener cannot be stopped from inside its own call (stop it after it returns)");
    if (instance_ && !instance_->destroyed()) {
      auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance_->handle(), "vkDestroyDebugUtilsMessengerEXT"));
      if (destroy != nullptr) destroy(instance_->handle(), (*it)->handle, nullptr);
    }
    (*it)->tsfn.Release();
    listeners_.erase(it);
    return env.Undefined();
  }
  return env.Undefined();  // stopped already (or with the instance)
}

Napi::Value VulkanInstance::TakeDebugMessages(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!collected_) return Napi::Array::New(env, 0);
  return MessagesToJs(env, *collected_);
}

Napi::Value VulkanInstance::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  for (const auto& l : listeners_) {
    if (l->delivering > 0) throw VkErrorToJs(env, VK_ERROR_VALIDATION_FAILED_EXT, "the instance cannot be destroyed from inside one of its debug listeners (destroy it after the listener returns)");
  }
  StopDebugMessenger();
  // Listeners hear the instance's teardown through the loader's own messenger handling only until
  // they are destroyed: they go first, as the application's messengers must (VUID-vkDestroyInstance-instance-00629).
  DestroyListeners();
  instance_->Destroy(nullptr);
  instance_.reset();  // the libraries unload unless a VulkanDevice still holds the instance
  return env.Undefined();
}

Napi::Value VulkanInstance::IsDestroyed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !instance_ || instance_->destroyed());
}

Napi::Value VulkanInstance::Handle(const Napi::CallbackInfo& info) {
  vulkan::LoaderInstance& li = Live(info.Env());
  return Napi::BigInt::New(info.Env(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(li.handle())));
}

Napi::Value VulkanInstance::LayerNames(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& names = Live(env).layerNames();
  Napi::Array a = Napi::Array::New(env, names.size());
  for (std::size_t i = 0; i < names.size(); ++i) a.Set(static_cast<uint32_t>(i), names[i]);
  return a;
}

}  // namespace kl::napi
