/* VK_LUNARG_direct_driver_loading through a loader's C API, the same code for the Khronos loader
 * and this package's exported functions:
 *
 *   kl_vk_direct_driver_run(loader, noload, driver, mode, report, size)  (shared library, called
 *     in-process: with noload the loader is the already loaded addon, found with RTLD_NOLOAD)
 *   vk_direct_driver LOADER DRIVER MODE  (executable: the Khronos loader in a child process with
 *     its own environment; the report on stdout)
 *
 * DRIVER is a driver library exporting vk_icdGetInstanceProcAddr (dlopened here, as an application
 * would); MODE is "none" (no list, the extension not enabled), "exclusive", "inclusive",
 * "unenabled" (an exclusive list chained without enabling the extension), or "report" (as
 * "unenabled", with VK_EXT_debug_report enabled and a VkDebugReportCallbackCreateInfoEXT chained:
 * the loader's warning about the list reaches it). The report:
 *   "listed=<spec version of VK_LUNARG_direct_driver_loading in vkEnumerateInstanceExtensionProperties(NULL), 0: absent>
 *    create=<VkResult> devices=<name>;<name>..."  (devices in vkEnumeratePhysicalDevices order)
 * and for "report" " reports=<flags>:<object type>:<object is the instance 1|0>:<layer prefix>,..." for
 * each callback message that names VkDirectDriverLoadingListLUNARG; or "error: <step>". */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generated/vulkan_types.h"

#define KL_EXPORT __attribute__((visibility("default")))

static int append(char *report, size_t size, const char *text) {
  size_t used = strlen(report);
  if (used + strlen(text) + 1 > size) return -1;
  memcpy(report + used, text, strlen(text) + 1);
  return 0;
}

/* What the debug-report callback heard (one run at a time). */
static struct {
  char text[1024];
  uint64_t objects[8];
  unsigned count;
} heard;

static VKAPI_ATTR VkBool32 VKAPI_CALL OnReport(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT objectType, uint64_t object, size_t location,
                                               int32_t code, const char *prefix, const char *message, void *user) {
  (void)location;
  (void)code;
  (void)user;
  if (message == NULL || strstr(message, "VkDirectDriverLoadingListLUNARG") == NULL || heard.count >= 8) return VK_FALSE;
  char line[128];
  snprintf(line, sizeof(line), "%s%u:%d:%%s:%s", heard.count ? "," : "", (unsigned)flags, (int)objectType, prefix != NULL ? prefix : "");
  append(heard.text, sizeof(heard.text), line);
  heard.objects[heard.count++] = object;
  return VK_FALSE;
}

KL_EXPORT int kl_vk_direct_driver_run(const char *loaderPath, int noload, const char *driverPath, const char *mode, char *report, size_t size) {
  char line[512];
  report[0] = '\0';
  void *loader = dlopen(loaderPath, noload ? (RTLD_NOW | RTLD_NOLOAD) : (RTLD_NOW | RTLD_LOCAL));
  if (loader == NULL) {
    snprintf(report, size, "error: dlopen loader %s", loaderPath);
    return -1;
  }
  PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(loader, "vkGetInstanceProcAddr");
  void *driver = dlopen(driverPath, RTLD_NOW | RTLD_LOCAL);
  PFN_vkGetInstanceProcAddrLUNARG driverGipa = driver != NULL ? (PFN_vkGetInstanceProcAddrLUNARG)dlsym(driver, "vk_icdGetInstanceProcAddr") : NULL;
  if (gipa == NULL || driverGipa == NULL) {
    snprintf(report, size, "error: %s", gipa == NULL ? "loader vkGetInstanceProcAddr" : "driver vk_icdGetInstanceProcAddr");
    if (driver != NULL) dlclose(driver);
    dlclose(loader);
    return -1;
  }

  PFN_vkEnumerateInstanceExtensionProperties enumerateExtensions =
      (PFN_vkEnumerateInstanceExtensionProperties)gipa(NULL, "vkEnumerateInstanceExtensionProperties");
  PFN_vkCreateInstance createInstance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  uint32_t count = 0;
  uint32_t listed = 0;
  if (enumerateExtensions(NULL, &count, NULL) == VK_SUCCESS) {
    VkExtensionProperties *props = calloc(count + 1, sizeof(*props));
    if (enumerateExtensions(NULL, &count, props) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count; ++i) {
        if (strcmp(props[i].extensionName, VK_LUNARG_DIRECT_DRIVER_LOADING_EXTENSION_NAME) == 0) listed = props[i].specVersion;
      }
    }
    free(props);
  }

  VkDirectDriverLoadingInfoLUNARG info;
  memset(&info, 0, sizeof(info));
  info.sType = VK_STRUCTURE_TYPE_DIRECT_DRIVER_LOADING_INFO_LUNARG;
  info.pfnGetInstanceProcAddr = driverGipa;
  VkDirectDriverLoadingListLUNARG list;
  memset(&list, 0, sizeof(list));
  list.sType = VK_STRUCTURE_TYPE_DIRECT_DRIVER_LOADING_LIST_LUNARG;
  list.mode = strcmp(mode, "inclusive") == 0 ? VK_DIRECT_DRIVER_LOADING_MODE_INCLUSIVE_LUNARG : VK_DIRECT_DRIVER_LOADING_MODE_EXCLUSIVE_LUNARG;
  list.driverCount = 1;
  list.pDrivers = &info;
  const int reporting = strcmp(mode, "report") == 0;
  const char *extension = reporting ? VK_EXT_DEBUG_REPORT_EXTENSION_NAME : VK_LUNARG_DIRECT_DRIVER_LOADING_EXTENSION_NAME;
  const int chained = strcmp(mode, "none") != 0;
  const int enabled = chained && strcmp(mode, "unenabled") != 0;
  VkDebugReportCallbackCreateInfoEXT callback;
  memset(&callback, 0, sizeof(callback));
  callback.sType = VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT;
  callback.flags = VK_DEBUG_REPORT_INFORMATION_BIT_EXT | VK_DEBUG_REPORT_WARNING_BIT_EXT | VK_DEBUG_REPORT_PERFORMANCE_WARNING_BIT_EXT |
                   VK_DEBUG_REPORT_ERROR_BIT_EXT | VK_DEBUG_REPORT_DEBUG_BIT_EXT;
  callback.pfnCallback = OnReport;
  if (reporting) list.pNext = &callback;
  memset(&heard, 0, sizeof(heard));

  VkApplicationInfo app;
  memset(&app, 0, sizeof(app));
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "kl-direct";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo create;
  memset(&create, 0, sizeof(create));
  create.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  create.pNext = chained ? &list : NULL;
  create.pApplicationInfo = &app;
  create.enabledExtensionCount = enabled ? 1 : 0;
  create.ppEnabledExtensionNames = enabled ? &extension : NULL;
  VkInstance instance = NULL;
  VkResult res = createInstance(&create, NULL, &instance);
  snprintf(line, sizeof(line), "listed=%u create=%d devices=", listed, (int)res);
  append(report, size, line);
  if (res == VK_SUCCESS) {
    PFN_vkEnumeratePhysicalDevices enumerate = (PFN_vkEnumeratePhysicalDevices)gipa(instance, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceProperties propertiesOf = (PFN_vkGetPhysicalDeviceProperties)gipa(instance, "vkGetPhysicalDeviceProperties");
    PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)gipa(instance, "vkDestroyInstance");
    count = 0;
    VkResult r = enumerate(instance, &count, NULL);
    VkPhysicalDevice *devices = calloc(count + 1, sizeof(*devices));
    if (r == VK_SUCCESS) r = enumerate(instance, &count, devices);
    for (uint32_t i = 0; r == VK_SUCCESS && i < count; ++i) {
      VkPhysicalDeviceProperties props;
      memset(&props, 0, sizeof(props));
      propertiesOf(devices[i], &props);
      snprintf(line, sizeof(line), "%s%s", i ? ";" : "", props.deviceName);
      append(report, size, line);
    }
    free(devices);
    destroy(instance, NULL);
  }
  if (reporting) {
    /* each "%s" placeholder becomes whether that message's object was the instance handed back */
    append(report, size, " reports=");
    const char *p = heard.text;
    for (unsigned i = 0; *p != '\0';) {
      const char *mark = strstr(p, "%s");
      if (mark == NULL) {
        append(report, size, p);
        break;
      }
      char chunk[256];
      snprintf(chunk, sizeof(chunk), "%.*s%d", (int)(mark - p), p, i < heard.count && res == VK_SUCCESS && heard.objects[i] == (uint64_t)(uintptr_t)instance);
      append(report, size, chunk);
      ++i;
      p = mark + 2;
    }
  }
  dlclose(driver);
  dlclose(loader); /* with noload: drops the RTLD_NOLOAD reference only; node keeps the addon loaded */
  return 0;
}

#ifdef KL_VK_DIRECT_DRIVER_MAIN
int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: vk_direct_driver LOADER DRIVER MODE\n");
    return 2;
  }
  char report[4096];
  const int rc = kl_vk_direct_driver_run(argv[1], 0, argv[2], argv[3], report, sizeof(report));
  printf("%s\n", report);
  return rc == 0 ? 0 : 1;
}
#endif
