// Instance-level commands: extension enumeration, instance creation and properties, events,
// paths and the enum-to-string commands.
#include "bundled/simxr/instance.h"

#include <cstdio>
#include <cstring>
#include <string_view>

#include "bundled/simxr/entry_points.h"
#include "bundled/simxr/enum_names.h"
#include "bundled/simxr/two_call.h"
#include "bundled/simxr/vulkan_enable.h"

namespace simxr {
namespace {

struct SupportedExtension {
  const char* name;
  uint32_t version;
};

// Sessions render through Vulkan (XR_KHR_vulkan_enable2, with the application's Vulkan loader) or
// run without a graphics API at all (XR_MND_headless).
constexpr SupportedExtension kExtensions[] = {
    {XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME, XR_KHR_vulkan_enable2_SPEC_VERSION},
    {XR_MND_HEADLESS_EXTENSION_NAME, XR_MND_headless_SPEC_VERSION},
    {XR_EXT_HAND_TRACKING_EXTENSION_NAME, XR_EXT_hand_tracking_SPEC_VERSION},
    {XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME, XR_KHR_composition_layer_depth_SPEC_VERSION},
};

constexpr const char* kRuntimeName = "khronos-loader simulated runtime (simxr)";
constexpr XrVersion kRuntimeVersion = XR_MAKE_VERSION(0, 1, 0);

bool isSupportedApiVersion(XrVersion version) {
  const uint32_t mm = majorMinor(version);
  return mm == majorMinor(XR_MAKE_VERSION(1, 0, 0)) || mm == majorMinor(XR_MAKE_VERSION(1, 1, 0));
}

}  // namespace

Instance::Instance(XrVersion apiVersion_, bool headless, bool vulkanEnable2, bool handTracking, bool compositionLayerDepth,
                   SimConfig config_)
    : apiVersion(apiVersion_),
      headlessEnabled(headless),
      vulkanEnable2Enabled(vulkanEnable2),
      handTrackingEnabled(handTracking),
      compositionLayerDepthEnabled(compositionLayerDepth),
      config(std::move(config_)),
      vulkan(std::make_unique<VulkanEnableState>()) {
  auto atom = [this](std::string_view text) { return *paths.intern(text); };
  wellKnown = WellKnownPaths{atom("/user/hand/left"), atom("/user/hand/right"), atom("/user/head"),
                             atom("/user/gamepad")};
}

Instance::~Instance() = default;

std::shared_ptr<Instance> findInstance(XrInstance instance) {
  return HandleRegistry::global().get<Instance>(handleValue(instance));
}

SIMXR_ENTRY EnumerateApiLayerProperties(uint32_t capacity, uint32_t* countOutput, XrApiLayerProperties* properties) {
  // A runtime has no API layers of its own (layers belong to the loader).
  return answerArray(capacity, countOutput, properties, 0, [](uint32_t, XrApiLayerProperties&) {},
                     XR_TYPE_API_LAYER_PROPERTIES);
}

SIMXR_ENTRY EnumerateInstanceExtensionProperties(const char* layerName, uint32_t capacity, uint32_t* countOutput,
                                                 XrExtensionProperties* properties) {
  if (layerName != nullptr) return XR_ERROR_API_LAYER_NOT_PRESENT;
  constexpr auto count = static_cast<uint32_t>(std::size(kExtensions));
  return answerArray(
      capacity, countOutput, properties, count,
      [](uint32_t i, XrExtensionProperties& out) {
        copyFixedString(out.extensionName, kExtensions[i].name);
        out.extensionVersion = kExtensions[i].version;
      },
      XR_TYPE_EXTENSION_PROPERTIES);
}

SIMXR_ENTRY CreateInstance(const XrInstanceCreateInfo* createInfo, XrInstance* instance) {
  if (!hasType(createInfo, XR_TYPE_INSTANCE_CREATE_INFO) || instance == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (createInfo->createFlags != 0) return XR_ERROR_VALIDATION_FAILURE;
  const XrApplicationInfo& app = createInfo->applicationInfo;
  if (!terminatedWithin(app.applicationName, XR_MAX_APPLICATION_NAME_SIZE) ||
      !terminatedWithin(app.engineName, XR_MAX_ENGINE_NAME_SIZE)) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  if (app.applicationName[0] == '\0') return XR_ERROR_NAME_INVALID;
  if (!isSupportedApiVersion(app.apiVersion)) return XR_ERROR_API_VERSION_UNSUPPORTED;
  // enabledApiLayerNames are the loader's business: a runtime never sees a layer of its own.
  if (createInfo->enabledExtensionCount != 0 && createInfo->enabledExtensionNames == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  bool headless = false;
  bool vulkanEnable2 = false;
  bool handTracking = false;
  bool compositionLayerDepth = false;
  for (uint32_t i = 0; i < createInfo->enabledExtensionCount; ++i) {
    const char* name = createInfo->enabledExtensionNames[i];
    if (name == nullptr) return XR_ERROR_VALIDATION_FAILURE;
    bool known = false;
    for (const auto& extension : kExtensions) known = known || std::strcmp(extension.name, name) == 0;
    if (!known) return XR_ERROR_EXTENSION_NOT_PRESENT;
    if (std::strcmp(name, XR_MND_HEADLESS_EXTENSION_NAME) == 0) headless = true;
    if (std::strcmp(name, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME) == 0) vulkanEnable2 = true;
    if (std::strcmp(name, XR_EXT_HAND_TRACKING_EXTENSION_NAME) == 0) handTracking = true;
    if (std::strcmp(name, XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME) == 0) compositionLayerDepth = true;
  }
  ConfigResult config = readSimConfig();
  if (!config.config) {
    std::fprintf(stderr, "simxr: xrCreateInstance failed: %s\n", config.error.c_str());
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  auto object = std::make_shared<Instance>(app.apiVersion, headless, vulkanEnable2, handTracking, compositionLayerDepth, *config.config);
  *instance = toHandle<XrInstance>(HandleRegistry::global().insert(HandleKind::Instance, 0, std::move(object)));
  return XR_SUCCESS;
}

SIMXR_ENTRY DestroyInstance(XrInstance instance) {
  return HandleRegistry::global().erase(handleValue(instance), HandleKind::Instance) ? XR_SUCCESS
                                                                                       : XR_ERROR_HANDLE_INVALID;
}

SIMXR_ENTRY GetInstanceProperties(XrInstance instance, XrInstanceProperties* properties) {
  if (!findInstance(instance)) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(properties, XR_TYPE_INSTANCE_PROPERTIES)) return XR_ERROR_VALIDATION_FAILURE;
  properties->runtimeVersion = kRuntimeVersion;
  copyFixedString(properties->runtimeName, kRuntimeName);
  return XR_SUCCESS;
}

SIMXR_ENTRY PollEvent(XrInstance instance, XrEventDataBuffer* eventData) {
  auto object = findInstance(instance);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (!hasType(eventData, XR_TYPE_EVENT_DATA_BUFFER)) return XR_ERROR_VALIDATION_FAILURE;
  return object->events.pop(*eventData) ? XR_SUCCESS : XR_EVENT_UNAVAILABLE;
}

SIMXR_ENTRY ResultToString(XrInstance instance, XrResult value, char buffer[XR_MAX_RESULT_STRING_SIZE]) {
  if (!findInstance(instance)) return XR_ERROR_HANDLE_INVALID;
  if (buffer == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  resultName(value, *reinterpret_cast<char(*)[XR_MAX_RESULT_STRING_SIZE]>(buffer));
  return XR_SUCCESS;
}

SIMXR_ENTRY StructureTypeToString(XrInstance instance, XrStructureType value, char buffer[XR_MAX_STRUCTURE_NAME_SIZE]) {
  if (!findInstance(instance)) return XR_ERROR_HANDLE_INVALID;
  if (buffer == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  structureTypeName(value, *reinterpret_cast<char(*)[XR_MAX_STRUCTURE_NAME_SIZE]>(buffer));
  return XR_SUCCESS;
}

SIMXR_ENTRY StringToPath(XrInstance instance, const char* pathString, XrPath* path) {
  auto object = findInstance(instance);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  if (pathString == nullptr || path == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  if (!terminatedWithin(pathString, XR_MAX_PATH_LENGTH)) return XR_ERROR_PATH_FORMAT_INVALID;
  auto atom = object->paths.intern(pathString);
  if (!atom) return XR_ERROR_PATH_FORMAT_INVALID;
  *path = *atom;
  return XR_SUCCESS;
}

SIMXR_ENTRY PathToString(XrInstance instance, XrPath path, uint32_t capacity, uint32_t* countOutput, char* buffer) {
  auto object = findInstance(instance);
  if (!object) return XR_ERROR_HANDLE_INVALID;
  auto text = object->paths.toString(path);
  if (!text) return XR_ERROR_PATH_INVALID;
  return answerString(capacity, countOutput, buffer, *text);
}

}  // namespace simxr
