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

/* vkCreateDevice with one queue of family 0. */
static VkResult CreateDeviceWithOneQueue(PFN_vkCreateDevice createDevice, VkPhysicalDevice physicalDevice, VkDevice* device) {
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
  return createDevice(physicalDevice, &deviceInfo, NULL, device);
}

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

  VkDevice device = NULL;
  res = CreateDeviceWithOneQueue(createDevice, physicalDevice, &device);
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

/* Misuse through the exports, as the Khronos loader's trampolines meet it: `what` names one wrong
 * call, made after an instance, a physical device and a device exist (the plan's driver):
 *   "destroy-null"         vkDestroyDevice(NULL) and vkDestroyInstance(NULL): valid, nothing happens;
 *                          then the real ones; report "destroy-null ok"
 *   "command-buffer-null"  vkCmdPushConstants(NULL, ...)
 *   "command-buffer-foreign" vkCmdPushConstants on an object whose first word points at a table
 *                          this loader did not make (another loader's command buffer)
 *   "queue-foreign"        vkQueueWaitIdle on such an object
 *   "physical-device-null" vkGetPhysicalDeviceProperties(NULL, ...)
 *   "physical-device-foreign" vkGetPhysicalDeviceProperties on the device's own VkDevice handle
 *   "instance-foreign"     vkEnumeratePhysicalDevices on an object that is not an instance
 * Every call but "destroy-null" must end the process in abort() with the loader's message; if it
 * returns, the report says "survived <what>" and the function returns 1. */
KL_EXPORT int kl_vk_c_abi_misuse(const char* addonPath, const char* what, char* report, size_t size) {
  void* addon = dlopen(addonPath, RTLD_NOW | RTLD_NOLOAD);
  if (addon == NULL) FAIL("dlopen", 0);
  PFN_vkCreateInstance createInstance = (PFN_vkCreateInstance)dlsym(addon, "vkCreateInstance");
  PFN_vkDestroyInstance destroyInstance = (PFN_vkDestroyInstance)dlsym(addon, "vkDestroyInstance");
  PFN_vkEnumeratePhysicalDevices enumerateDevices = (PFN_vkEnumeratePhysicalDevices)dlsym(addon, "vkEnumeratePhysicalDevices");
  PFN_vkGetPhysicalDeviceProperties getProperties = (PFN_vkGetPhysicalDeviceProperties)dlsym(addon, "vkGetPhysicalDeviceProperties");
  PFN_vkCreateDevice createDevice = (PFN_vkCreateDevice)dlsym(addon, "vkCreateDevice");
  PFN_vkDestroyDevice destroyDevice = (PFN_vkDestroyDevice)dlsym(addon, "vkDestroyDevice");
  PFN_vkCmdPushConstants pushConstants = (PFN_vkCmdPushConstants)dlsym(addon, "vkCmdPushConstants");
  PFN_vkQueueWaitIdle waitIdle = (PFN_vkQueueWaitIdle)dlsym(addon, "vkQueueWaitIdle");
  dlclose(addon);
  if (!createInstance || !destroyInstance || !enumerateDevices || !getProperties || !createDevice || !destroyDevice || !pushConstants ||
      !waitIdle)
    FAIL("dlsym", 0);

  VkInstanceCreateInfo info;
  memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  VkInstance instance = NULL;
  VkResult res = createInstance(&info, NULL, &instance);
  if (res != VK_SUCCESS) FAIL("vkCreateInstance", res);
  uint32_t count = 1;
  VkPhysicalDevice physicalDevice = NULL;
  res = enumerateDevices(instance, &count, &physicalDevice);
  if (res < 0 || count == 0) FAIL("vkEnumeratePhysicalDevices", res);
  VkDevice device = NULL;
  res = CreateDeviceWithOneQueue(createDevice, physicalDevice, &device);
  if (res != VK_SUCCESS) FAIL("vkCreateDevice", res);

  /* Another loader's object: its first word points into a table of zeros (readable around it); as
     large as a loader's own objects, since the loader reads its check word from inside it. */
  static const void* foreignTable[1024];
  const void* foreignObject[64] = {&foreignTable[8]};
  const uint32_t values[4] = {1, 2, 3, 4};
  VkPhysicalDeviceProperties props;
  if (strcmp(what, "destroy-null") == 0) {
    destroyDevice(NULL, NULL);
    destroyInstance(NULL, NULL);
    destroyDevice(device, NULL);
    destroyInstance(instance, NULL);
    snprintf(report, size, "destroy-null ok");
    return 0;
  } else if (strcmp(what, "command-buffer-null") == 0) {
    pushConstants(NULL, VK_NULL_HANDLE, 0x20, 0, sizeof(values), values);
  } else if (strcmp(what, "command-buffer-foreign") == 0) {
    pushConstants((VkCommandBuffer)(void*)foreignObject, VK_NULL_HANDLE, 0x20, 0, sizeof(values), values);
  } else if (strcmp(what, "queue-foreign") == 0) {
    waitIdle((VkQueue)(void*)foreignObject);
  } else if (strcmp(what, "physical-device-null") == 0) {
    getProperties(NULL, &props);
  } else if (strcmp(what, "physical-device-foreign") == 0) {
    getProperties((VkPhysicalDevice)(void*)device, &props);
  } else if (strcmp(what, "instance-foreign") == 0) {
    enumerateDevices((VkInstance)(void*)foreignObject, &count, NULL);
  } else {
    FAIL("unknown misuse", 0);
  }
  snprintf(report, size, "survived %s", what);
  return 1;
}

/* vkEnumeratePhysicalDevices through the exported functions on an instance the typed API made
 * (`instance`, its handle): the size query, a fill of that size and, with capacity >= 0, one fill
 * with room for `capacity` devices. Writes
 *   "size=<VkResult>:<count> fill=<VkResult>:<name>,<name>... capped=<VkResult>:<count>:<name>,..."
 * (names in the order returned; capped only with capacity >= 0). */
static void AppendNames(char* report, size_t size, PFN_vkGetPhysicalDeviceProperties getProperties, const VkPhysicalDevice* list, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    VkPhysicalDeviceProperties props;
    getProperties(list[i], &props);
    size_t used = strlen(report);
    snprintf(report + used, size - used, "%s%s", i ? "," : "", props.deviceName);
  }
}

KL_EXPORT int kl_vk_c_abi_enumerate(const char* addonPath, uint64_t instanceHandle, int capacity, char* report, size_t size) {
  void* addon = dlopen(addonPath, RTLD_NOW | RTLD_NOLOAD);
  if (addon == NULL) FAIL("dlopen", 0);
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(addon, "vkGetInstanceProcAddr");
  dlclose(addon);
  if (gipa == NULL) FAIL("dlsym vkGetInstanceProcAddr", 0);
  VkInstance instance = (VkInstance)(uintptr_t)instanceHandle;
  PFN_vkEnumeratePhysicalDevices enumerateDevices = (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
  PFN_vkGetPhysicalDeviceProperties getProperties = (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
  if (!enumerateDevices || !getProperties) FAIL("instance commands", 0);
  VkPhysicalDevice list[64];
  uint32_t count = 0;
  VkResult res = enumerateDevices(instance, &count, NULL);
  snprintf(report, size, "size=%d:%u fill=", (int)res, count);
  if (res == VK_SUCCESS && count <= 64) {
    res = enumerateDevices(instance, &count, list);
    size_t used = strlen(report);
    snprintf(report + used, size - used, "%d:", (int)res);
    if (res == VK_SUCCESS) AppendNames(report, size, getProperties, list, count);
  }
  if (capacity >= 0 && capacity <= 64) {
    uint32_t n = (uint32_t)capacity;
    res = enumerateDevices(instance, &n, list);
    size_t used = strlen(report);
    snprintf(report + used, size - used, " capped=%d:%u:", (int)res, n);
    if (res >= 0) AppendNames(report, size, getProperties, list, n);
  }
  return 0;
}
