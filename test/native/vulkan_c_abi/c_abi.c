/* Native code that uses this loader only through the addon's exported C functions, as another
 * addon or a renderer in the same process would: it finds the already loaded addon with
 * dlopen(RTLD_NOLOAD), takes vkGetInstanceProcAddr with dlsym and does the rest through it and
 * the exported core commands' pointers. kl_vk_c_abi_run writes what it saw into `report`:
 *   "version=<v> extensions=<n> devices=<n> name=<deviceName> queue=<ok|null> wait=<VkResult> destroyed"
 * or "error: <step> <VkResult>". */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "generated/vulkan_types.h"

#define KL_EXPORT __attribute__((visibility("default")))

#define FAIL(step, res)                                            \
  do {                                                             \
    snprintf(report, size, "error: %s %d", step, (int)(res));     \
    return -1;                                                     \
  } while (0)

KL_EXPORT int kl_vk_c_abi_run(const char* addonPath, char* report, size_t size) {
  void* addon = dlopen(addonPath, RTLD_NOW | RTLD_NOLOAD);
  if (addon == NULL) FAIL("dlopen", 0);
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(addon, "vkGetInstanceProcAddr");
  dlclose(addon); /* the addon stays loaded: node holds it */
  if (gipa == NULL) FAIL("dlsym vkGetInstanceProcAddr", 0);

  PFN_vkEnumerateInstanceVersion enumerateVersion = (PFN_vkEnumerateInstanceVersion)gipa(NULL, "vkEnumerateInstanceVersion");
  PFN_vkEnumerateInstanceExtensionProperties enumerateExtensions =
      (PFN_vkEnumerateInstanceExtensionProperties)gipa(NULL, "vkEnumerateInstanceExtensionProperties");
  PFN_vkCreateInstance createInstance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  if (!enumerateVersion || !enumerateExtensions || !createInstance) FAIL("global commands", 0);
  uint32_t version = 0;
  VkResult res = enumerateVersion(&version);
  if (res != VK_SUCCESS) FAIL("vkEnumerateInstanceVersion", res);
  uint32_t extensionCount = 0;
  res = enumerateExtensions(NULL, &extensionCount, NULL);
  if (res != VK_SUCCESS) FAIL("vkEnumerateInstanceExtensionProperties", res);

  VkApplicationInfo app;
  memset(&app, 0, sizeof(app));
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "c-abi";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info;
  memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  VkInstance instance = NULL;
  res = createInstance(&info, NULL, &instance);
  if (res != VK_SUCCESS) FAIL("vkCreateInstance", res);

  PFN_vkEnumeratePhysicalDevices enumerateDevices = (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
  PFN_vkGetPhysicalDeviceProperties getProperties = (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
  PFN_vkCreateDevice createDevice = (PFN_vkCreateDevice)gipa(instance, "vkCreateDevice");
  PFN_vkDestroyInstance destroyInstance = (PFN_vkDestroyInstance)gipa(instance, "vkDestroyInstance");
  PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(instance, "vkGetDeviceProcAddr");
  if (!enumerateDevices || !getProperties || !createDevice || !destroyInstance || !gdpa) FAIL("instance commands", 0);
  uint32_t deviceCount = 1;
  VkPhysicalDevice physicalDevice = NULL;
  res = enumerateDevices(instance, &deviceCount, &physicalDevice);
  if (res < 0 || deviceCount == 0) FAIL("vkEnumeratePhysicalDevices", res);
  VkPhysicalDeviceProperties props;
  getProperties(physicalDevice, &props);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo;
  memset(&queueInfo, 0, sizeof(queueInfo));
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo;
  memset(&deviceInfo, 0, sizeof(deviceInfo));
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  VkDevice device = NULL;
  res = createDevice(physicalDevice, &deviceInfo, NULL, &device);
  if (res != VK_SUCCESS) FAIL("vkCreateDevice", res);
  PFN_vkGetDeviceQueue getQueue = (PFN_vkGetDeviceQueue)gdpa(device, "vkGetDeviceQueue");
  PFN_vkQueueWaitIdle waitIdle = (PFN_vkQueueWaitIdle)gdpa(device, "vkQueueWaitIdle");
  PFN_vkDestroyDevice destroyDevice = (PFN_vkDestroyDevice)gdpa(device, "vkDestroyDevice");
  if (!getQueue || !waitIdle || !destroyDevice) FAIL("device commands", 0);
  VkQueue queue = NULL;
  getQueue(device, 0, 0, &queue);
  const VkResult wait = queue != NULL ? waitIdle(queue) : VK_ERROR_UNKNOWN;
  destroyDevice(device, NULL);
  destroyInstance(instance, NULL);
  snprintf(report, size, "version=%u extensions=%u devices=%u name=%s queue=%s wait=%d destroyed", version, extensionCount, deviceCount,
           props.deviceName, queue != NULL ? "ok" : "null", (int)wait);
  return 0;
}
