/* An OpenXR application that renders through Vulkan, using this package only through the addon's
 * exported C functions (xrCreateInstance, xrGetInstanceProcAddr, vkGetInstanceProcAddr), as a
 * renderer in the same process would after the JavaScript side published an OpenXR plan (the
 * simulated runtime) and a Vulkan plan (lavapipe, with VK_LAYER_KHRONOS_validation):
 * XR_KHR_vulkan_enable2's requirements, xrCreateVulkanInstanceKHR with the addon's
 * vkGetInstanceProcAddr, the physical device, xrCreateVulkanDeviceKHR, a session with
 * XrGraphicsBindingVulkan2KHR, swapchains, and N frames of acquire → wait → vkCmdClearColorImage
 * (a colour per frame and eye) → submit → release → xrEndFrame with a projection layer. Then it
 * drains the runtime's readback records (xrDrainSubmittedPixelsSIMXR) and compares each with what
 * it drew. A debug-utils messenger counts what the validation layer reports for the runtime's and
 * the application's Vulkan calls.
 *
 * kl_xr_vulkan_frames_run(addonPath, variant, frames, report, size); variants:
 *   "eyes"   a swapchain per eye: R8G8B8A8_UNORM left, B8G8R8A8_UNORM right
 *   "array"  one R8G8B8A8_UNORM swapchain with arraySize 2, view i on array layer i
 *   "msaa"   a 4-sample swapchain per eye (the runtime resolves the texel it reads)
 *   "instance-teardown"  as "eyes", but xrDestroyInstance alone destroys the session and its swapchains
 *   "errors" the spec's error results, one line each (no frames)
 *   "session", "session-seconds"  the session as a real runtime runs it (events, begin on READY, shouldRender,
 *            request exit); on any runtime, the readback compared where the runtime offers it (runSession)
 * The report: "formats=<list> records=<n> left=<n> mismatches=<n> first-mismatch=<...> xrEndFrame=<library the chain's
 * xrEndFrame is in> validation=<n>[: first message] destroyed"
 * for the frame variants, "<check>=<XrResult> ..." for "errors", or "error: <step> <result>". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>
#define XR_USE_GRAPHICS_API_VULKAN 1
#include <openxr/openxr.h>
#include <openxr/openxr_platform.h>

#include "include/simxr/simxr_readback.h"

#define KL_EXPORT __attribute__((visibility("default")))
#define MAX_FRAMES 600
#define EYES 2
#define WIDTH 64
#define HEIGHT 48

/* What the validation layer said, through the messenger. */
typedef struct Messages {
  unsigned count;
  char first[512];
} Messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  (void)types;
  Messages* m = (Messages*)user;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    if (m->count++ == 0) snprintf(m->first, sizeof(m->first), "%s", data->pMessage != NULL ? data->pMessage : "");
  }
  return VK_FALSE;
}

/* Everything one run holds, so that cleanup is one function. */
typedef struct App {
  PFN_xrGetInstanceProcAddr xrGipa;
  PFN_vkGetInstanceProcAddr vkGipa;
  PFN_xrCreateInstance xrCreateInstance;
  XrInstance instance;
  XrSystemId system;
  XrSession session;
  XrSpace space;
  VkInstance vkInstance;
  VkPhysicalDevice physicalDevice;
  VkDevice device;
  VkQueue queue;
  uint32_t queueFamily;
  VkDebugUtilsMessengerEXT messenger;
  VkCommandPool pool;
  VkCommandBuffer cmd;
  VkFence fence;
  Messages messages;
  /* Tear down with xrDestroyInstance alone (it destroys the session and its swapchains) before the Vulkan objects. */
  int destroyXrInstanceFirst;
  /* Commands, from xrGetInstanceProcAddr / vkGetInstanceProcAddr. */
  PFN_xrDestroyInstance xrDestroyInstance;
  PFN_xrGetSystem xrGetSystem;
  PFN_xrGetVulkanGraphicsRequirements2KHR xrGetVulkanGraphicsRequirements2KHR;
  PFN_xrCreateVulkanInstanceKHR xrCreateVulkanInstanceKHR;
  PFN_xrGetVulkanGraphicsDevice2KHR xrGetVulkanGraphicsDevice2KHR;
  PFN_xrCreateVulkanDeviceKHR xrCreateVulkanDeviceKHR;
  PFN_xrCreateSession xrCreateSession;
  PFN_xrDestroySession xrDestroySession;
  PFN_xrBeginSession xrBeginSession;
  PFN_xrCreateReferenceSpace xrCreateReferenceSpace;
  PFN_xrEnumerateSwapchainFormats xrEnumerateSwapchainFormats;
  PFN_xrCreateSwapchain xrCreateSwapchain;
  PFN_xrDestroySwapchain xrDestroySwapchain;
  PFN_xrEnumerateSwapchainImages xrEnumerateSwapchainImages;
  PFN_xrAcquireSwapchainImage xrAcquireSwapchainImage;
  PFN_xrWaitSwapchainImage xrWaitSwapchainImage;
  PFN_xrReleaseSwapchainImage xrReleaseSwapchainImage;
  PFN_xrWaitFrame xrWaitFrame;
  PFN_xrBeginFrame xrBeginFrame;
  PFN_xrEndFrame xrEndFrame;
  PFN_xrPollEvent xrPollEvent;
  PFN_xrRequestExitSession xrRequestExitSession;
  PFN_xrEndSession xrEndSession;
  PFN_xrDrainSubmittedPixelsSIMXR drain; /* NULL on a runtime without it when readbackOptional */
  int readbackOptional;
  /* Begin the session only once the runtime says XR_SESSION_STATE_READY (the "session" variants). */
  int beginWhenReady;
  PFN_vkDestroyInstance vkDestroyInstance;
  PFN_vkDestroyDevice vkDestroyDevice;
  PFN_vkCreateDevice vkCreateDevice;
  PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT;
  PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr;
  PFN_vkGetDeviceQueue vkGetDeviceQueue;
  PFN_vkCreateCommandPool vkCreateCommandPool;
  PFN_vkDestroyCommandPool vkDestroyCommandPool;
  PFN_vkAllocateCommandBuffers vkAllocateCommandBuffers;
  PFN_vkBeginCommandBuffer vkBeginCommandBuffer;
  PFN_vkEndCommandBuffer vkEndCommandBuffer;
  PFN_vkCmdPipelineBarrier vkCmdPipelineBarrier;
  PFN_vkCmdClearColorImage vkCmdClearColorImage;
  PFN_vkQueueSubmit vkQueueSubmit;
  PFN_vkCreateFence vkCreateFence;
  PFN_vkDestroyFence vkDestroyFence;
  PFN_vkWaitForFences vkWaitForFences;
  PFN_vkResetFences vkResetFences;
} App;

#define XR_PROC(app, name) (app)->xrGipa((app)->instance, #name, (PFN_xrVoidFunction*)&(app)->name)

static void say(char* report, size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(report, size, format, args);
  va_end(args);
}

/* xrCreateInstance with XR_KHR_vulkan_enable2 (and XR_MND_headless when asked), then the commands. */
static XrResult createXrInstance(App* app, int headless) {
  const char* extensions[] = {XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME, "XR_MND_headless"};
  XrInstanceCreateInfo info;
  memset(&info, 0, sizeof(info));
  info.type = XR_TYPE_INSTANCE_CREATE_INFO;
  strncpy(info.applicationInfo.applicationName, "xr-vulkan-frames", XR_MAX_APPLICATION_NAME_SIZE - 1);
  info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  info.enabledExtensionCount = headless ? 2 : 1;
  info.enabledExtensionNames = extensions;
  XrResult r = app->xrCreateInstance(&info, &app->instance);
  if (r != XR_SUCCESS) return r;
  XrResult all = XR_SUCCESS;
#define LOAD(name) \
  if ((r = XR_PROC(app, name)) != XR_SUCCESS) all = r
  LOAD(xrDestroyInstance);
  LOAD(xrGetSystem);
  LOAD(xrGetVulkanGraphicsRequirements2KHR);
  LOAD(xrCreateVulkanInstanceKHR);
  LOAD(xrGetVulkanGraphicsDevice2KHR);
  LOAD(xrCreateVulkanDeviceKHR);
  LOAD(xrCreateSession);
  LOAD(xrDestroySession);
  LOAD(xrBeginSession);
  LOAD(xrCreateReferenceSpace);
  LOAD(xrEnumerateSwapchainFormats);
  LOAD(xrCreateSwapchain);
  LOAD(xrDestroySwapchain);
  LOAD(xrEnumerateSwapchainImages);
  LOAD(xrAcquireSwapchainImage);
  LOAD(xrWaitSwapchainImage);
  LOAD(xrReleaseSwapchainImage);
  LOAD(xrWaitFrame);
  LOAD(xrBeginFrame);
  LOAD(xrEndFrame);
  LOAD(xrPollEvent);
  LOAD(xrRequestExitSession);
  LOAD(xrEndSession);
#undef LOAD
  /* The readback command is the simulated runtime's; another runtime answers XR_ERROR_FUNCTION_UNSUPPORTED
   * and the "session" variants run without it (the other variants need it). */
  r = app->xrGipa(app->instance, XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME, (PFN_xrVoidFunction*)&app->drain);
  if (r != XR_SUCCESS && !(r == XR_ERROR_FUNCTION_UNSUPPORTED && app->readbackOptional)) all = r;
  if (all != XR_SUCCESS) return all;
  XrSystemGetInfo systemInfo = {XR_TYPE_SYSTEM_GET_INFO, NULL, XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY};
  return app->xrGetSystem(app->instance, &systemInfo, &app->system);
}

/* The Vulkan instance through xrCreateVulkanInstanceKHR with the addon's vkGetInstanceProcAddr, and a messenger. */
static XrResult createVulkanInstance(App* app, VkResult* vkResult) {
  static const char* const extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo;
  memset(&messengerInfo, 0, sizeof(messengerInfo));
  messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  messengerInfo.pUserData = &app->messages;
  VkApplicationInfo appInfo;
  memset(&appInfo, 0, sizeof(appInfo));
  appInfo.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  appInfo.pApplicationName = "xr-vulkan-frames";
  appInfo.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo vkInfo;
  memset(&vkInfo, 0, sizeof(vkInfo));
  vkInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  vkInfo.pNext = &messengerInfo; /* messages of vkCreateInstance / vkDestroyInstance themselves */
  vkInfo.pApplicationInfo = &appInfo;
  vkInfo.enabledExtensionCount = 1;
  vkInfo.ppEnabledExtensionNames = extensions;
  XrVulkanInstanceCreateInfoKHR info;
  memset(&info, 0, sizeof(info));
  info.type = XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR;
  info.systemId = app->system;
  info.pfnGetInstanceProcAddr = app->vkGipa;
  info.vulkanCreateInfo = &vkInfo;
  XrResult r = app->xrCreateVulkanInstanceKHR(app->instance, &info, &app->vkInstance, vkResult);
  if (r != XR_SUCCESS || *vkResult != VK_SUCCESS) return r;
  app->vkDestroyInstance = (PFN_vkDestroyInstance)app->vkGipa(app->vkInstance, "vkDestroyInstance");
  app->vkCreateDevice = (PFN_vkCreateDevice)app->vkGipa(app->vkInstance, "vkCreateDevice");
  app->vkGetDeviceProcAddr = (PFN_vkGetDeviceProcAddr)app->vkGipa(app->vkInstance, "vkGetDeviceProcAddr");
  app->vkDestroyDebugUtilsMessengerEXT =
      (PFN_vkDestroyDebugUtilsMessengerEXT)app->vkGipa(app->vkInstance, "vkDestroyDebugUtilsMessengerEXT");
  PFN_vkCreateDebugUtilsMessengerEXT createMessenger =
      (PFN_vkCreateDebugUtilsMessengerEXT)app->vkGipa(app->vkInstance, "vkCreateDebugUtilsMessengerEXT");
  if (createMessenger == NULL || app->vkDestroyDebugUtilsMessengerEXT == NULL || app->vkCreateDevice == NULL ||
      app->vkGetDeviceProcAddr == NULL) {
    *vkResult = VK_ERROR_EXTENSION_NOT_PRESENT;
    return r;
  }
  *vkResult = createMessenger(app->vkInstance, &messengerInfo, NULL, &app->messenger);
  return r;
}

/* A device with one queue of the first graphics family, through xrCreateVulkanDeviceKHR (or vkCreateDevice when `direct`). */
static XrResult createDevice(App* app, int direct, VkDevice* device, VkResult* vkResult) {
  PFN_vkGetPhysicalDeviceQueueFamilyProperties families =
      (PFN_vkGetPhysicalDeviceQueueFamilyProperties)app->vkGipa(app->vkInstance, "vkGetPhysicalDeviceQueueFamilyProperties");
  uint32_t count = 8;
  VkQueueFamilyProperties props[8];
  families(app->physicalDevice, &count, props);
  app->queueFamily = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (props[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
      app->queueFamily = i;
      break;
    }
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo;
  memset(&queueInfo, 0, sizeof(queueInfo));
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = app->queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo;
  memset(&deviceInfo, 0, sizeof(deviceInfo));
  deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  if (direct) {
    *vkResult = app->vkCreateDevice(app->physicalDevice, &deviceInfo, NULL, device);
    return XR_SUCCESS;
  }
  XrVulkanDeviceCreateInfoKHR info;
  memset(&info, 0, sizeof(info));
  info.type = XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR;
  info.systemId = app->system;
  info.pfnGetInstanceProcAddr = app->vkGipa;
  info.vulkanPhysicalDevice = app->physicalDevice;
  info.vulkanCreateInfo = &deviceInfo;
  return app->xrCreateVulkanDeviceKHR(app->instance, &info, device, vkResult);
}

static XrResult getPhysicalDevice(App* app) {
  XrVulkanGraphicsDeviceGetInfoKHR info = {XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR, NULL, app->system, app->vkInstance};
  return app->xrGetVulkanGraphicsDevice2KHR(app->instance, &info, &app->physicalDevice);
}

static XrResult createSession(App* app, VkDevice device, uint32_t queueIndex) {
  XrGraphicsBindingVulkan2KHR binding;
  memset(&binding, 0, sizeof(binding));
  binding.type = XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR;
  binding.instance = app->vkInstance;
  binding.physicalDevice = app->physicalDevice;
  binding.device = device;
  binding.queueFamilyIndex = app->queueFamily;
  binding.queueIndex = queueIndex;
  XrSessionCreateInfo info = {XR_TYPE_SESSION_CREATE_INFO, device != VK_NULL_HANDLE ? &binding : NULL, 0, app->system};
  return app->xrCreateSession(app->instance, &info, &app->session);
}

/* xrCreateSession's result for a binding expected to be refused; a session it makes anyway is destroyed at once. */
static XrResult refusedSession(App* app, VkDevice device, uint32_t queueIndex) {
  XrSession kept = app->session;
  XrResult r = createSession(app, device, queueIndex);
  if (r == XR_SUCCESS) app->xrDestroySession(app->session);
  app->session = kept;
  return r;
}

/* The device commands and the application's command buffer and fence. */
static int loadDevice(App* app) {
  PFN_vkGetDeviceProcAddr gdpa = app->vkGetDeviceProcAddr;
#define DLOAD(name) app->name = (PFN_##name)gdpa(app->device, #name)
  DLOAD(vkDestroyDevice);
  DLOAD(vkGetDeviceQueue);
  DLOAD(vkCreateCommandPool);
  DLOAD(vkDestroyCommandPool);
  DLOAD(vkAllocateCommandBuffers);
  DLOAD(vkBeginCommandBuffer);
  DLOAD(vkEndCommandBuffer);
  DLOAD(vkCmdPipelineBarrier);
  DLOAD(vkCmdClearColorImage);
  DLOAD(vkQueueSubmit);
  DLOAD(vkCreateFence);
  DLOAD(vkDestroyFence);
  DLOAD(vkWaitForFences);
  DLOAD(vkResetFences);
#undef DLOAD
  if (!app->vkDestroyDevice || !app->vkGetDeviceQueue || !app->vkCreateCommandPool || !app->vkDestroyCommandPool ||
      !app->vkAllocateCommandBuffers || !app->vkBeginCommandBuffer || !app->vkEndCommandBuffer || !app->vkCmdPipelineBarrier ||
      !app->vkCmdClearColorImage || !app->vkQueueSubmit || !app->vkCreateFence || !app->vkDestroyFence || !app->vkWaitForFences ||
      !app->vkResetFences) {
    return -1;
  }
  app->vkGetDeviceQueue(app->device, app->queueFamily, 0, &app->queue);
  VkCommandPoolCreateInfo poolInfo = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                      app->queueFamily};
  if (app->vkCreateCommandPool(app->device, &poolInfo, NULL, &app->pool) != VK_SUCCESS) return -1;
  VkCommandBufferAllocateInfo allocateInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, app->pool,
                                              VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  if (app->vkAllocateCommandBuffers(app->device, &allocateInfo, &app->cmd) != VK_SUCCESS) return -1;
  VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
  return app->vkCreateFence(app->device, &fenceInfo, NULL, &app->fence) == VK_SUCCESS ? 0 : -1;
}

/* Tears down in the spec's order: session (and with it its swapchains), device, instance, XR instance. */
static void cleanup(App* app) {
  if (app->destroyXrInstanceFirst && app->instance != XR_NULL_HANDLE) {
    app->xrDestroyInstance(app->instance);
    app->instance = XR_NULL_HANDLE;
    app->session = XR_NULL_HANDLE;
  }
  if (app->session != XR_NULL_HANDLE) app->xrDestroySession(app->session);
  if (app->device != VK_NULL_HANDLE) {
    if (app->fence != VK_NULL_HANDLE) app->vkDestroyFence(app->device, app->fence, NULL);
    if (app->pool != VK_NULL_HANDLE) app->vkDestroyCommandPool(app->device, app->pool, NULL);
    app->vkDestroyDevice(app->device, NULL);
  }
  if (app->messenger != VK_NULL_HANDLE) app->vkDestroyDebugUtilsMessengerEXT(app->vkInstance, app->messenger, NULL);
  if (app->vkInstance != VK_NULL_HANDLE && app->vkDestroyInstance != NULL) app->vkDestroyInstance(app->vkInstance, NULL);
  if (app->instance != XR_NULL_HANDLE) app->xrDestroyInstance(app->instance);
}

/* xrCreateSwapchain with the given fields (the rest: one face, one mip, 64×48). */
static XrResult createWith(App* app, XrSwapchainCreateFlags flags, XrSwapchainUsageFlags usage, int64_t format, uint32_t width, uint32_t height,
                           uint32_t faces, uint32_t mips, uint32_t arraySize, uint32_t samples, XrSwapchain* out) {
  XrSwapchainCreateInfo info;
  memset(&info, 0, sizeof(info));
  info.type = XR_TYPE_SWAPCHAIN_CREATE_INFO;
  info.createFlags = flags;
  info.usageFlags = usage;
  info.format = format;
  info.sampleCount = samples;
  info.width = width;
  info.height = height;
  info.faceCount = faces;
  info.arraySize = arraySize;
  info.mipCount = mips;
  return app->xrCreateSwapchain(app->session, &info, out);
}

/* A colour swapchain the application clears (colour attachment and transfer destination). */
static XrSwapchain createSwapchain(App* app, int64_t format, uint32_t arraySize, uint32_t samples, XrResult* result) {
  XrSwapchain swapchain = XR_NULL_HANDLE;
  *result = createWith(app, 0, XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_DST_BIT, format, WIDTH, HEIGHT, 1, 1,
                       arraySize, samples, &swapchain);
  return swapchain;
}

/* xrCreateSwapchain's result for a variant; the swapchain is kept in *out when asked, else destroyed. */
static XrResult tryCreate(App* app, XrSwapchainCreateFlags flags, XrSwapchainUsageFlags usage, int64_t format, uint32_t width, uint32_t height,
                          uint32_t faces, uint32_t mips, XrSwapchain* out) {
  XrSwapchain swapchain = XR_NULL_HANDLE;
  XrResult r = createWith(app, flags, usage, format, width, height, faces, mips, 1, 1, &swapchain);
  if (r == XR_SUCCESS) {
    if (out != NULL) *out = swapchain;
    else app->xrDestroySwapchain(swapchain);
  }
  return r;
}

/* The swapchain's VkImages (two-call idiom); returns how many. */
static uint32_t swapchainImages(App* app, XrSwapchain swapchain, VkImage* out, uint32_t capacity) {
  uint32_t count = 0;
  if (app->xrEnumerateSwapchainImages(swapchain, 0, &count, NULL) != XR_SUCCESS || count > capacity) return 0;
  XrSwapchainImageVulkan2KHR images[8];
  for (uint32_t i = 0; i < count; ++i) {
    memset(&images[i], 0, sizeof(images[i]));
    images[i].type = XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR;
  }
  if (app->xrEnumerateSwapchainImages(swapchain, count, &count, (XrSwapchainImageBaseHeader*)images) != XR_SUCCESS) return 0;
  for (uint32_t i = 0; i < count; ++i) out[i] = images[i].image;
  return count;
}

/* The colour frame `frame` draws for view `eye`, as bytes R, G, B, A. */
static void colourOf(uint32_t frame, uint32_t eye, uint8_t rgba[4]) {
  rgba[0] = (uint8_t)(frame * 7 + 11);
  rgba[1] = (uint8_t)(eye == 0 ? 40 : 200);
  rgba[2] = (uint8_t)(255 - frame * 3);
  rgba[3] = 255;
}

static VkImageMemoryBarrier layoutBarrier(VkImage image, uint32_t layer, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                                          VkAccessFlags dst) {
  VkImageMemoryBarrier b;
  memset(&b, 0, sizeof(b));
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
  b.subresourceRange.levelCount = 1;
  b.subresourceRange.baseArrayLayer = layer;
  b.subresourceRange.layerCount = 1;
  return b;
}

/* Records the clear of one array layer: COLOR_ATTACHMENT_OPTIMAL → TRANSFER_DST → clear → back. */
static void recordClear(App* app, VkImage image, uint32_t layer, const uint8_t rgba[4]) {
  VkImageMemoryBarrier toDst = layoutBarrier(image, layer, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                             VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  app->vkCmdPipelineBarrier(app->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &toDst);
  VkClearColorValue colour;
  for (int c = 0; c < 4; ++c) colour.float32[c] = (float)rgba[c] / 255.0f;
  VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
  app->vkCmdClearColorImage(app->cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &colour, 1, &range);
  VkImageMemoryBarrier back = layoutBarrier(image, layer, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
  app->vkCmdPipelineBarrier(app->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &back);
}

static int submitAndWait(App* app) {
  VkSubmitInfo submit;
  memset(&submit, 0, sizeof(submit));
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &app->cmd;
  if (app->vkResetFences(app->device, 1, &app->fence) != VK_SUCCESS) return -1;
  if (app->vkQueueSubmit(app->queue, 1, &submit, app->fence) != VK_SUCCESS) return -1;
  return app->vkWaitForFences(app->device, 1, &app->fence, VK_TRUE, 10000000000ull) == VK_SUCCESS ? 0 : -1;
}

/* Everything up to a begun session with the binding; 0 or -1 with the report written. */
static int setUp(App* app, const char* addonPath, char* report, size_t size) {
  void* addon = dlopen(addonPath, RTLD_NOW | RTLD_NOLOAD);
  if (addon == NULL) return say(report, size, "error: dlopen %s", addonPath), -1;
  app->xrGipa = (PFN_xrGetInstanceProcAddr)dlsym(addon, "xrGetInstanceProcAddr");
  app->xrCreateInstance = (PFN_xrCreateInstance)dlsym(addon, "xrCreateInstance");
  app->vkGipa = (PFN_vkGetInstanceProcAddr)dlsym(addon, "vkGetInstanceProcAddr");
  dlclose(addon); /* node holds the addon */
  if (!app->xrGipa || !app->xrCreateInstance || !app->vkGipa) return say(report, size, "error: dlsym 0"), -1;
  XrResult r = createXrInstance(app, 0);
  if (r != XR_SUCCESS) return say(report, size, "error: xrCreateInstance %d", r), -1;
  XrGraphicsRequirementsVulkan2KHR requirements = {XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR, NULL, 0, 0};
  r = app->xrGetVulkanGraphicsRequirements2KHR(app->instance, app->system, &requirements);
  if (r != XR_SUCCESS) return say(report, size, "error: xrGetVulkanGraphicsRequirements2KHR %d", r), -1;
  VkResult vr = VK_SUCCESS;
  r = createVulkanInstance(app, &vr);
  if (r != XR_SUCCESS || vr != VK_SUCCESS) return say(report, size, "error: xrCreateVulkanInstanceKHR %d/%d", r, vr), -1;
  r = getPhysicalDevice(app);
  if (r != XR_SUCCESS) return say(report, size, "error: xrGetVulkanGraphicsDevice2KHR %d", r), -1;
  r = createDevice(app, 0, &app->device, &vr);
  if (r != XR_SUCCESS || vr != VK_SUCCESS) return say(report, size, "error: xrCreateVulkanDeviceKHR %d/%d", r, vr), -1;
  if (loadDevice(app) != 0) return say(report, size, "error: device commands 0"), -1;
  r = createSession(app, app->device, 0);
  if (r != XR_SUCCESS) return say(report, size, "error: xrCreateSession %d", r), -1;
  XrSessionBeginInfo begin = {XR_TYPE_SESSION_BEGIN_INFO, NULL, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
  /* (The "session" variants begin it on XR_SESSION_STATE_READY, in runSession.) */
  if (!app->beginWhenReady && (r = app->xrBeginSession(app->session, &begin)) != XR_SUCCESS) {
    return say(report, size, "error: xrBeginSession %d", r), -1;
  }
  XrReferenceSpaceCreateInfo spaceInfo;
  memset(&spaceInfo, 0, sizeof(spaceInfo));
  spaceInfo.type = XR_TYPE_REFERENCE_SPACE_CREATE_INFO;
  spaceInfo.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_LOCAL;
  spaceInfo.poseInReferenceSpace.orientation.w = 1.0f;
  r = app->xrCreateReferenceSpace(app->session, &spaceInfo, &app->space);
  if (r != XR_SUCCESS) return say(report, size, "error: xrCreateReferenceSpace %d", r), -1;
  return 0;
}

static void fillViews(XrCompositionLayerProjectionView views[EYES], const XrSwapchain swapchains[EYES], int arrayMode,
                      XrRect2Di rect) {
  for (uint32_t eye = 0; eye < EYES; ++eye) {
    memset(&views[eye], 0, sizeof(views[eye]));
    views[eye].type = XR_TYPE_COMPOSITION_LAYER_PROJECTION_VIEW;
    views[eye].pose.orientation.w = 1.0f;
    views[eye].fov.angleLeft = -0.7f;
    views[eye].fov.angleRight = 0.7f;
    views[eye].fov.angleUp = 0.7f;
    views[eye].fov.angleDown = -0.7f;
    views[eye].subImage.swapchain = arrayMode ? swapchains[0] : swapchains[eye];
    views[eye].subImage.imageRect = rect;
    views[eye].subImage.imageArrayIndex = arrayMode ? eye : 0;
  }
}

static XrResult endFrame(App* app, XrTime time, const XrCompositionLayerProjectionView views[EYES]) {
  XrCompositionLayerProjection layer;
  memset(&layer, 0, sizeof(layer));
  layer.type = XR_TYPE_COMPOSITION_LAYER_PROJECTION;
  layer.space = app->space;
  layer.viewCount = EYES;
  layer.views = views;
  const XrCompositionLayerBaseHeader* layers[] = {(const XrCompositionLayerBaseHeader*)&layer};
  XrFrameEndInfo end = {XR_TYPE_FRAME_END_INFO, NULL, time, XR_ENVIRONMENT_BLEND_MODE_OPAQUE, 1, layers};
  return app->xrEndFrame(app->session, &end);
}

static XrResult beginFrame(App* app, XrTime* time) {
  XrFrameWaitInfo waitInfo = {XR_TYPE_FRAME_WAIT_INFO, NULL};
  XrFrameState state;
  memset(&state, 0, sizeof(state));
  state.type = XR_TYPE_FRAME_STATE;
  XrResult r = app->xrWaitFrame(app->session, &waitInfo, &state);
  if (r != XR_SUCCESS) return r;
  *time = state.predictedDisplayTime;
  XrFrameBeginInfo beginInfo = {XR_TYPE_FRAME_BEGIN_INFO, NULL};
  return app->xrBeginFrame(app->session, &beginInfo);
}

/* acquire → wait → (clear) → release on one swapchain. */
static XrResult cycle(App* app, XrSwapchain swapchain, uint32_t* index) {
  XrSwapchainImageAcquireInfo acquire = {XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO, NULL};
  XrResult r = app->xrAcquireSwapchainImage(swapchain, &acquire, index);
  if (r != XR_SUCCESS) return r;
  XrSwapchainImageWaitInfo wait = {XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO, NULL, XR_INFINITE_DURATION};
  return app->xrWaitSwapchainImage(swapchain, &wait);
}

static XrResult release(App* app, XrSwapchain swapchain) {
  XrSwapchainImageReleaseInfo info = {XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO, NULL};
  return app->xrReleaseSwapchainImage(swapchain, &info);
}

#define FAIL_RUN(...)                 \
  do {                                \
    say(report, size, __VA_ARGS__);   \
    cleanup(&app);                    \
    return -1;                        \
  } while (0)

static int runFrames(const char* addonPath, const char* variant, uint32_t frames, char* report, size_t size) {
  App app;
  memset(&app, 0, sizeof(app));
  if (frames > MAX_FRAMES) frames = MAX_FRAMES;
  if (setUp(&app, addonPath, report, size) != 0) return cleanup(&app), -1;
  app.destroyXrInstanceFirst = strcmp(variant, "instance-teardown") == 0;
  const int arrayMode = strcmp(variant, "array") == 0;
  const uint32_t samples = strcmp(variant, "msaa") == 0 ? 4 : 1;

  int64_t formats[16];
  uint32_t formatCount = 0;
  XrResult r = app.xrEnumerateSwapchainFormats(app.session, 0, &formatCount, NULL);
  if (r != XR_SUCCESS || formatCount > 16) FAIL_RUN("error: xrEnumerateSwapchainFormats %d", r);
  r = app.xrEnumerateSwapchainFormats(app.session, formatCount, &formatCount, formats);
  if (r != XR_SUCCESS) FAIL_RUN("error: xrEnumerateSwapchainFormats %d", r);
  char formatList[128] = "";
  for (uint32_t i = 0; i < formatCount; ++i) {
    snprintf(formatList + strlen(formatList), sizeof(formatList) - strlen(formatList), "%s%lld", i ? "," : "", (long long)formats[i]);
  }

  XrSwapchain swapchains[EYES] = {XR_NULL_HANDLE, XR_NULL_HANDLE};
  VkImage images[EYES][8];
  const int64_t eyeFormats[EYES] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM};
  const uint32_t swapchainCount = arrayMode ? 1 : EYES;
  for (uint32_t s = 0; s < swapchainCount; ++s) {
    swapchains[s] = createSwapchain(&app, eyeFormats[s], arrayMode ? EYES : 1, samples, &r);
    if (r != XR_SUCCESS) FAIL_RUN("error: xrCreateSwapchain %d", r);
    if (swapchainImages(&app, swapchains[s], images[s], 8) == 0) FAIL_RUN("error: xrEnumerateSwapchainImages 0");
  }

  static uint8_t drawn[MAX_FRAMES][EYES][4];
  static XrTime times[MAX_FRAMES];
  const XrRect2Di rect = {{0, 0}, {WIDTH, HEIGHT}};
  for (uint32_t frame = 0; frame < frames; ++frame) {
    if ((r = beginFrame(&app, &times[frame])) != XR_SUCCESS) FAIL_RUN("error: frame %u xrWaitFrame/xrBeginFrame %d", frame, r);
    uint32_t index[EYES] = {0, 0};
    for (uint32_t s = 0; s < swapchainCount; ++s) {
      if ((r = cycle(&app, swapchains[s], &index[s])) != XR_SUCCESS) FAIL_RUN("error: frame %u acquire/wait %d", frame, r);
    }
    VkCommandBufferBeginInfo beginInfo = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    if (app.vkBeginCommandBuffer(app.cmd, &beginInfo) != VK_SUCCESS) FAIL_RUN("error: vkBeginCommandBuffer 0");
    for (uint32_t eye = 0; eye < EYES; ++eye) {
      uint8_t rgba[4];
      colourOf(frame, eye, rgba);
      memcpy(drawn[frame][eye], rgba, 4);
      const uint32_t s = arrayMode ? 0 : eye;
      /* vkCmdClearColorImage takes the colour in R, G, B, A order whatever the format's byte order. */
      recordClear(&app, images[s][index[s]], arrayMode ? eye : 0, rgba);
    }
    if (app.vkEndCommandBuffer(app.cmd) != VK_SUCCESS || submitAndWait(&app) != 0) FAIL_RUN("error: frame %u submit", frame);
    for (uint32_t s = 0; s < swapchainCount; ++s) {
      if ((r = release(&app, swapchains[s])) != XR_SUCCESS) FAIL_RUN("error: frame %u xrReleaseSwapchainImage %d", frame, r);
    }
    XrCompositionLayerProjectionView views[EYES];
    fillViews(views, swapchains, arrayMode, rect);
    if ((r = endFrame(&app, times[frame], views)) != XR_SUCCESS) FAIL_RUN("error: frame %u xrEndFrame %d", frame, r);
  }

  /* The records: one per frame and view, in order, each with the bytes drawn in the format's order. */
  uint32_t waiting = 0;
  if ((r = app.drain(app.session, 0, &waiting, NULL)) != XR_SUCCESS) FAIL_RUN("error: xrDrainSubmittedPixelsSIMXR %d", r);
  static XrSubmittedPixelSIMXR records[MAX_FRAMES * EYES];
  uint32_t got = 0;
  if (waiting > 0 && (r = app.drain(app.session, waiting, &got, records)) != XR_SUCCESS) FAIL_RUN("error: drain %d", r);
  uint32_t left = 99;
  app.drain(app.session, 0, &left, NULL);
  unsigned mismatches = 0;
  char firstMismatch[160] = "none";
  for (uint32_t i = 0; i < got; ++i) {
    const XrSubmittedPixelSIMXR* p = &records[i];
    const uint32_t frame = i / EYES, eye = i % EYES;
    const int64_t format = arrayMode ? eyeFormats[0] : eyeFormats[eye];
    const uint8_t* c = drawn[frame][eye];
    const uint8_t expected[4] = {format == VK_FORMAT_B8G8R8A8_UNORM ? c[2] : c[0], c[1], format == VK_FORMAT_B8G8R8A8_UNORM ? c[0] : c[2], c[3]};
    if (p->frameIndex != frame + 1 || p->viewIndex != eye || p->format != format || p->displayTime != times[frame] ||
        memcmp(p->bytes, expected, 4) != 0) {
      if (mismatches++ == 0) {
        snprintf(firstMismatch, sizeof(firstMismatch), "record %u: frame %llu view %u format %lld bytes %u,%u,%u,%u, expected frame %u view %u format %lld bytes %u,%u,%u,%u",
                 i, (unsigned long long)p->frameIndex, p->viewIndex, (long long)p->format, p->bytes[0], p->bytes[1], p->bytes[2], p->bytes[3],
                 frame + 1, eye, (long long)format, expected[0], expected[1], expected[2], expected[3]);
      }
    }
  }
  /* The array variant destroys its swapchain itself; the others leave theirs to xrDestroySession. */
  if (arrayMode && (r = app.xrDestroySwapchain(swapchains[0])) != XR_SUCCESS) FAIL_RUN("error: xrDestroySwapchain %d", r);
  /* Which library xrEndFrame enters first: the runtime, or an API layer in the chain. */
  Dl_info where;
  memset(&where, 0, sizeof(where));
  const char* endFrameFrom = dladdr((void*)app.xrEndFrame, &where) != 0 && where.dli_fname != NULL ? where.dli_fname : "?";
  if (strrchr(endFrameFrom, '/') != NULL) endFrameFrom = strrchr(endFrameFrom, '/') + 1;
  char endFrameLibrary[128];
  snprintf(endFrameLibrary, sizeof(endFrameLibrary), "%s", endFrameFrom);
  cleanup(&app);
  say(report, size, "formats=%s records=%u left=%u mismatches=%u first-mismatch=%s xrEndFrame=%s validation=%u%s%s destroyed", formatList, got,
      left, mismatches, firstMismatch, endFrameLibrary, app.messages.count, app.messages.count ? ": " : "", app.messages.first);
  return 0;
}

static int runErrors(const char* addonPath, char* report, size_t size) {
  App app;
  memset(&app, 0, sizeof(app));
  size_t used = 0;
#define NOTE(name, value) used += (size_t)snprintf(report + used, used < size ? size - used : 0, "%s%s=%d", used ? " " : "", name, (int)(value))

  /* A session on an instance whose application never asked for the graphics requirements. */
  {
    void* addon = dlopen(addonPath, RTLD_NOW | RTLD_NOLOAD);
    if (addon == NULL) return say(report, size, "error: dlopen"), -1;
    app.xrGipa = (PFN_xrGetInstanceProcAddr)dlsym(addon, "xrGetInstanceProcAddr");
    app.xrCreateInstance = (PFN_xrCreateInstance)dlsym(addon, "xrCreateInstance");
    app.vkGipa = (PFN_vkGetInstanceProcAddr)dlsym(addon, "vkGetInstanceProcAddr");
    dlclose(addon);
    XrResult r = createXrInstance(&app, 0);
    if (r != XR_SUCCESS) return say(report, size, "error: xrCreateInstance %d", r), -1;
    VkResult vr = VK_SUCCESS;
    r = createVulkanInstance(&app, &vr);
    if (r != XR_SUCCESS || vr != VK_SUCCESS) FAIL_RUN("error: xrCreateVulkanInstanceKHR %d/%d", r, vr);
    if ((r = getPhysicalDevice(&app)) != XR_SUCCESS) FAIL_RUN("error: xrGetVulkanGraphicsDevice2KHR %d", r);
    r = createDevice(&app, 0, &app.device, &vr);
    if (r != XR_SUCCESS || vr != VK_SUCCESS) FAIL_RUN("error: xrCreateVulkanDeviceKHR %d/%d", r, vr);
    app.vkDestroyDevice = (PFN_vkDestroyDevice)app.vkGetDeviceProcAddr(app.device, "vkDestroyDevice");
    NOTE("requirementsMissing", refusedSession(&app, app.device, 0));
    /* Without a binding (and without XR_MND_headless) there is no session either. */
    NOTE("noBinding", refusedSession(&app, VK_NULL_HANDLE, 0));
    cleanup(&app);
    memset(&app.instance, 0, sizeof(App) - offsetof(App, instance)); /* keeps the addon's three functions */
  }

  /* An instance without XR_KHR_vulkan_enable2 gets neither its commands nor the readback command. */
  {
    const char* headlessOnly[] = {"XR_MND_headless"};
    XrInstanceCreateInfo info;
    memset(&info, 0, sizeof(info));
    info.type = XR_TYPE_INSTANCE_CREATE_INFO;
    strncpy(info.applicationInfo.applicationName, "xr-vulkan-frames", XR_MAX_APPLICATION_NAME_SIZE - 1);
    info.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
    info.enabledExtensionCount = 1;
    info.enabledExtensionNames = headlessOnly;
    XrInstance plain = XR_NULL_HANDLE;
    XrResult r = app.xrCreateInstance(&info, &plain);
    if (r != XR_SUCCESS) FAIL_RUN("error: xrCreateInstance without Vulkan %d", r);
    PFN_xrVoidFunction fn = NULL;
    NOTE("withoutExtensionRequirements", app.xrGipa(plain, "xrGetVulkanGraphicsRequirements2KHR", &fn));
    NOTE("withoutExtensionDrain", app.xrGipa(plain, XR_SIMXR_DRAIN_SUBMITTED_PIXELS_NAME, &fn));
    PFN_xrDestroyInstance destroy = NULL;
    app.xrGipa(plain, "xrDestroyInstance", (PFN_xrVoidFunction*)&destroy);
    if (destroy != NULL) destroy(plain);
  }

  /* XR_MND_headless beside XR_KHR_vulkan_enable2: a session without a binding is headless, offers no
   * swapchain format, so no swapchain, and has nothing to read back. */
  {
    XrResult r = createXrInstance(&app, 1);
    if (r != XR_SUCCESS) FAIL_RUN("error: xrCreateInstance headless %d", r);
    NOTE("headlessSession", createSession(&app, VK_NULL_HANDLE, 0));
    uint32_t count = 99;
    NOTE("headlessFormats", app.xrEnumerateSwapchainFormats(app.session, 0, &count, NULL));
    NOTE("headlessFormatCount", count);
    NOTE("headlessSwapchain", (createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 1, 1, &r), r));
    count = 99;
    app.drain(app.session, 0, &count, NULL);
    NOTE("headlessRecords", count);
    cleanup(&app);
    memset(&app, 0, sizeof(app)); /* setUp below starts from nothing */
  }

  /* The rest on a correctly set-up session. */
  char setupReport[256];
  if (setUp(&app, addonPath, setupReport, sizeof(setupReport)) != 0) {
    say(report, size, "%s", setupReport);
    cleanup(&app);
    return -1;
  }
  /* A device the runtime did not create, and a queue index the device does not have. */
  VkDevice foreign = VK_NULL_HANDLE;
  VkResult vr = VK_SUCCESS;
  createDevice(&app, 1, &foreign, &vr);
  if (vr != VK_SUCCESS) FAIL_RUN("error: vkCreateDevice %d", vr);
  NOTE("wrongDevice", refusedSession(&app, foreign, 0));
  app.vkDestroyDevice(foreign, NULL);
  NOTE("badQueueIndex", refusedSession(&app, app.device, 5));

  XrResult r = XR_SUCCESS;
  XrSwapchain swapchain = createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 1, 1, &r);
  if (r != XR_SUCCESS) FAIL_RUN("error: xrCreateSwapchain %d", r);
  XrSwapchain other = createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 1, 1, &r);
  if (r != XR_SUCCESS) FAIL_RUN("error: xrCreateSwapchain %d", r);
  XrSwapchain unused = XR_NULL_HANDLE;
  NOTE("unknownFormat", (createSwapchain(&app, VK_FORMAT_R16G16B16A16_SFLOAT, 1, 1, &r), r));
  NOTE("zeroArraySize", (unused = createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 0, 1, &r), r));
  NOTE("threeSamples", (unused = createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 1, 3, &r), r));
  NOTE("eightSamples", (unused = createSwapchain(&app, VK_FORMAT_R8G8B8A8_UNORM, 1, 8, &r), r));
  (void)unused;

  /* Swapchain variants: what the spec and the device allow, and what they do not. */
  const XrSwapchainUsageFlags colour = XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT;
  NOTE("srgbSampled", tryCreate(&app, 0, colour | XR_SWAPCHAIN_USAGE_SAMPLED_BIT, VK_FORMAT_R8G8B8A8_SRGB, WIDTH, HEIGHT, 1, 1, NULL));
  NOTE("storageMutable", tryCreate(&app, 0, colour | XR_SWAPCHAIN_USAGE_UNORDERED_ACCESS_BIT | XR_SWAPCHAIN_USAGE_MUTABLE_FORMAT_BIT,
                                   VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1, NULL));
  NOTE("fullMipChain", tryCreate(&app, 0, colour, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 7, NULL));
  NOTE("mipPastChain", tryCreate(&app, 0, colour, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 8, NULL));
  NOTE("cube", tryCreate(&app, 0, colour, VK_FORMAT_R8G8B8A8_UNORM, HEIGHT, HEIGHT, 6, 1, NULL));
  NOTE("cubeNotSquare", tryCreate(&app, 0, colour, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 6, 1, NULL));
  NOTE("depthUsage", tryCreate(&app, 0, XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1, NULL));
  NOTE("protectedContent", tryCreate(&app, XR_SWAPCHAIN_CREATE_PROTECTED_CONTENT_BIT, colour, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1, NULL));
  NOTE("unknownUsageBit", tryCreate(&app, 0, colour | 0x80, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1, NULL));
  NOTE("zeroWidth", tryCreate(&app, 0, colour, VK_FORMAT_R8G8B8A8_UNORM, 0, HEIGHT, 1, 1, NULL));
  XrSwapchain staticChain = XR_NULL_HANDLE;
  NOTE("static", tryCreate(&app, XR_SWAPCHAIN_CREATE_STATIC_IMAGE_BIT, colour, VK_FORMAT_R8G8B8A8_UNORM, WIDTH, HEIGHT, 1, 1, &staticChain));
  {
    VkImage staticImages[8];
    NOTE("staticImages", swapchainImages(&app, staticChain, staticImages, 8));
    uint32_t staticIndex = 9;
    NOTE("staticCycle", cycle(&app, staticChain, &staticIndex) == XR_SUCCESS && staticIndex == 0 ? release(&app, staticChain) : XR_ERROR_RUNTIME_FAILURE);
    XrSwapchainImageAcquireInfo again = {XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO, NULL};
    NOTE("staticAcquireAgain", app.xrAcquireSwapchainImage(staticChain, &again, &staticIndex));
  }
  /* xrCreateVulkanDeviceKHR with a physical device xrGetVulkanGraphicsDevice2KHR did not return. */
  {
    /* (The runtime must refuse it before any Vulkan call: the handle is not a real one.) */
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, app.queueFamily, 1, &priority};
    VkDeviceCreateInfo deviceInfo;
    memset(&deviceInfo, 0, sizeof(deviceInfo));
    deviceInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    XrVulkanDeviceCreateInfoKHR info;
    memset(&info, 0, sizeof(info));
    info.type = XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR;
    info.systemId = app.system;
    info.pfnGetInstanceProcAddr = app.vkGipa;
    info.vulkanPhysicalDevice = (VkPhysicalDevice)(uintptr_t)0x1234;
    info.vulkanCreateInfo = &deviceInfo;
    VkDevice none = VK_NULL_HANDLE;
    VkResult unused = VK_SUCCESS;
    NOTE("deviceOnOtherPhysicalDevice", app.xrCreateVulkanDeviceKHR(app.instance, &info, &none, &unused));
  }

  /* Release with nothing waited; wait with nothing acquired. */
  NOTE("releaseWithoutWait", release(&app, swapchain));
  XrSwapchainImageWaitInfo wait = {XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO, NULL, XR_INFINITE_DURATION};
  NOTE("waitWithoutAcquire", app.xrWaitSwapchainImage(swapchain, &wait));
  /* Acquire every image (3), then once more. */
  XrSwapchainImageAcquireInfo acquire = {XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO, NULL};
  uint32_t index = 0, acquiredOk = 0;
  for (int i = 0; i < 3; ++i) acquiredOk += app.xrAcquireSwapchainImage(swapchain, &acquire, &index) == XR_SUCCESS;
  NOTE("acquiredImages", acquiredOk);
  NOTE("acquirePastImageCount", app.xrAcquireSwapchainImage(swapchain, &acquire, &index));
  NOTE("wait", app.xrWaitSwapchainImage(swapchain, &wait));
  NOTE("waitTwice", app.xrWaitSwapchainImage(swapchain, &wait));
  NOTE("release", release(&app, swapchain));
  NOTE("releaseAgain", release(&app, swapchain));

  /* xrEndFrame: a swapchain with no released image, a rect outside the image, a wrong view count. */
  XrTime time = 0;
  XrSwapchain pair[EYES] = {swapchain, other};
  XrCompositionLayerProjectionView views[EYES];
  if ((r = beginFrame(&app, &time)) != XR_SUCCESS) FAIL_RUN("error: beginFrame %d", r);
  fillViews(views, pair, 0, (XrRect2Di){{0, 0}, {WIDTH, HEIGHT}});
  NOTE("unreleasedSwapchain", endFrame(&app, time, views));
  if ((r = cycle(&app, other, &index)) != XR_SUCCESS || (r = release(&app, other)) != XR_SUCCESS) FAIL_RUN("error: other %d", r);
  fillViews(views, pair, 0, (XrRect2Di){{WIDTH / 2, 0}, {WIDTH, HEIGHT}});
  NOTE("rectOutside", endFrame(&app, time, views));
  fillViews(views, pair, 0, (XrRect2Di){{0, 0}, {0, HEIGHT}});
  NOTE("rectEmpty", endFrame(&app, time, views));
  fillViews(views, pair, 0, (XrRect2Di){{0, 0}, {WIDTH, HEIGHT}});
  views[1].subImage.imageArrayIndex = 1;
  NOTE("arrayIndexOutside", endFrame(&app, time, views));
  fillViews(views, pair, 0, (XrRect2Di){{0, 0}, {WIDTH, HEIGHT}});
  NOTE("endFrame", endFrame(&app, time, views));
  uint32_t waiting = 0;
  app.drain(app.session, 0, &waiting, NULL);
  NOTE("recordsAfterOneFrame", waiting);
  /* A quad layer on the static swapchain: accepted, nothing read back (only projection views are). */
  {
    if ((r = beginFrame(&app, &time)) != XR_SUCCESS) FAIL_RUN("error: beginFrame %d", r);
    XrCompositionLayerQuad quad;
    memset(&quad, 0, sizeof(quad));
    quad.type = XR_TYPE_COMPOSITION_LAYER_QUAD;
    quad.space = app.space;
    quad.eyeVisibility = XR_EYE_VISIBILITY_BOTH;
    quad.subImage.swapchain = staticChain;
    quad.subImage.imageRect = (XrRect2Di){{0, 0}, {WIDTH, HEIGHT}};
    quad.pose.orientation.w = 1.0f;
    quad.size.width = 1.0f;
    quad.size.height = 1.0f;
    const XrCompositionLayerBaseHeader* layers[] = {(const XrCompositionLayerBaseHeader*)&quad};
    XrFrameEndInfo end = {XR_TYPE_FRAME_END_INFO, NULL, time, XR_ENVIRONMENT_BLEND_MODE_OPAQUE, 1, layers};
    NOTE("quadLayer", app.xrEndFrame(app.session, &end));
    app.drain(app.session, 0, &waiting, NULL);
    NOTE("recordsAfterQuadFrame", waiting);
  }
  NOTE("destroySwapchain", app.xrDestroySwapchain(swapchain));
  NOTE("acquireDestroyed", app.xrAcquireSwapchainImage(swapchain, &acquire, &index));

  cleanup(&app);
  NOTE("validation", app.messages.count);
  if (app.messages.count) used += (size_t)snprintf(report + used, used < size ? size - used : 0, ": %s", app.messages.first);
#undef NOTE
  return 0;
}

/* The session as a real runtime runs it: events polled every frame, xrBeginSession on READY, frames
 * rendered where xrWaitFrame says shouldRender (both eyes acquired, cleared, released, submitted in a
 * projection layer; an empty xrEndFrame otherwise), then xrRequestExitSession, xrEndSession on
 * STOPPING, and the teardown on EXITING. `limit` is a count of rendered frames ("session") or seconds
 * ("session-seconds"). Where the runtime reads back (the simulated one), each frame's records are
 * drained and compared with what was drawn right after its xrEndFrame. Report: "format=<VkFormat> frames=<n>
 * rendered=<n> states=<s,s,...> readback=<n records as drawn|unsupported> mismatches=<n>
 * validation=<n>[: first] destroyed", or "error: <step> <result> ..." with what happened so far. */
static const char* stateName(XrSessionState s) {
  static const char* const names[] = {"unknown", "idle", "ready", "synchronized", "visible", "focused", "stopping", "loss-pending", "exiting"};
  return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

typedef struct SessionRun {
  char states[256];
  XrSessionState state;
  int begun; /* between xrBeginSession and xrEndSession: the frame loop runs (READY → SYNCHRONIZED needs it) */
  int exiting;
} SessionRun;

/* Polls every pending event; records the session's states and begins/ends it as they ask. */
static XrResult pollSession(App* app, SessionRun* run) {
  for (;;) {
    XrEventDataBuffer event;
    memset(&event, 0, sizeof(event));
    event.type = XR_TYPE_EVENT_DATA_BUFFER;
    XrResult r = app->xrPollEvent(app->instance, &event);
    if (r == XR_EVENT_UNAVAILABLE) return XR_SUCCESS;
    if (r != XR_SUCCESS) return r;
    if (event.type != XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED) continue;
    const XrEventDataSessionStateChanged* changed = (const XrEventDataSessionStateChanged*)&event;
    run->state = changed->state;
    snprintf(run->states + strlen(run->states), sizeof(run->states) - strlen(run->states), "%s%s", run->states[0] ? "," : "",
             stateName(changed->state));
    if (changed->state == XR_SESSION_STATE_READY) {
      XrSessionBeginInfo begin = {XR_TYPE_SESSION_BEGIN_INFO, NULL, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO};
      if ((r = app->xrBeginSession(app->session, &begin)) != XR_SUCCESS) return r;
      run->begun = 1;
    } else if (changed->state == XR_SESSION_STATE_STOPPING) {
      if ((r = app->xrEndSession(app->session)) != XR_SUCCESS) return r;
      run->begun = 0;
    } else if (changed->state == XR_SESSION_STATE_EXITING || changed->state == XR_SESSION_STATE_LOSS_PENDING) {
      run->exiting = 1;
    }
  }
}

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int runSession(const char* addonPath, int timed, uint32_t limit, char* report, size_t size) {
  App app;
  memset(&app, 0, sizeof(app));
  app.readbackOptional = 1;
  app.beginWhenReady = 1;
  SessionRun run;
  memset(&run, 0, sizeof(run));
  uint32_t frames = 0, rendered = 0, records = 0;
  unsigned mismatches = 0;
#define FAIL_SESSION(...)                                                                                            \
  do {                                                                                                             \
    int used_ = snprintf(report, size, __VA_ARGS__);                                                               \
    if (used_ > 0 && (size_t)used_ < size) snprintf(report + used_, size - (size_t)used_, " (after %u frames, states %s)", frames, run.states); \
    cleanup(&app);                                                                                                 \
    return -1;                                                                                                     \
  } while (0)
  if (setUp(&app, addonPath, report, size) != 0) return cleanup(&app), -1;
  /* The runtime's first UNORM 8-bit colour format (what the readback comparison assumes), else its first sRGB one. */
  int64_t offered[32];
  uint32_t offeredCount = 0;
  XrResult r = app.xrEnumerateSwapchainFormats(app.session, 32, &offeredCount, offered);
  if (r != XR_SUCCESS) FAIL_SESSION("error: xrEnumerateSwapchainFormats %d", r);
  static const int64_t usable[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB};
  int64_t format = 0;
  for (size_t u = 0; u < sizeof(usable) / sizeof(usable[0]) && format == 0; ++u) {
    for (uint32_t i = 0; i < offeredCount; ++i) {
      if (offered[i] == usable[u]) format = usable[u];
    }
  }
  if (format == 0) FAIL_SESSION("error: no 8-bit RGBA/BGRA swapchain format among the runtime's %u 0", offeredCount);
  XrSwapchain swapchains[EYES] = {XR_NULL_HANDLE, XR_NULL_HANDLE};
  VkImage images[EYES][8];
  for (uint32_t s = 0; s < EYES; ++s) {
    swapchains[s] = createSwapchain(&app, format, 1, 1, &r);
    if (r != XR_SUCCESS) FAIL_SESSION("error: xrCreateSwapchain %d", r);
    if (swapchainImages(&app, swapchains[s], images[s], 8) == 0) FAIL_SESSION("error: xrEnumerateSwapchainImages 0");
  }
  const XrRect2Di rect = {{0, 0}, {WIDTH, HEIGHT}};
  const double start = nowSeconds();
  int exitRequested = 0;
  /* Until the session is running (bounded: 5 s), then frames until the limit, then until EXITING. */
  while (!run.exiting) {
    if ((r = pollSession(&app, &run)) != XR_SUCCESS) FAIL_SESSION("error: xrPollEvent/xrBeginSession/xrEndSession %d", r);
    if (run.exiting) break;
    const int done = timed ? nowSeconds() - start >= (double)limit : rendered >= limit;
    if (done && !exitRequested) {
      if ((r = app.xrRequestExitSession(app.session)) != XR_SUCCESS) FAIL_SESSION("error: xrRequestExitSession %d", r);
      exitRequested = 1;
    }
    if (!run.begun) {
      if (nowSeconds() - start > (timed ? (double)limit : 0.0) + 10.0) FAIL_SESSION("error: the session never ran 0");
      struct timespec pause = {0, 2000000};
      nanosleep(&pause, NULL);
      continue;
    }
    XrFrameWaitInfo waitInfo = {XR_TYPE_FRAME_WAIT_INFO, NULL};
    XrFrameState frameState;
    memset(&frameState, 0, sizeof(frameState));
    frameState.type = XR_TYPE_FRAME_STATE;
    if ((r = app.xrWaitFrame(app.session, &waitInfo, &frameState)) != XR_SUCCESS) FAIL_SESSION("error: xrWaitFrame %d", r);
    XrFrameBeginInfo beginInfo = {XR_TYPE_FRAME_BEGIN_INFO, NULL};
    if ((r = app.xrBeginFrame(app.session, &beginInfo)) != XR_SUCCESS) FAIL_SESSION("error: xrBeginFrame %d", r);
    ++frames;
    if (!frameState.shouldRender) {
      XrFrameEndInfo end = {XR_TYPE_FRAME_END_INFO, NULL, frameState.predictedDisplayTime, XR_ENVIRONMENT_BLEND_MODE_OPAQUE, 0, NULL};
      if ((r = app.xrEndFrame(app.session, &end)) != XR_SUCCESS) FAIL_SESSION("error: xrEndFrame (no layers) %d", r);
      continue;
    }
    uint32_t index[EYES] = {0, 0};
    for (uint32_t s = 0; s < EYES; ++s) {
      if ((r = cycle(&app, swapchains[s], &index[s])) != XR_SUCCESS) FAIL_SESSION("error: xrAcquireSwapchainImage/xrWaitSwapchainImage %d", r);
    }
    VkCommandBufferBeginInfo cmdBegin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    if (app.vkBeginCommandBuffer(app.cmd, &cmdBegin) != VK_SUCCESS) FAIL_SESSION("error: vkBeginCommandBuffer 0");
    uint8_t drawn[EYES][4];
    for (uint32_t eye = 0; eye < EYES; ++eye) {
      colourOf(rendered, eye, drawn[eye]);
      recordClear(&app, images[eye][index[eye]], 0, drawn[eye]);
    }
    if (app.vkEndCommandBuffer(app.cmd) != VK_SUCCESS || submitAndWait(&app) != 0) FAIL_SESSION("error: vkQueueSubmit 0");
    for (uint32_t s = 0; s < EYES; ++s) {
      if ((r = release(&app, swapchains[s])) != XR_SUCCESS) FAIL_SESSION("error: xrReleaseSwapchainImage %d", r);
    }
    XrCompositionLayerProjectionView views[EYES];
    fillViews(views, swapchains, 0, rect);
    if ((r = endFrame(&app, frameState.predictedDisplayTime, views)) != XR_SUCCESS) FAIL_SESSION("error: xrEndFrame %d", r);
    ++rendered;
    if (app.drain != NULL) {
      XrSubmittedPixelSIMXR got[EYES];
      uint32_t count = 0;
      if ((r = app.drain(app.session, EYES, &count, got)) != XR_SUCCESS) FAIL_SESSION("error: xrDrainSubmittedPixelsSIMXR %d", r);
      for (uint32_t i = 0; i < count; ++i) {
        const uint8_t* c = drawn[got[i].viewIndex % EYES];
        const int bgra = got[i].format == VK_FORMAT_B8G8R8A8_UNORM || got[i].format == VK_FORMAT_B8G8R8A8_SRGB;
        const int srgb = got[i].format == VK_FORMAT_R8G8B8A8_SRGB || got[i].format == VK_FORMAT_B8G8R8A8_SRGB;
        const uint8_t expected[4] = {bgra ? c[2] : c[0], c[1], bgra ? c[0] : c[2], c[3]};
        /* (sRGB images store encoded bytes: only the frame index is compared there.) */
        if (got[i].frameIndex != rendered || got[i].format != format || (!srgb && memcmp(got[i].bytes, expected, 4) != 0)) ++mismatches;
      }
      records += count;
      if (count != EYES) ++mismatches;
    }
  }
  cleanup(&app);
  char readback[48];
  if (app.drain != NULL) snprintf(readback, sizeof(readback), "%u", records);
  else snprintf(readback, sizeof(readback), "unsupported");
  say(report, size, "format=%lld frames=%u rendered=%u states=%s readback=%s mismatches=%u validation=%u%s%s destroyed", (long long)format, frames,
      rendered, run.states, readback, mismatches, app.messages.count, app.messages.count ? ": " : "", app.messages.first);
#undef FAIL_SESSION
  return 0;
}

KL_EXPORT int kl_xr_vulkan_frames_run(const char* addonPath, const char* variant, uint32_t frames, char* report, size_t size) {
  report[0] = '\0';
  if (strcmp(variant, "errors") == 0) return runErrors(addonPath, report, size);
  if (strcmp(variant, "session") == 0) return runSession(addonPath, 0, frames, report, size);
  if (strcmp(variant, "session-seconds") == 0) return runSession(addonPath, 1, frames, report, size);
  return runFrames(addonPath, variant, frames, report, size);
}
