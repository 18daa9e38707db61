#include "vulkan/addon/vulkan.h"

#include <cstdio>
#include <cstring>

#include "addon/arguments.h"
#include "addon/errors.h"
#include "vulkan/loader/pre_instance.h"
#include "vulkan/loader/process_loader.h"
#include "vulkan/loader/published_plan.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi {

namespace {

uint32_t GetUint(Napi::Env env, Napi::Object o, const char* key, uint32_t fallback) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return fallback;
  if (!v.IsNumber()) throw ArgumentError(env, std::string("'") + key + "' must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (d < 0 || d > 4294967295.0 || d != static_cast<double>(static_cast<uint32_t>(d))) {
    throw ArgumentError(env, std::string("'") + key + "' must be an integer in [0, 2^32)");
  }
  return static_cast<uint32_t>(d);
}

uint64_t BigIntArgument(Napi::Env env, Napi::Value v, const char* what) {
  if (!v.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint");
  bool lossless = true;
  return v.As<Napi::BigInt>().Uint64Value(&lossless);
}

std::vector<std::pair<uint32_t, uint32_t>> GetRanges(Napi::Env env, Napi::Object o, const char* key) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) throw ArgumentError(env, std::string("deviceFilters.") + key + " must be an array of [low, high]");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    if (!a.Get(i).IsArray()) throw ArgumentError(env, std::string("deviceFilters.") + key + " must be an array of [low, high]");
    Napi::Array r = a.Get(i).As<Napi::Array>();
    if (r.Length() != 2 || !r.Get(0u).IsNumber() || !r.Get(1u).IsNumber()) {
      throw ArgumentError(env, std::string("deviceFilters.") + key + " must be an array of [low, high]");
    }
    out.emplace_back(r.Get(0u).As<Napi::Number>().Uint32Value(), r.Get(1u).As<Napi::Number>().Uint32Value());
  }
  return out;
}

vulkan::InstancePlan ReadPlan(Napi::Env env, Napi::Value v) {
  if (!v.IsObject()) throw ArgumentError(env, "plan must be an object");
  Napi::Object o = v.As<Napi::Object>();
  vulkan::InstancePlan plan;
  Napi::Value drivers = o.Get("drivers");
  if (!drivers.IsArray()) throw ArgumentError(env, "plan.drivers must be an array");
  Napi::Array da = drivers.As<Napi::Array>();
  for (uint32_t i = 0; i < da.Length(); ++i) {
    if (!da.Get(i).IsObject()) throw ArgumentError(env, "plan.drivers entries must be objects");
    Napi::Object d = da.Get(i).As<Napi::Object>();
    vulkan::DriverDescription desc;
    desc.libraryPath = GetString(env, d, "libraryPath");
    desc.manifestPath = GetString(env, d, "manifestPath", "");
    desc.manifestApiVersion = GetUint(env, d, "apiVersion", 0);
    Napi::Value portability = d.Get("isPortabilityDriver");
    desc.isPortabilityDriver = portability.IsBoolean() && portability.As<Napi::Boolean>().Value();
    plan.drivers.push_back(std::move(desc));
  }
  Napi::Value layers = o.Get("layers");
  if (!layers.IsArray()) throw ArgumentError(env, "plan.layers must be an array");
  Napi::Array la = layers.As<Napi::Array>();
  for (uint32_t i = 0; i < la.Length(); ++i) {
    if (!la.Get(i).IsObject()) throw ArgumentError(env, "plan.layers entries must be objects");
    Napi::Object l = la.Get(i).As<Napi::Object>();
    vulkan::LayerDescription desc;
    desc.name = GetString(env, l, "name");
    desc.libraryPath = GetString(env, l, "libraryPath");
    desc.manifestPath = GetString(env, l, "manifestPath", "");
    desc.negotiateSymbol = GetString(env, l, "negotiateSymbol", "vkNegotiateLoaderLayerInterfaceVersion");
    desc.getInstanceProcAddrSymbol = GetString(env, l, "getInstanceProcAddrSymbol", "vkGetInstanceProcAddr");
    desc.getDeviceProcAddrSymbol = GetString(env, l, "getDeviceProcAddrSymbol", "vkGetDeviceProcAddr");
    desc.instanceExtensions = GetStrings(env, l, "instanceExtensions");
    desc.manifestApiVersion = GetUint(env, l, "apiVersion", 0);
    plan.layers.push_back(std::move(desc));
  }
  Napi::Value filters = o.Get("deviceFilters");
  if (filters.IsObject()) {
    Napi::Object f = filters.As<Napi::Object>();
    Napi::Value select = f.Get("deviceSelect");
    if (select.IsObject()) {
      plan.deviceFilters.hasDeviceSelect = true;
      plan.deviceFilters.selectVendorId = GetUint(env, select.As<Napi::Object>(), "vendorId", 0);
      plan.deviceFilters.selectDeviceId = GetUint(env, select.As<Napi::Object>(), "deviceId", 0);
    }
    plan.deviceFilters.deviceIdRanges = GetRanges(env, f, "deviceIdRanges");
    plan.deviceFilters.vendorIdRanges = GetRanges(env, f, "vendorIdRanges");
    plan.deviceFilters.driverIdRanges = GetRanges(env, f, "driverIdRanges");
    const Napi::Value disableSort = f.Get("disableSort");
    plan.deviceFilters.disableSort = disableSort.IsBoolean() && disableSort.As<Napi::Boolean>().Value();
  }
  Napi::Value disable = o.Get("disableInstanceExtensionFilter");
  plan.disableInstanceExtensionFilter = disable.IsBoolean() && disable.As<Napi::Boolean>().Value();
  plan.knownInstanceExtensions = GetStrings(env, o, "knownInstanceExtensions");
  return plan;
}

std::vector<const char*> CStrings(const std::vector<std::string>& v) {
  std::vector<const char*> out;
  for (const auto& s : v) out.push_back(s.c_str());
  return out;
}

VKAPI_ATTR VkBool32 VKAPI_CALL CollectVulkanMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                    const VkDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  auto* out = static_cast<CollectedVulkanMessages*>(userData);
  std::lock_guard lock(out->mutex);
  out->messages.push_back({static_cast<uint32_t>(severity), types, data->pMessageIdName != nullptr ? data->pMessageIdName : "",
                           data->pMessage != nullptr ? data->pMessage : ""});
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
constexpr napi_type_tag kVulkanDeviceTag = {0x6b6c766b64657669ULL, 0x56756c6b616e4432ULL};

constexpr VkDebugUtilsMessageSeverityFlagsEXT kAllSeverities = 0x1 | 0x10 | 0x100 | 0x1000;
constexpr VkDebugUtilsMessageTypeFlagsEXT kAllTypes = 0x1 | 0x2 | 0x4;

// The plan with what the instance-less commands need: the implicit layers' pre-instance
// interceptors and the layer properties the loader reports.
vulkan::PreInstancePlan ReadPreInstancePlan(Napi::Env env, Napi::Value value) {
  vulkan::PreInstancePlan pre;
  pre.instance = ReadPlan(env, value);
  Napi::Array layers = value.As<Napi::Object>().Get("layers").As<Napi::Array>();
  for (uint32_t i = 0; i < layers.Length(); ++i) {
    Napi::Object l = layers.Get(i).As<Napi::Object>();
    VkLayerProperties props{};
    std::snprintf(props.layerName, sizeof(props.layerName), "%s", GetString(env, l, "name").c_str());
    std::snprintf(props.description, sizeof(props.description), "%s", GetString(env, l, "description", "").c_str());
    props.specVersion = GetUint(env, l, "apiVersion", 0);
    props.implementationVersion = GetUint(env, l, "implementationVersion", 0);
    pre.layerProperties.push_back(props);
    if (GetString(env, l, "kind", "explicit") != "implicit" || !l.Get("preInstanceFunctions").IsObject()) continue;
    Napi::Object f = l.Get("preInstanceFunctions").As<Napi::Object>();
    vulkan::PreInstanceLayer layer;
    layer.name = GetString(env, l, "name");
    layer.libraryPath = GetString(env, l, "libraryPath");
    layer.enumerateInstanceExtensionProperties = GetString(env, f, "vkEnumerateInstanceExtensionProperties", "");
    layer.enumerateInstanceLayerProperties = GetString(env, f, "vkEnumerateInstanceLayerProperties", "");
    layer.enumerateInstanceVersion = GetString(env, f, "vkEnumerateInstanceVersion", "");
    pre.interceptors.push_back(std::move(layer));
  }
  return pre;
}

}  // namespace

Napi::Error VkErrorToJs(Napi::Env env, VkResult result, const std::string& message) {
  Napi::Error js = Napi::Error::New(env, message);
  js.Set("code", Napi::String::New(env, "KL_VULKAN_ERROR"));
  js.Set("vkResult", Napi::Number::New(env, static_cast<double>(result)));
  return js;
}

// ---- VulkanInstance ----

Napi::Function VulkanInstance::Define(Napi::Env env) {
  return DefineClass(env, "VulkanInstance",
                     {
                         InstanceMethod<&VulkanInstance::EnumeratePhysicalDevices>("enumeratePhysicalDevices"),
                         InstanceMethod<&VulkanInstance::EnumeratePhysicalDeviceGroups>("enumeratePhysicalDeviceGroups"),
                         InstanceMethod<&VulkanInstance::GetInstanceProcAddr>("getInstanceProcAddr"),
                         InstanceMethod<&VulkanInstance::Destroy>("destroy"),
                         InstanceMethod<&VulkanInstance::StartDebugMessenger>("startDebugMessenger"),
                         InstanceMethod<&VulkanInstance::TakeDebugMessages>("takeDebugMessages"),
                         InstanceAccessor<&VulkanInstance::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&VulkanInstance::Handle>("handle"),
                         InstanceAccessor<&VulkanInstance::LayerNames>("layerNames"),
                     });
}

void ReadInstanceCreateInfo(Napi::Env env, Napi::Object ci, InstanceCreateInfoHolder& out) {
  out.applicationName = GetString(env, ci, "applicationName", "");
  out.engineName = GetString(env, ci, "engineName", "");
  out.extensions = GetStrings(env, ci, "enabledExtensionNames");
  out.extensionPtrs = CStrings(out.extensions);
  out.app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  out.app.pApplicationName = out.applicationName.c_str();
  out.app.applicationVersion = GetUint(env, ci, "applicationVersion", 0);
  out.app.pEngineName = out.engineName.c_str();
  out.app.engineVersion = GetUint(env, ci, "engineVersion", 0);
  out.app.apiVersion = GetUint(env, ci, "apiVersion", VK_API_VERSION_1_0);
  out.create.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  out.create.flags = GetUint(env, ci, "flags", 0);
  out.create.pApplicationInfo = &out.app;
  out.create.enabledExtensionCount = static_cast<uint32_t>(out.extensionPtrs.size());
  out.create.ppEnabledExtensionNames = out.extensionPtrs.data();
}

void ReadDeviceCreateInfo(Napi::Env env, Napi::Object ci, DeviceCreateInfoHolder& out) {
  out.extensions = GetStrings(env, ci, "enabledExtensionNames");
  out.extensionPtrs = CStrings(out.extensions);
  Napi::Value queues = ci.Get("queueCreateInfos");
  if (!queues.IsArray()) throw ArgumentError(env, "'queueCreateInfos' must be an array");
  Napi::Array qa = queues.As<Napi::Array>();
  out.priorities.assign(qa.Length(), {});
  out.queues.assign(qa.Length(), VkDeviceQueueCreateInfo{});
  for (uint32_t i = 0; i < qa.Length(); ++i) {
    if (!qa.Get(i).IsObject()) throw ArgumentError(env, "'queueCreateInfos' entries must be objects");
    Napi::Object q = qa.Get(i).As<Napi::Object>();
    Napi::Value pv = q.Get("queuePriorities");
    if (!pv.IsArray() || pv.As<Napi::Array>().Length() == 0) throw ArgumentError(env, "'queuePriorities' must be a non-empty array of numbers");
    Napi::Array pa = pv.As<Napi::Array>();
    for (uint32_t j = 0; j < pa.Length(); ++j) {
      if (!pa.Get(j).IsNumber()) throw ArgumentError(env, "'queuePriorities' must be a non-empty array of numbers");
      out.priorities[i].push_back(pa.Get(j).As<Napi::Number>().FloatValue());
    }
    out.queues[i].sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    out.queues[i].queueFamilyIndex = GetUint(env, q, "queueFamilyIndex", 0);
    out.queues[i].queueCount = static_cast<uint32_t>(out.priorities[i].size());
    out.queues[i].pQueuePriorities = out.priorities[i].data();
  }
  out.create.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  out.create.queueCreateInfoCount = static_cast<uint32_t>(out.queues.size());
  out.create.pQueueCreateInfos = out.queues.data();
  out.create.enabledExtensionCount = static_cast<uint32_t>(out.extensionPtrs.size());
  out.create.ppEnabledExtensionNames = out.extensionPtrs.data();
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
  const vulkan::InstancePlan plan = ReadPlan(env, info[0]);
  Napi::Object ci = info[1].As<Napi::Object>();
  InstanceCreateInfoHolder holder;
  ReadInstanceCreateInfo(env, ci, holder);
  VkInstanceCreateInfo& create = holder.create;

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

Napi::Value VulkanInstance::TakeDebugMessages(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!collected_) return Napi::Array::New(env, 0);
  return MessagesToJs(env, *collected_);
}

Napi::Value VulkanInstance::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  StopDebugMessenger();
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

// ---- VulkanDevice ----

Napi::Function VulkanDevice::Define(Napi::Env env) {
  return DefineClass(env, "VulkanDevice",
                     {
                         InstanceMethod<&VulkanDevice::GetDeviceProcAddr>("getDeviceProcAddr"),
                         InstanceMethod<&VulkanDevice::GetQueue>("getQueue"),
                         InstanceMethod<&VulkanDevice::Destroy>("destroy"),
                         InstanceAccessor<&VulkanDevice::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&VulkanDevice::Handle>("handle"),
                     });
}

VulkanDevice::VulkanDevice(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanDevice>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !(info[2].IsObject() || info[2].IsBigInt())) throw ArgumentError(env, "new VulkanDevice(instance, physicalDevice, createInfo | device)");
  instance_ = VulkanInstance::LiveShared(env, info[0]);
  const auto physical = reinterpret_cast<VkPhysicalDevice>(static_cast<uintptr_t>(BigIntArgument(env, info[1], "physicalDevice")));
  if (instance_->FindPhysicalDevice(physical) == nullptr) throw ArgumentError(env, "physicalDevice is not one of this instance's physical devices");
  napi_type_tag_object(env, info.This(), &kVulkanDeviceTag);
  if (info[2].IsBigInt()) {
    // Adoption: a VkDevice native code created on this instance through the exported vkCreateDevice.
    const auto handle = reinterpret_cast<VkDevice>(static_cast<uintptr_t>(BigIntArgument(env, info[2], "device")));
    device_ = instance_->SharedDevice(handle);
    if (!device_ || device_->destroyed) throw ArgumentError(env, "the VkDevice is not a live device of this instance");
    return;
  }
  DeviceCreateInfoHolder holder;
  ReadDeviceCreateInfo(env, info[2].As<Napi::Object>(), holder);
  VkDevice device = nullptr;
  const VkResult res = vkCreateDevice(physical, &holder.create, nullptr, &device);
  if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkCreateDevice failed (see the log for the loader's reason)");
  device_ = instance_->SharedDevice(device);
}

VulkanDevice::Shared VulkanDevice::LiveShared(Napi::Env env, Napi::Value value) {
  bool tagged = false;
  if (!value.IsObject() || napi_check_object_type_tag(env, value, &kVulkanDeviceTag, &tagged) != napi_ok || !tagged) {
    throw ArgumentError(env, "expected a VulkanDevice");
  }
  VulkanDevice* wrap = Napi::ObjectWrap<VulkanDevice>::Unwrap(value.As<Napi::Object>());
  wrap->Live(env);
  return {wrap->instance_, wrap->device_};
}

vulkan::LoaderDevice& VulkanDevice::Live(Napi::Env env) const {
  if (!device_ || device_->destroyed) throw VkErrorToJs(env, VK_ERROR_VALIDATION_FAILED, "the Vulkan device (or its instance) was destroyed");
  return *device_;
}

Napi::Value VulkanDevice::GetDeviceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "getDeviceProcAddr(name: string)");
  vulkan::LoaderDevice& d = Live(env);
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  PFN_vkVoidFunction fn = vkGetDeviceProcAddr(d.handle, name.c_str());
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(fn)));
}

Napi::Value VulkanDevice::GetQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsNumber()) throw ArgumentError(env, "getQueue(family: number, index: number)");
  vulkan::LoaderDevice& d = Live(env);
  VkQueue queue = nullptr;
  vkGetDeviceQueue(d.handle, info[0].As<Napi::Number>().Uint32Value(), info[1].As<Napi::Number>().Uint32Value(), &queue);
  if (queue == nullptr) throw VkErrorToJs(env, VK_ERROR_INITIALIZATION_FAILED, "vkGetDeviceQueue gave no queue (see the log)");
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(queue)));
}

Napi::Value VulkanDevice::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  vulkan::LoaderDevice& d = Live(env);
  d.instance->DestroyDevice(&d, nullptr);
  device_.reset();
  instance_.reset();
  return env.Undefined();
}

Napi::Value VulkanDevice::IsDestroyed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), !device_ || device_->destroyed);
}

Napi::Value VulkanDevice::Handle(const Napi::CallbackInfo& info) {
  vulkan::LoaderDevice& d = Live(info.Env());
  return Napi::BigInt::New(info.Env(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(d.handle)));
}

Napi::Value VulkanInstanceExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const vulkan::InstancePlan plan = ReadPlan(env, info.Length() > 0 ? info[0] : env.Undefined());
  std::vector<vulkan::NegotiatedDriver> drivers;
  for (const auto& d : plan.drivers) {
    try {
      drivers.push_back(vulkan::LoadDriver(d));
    } catch (const vulkan::VkError&) {
      // logged; a driver that does not load contributes nothing
    }
  }
  std::vector<const vulkan::NegotiatedDriver*> pointers;
  for (const auto& d : drivers) pointers.push_back(&d);
  const std::vector<std::string> names = vulkan::AvailableInstanceExtensions(plan, pointers);
  Napi::Array a = Napi::Array::New(env, names.size());
  for (std::size_t i = 0; i < names.size(); ++i) a.Set(static_cast<uint32_t>(i), names[i]);
  return a;  // the drivers unload here
}

// vulkanPreInstance(plan, command): one pre-instance function through the implicit layers'
// interceptors (layers with kind 'implicit' and preInstanceFunctions), libraries unloaded after.
Napi::Value VulkanPreInstance(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsString()) throw ArgumentError(env, "vulkanPreInstance(plan, command)");
  const vulkan::PreInstancePlan pre = ReadPreInstancePlan(env, info[0]);
  const std::string command = info[1].As<Napi::String>().Utf8Value();
  if (command == "vkEnumerateInstanceVersion") {
    uint32_t version = 0;
    const VkResult res = vulkan::PreInstanceEnumerateVersion(pre, &version);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceVersion failed down the pre-instance chain");
    return Napi::Number::New(env, version);
  }
  if (command == "vkEnumerateInstanceExtensionProperties") {
    std::vector<VkExtensionProperties> props;
    const VkResult res = vulkan::PreInstanceEnumerateExtensions(pre, &props);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceExtensionProperties failed down the pre-instance chain");
    Napi::Array a = Napi::Array::New(env, props.size());
    for (std::size_t i = 0; i < props.size(); ++i) a.Set(static_cast<uint32_t>(i), std::string(props[i].extensionName));
    return a;
  }
  if (command == "vkEnumerateInstanceLayerProperties") {
    std::vector<VkLayerProperties> props;
    const VkResult res = vulkan::PreInstanceEnumerateLayers(pre, &props);
    if (res != VK_SUCCESS) throw VkErrorToJs(env, res, "vkEnumerateInstanceLayerProperties failed down the pre-instance chain");
    Napi::Array a = Napi::Array::New(env, props.size());
    for (std::size_t i = 0; i < props.size(); ++i) a.Set(static_cast<uint32_t>(i), std::string(props[i].layerName));
    return a;
  }
  throw ArgumentError(env, "command must be vkEnumerateInstanceVersion, vkEnumerateInstanceExtensionProperties or vkEnumerateInstanceLayerProperties");
}

Napi::Value VulkanPublishPlan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto plan = std::make_shared<const vulkan::PreInstancePlan>(ReadPreInstancePlan(env, info.Length() > 0 ? info[0] : env.Undefined()));
  vulkan::PublishedPlans::Get().Publish(std::move(plan));
  return env.Undefined();
}

Napi::Value VulkanGetInstanceProcAddr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsString()) throw ArgumentError(env, "vulkanGetInstanceProcAddr(instance: bigint, name: string)");
  const auto instance = reinterpret_cast<VkInstance>(static_cast<uintptr_t>(BigIntArgument(env, info[0], "instance")));
  const std::string name = info[1].As<Napi::String>().Utf8Value();
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(vkGetInstanceProcAddr(instance, name.c_str()))));
}

namespace {
Napi::Object ProcessVulkanLoaderToJs(Napi::Env env, const vulkan::ProcessVulkanLoader& loader) {
  Napi::Object o = Napi::Object::New(env);
  using Kind = vulkan::ProcessVulkanLoader::Kind;
  o.Set("kind", loader.kind == Kind::None ? "none" : loader.kind == Kind::ThisPackage ? "this-package" : "other");
  o.Set("path", loader.path);
  return o;
}
}  // namespace

Napi::Value VulkanProcessLoader(const Napi::CallbackInfo& info) {
  return ProcessVulkanLoaderToJs(info.Env(), vulkan::InspectProcessVulkanLoader());
}

Napi::Value VulkanProvideProcessLoader(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw ArgumentError(env, "vulkanProvideProcessLoader(libraryPath: string)");
  try {
    return ProcessVulkanLoaderToJs(env, vulkan::ProvideProcessVulkanLoader(info[0].As<Napi::String>().Utf8Value()));
  } catch (const vulkan::ProcessLoaderRefused& e) {
    Napi::Error error = VkErrorToJs(env, e.result(), e.what());
    error.Set("library", e.library());
    throw error;
  }
}

}  // namespace kl::napi
