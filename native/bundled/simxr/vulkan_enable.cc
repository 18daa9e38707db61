// XR_KHR_vulkan_enable2's instance commands: the graphics requirements, and the VkInstance,
// VkPhysicalDevice and VkDevice the runtime creates or picks for the application, always through
// the vkGetInstanceProcAddr the application passes (so through the application's Vulkan loader).
#include "bundled/simxr/vulkan_enable.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bundled/simxr/instance.h"
#include "bundled/simxr/vulkan_entry_points.h"

namespace simxr {
namespace {

/** The instance if it is alive, enabled XR_KHR_vulkan_enable2 and `systemId` is its system. */
XrResult checkVulkanInstance(XrInstance instance, XrSystemId systemId, std::shared_ptr<Instance>& out) {
  out = findInstance(instance);
  if (!out) return XR_ERROR_HANDLE_INVALID;
  if (!out->vulkanEnable2Enabled) return XR_ERROR_FUNCTION_UNSUPPORTED;
  if (systemId != kHmdSystemId) return XR_ERROR_SYSTEM_INVALID;
  return XR_SUCCESS;
}

/** SIMXR_VULKAN_DEVICE: a decimal index into the enumeration, else a substring of the device name. */
std::optional<size_t> pickPhysicalDevice(const std::string& wanted, const std::vector<VkPhysicalDevice>& devices,
                                         PFN_vkGetPhysicalDeviceProperties getProperties) {
  if (devices.empty()) return std::nullopt;
  if (wanted.empty()) return 0;
  if (std::all_of(wanted.begin(), wanted.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto index = std::strtoull(wanted.c_str(), nullptr, 10);
    return index < devices.size() ? std::optional<size_t>(index) : std::nullopt;
  }
  for (size_t i = 0; i < devices.size(); ++i) {
    VkPhysicalDeviceProperties properties{};
    getProperties(devices[i], &properties);
    if (std::string(properties.deviceName).find(wanted) != std::string::npos) return i;
  }
  return std::nullopt;
}

}  // namespace

void VulkanEnableState::remember(const CreatedInstance& created) {
  std::erase_if(instances, [&](const CreatedInstance& i) { return i.instance == created.instance; });
  instances.push_back(created);
}

void VulkanEnableState::remember(const ReturnedPhysicalDevice& returned) {
  std::erase_if(physicalDevices, [&](const ReturnedPhysicalDevice& p) { return p.physicalDevice == returned.physicalDevice; });
  physicalDevices.push_back(returned);
}

void VulkanEnableState::remember(CreatedDevice created) {
  std::erase_if(devices, [&](const CreatedDevice& d) { return d.device == created.device; });
  devices.push_back(std::move(created));
}

std::optional<VulkanBindingTarget> VulkanEnableState::bindingTarget(const XrGraphicsBindingVulkan2KHR& binding,
                                                                    XrResult& error) {
  std::lock_guard lock(mutex);
  error = XR_ERROR_GRAPHICS_DEVICE_INVALID;
  auto instanceIt = std::find_if(instances.begin(), instances.end(),
                                 [&](const CreatedInstance& i) { return i.instance == binding.instance; });
  if (instanceIt == instances.end()) return std::nullopt;
  const bool returned = std::any_of(physicalDevices.begin(), physicalDevices.end(), [&](const ReturnedPhysicalDevice& p) {
    return p.physicalDevice == binding.physicalDevice && p.instance == binding.instance;
  });
  if (!returned) return std::nullopt;
  auto deviceIt = std::find_if(devices.begin(), devices.end(), [&](const CreatedDevice& d) {
    return d.device == binding.device && d.physicalDevice == binding.physicalDevice;
  });
  if (deviceIt == devices.end()) return std::nullopt;
  // The queue must be one the device was created with.
  error = XR_ERROR_VALIDATION_FAILURE;
  if (binding.queueFamilyIndex >= deviceIt->queueCounts.size() ||
      binding.queueIndex >= deviceIt->queueCounts[binding.queueFamilyIndex]) {
    return std::nullopt;
  }
  // The runtime copies on that queue: its family must support transfers (graphics and compute imply them).
  auto getFamilies = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      instanceIt->getInstanceProcAddr(binding.instance, "vkGetPhysicalDeviceQueueFamilyProperties"));
  if (getFamilies == nullptr) return std::nullopt;
  uint32_t familyCount = 0;
  getFamilies(binding.physicalDevice, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  getFamilies(binding.physicalDevice, &familyCount, families.data());
  constexpr VkQueueFlags kTransferCapable = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  if (binding.queueFamilyIndex >= familyCount || (families[binding.queueFamilyIndex].queueFlags & kTransferCapable) == 0) {
    return std::nullopt;
  }
  error = XR_SUCCESS;
  return VulkanBindingTarget{instanceIt->getInstanceProcAddr, binding.instance, binding.physicalDevice,
                             binding.device, binding.queueFamilyIndex, binding.queueIndex};
}

SIMXR_ENTRY GetVulkanGraphicsRequirements2KHR(XrInstance instance, XrSystemId systemId,
                                              XrGraphicsRequirementsVulkan2KHR* graphicsRequirements) {
  std::shared_ptr<Instance> object;
  if (XrResult r = checkVulkanInstance(instance, systemId, object); r != XR_SUCCESS) return r;
  if (!hasType(graphicsRequirements, XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR)) return XR_ERROR_VALIDATION_FAILURE;
  graphicsRequirements->minApiVersionSupported = kMinVulkanApiVersion;
  graphicsRequirements->maxApiVersionSupported = kMaxVulkanApiVersion;
  std::lock_guard lock(object->vulkan->mutex);
  object->vulkan->requirementsQueried = true;
  return XR_SUCCESS;
}

SIMXR_ENTRY CreateVulkanInstanceKHR(XrInstance instance, const XrVulkanInstanceCreateInfoKHR* createInfo,
                                    VkInstance* vulkanInstance, VkResult* vulkanResult) {
  std::shared_ptr<Instance> object;
  if (createInfo == nullptr) return findInstance(instance) ? XR_ERROR_VALIDATION_FAILURE : XR_ERROR_HANDLE_INVALID;
  if (XrResult r = checkVulkanInstance(instance, createInfo->systemId, object); r != XR_SUCCESS) return r;
  if (createInfo->type != XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR || createInfo->createFlags != 0 ||
      createInfo->pfnGetInstanceProcAddr == nullptr || createInfo->vulkanCreateInfo == nullptr ||
      vulkanInstance == nullptr || vulkanResult == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  auto create = reinterpret_cast<PFN_vkCreateInstance>(createInfo->pfnGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  if (create == nullptr) {
    std::fprintf(stderr, "simxr: xrCreateVulkanInstanceKHR: the application's vkGetInstanceProcAddr gave no vkCreateInstance\n");
    return XR_ERROR_RUNTIME_FAILURE;
  }
  // The runtime's Vulkan work (image creation, copies, resolves) is core Vulkan 1.0: it needs no
  // instance extension or layer of its own, so the application's create info goes as it is.
  *vulkanResult = create(createInfo->vulkanCreateInfo, createInfo->vulkanAllocator, vulkanInstance);
  if (*vulkanResult == VK_SUCCESS) {
    std::lock_guard lock(object->vulkan->mutex);
    object->vulkan->remember(VulkanEnableState::CreatedInstance{*vulkanInstance, createInfo->pfnGetInstanceProcAddr});
  }
  return XR_SUCCESS;
}

SIMXR_ENTRY GetVulkanGraphicsDevice2KHR(XrInstance instance, const XrVulkanGraphicsDeviceGetInfoKHR* getInfo,
                                        VkPhysicalDevice* vulkanPhysicalDevice) {
  std::shared_ptr<Instance> object;
  if (getInfo == nullptr) return findInstance(instance) ? XR_ERROR_VALIDATION_FAILURE : XR_ERROR_HANDLE_INVALID;
  if (XrResult r = checkVulkanInstance(instance, getInfo->systemId, object); r != XR_SUCCESS) return r;
  if (getInfo->type != XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR || vulkanPhysicalDevice == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  PFN_vkGetInstanceProcAddr gipa = nullptr;
  {
    std::lock_guard lock(object->vulkan->mutex);
    for (const auto& created : object->vulkan->instances) {
      if (created.instance == getInfo->vulkanInstance) gipa = created.getInstanceProcAddr;
    }
  }
  // Only an instance made by xrCreateVulkanInstanceKHR: the runtime knows no other way into it.
  if (gipa == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(gipa(getInfo->vulkanInstance, "vkEnumeratePhysicalDevices"));
  auto getProperties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(gipa(getInfo->vulkanInstance, "vkGetPhysicalDeviceProperties"));
  if (enumerate == nullptr || getProperties == nullptr) return XR_ERROR_RUNTIME_FAILURE;
  uint32_t count = 0;
  if (enumerate(getInfo->vulkanInstance, &count, nullptr) != VK_SUCCESS) return XR_ERROR_RUNTIME_FAILURE;
  std::vector<VkPhysicalDevice> devices(count);
  const VkResult listed = enumerate(getInfo->vulkanInstance, &count, devices.data());
  if (listed != VK_SUCCESS && listed != VK_INCOMPLETE) return XR_ERROR_RUNTIME_FAILURE;
  devices.resize(count);
  const auto picked = pickPhysicalDevice(object->config.vulkanDevice, devices, getProperties);
  if (!picked) {
    std::fprintf(stderr, "simxr: xrGetVulkanGraphicsDevice2KHR: %s\n",
                 devices.empty() ? "the Vulkan instance has no physical device"
                                 : ("SIMXR_VULKAN_DEVICE='" + object->config.vulkanDevice +
                                    "' names no physical device (an index or part of a device name)")
                                       .c_str());
    return XR_ERROR_RUNTIME_FAILURE;
  }
  *vulkanPhysicalDevice = devices[*picked];
  std::lock_guard lock(object->vulkan->mutex);
  object->vulkan->remember(VulkanEnableState::ReturnedPhysicalDevice{*vulkanPhysicalDevice, getInfo->vulkanInstance});
  return XR_SUCCESS;
}

SIMXR_ENTRY CreateVulkanDeviceKHR(XrInstance instance, const XrVulkanDeviceCreateInfoKHR* createInfo,
                                  VkDevice* vulkanDevice, VkResult* vulkanResult) {
  std::shared_ptr<Instance> object;
  if (createInfo == nullptr) return findInstance(instance) ? XR_ERROR_VALIDATION_FAILURE : XR_ERROR_HANDLE_INVALID;
  if (XrResult r = checkVulkanInstance(instance, createInfo->systemId, object); r != XR_SUCCESS) return r;
  if (createInfo->type != XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR || createInfo->createFlags != 0 ||
      createInfo->pfnGetInstanceProcAddr == nullptr || createInfo->vulkanCreateInfo == nullptr ||
      vulkanDevice == nullptr || vulkanResult == nullptr) {
    return XR_ERROR_VALIDATION_FAILURE;
  }
  VkInstance owner = nullptr;
  {
    std::lock_guard lock(object->vulkan->mutex);
    for (const auto& returned : object->vulkan->physicalDevices) {
      if (returned.physicalDevice == createInfo->vulkanPhysicalDevice) owner = returned.instance;
    }
  }
  // The physical device must be the one xrGetVulkanGraphicsDevice2KHR returned.
  if (owner == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(createInfo->pfnGetInstanceProcAddr(owner, "vkCreateDevice"));
  if (create == nullptr) return XR_ERROR_RUNTIME_FAILURE;
  // Like the instance: the runtime's copies need no device extension or feature beyond Vulkan 1.0.
  const VkDeviceCreateInfo& info = *createInfo->vulkanCreateInfo;
  *vulkanResult = create(createInfo->vulkanPhysicalDevice, &info, createInfo->vulkanAllocator, vulkanDevice);
  if (*vulkanResult != VK_SUCCESS) return XR_SUCCESS;
  VulkanEnableState::CreatedDevice created{*vulkanDevice, createInfo->vulkanPhysicalDevice, owner, {}};
  for (uint32_t i = 0; i < info.queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& queue = info.pQueueCreateInfos[i];
    if (queue.queueFamilyIndex >= created.queueCounts.size()) created.queueCounts.resize(queue.queueFamilyIndex + 1, 0);
    created.queueCounts[queue.queueFamilyIndex] += queue.queueCount;
  }
  std::lock_guard lock(object->vulkan->mutex);
  object->vulkan->remember(std::move(created));
  return XR_SUCCESS;
}

}  // namespace simxr
