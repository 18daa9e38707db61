// Reading plans, create infos and handles from JavaScript for the Vulkan natives, and the
// KL_VULKAN_ERROR they throw.
#include "vulkan/addon/vulkan_arguments.h"

#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "addon/arguments.h"
#include "addon/errors.h"
#include "vulkan/addon/vulkan.h"

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

// 16 integers 0..255.
std::array<uint8_t, VK_UUID_SIZE> GetUuid(Napi::Env env, Napi::Object o, const char* key) {
  const std::string what = std::string("deviceFilters.deviceConfigurations[].") + key + " must be an array of 16 integers in [0, 255]";
  Napi::Value v = o.Get(key);
  if (!v.IsArray() || v.As<Napi::Array>().Length() != VK_UUID_SIZE) throw ArgumentError(env, what);
  Napi::Array a = v.As<Napi::Array>();
  std::array<uint8_t, VK_UUID_SIZE> out{};
  for (uint32_t i = 0; i < VK_UUID_SIZE; ++i) {
    Napi::Value b = a.Get(i);
    if (!b.IsNumber()) throw ArgumentError(env, what);
    const double d = b.As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= 255) || d != static_cast<double>(static_cast<uint8_t>(d))) throw ArgumentError(env, what);
    out[i] = static_cast<uint8_t>(d);
  }
  return out;
}

// deviceConfigurations: [{ index, deviceUUID, driverUUID, driverVersion, deviceName, driverName }]
// (absent: no device selection; an empty list: the selection finds nothing).
void GetDeviceConfigurations(Napi::Env env, Napi::Object f, vulkan::DeviceFilters& out) {
  Napi::Value v = f.Get("deviceConfigurations");
  if (v.IsUndefined() || v.IsNull()) return;
  if (!v.IsArray()) throw ArgumentError(env, "deviceFilters.deviceConfigurations must be an array");
  Napi::Array a = v.As<Napi::Array>();
  out.configurationsActive = true;
  for (uint32_t i = 0; i < a.Length(); ++i) {
    if (!a.Get(i).IsObject()) throw ArgumentError(env, "deviceFilters.deviceConfigurations must be an array of objects");
    Napi::Object c = a.Get(i).As<Napi::Object>();
    vulkan::DeviceFilters::Configuration conf;
    conf.index = GetUint(env, c, "index", i);
    conf.deviceUUID = GetUuid(env, c, "deviceUUID");
    conf.driverUUID = GetUuid(env, c, "driverUUID");
    conf.driverVersion = GetUint(env, c, "driverVersion", 0);
    conf.deviceName = GetString(env, c, "deviceName", "");
    conf.driverName = GetString(env, c, "driverName", "");
    out.configurations.push_back(std::move(conf));
  }
}

// [{ extensionName, specVersion }] (absent: none).
std::vector<VkExtensionProperties> GetExtensionList(Napi::Env env, Napi::Object o, const char* key) {
  std::vector<VkExtensionProperties> out;
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) throw ArgumentError(env, std::string("'") + key + "' must be an array of { extensionName, specVersion }");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    if (!a.Get(i).IsObject()) throw ArgumentError(env, std::string("'") + key + "' must be an array of { extensionName, specVersion }");
    Napi::Object e = a.Get(i).As<Napi::Object>();
    VkExtensionProperties p{};
    std::snprintf(p.extensionName, sizeof(p.extensionName), "%s", GetString(env, e, "extensionName").c_str());
    p.specVersion = GetUint(env, e, "specVersion", 0);
    out.push_back(p);
  }
  return out;
}

std::vector<const char*> CStrings(const std::vector<std::string>& v) {
  std::vector<const char*> out;
  for (const auto& s : v) out.push_back(s.c_str());
  return out;
}

std::vector<vulkan::DriverDescription> ReadDrivers(Napi::Env env, Napi::Value drivers, const std::string& what) {
  if (!drivers.IsArray()) throw ArgumentError(env, what + " must be an array");
  std::vector<vulkan::DriverDescription> out;
  Napi::Array da = drivers.As<Napi::Array>();
  for (uint32_t i = 0; i < da.Length(); ++i) {
    if (!da.Get(i).IsObject()) throw ArgumentError(env, what + " entries must be objects");
    Napi::Object d = da.Get(i).As<Napi::Object>();
    vulkan::DriverDescription desc;
    desc.libraryPath = GetString(env, d, "libraryPath");
    desc.manifestPath = GetString(env, d, "manifestPath", "");
    desc.manifestApiVersion = GetUint(env, d, "apiVersion", 0);
    Napi::Value portability = d.Get("isPortabilityDriver");
    desc.isPortabilityDriver = portability.IsBoolean() && portability.As<Napi::Boolean>().Value();
    out.push_back(std::move(desc));
  }
  return out;
}

VkLayerProperties LayerProperties(Napi::Env env, Napi::Object l) {
  VkLayerProperties props{};
  std::snprintf(props.layerName, sizeof(props.layerName), "%s", GetString(env, l, "name").c_str());
  std::snprintf(props.description, sizeof(props.description), "%s", GetString(env, l, "description", "").c_str());
  props.specVersion = GetUint(env, l, "apiVersion", 0);
  props.implementationVersion = GetUint(env, l, "implementationVersion", 0);
  return props;
}

}  // namespace

uint64_t BigIntArgument(Napi::Env env, Napi::Value v, const char* what) {
  if (!v.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint");
  bool lossless = true;
  return v.As<Napi::BigInt>().Uint64Value(&lossless);
}

vulkan::InstancePlan ReadPlan(Napi::Env env, Napi::Value v) {
  if (!v.IsObject()) throw ArgumentError(env, "plan must be an object");
  Napi::Object o = v.As<Napi::Object>();
  vulkan::InstancePlan plan;
  plan.drivers = ReadDrivers(env, o.Get("drivers"), "plan.drivers");
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
    desc.implicit = GetString(env, l, "kind", "explicit") == "implicit";
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
    GetDeviceConfigurations(env, f, plan.deviceFilters);
  }
  Napi::Value disable = o.Get("disableInstanceExtensionFilter");
  plan.disableInstanceExtensionFilter = disable.IsBoolean() && disable.As<Napi::Boolean>().Value();
  Napi::Value keep = o.Get("keepLibrariesMapped");
  plan.keepLibrariesMapped = keep.IsBoolean() && keep.As<Napi::Boolean>().Value();
  plan.knownInstanceExtensions = GetStrings(env, o, "knownInstanceExtensions");
  plan.withheldInstanceExtensions = GetStrings(env, o, "withheldInstanceExtensions");
  // [{ name, extensions: [ext] }] (absent: no layer lists device extensions).
  const Napi::Value deviceListing = o.Get("layerDeviceExtensions");
  if (!deviceListing.IsUndefined()) {
    if (!deviceListing.IsArray()) throw ArgumentError(env, "plan.layerDeviceExtensions must be an array of { name, extensions }");
    const Napi::Array a = deviceListing.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) {
      if (!a.Get(i).IsObject()) throw ArgumentError(env, "plan.layerDeviceExtensions must be an array of { name, extensions }");
      const Napi::Object l = a.Get(i).As<Napi::Object>();
      plan.layerDeviceExtensions.emplace_back(GetString(env, l, "name"), GetExtensionList(env, l, "extensions"));
    }
  }
  return plan;
}

// The plan with what the instance-less commands need: the implicit layers' pre-instance
// interceptors and the layer properties the loader reports.
vulkan::PreInstancePlan ReadPreInstancePlan(Napi::Env env, Napi::Value value) {
  vulkan::PreInstancePlan pre;
  pre.instance = ReadPlan(env, value);
  Napi::Array layers = value.As<Napi::Object>().Get("layers").As<Napi::Array>();
  for (uint32_t i = 0; i < layers.Length(); ++i) {
    Napi::Object l = layers.Get(i).As<Napi::Object>();
    pre.layerProperties.push_back(LayerProperties(env, l));
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
  // { drivers: [driver], layers: [{ name, description, apiVersion, implementationVersion }] }: what the
  // instance-less commands answer for the whole discovery, as the Khronos loader does (every selected
  // driver asked, portability drivers too; every available layer listed), whatever the plan's chain.
  // vkCreateInstance through the exported function loads these drivers too, portability drivers only
  // where the application enables portability enumeration (LoaderInstance::Create decides).
  const Napi::Value enumeration = value.As<Napi::Object>().Get("enumeration");
  if (enumeration.IsObject()) {
    Napi::Object e = enumeration.As<Napi::Object>();
    pre.instance.drivers = ReadDrivers(env, e.Get("drivers"), "plan.enumeration.drivers");
    const Napi::Value available = e.Get("layers");
    if (!available.IsArray()) throw ArgumentError(env, "plan.enumeration.layers must be an array");
    pre.layerProperties.clear();
    Napi::Array a = available.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) {
      if (!a.Get(i).IsObject()) throw ArgumentError(env, "plan.enumeration.layers entries must be objects");
      pre.layerProperties.push_back(LayerProperties(env, a.Get(i).As<Napi::Object>()));
    }
  }
  // { implicitLayers: [ext], layers: [{ name, extensions: [ext] }] } (absent: no layer lists any).
  const Napi::Value listing = value.As<Napi::Object>().Get("instanceExtensionListing");
  if (listing.IsObject()) {
    Napi::Object o = listing.As<Napi::Object>();
    pre.implicitLayerExtensions = GetExtensionList(env, o, "implicitLayers");
    const Napi::Value all = o.Get("layers");
    if (!all.IsUndefined() && !all.IsArray()) throw ArgumentError(env, "'instanceExtensionListing.layers' must be an array of { name, extensions }");
    if (all.IsArray()) {
      Napi::Array a = all.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); ++i) {
        if (!a.Get(i).IsObject()) throw ArgumentError(env, "'instanceExtensionListing.layers' must be an array of { name, extensions }");
        Napi::Object l = a.Get(i).As<Napi::Object>();
        pre.layerExtensions.emplace_back(GetString(env, l, "name"), GetExtensionList(env, l, "extensions"));
      }
    }
  }
  return pre;
}

Napi::Error VkErrorToJs(Napi::Env env, VkResult result, const std::string& message) {
  Napi::Error js = Napi::Error::New(env, message);
  js.Set("code", Napi::String::New(env, "KL_VULKAN_ERROR"));
  js.Set("vkResult", Napi::Number::New(env, static_cast<double>(result)));
  return js;
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

// VK_LUNARG_direct_driver_loading for the typed API: each library opened here (RAII: the instance
// holds it) and its vk_icdGetInstanceProcAddr handed over in a VkDirectDriverLoadingListLUNARG.
void ReadDirectDrivers(Napi::Env env, Napi::Object ci, InstanceCreateInfoHolder& out) {
  const Napi::Value value = ci.Get("directDrivers");
  if (value.IsUndefined()) return;
  if (!value.IsObject()) throw ArgumentError(env, "'directDrivers' must be an object { mode, libraries }");
  const Napi::Object o = value.As<Napi::Object>();
  const std::string mode = GetString(env, o, "mode");
  if (mode != "exclusive" && mode != "inclusive") {
    throw ArgumentError(env, "'directDrivers.mode' must be 'exclusive' or 'inclusive', got '" + mode + "'");
  }
  const std::vector<std::string> libraries = GetStrings(env, o, "libraries");
  for (std::size_t i = 0; i < libraries.size(); ++i) {
    const std::string what = "directDrivers.libraries[" + std::to_string(i) + "] (" + libraries[i] + ")";
    std::shared_ptr<DynamicLibrary> library;
    try {
      library = DynamicLibrary::Open(libraries[i]);
    } catch (const LibraryError& e) {
      throw VkErrorToJs(env, VK_ERROR_INCOMPATIBLE_DRIVER, what + ": cannot load the library: " + e.reason());
    }
    const auto gipa = library->FindFunction<PFN_vkGetInstanceProcAddrLUNARG>("vk_icdGetInstanceProcAddr");
    if (gipa == nullptr) {
      throw VkErrorToJs(env, VK_ERROR_INCOMPATIBLE_DRIVER,
                        what + " does not export vk_icdGetInstanceProcAddr: not a Vulkan driver for direct driver loading (interface version 7)");
    }
    VkDirectDriverLoadingInfoLUNARG info{};
    info.sType = VK_STRUCTURE_TYPE_DIRECT_DRIVER_LOADING_INFO_LUNARG;
    info.pfnGetInstanceProcAddr = gipa;
    out.directDrivers.push_back(info);
    out.directLibraries.push_back(std::move(library));
  }
  out.directList.sType = VK_STRUCTURE_TYPE_DIRECT_DRIVER_LOADING_LIST_LUNARG;
  out.directList.pNext = out.create.pNext;
  out.directList.mode = mode == "exclusive" ? VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG : VK_DIRECT_DRIVER_LOADING_MODE_INCLUSIVE_LUNARG;
  out.directList.driverCount = static_cast<uint32_t>(out.directDrivers.size());
  out.directList.pDrivers = out.directDrivers.data();
  out.create.pNext = &out.directList;
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
  const Napi::Value features = ci.Get("nativeFeatures");
  if (features.IsObject()) {
    Napi::Object f = features.As<Napi::Object>();
    const Napi::Value core = f.Get("core");
    if (core.IsArray()) {
      Napi::Array ca = core.As<Napi::Array>();
      auto* bools = reinterpret_cast<VkBool32*>(&out.features);
      const uint32_t count = static_cast<uint32_t>(sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32));
      for (uint32_t i = 0; i < ca.Length() && i < count; ++i) bools[i] = ca.Get(i).ToBoolean().Value() ? VK_TRUE : VK_FALSE;
      out.create.pEnabledFeatures = &out.features;
    }
    const void* next = nullptr;
    if (f.Get("multiview").ToBoolean().Value()) {
      out.multiview.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES;
      out.multiview.multiview = VK_TRUE;
      out.multiview.pNext = const_cast<void*>(next);
      next = &out.multiview;
    }
    if (f.Get("dynamicRendering").ToBoolean().Value()) {
      out.dynamicRendering.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
      out.dynamicRendering.dynamicRendering = VK_TRUE;
      out.dynamicRendering.pNext = const_cast<void*>(next);
      next = &out.dynamicRendering;
    }
    if (f.Get("synchronization2").ToBoolean().Value()) {
      out.synchronization2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES;
      out.synchronization2.synchronization2 = VK_TRUE;
      out.synchronization2.pNext = const_cast<void*>(next);
      next = &out.synchronization2;
    }
    if (f.Get("dynamicRenderingLocalRead").ToBoolean().Value()) {
      out.dynamicRenderingLocalRead.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES;
      out.dynamicRenderingLocalRead.dynamicRenderingLocalRead = VK_TRUE;
      out.dynamicRenderingLocalRead.pNext = const_cast<void*>(next);
      next = &out.dynamicRenderingLocalRead;
    }
    out.create.pNext = next;
  }
  out.create.enabledExtensionCount = static_cast<uint32_t>(out.extensionPtrs.size());
  out.create.ppEnabledExtensionNames = out.extensionPtrs.data();
}

}  // namespace kl::napi
