#include "openxr/addon/openxr_vulkan.h"

#include <cstdint>
#include <string>
#include <vector>

#include "openxr/addon/openxr_session.h"
#include "openxr/addon/openxr_space.h"
#include "vulkan/addon/vulkan.h"
#include "include/simxr/simxr_readback.h"
#include "vulkan/loader/trampolines.h"

namespace kl::napi::xr {

namespace {

uint64_t BigIntValue(Napi::Env env, Napi::Value value, const char* what) {
  if (!value.IsBigInt()) throw ArgumentError(env, std::string(what) + " must be a bigint");
  bool lossless = true;
  return value.As<Napi::BigInt>().Uint64Value(&lossless);
}

uint32_t Uint32Field(Napi::Env env, Napi::Object o, const char* key, uint32_t fallback) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return fallback;
  if (!v.IsNumber()) throw ArgumentError(env, std::string("'") + key + "' must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (d < 0 || d > 4294967295.0 || d != static_cast<double>(static_cast<uint32_t>(d))) {
    throw ArgumentError(env, std::string("'") + key + "' must be an integer in [0, 2^32)");
  }
  return static_cast<uint32_t>(d);
}

Napi::BigInt HandleToJs(Napi::Env env, const void* handle) {
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
}

constexpr const char* kEnableVulkan2 = "enable XR_KHR_vulkan_enable2 on the instance";

// Both results of a runtime-made Vulkan object: the XrResult first, then the VkResult. Call it
// after the runtime call, never with the call as an argument: argument order is unspecified, and
// `vk` read before the call is the VK_SUCCESS it was initialised with.
void CheckBoth(Napi::Env env, XrResult xr, VkResult vk, const char* command) {
  Check(env, xr, command);
  if (vk != VK_SUCCESS) throw VkErrorToJs(env, vk, std::string(command) + ": the Vulkan call the runtime made failed");
}

// openxrVulkanGraphicsRequirements(instance, systemId): { minApiVersion, maxApiVersion } (XrVersion as
// bigints: a uint64_t, which a runtime may fill past 2^53, e.g. Monado's maximum 1023.0.0)
Napi::Value GraphicsRequirements(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = BigIntValue(env, info[1], "systemId");
  auto fn = ChainFunction<PFN_xrGetVulkanGraphicsRequirements2KHR>(env, li, "xrGetVulkanGraphicsRequirements2KHR", kEnableVulkan2);
  XrGraphicsRequirementsVulkan2KHR requirements{XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR, nullptr, 0, 0};
  Check(env, fn(li.handle(), system, &requirements), "xrGetVulkanGraphicsRequirements2KHR");
  Napi::Object o = Napi::Object::New(env);
  o.Set("minApiVersion", Napi::BigInt::New(env, static_cast<uint64_t>(requirements.minApiVersionSupported)));
  o.Set("maxApiVersion", Napi::BigInt::New(env, static_cast<uint64_t>(requirements.maxApiVersionSupported)));
  return o;
}

// openxrCreateVulkanInstance(instance, systemId, createInfo): the VkInstance (bigint) the runtime
// created with this addon's vkGetInstanceProcAddr (so from the published Vulkan plan).
Napi::Value CreateVulkanInstance(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = BigIntValue(env, info[1], "systemId");
  if (info.Length() < 3 || !info[2].IsObject()) throw ArgumentError(env, "openxrCreateVulkanInstance(instance, systemId, createInfo: object)");
  auto fn = ChainFunction<PFN_xrCreateVulkanInstanceKHR>(env, li, "xrCreateVulkanInstanceKHR", kEnableVulkan2);
  InstanceCreateInfoHolder holder;
  ReadInstanceCreateInfo(env, info[2].As<Napi::Object>(), holder);
  const XrVulkanInstanceCreateInfoKHR create{XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR, nullptr, system, 0, &::vkGetInstanceProcAddr, &holder.create, nullptr};
  VkInstance instance = nullptr;
  VkResult vk = VK_SUCCESS;
  const XrResult xr = fn(li.handle(), &create, &instance, &vk);
  CheckBoth(env, xr, vk, "xrCreateVulkanInstanceKHR");
  return HandleToJs(env, instance);
}

// openxrGetVulkanGraphicsDevice(instance, systemId, vkInstance: bigint): the VkPhysicalDevice (bigint).
Napi::Value GetVulkanGraphicsDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = BigIntValue(env, info[1], "systemId");
  const auto vkInstance = reinterpret_cast<VkInstance>(static_cast<uintptr_t>(BigIntValue(env, info[2], "vulkanInstance")));
  auto fn = ChainFunction<PFN_xrGetVulkanGraphicsDevice2KHR>(env, li, "xrGetVulkanGraphicsDevice2KHR", kEnableVulkan2);
  const XrVulkanGraphicsDeviceGetInfoKHR getInfo{XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR, nullptr, system, vkInstance};
  VkPhysicalDevice physicalDevice = nullptr;
  Check(env, fn(li.handle(), &getInfo, &physicalDevice), "xrGetVulkanGraphicsDevice2KHR");
  return HandleToJs(env, physicalDevice);
}

// openxrCreateVulkanDevice(instance, systemId, physicalDevice: bigint, createInfo): the VkDevice (bigint).
Napi::Value CreateVulkanDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LoaderInstance& li = OpenXrInstance::LiveInstance(env, info[0]);
  const XrSystemId system = BigIntValue(env, info[1], "systemId");
  const auto physicalDevice = reinterpret_cast<VkPhysicalDevice>(static_cast<uintptr_t>(BigIntValue(env, info[2], "physicalDevice")));
  if (info.Length() < 4 || !info[3].IsObject()) throw ArgumentError(env, "openxrCreateVulkanDevice(instance, systemId, physicalDevice, createInfo: object)");
  auto fn = ChainFunction<PFN_xrCreateVulkanDeviceKHR>(env, li, "xrCreateVulkanDeviceKHR", kEnableVulkan2);
  DeviceCreateInfoHolder holder;
  ReadDeviceCreateInfo(env, info[3].As<Napi::Object>(), holder);
  const XrVulkanDeviceCreateInfoKHR create{XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR, nullptr, system, 0, &::vkGetInstanceProcAddr, physicalDevice, &holder.create, nullptr};
  VkDevice device = nullptr;
  VkResult vk = VK_SUCCESS;
  const XrResult xr = fn(li.handle(), &create, &device, &vk);
  CheckBoth(env, xr, vk, "xrCreateVulkanDeviceKHR");
  return HandleToJs(env, device);
}

// openxrSwapchainFormats(session): xrEnumerateSwapchainFormats (VkFormat numbers, the runtime's preference first).
Napi::Value SwapchainFormats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = OpenXrSession::From(env, info[0])->Live(env);
  auto fn = Need(env, core->instance->table.EnumerateSwapchainFormats, "xrEnumerateSwapchainFormats");
  return NumberArray(env, EnumerateTwoCall(env, "xrEnumerateSwapchainFormats", int64_t{0}, [&](uint32_t capacity, uint32_t* count, int64_t* data) {
                       return fn(core->handle, capacity, count, data);
                     }));
}

// openxrDrainSubmittedPixels(session): the simulated runtime's readback records (simxr_readback.h),
// oldest first, removed from the runtime.
Napi::Value DrainSubmittedPixels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = OpenXrSession::From(env, info[0])->Live(env);
  auto fn = ChainFunction<PFN_xrDrainSubmittedPixelsSIMXR>(env, *core->instance, XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME,
                                                          "only the simulated runtime offers it, on instances with XR_KHR_vulkan_enable2");
  const auto all = DrainAll<XrSubmittedPixelSIMXR>(env, XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME, [&](uint32_t capacity, uint32_t* count, XrSubmittedPixelSIMXR* data) {
    return fn(core->handle, capacity, count, data);
  });
  Napi::Array out = Napi::Array::New(env, all.size());
  for (uint32_t i = 0; i < all.size(); ++i) {
    const XrSubmittedPixelSIMXR& p = all[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("frameIndex", Napi::Number::New(env, static_cast<double>(p.frameIndex)));
    o.Set("displayTime", TimeToJs(env, p.displayTime));
    o.Set("viewIndex", Napi::Number::New(env, p.viewIndex));
    o.Set("format", Napi::Number::New(env, static_cast<double>(p.format)));
    Napi::Array bytes = Napi::Array::New(env, 4);
    for (uint32_t b = 0; b < 4; ++b) bytes.Set(b, Napi::Number::New(env, p.bytes[b]));
    o.Set("bytes", bytes);
    o.Set("aspect", Napi::Number::New(env, p.aspect));
    o.Set("x", Napi::Number::New(env, p.x));
    o.Set("y", Napi::Number::New(env, p.y));
    out.Set(i, o);
  }
  return out;
}

// --- xrEndFrame with projection layers, bound: the layers' structures are built once; a call
// copies each view's pose and field of view (11 floats, as locateViews writes them) from the bound
// Float32Array and calls xrEndFrame.

struct BoundEndFrame : BoundData {
  static constexpr BoundKind kKind = BoundKind::kEndFrame;
  BoundEndFrame() noexcept : BoundData(kKind) {}
  std::shared_ptr<SessionCore> session;
  std::vector<std::shared_ptr<SpaceCore>> spaces;          // one per layer
  std::vector<std::shared_ptr<SwapchainCore>> swapchains;  // one per view, all layers in order, then the depth swapchains
  std::vector<XrCompositionLayerProjection> layers;
  std::vector<XrCompositionLayerProjectionView> views;
  // XR_KHR_composition_layer_depth: one per view that has depth, chained to it (never grows after the bind).
  std::vector<XrCompositionLayerDepthInfoKHR> depthInfos;
  std::vector<const XrCompositionLayerBaseHeader*> layerPointers;
  PFN_xrEndFrame endFrame = nullptr;
  XrEnvironmentBlendMode blend = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  const float* data = nullptr;
  Napi::Reference<Napi::Value> keep;  // the Float32Array, so `data` stays valid
};

}  // namespace

napi_value CallBoundEndFrame(napi_env env, napi_callback_info info) {
  BoundEndFrame* d = nullptr;
  napi_value argument = nullptr;
  if (!BoundDataCall(env, info, &d, &argument)) return ThrowFromCallback(ArgumentError(Napi::Env(env), "openxrEndFrame(frame, displayTime?): frame must be a bound end frame"));
  XrTime displayTime = d->session->begunDisplayTime;
  napi_valuetype argumentType = napi_undefined;
  const bool given = argument != nullptr && napi_typeof(env, argument, &argumentType) == napi_ok && argumentType != napi_undefined;
  if (given && !ReadTime(env, argument, &displayTime)) {
    return ThrowFromCallback(ArgumentError(Napi::Env(env), TimeProblem(env, argument, "endFrame: displayTime")));
  }
  if (!d->session->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "session"));
  for (const auto& space : d->spaces) {
    if (!space->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "space of a projection layer"));
  }
  for (const auto& swapchain : d->swapchains) {
    if (!swapchain->alive()) return ThrowFromCallback(DestroyedError(Napi::Env(env), "swapchain of a projection view (or of its depth)"));
  }
  const float* p = d->data;
  for (auto& v : d->views) {
    v.pose = {{p[3], p[4], p[5], p[6]}, {p[0], p[1], p[2]}};
    v.fov = {p[7], p[8], p[9], p[10]};
    p += 11;
  }
  const XrFrameEndInfo endInfo{XR_TYPE_FRAME_END_INFO, nullptr, displayTime, d->blend, static_cast<uint32_t>(d->layerPointers.size()),
                               d->layerPointers.data()};
  const XrResult r = d->endFrame(d->session->handle, &endInfo);
  if (XR_FAILED(r)) return ThrowFromCallback(XrErrorToJs(Napi::Env(env), r, "xrEndFrame failed"));
  return nullptr;
}

namespace {

// A number member of a depth info (TypeScript checked it; a wrong value here is an argument error, not a crash).
float DepthNumber(Napi::Env env, const Napi::Object& o, const char* name) {
  Napi::Value v = o.Get(name);
  if (!v.IsNumber()) throw ArgumentError(env, std::string("a projection view's depth.") + name + " must be a number");
  return v.As<Napi::Number>().FloatValue();
}

// openxrBindEndFrame(session, layers: [{ space, views: [{ swapchain, x, y, width, height, arrayIndex,
// depth?: { swapchain, x, y, width, height, arrayIndex, minDepth, maxDepth, nearZ, farZ } }] }],
// environmentBlendMode, data: Float32Array(11 per view)): (displayTime?: bigint | number) => void.
// A view's depth becomes an XrCompositionLayerDepthInfoKHR chained to it.
Napi::Value BindEndFrame(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto& core = OpenXrSession::From(env, info[0])->Live(env);
  if (info.Length() < 4 || !info[1].IsArray() || !info[2].IsNumber()) {
    throw ArgumentError(env, "openxrBindEndFrame(session, layers: array, environmentBlendMode: number, data: Float32Array)");
  }
  auto d = std::make_unique<BoundEndFrame>();
  d->session = core;
  d->endFrame = Need(env, core->instance->table.EndFrame, "xrEndFrame");
  d->blend = static_cast<XrEnvironmentBlendMode>(info[2].As<Napi::Number>().Int32Value());
  Napi::Array layers = info[1].As<Napi::Array>();
  std::vector<uint32_t> viewCounts;
  std::vector<std::shared_ptr<SwapchainCore>> depthSwapchains;
  std::vector<std::size_t> depthOfView;  // per view: its index in depthInfos, or SIZE_MAX
  for (uint32_t l = 0; l < layers.Length(); ++l) {
    if (!layers.Get(l).IsObject()) throw ArgumentError(env, "each layer must be an object");
    Napi::Object layer = layers.Get(l).As<Napi::Object>();
    auto space = OpenXrSpace::From(env, layer.Get("space"))->Live(env);
    if (space->session != core) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "a projection layer's space belongs to another session");
    d->spaces.push_back(std::move(space));
    if (!layer.Get("views").IsArray()) throw ArgumentError(env, "a projection layer's views must be an array");
    Napi::Array views = layer.Get("views").As<Napi::Array>();
    viewCounts.push_back(views.Length());
    for (uint32_t v = 0; v < views.Length(); ++v) {
      if (!views.Get(v).IsObject()) throw ArgumentError(env, "each projection view must be an object");
      Napi::Object view = views.Get(v).As<Napi::Object>();
      auto swapchain = OpenXrSwapchain::From(env, view.Get("swapchain"))->Live(env);
      if (swapchain->session != core) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "a projection view's swapchain belongs to another session");
      XrCompositionLayerProjectionView pv{XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW, nullptr, {{0, 0, 0, 1}, {0, 0, 0}}, {0, 0, 0, 0}, {}};
      pv.subImage.swapchain = swapchain->handle;
      pv.subImage.imageRect.offset.x = static_cast<int32_t>(Uint32Field(env, view, "x", 0));
      pv.subImage.imageRect.offset.y = static_cast<int32_t>(Uint32Field(env, view, "y", 0));
      pv.subImage.imageRect.extent.width = static_cast<int32_t>(Uint32Field(env, view, "width", 0));
      pv.subImage.imageRect.extent.height = static_cast<int32_t>(Uint32Field(env, view, "height", 0));
      pv.subImage.imageArrayIndex = Uint32Field(env, view, "arrayIndex", 0);
      d->views.push_back(pv);
      d->swapchains.push_back(std::move(swapchain));
      Napi::Value depthValue = view.Get("depth");
      if (depthValue.IsUndefined()) {
        depthOfView.push_back(SIZE_MAX);
        continue;
      }
      if (!depthValue.IsObject()) throw ArgumentError(env, "a projection view's depth must be an object");
      Napi::Object depth = depthValue.As<Napi::Object>();
      auto depthSwapchain = OpenXrSwapchain::From(env, depth.Get("swapchain"))->Live(env);
      if (depthSwapchain->session != core) throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "a projection view's depth swapchain belongs to another session");
      XrCompositionLayerDepthInfoKHR di{XR_TYPE_COMPOSITION_LAYER_DEPTH_INFO_KHR, nullptr, {}, 0, 0, 0, 0};
      di.subImage.swapchain = depthSwapchain->handle;
      di.subImage.imageRect.offset.x = static_cast<int32_t>(Uint32Field(env, depth, "x", 0));
      di.subImage.imageRect.offset.y = static_cast<int32_t>(Uint32Field(env, depth, "y", 0));
      di.subImage.imageRect.extent.width = static_cast<int32_t>(Uint32Field(env, depth, "width", 0));
      di.subImage.imageRect.extent.height = static_cast<int32_t>(Uint32Field(env, depth, "height", 0));
      di.subImage.imageArrayIndex = Uint32Field(env, depth, "arrayIndex", 0);
      di.minDepth = DepthNumber(env, depth, "minDepth");
      di.maxDepth = DepthNumber(env, depth, "maxDepth");
      di.nearZ = DepthNumber(env, depth, "nearZ");
      di.farZ = DepthNumber(env, depth, "farZ");
      depthOfView.push_back(d->depthInfos.size());
      d->depthInfos.push_back(di);
      depthSwapchains.push_back(std::move(depthSwapchain));
    }
  }
  for (auto& swapchain : depthSwapchains) d->swapchains.push_back(std::move(swapchain));
  // The views point into depthInfos, which no longer grows.
  for (std::size_t v = 0; v < d->views.size(); ++v) {
    if (depthOfView[v] != SIZE_MAX) d->views[v].next = &d->depthInfos[depthOfView[v]];
  }
  d->data = Float32Data(env, info[3], d->views.size() * 11, "data");
  d->keep = Napi::Persistent(info[3]);
  // The layer structures point into `views`, which no longer grows.
  std::size_t first = 0;
  for (std::size_t l = 0; l < viewCounts.size(); ++l) {
    XrCompositionLayerProjection layer{XR_TYPE_COMPOSITION_LAYER_PROJECTION, nullptr, 0, d->spaces[l]->handle, viewCounts[l], d->views.data() + first};
    d->layers.push_back(layer);
    first += viewCounts[l];
  }
  for (const auto& layer : d->layers) d->layerPointers.push_back(reinterpret_cast<const XrCompositionLayerBaseHeader*>(&layer));
  return MakeBoundData(env, std::move(d));
}

}  // namespace

void ReadGraphicsBinding(Napi::Env env, Napi::Value value, GraphicsBinding& out) {
  if (!value.IsObject() || !value.As<Napi::Object>().Get("vulkan").IsObject()) {
    throw ArgumentError(env, "graphics must be { vulkan: { device, physicalDevice, queueFamilyIndex, queueIndex } }");
  }
  Napi::Object v = value.As<Napi::Object>().Get("vulkan").As<Napi::Object>();
  VulkanDevice::Shared shared = VulkanDevice::LiveShared(env, v.Get("device"));
  const auto physicalDevice = reinterpret_cast<VkPhysicalDevice>(static_cast<uintptr_t>(BigIntValue(env, v.Get("physicalDevice"), "physicalDevice")));
  if (shared.instance->FindPhysicalDevice(physicalDevice) == nullptr) throw ArgumentError(env, "physicalDevice is not one of the device's instance's physical devices");
  out.vulkan = {XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR, nullptr, shared.instance->handle(), physicalDevice, shared.device->handle,
                Uint32Field(env, v, "queueFamilyIndex", 0), Uint32Field(env, v, "queueIndex", 0)};
  out.next = &out.vulkan;
  out.keep = std::make_shared<const VulkanDevice::Shared>(std::move(shared));
}

// ---- OpenXrSwapchain ----

Napi::Function OpenXrSwapchain::Define(Napi::Env env) {
  return DefineClass(env, "OpenXrSwapchain",
                     {
                         InstanceMethod<&OpenXrSwapchain::Acquire>("acquire"),
                         InstanceMethod<&OpenXrSwapchain::Wait>("wait"),
                         InstanceMethod<&OpenXrSwapchain::Release>("release"),
                         InstanceMethod<&OpenXrSwapchain::Destroy>("destroy"),
                         InstanceAccessor<&OpenXrSwapchain::IsDestroyed>("isDestroyed"),
                         InstanceAccessor<&OpenXrSwapchain::Handle>("handle"),
                         InstanceAccessor<&OpenXrSwapchain::Images>("images"),
                     });
}

OpenXrSwapchain::OpenXrSwapchain(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpenXrSwapchain>(info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[1].IsObject()) throw ArgumentError(env, "new OpenXrSwapchain(session, createInfo: object)");
  const std::shared_ptr<SessionCore> session = OpenXrSession::From(env, info[0])->Live(env);
  if (session->graphics == nullptr) {
    throw XrErrorToJs(env, XR_ERROR_VALIDATION_FAILURE, "the session has no Vulkan graphics binding (a headless session has no swapchains)");
  }
  Napi::Object o = info[1].As<Napi::Object>();
  XrSwapchainCreateInfo create{XR_TYPE_SWAPCHAIN_CREATE_INFO, nullptr, 0, 0, 0, 1, 0, 0, 1, 1, 1};
  Napi::Value format = o.Get("format");
  if (!format.IsNumber()) throw ArgumentError(env, "'format' must be a number (a VkFormat)");
  create.format = format.As<Napi::Number>().Int64Value();
  create.usageFlags = Uint32Field(env, o, "usageFlags", 0);
  create.sampleCount = Uint32Field(env, o, "sampleCount", 1);
  create.width = Uint32Field(env, o, "width", 0);
  create.height = Uint32Field(env, o, "height", 0);
  create.faceCount = Uint32Field(env, o, "faceCount", 1);
  create.arraySize = Uint32Field(env, o, "arraySize", 1);
  create.mipCount = Uint32Field(env, o, "mipCount", 1);
  LoaderInstance& li = *session->instance;
  XrSwapchain handle = XR_NULL_HANDLE;
  Check(env, Need(env, li.table.CreateSwapchain, "xrCreateSwapchain")(session->handle, &create, &handle), "xrCreateSwapchain");
  core_ = std::make_shared<SwapchainCore>();
  core_->session = session;
  core_->handle = handle;
  li.RecordChildHandle(openxr::HandleValue(handle));
  session->swapchains.push_back(core_);
  TagObject(env, info.This().As<Napi::Object>(), kSwapchainTag);
  auto enumerate = Need(env, li.table.EnumerateSwapchainImages, "xrEnumerateSwapchainImages");
  const std::vector<XrSwapchainImageVulkan2KHR> images =
      EnumerateTwoCall(env, "xrEnumerateSwapchainImages", XrSwapchainImageVulkan2KHR{XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR, nullptr, VK_NULL_HANDLE},
                       [&](uint32_t capacity, uint32_t* count, XrSwapchainImageVulkan2KHR* data) {
                         return enumerate(handle, capacity, count, reinterpret_cast<XrSwapchainImageBaseHeader*>(data));
                       });
  Napi::Array array = Napi::Array::New(env, images.size());
  for (uint32_t i = 0; i < images.size(); ++i) array.Set(i, HandleToJs(env, images[i].image));
  images_ = Napi::Persistent(array);
}

OpenXrSwapchain::~OpenXrSwapchain() {
  if (core_ && !core_->destroyed) DestroyNow();
}

OpenXrSwapchain* OpenXrSwapchain::From(Napi::Env env, Napi::Value value) {
  return UnwrapTagged<OpenXrSwapchain>(env, value, kSwapchainTag, "a Swapchain");
}

const std::shared_ptr<SwapchainCore>& OpenXrSwapchain::Live(Napi::Env env) const {
  if (!core_->alive()) throw DestroyedError(env, core_->session->alive() ? "swapchain" : "swapchain's session");
  return core_;
}

XrResult OpenXrSwapchain::DestroyNow() {
  XrResult result = XR_SUCCESS;
  if (core_->session->alive()) {
    LoaderInstance& li = *core_->session->instance;
    if (li.table.DestroySwapchain != nullptr) result = li.table.DestroySwapchain(core_->handle);
    li.ForgetChildHandle(openxr::HandleValue(core_->handle));
  }
  core_->destroyed = true;
  return result;
}

Napi::Value OpenXrSwapchain::Acquire(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SwapchainCore& core = *Live(env);
  const XrSwapchainImageAcquireInfo acquireInfo{XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO, nullptr};
  uint32_t index = 0;
  Check(env, Need(env, core.session->instance->table.AcquireSwapchainImage, "xrAcquireSwapchainImage")(core.handle, &acquireInfo, &index), "xrAcquireSwapchainImage");
  ++core.acquired;
  return Napi::Number::New(env, index);
}

// wait(timeoutNs: number): true when the image is ready, false when the timeout expired.
Napi::Value OpenXrSwapchain::Wait(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SwapchainCore& core = *Live(env);
  if (info.Length() < 1 || !info[0].IsNumber()) throw ArgumentError(env, "wait(timeoutNs: number)");
  if (core.waited >= core.acquired) throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID, "wait() without an acquired image to wait for (call acquire() first)");
  const XrSwapchainImageWaitInfo waitInfo{XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO, nullptr, static_cast<XrDuration>(info[0].As<Napi::Number>().Int64Value())};
  const XrResult r = Need(env, core.session->instance->table.WaitSwapchainImage, "xrWaitSwapchainImage")(core.handle, &waitInfo);
  if (r == XR_TIMEOUT_EXPIRED) return Napi::Boolean::New(env, false);
  Check(env, r, "xrWaitSwapchainImage");
  ++core.waited;
  return Napi::Boolean::New(env, true);
}

Napi::Value OpenXrSwapchain::Release(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SwapchainCore& core = *Live(env);
  if (core.waited == 0) throw XrErrorToJs(env, XR_ERROR_CALL_ORDER_INVALID, "release() without a waited image (call acquire() and wait() first)");
  const XrSwapchainImageReleaseInfo releaseInfo{XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO, nullptr};
  Check(env, Need(env, core.session->instance->table.ReleaseSwapchainImage, "xrReleaseSwapchainImage")(core.handle, &releaseInfo), "xrReleaseSwapchainImage");
  --core.waited;
  --core.acquired;
  return env.Undefined();
}

Napi::Value OpenXrSwapchain::Destroy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Live(env);
  Check(env, DestroyNow(), "xrDestroySwapchain");
  return env.Undefined();
}

Napi::Value OpenXrSwapchain::IsDestroyed(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), !core_->alive()); }

Napi::Value OpenXrSwapchain::Handle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::BigInt::New(env, openxr::HandleValue(Live(env)->handle));
}

Napi::Value OpenXrSwapchain::Images(const Napi::CallbackInfo& info) {
  Live(info.Env());
  return images_.Value();
}

void RegisterOpenXrVulkan(Napi::Env env, Napi::Object exports) {
  exports.Set("OpenXrSwapchain", OpenXrSwapchain::Define(env));
  exports.Set("openxrVulkanGraphicsRequirements", Napi::Function::New<GraphicsRequirements>(env, "openxrVulkanGraphicsRequirements"));
  exports.Set("openxrCreateVulkanInstance", Napi::Function::New<CreateVulkanInstance>(env, "openxrCreateVulkanInstance"));
  exports.Set("openxrGetVulkanGraphicsDevice", Napi::Function::New<GetVulkanGraphicsDevice>(env, "openxrGetVulkanGraphicsDevice"));
  exports.Set("openxrCreateVulkanDevice", Napi::Function::New<CreateVulkanDevice>(env, "openxrCreateVulkanDevice"));
  exports.Set("openxrSwapchainFormats", Napi::Function::New<SwapchainFormats>(env, "openxrSwapchainFormats"));
  exports.Set("openxrBindEndFrame", Napi::Function::New<BindEndFrame>(env, "openxrBindEndFrame"));
  ExportBoundCall(env, exports, "openxrEndFrame", CallBoundEndFrame);
  exports.Set("openxrDrainSubmittedPixels", Napi::Function::New<DrainSubmittedPixels>(env, "openxrDrainSubmittedPixels"));
}

}  // namespace kl::napi::xr
