#include "tools/bench/vulkan_bench.h"

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dynamic_library.h"
#include "tools/bench/bench_timing.h"
#include "tools/bench/xcb_window.h"
#include "addon/errors.h"
#include "tools/loader_addon.h"
#include "vulkan/loader/loader_interface.h"
#include "vulkan/loader/wsi_platform.h"

// The loader's exported functions this benchmark uses (setup, timed commands, teardown).
#define KL_VK_BENCH_EXPORTS(X)                                                                                                     \
  X(CreateInstance) X(DestroyInstance) X(EnumeratePhysicalDevices) X(GetPhysicalDeviceProperties) X(CreateDevice) X(DestroyDevice) \
      X(GetDeviceProcAddr) X(GetDeviceQueue) X(CreatePipelineLayout) X(DestroyPipelineLayout) X(CreateCommandPool)                 \
          X(DestroyCommandPool) X(AllocateCommandBuffers) X(BeginCommandBuffer) X(EndCommandBuffer) X(ResetCommandBuffer)          \
              X(CmdPushConstants) X(GetInstanceProcAddr) X(AcquireNextImageKHR) X(QueuePresentKHR)

namespace kl::napi {
namespace {

struct VulkanExports {
#define KL_VK_BENCH_MEMBER(Cmd) PFN_vk##Cmd Cmd = nullptr;
  KL_VK_BENCH_EXPORTS(KL_VK_BENCH_MEMBER)
#undef KL_VK_BENCH_MEMBER

  // Throws LibraryError naming the first missing symbol.
  static VulkanExports From(const DynamicLibrary& library) {
    VulkanExports e;
#define KL_VK_BENCH_DLSYM(Cmd) e.Cmd = library.RequireFunction<PFN_vk##Cmd>("vk" #Cmd);
    KL_VK_BENCH_EXPORTS(KL_VK_BENCH_DLSYM)
#undef KL_VK_BENCH_DLSYM
    return e;
  }
};

enum class Command { GetDeviceQueue, CmdPushConstants, AcquirePresent, AcquireNextImage, QueuePresent };
struct CommandInfo {
  Command command;
  const char* name;
};
constexpr std::array kCommands{
    CommandInfo{Command::GetDeviceQueue, "vkGetDeviceQueue"},
    CommandInfo{Command::CmdPushConstants, "vkCmdPushConstants"},
    CommandInfo{Command::AcquirePresent, "vkAcquireNextImageKHR+vkQueuePresentKHR"},
    CommandInfo{Command::AcquireNextImage, "vkAcquireNextImageKHR"},
    CommandInfo{Command::QueuePresent, "vkQueuePresentKHR"},
};
constexpr bool Presents(Command c) { return c == Command::AcquirePresent || c == Command::AcquireNextImage || c == Command::QueuePresent; }

struct StepError : std::runtime_error {
  StepError(VkResult r, const std::string& what) : std::runtime_error(what + " failed (VkResult " + std::to_string(r) + ")") {}
};
void Check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw StepError(r, what);
}

using bench::Sample;
using bench::TimeCalls;

// The timed loops come in kTimingLoops copies, and each of two loaders timed in one process gets
// its own: with one shared loop, whichever loader was timed first stayed ~0.8 ns a call faster
// (2.7 vs 3.5 ns, vkGetDeviceQueue on the test driver) for the whole process, either loader, as if
// the CPU's predictors kept what the loop's call site learnt first. The empty asm makes the copies'
// bodies differ, so the compiler does not fold them into one (-fipa-icf).
constexpr uint32_t kTimingLoops = 2;

template <int Copy>
[[gnu::noipa]] Sample TimeGetDeviceQueue(PFN_vkGetDeviceQueue f, VkDevice device, uint32_t iterations, VkQueue* queue) {
  asm volatile("" ::"i"(Copy));
  return TimeCalls(iterations, [&](uint32_t) { f(device, 0, 0, queue); });
}

template <int Copy>
[[gnu::noipa]] Sample TimePushConstants(PFN_vkCmdPushConstants f, VkCommandBuffer commandBuffer, VkPipelineLayout layout, uint32_t calls) {
  asm volatile("" ::"i"(Copy));
  std::array<uint32_t, 4> values{};
  return TimeCalls(calls, [&](uint32_t i) {
    values[0] = i;
    f(commandBuffer, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(values), values.data());
  });
}

// What one presented frame of the timed loop calls: the two timed commands (a loader's exports or
// the pointers its vkGetDeviceProcAddr returned) and the fence the acquire signals.
struct PresentLoop {
  PFN_vkAcquireNextImageKHR acquire;
  PFN_vkQueuePresentKHR present;
  PFN_vkWaitForFences waitForFences;
  PFN_vkResetFences resetFences;
  VkDevice device;
  VkQueue queue;
  VkSwapchainKHR swapchain;
  VkFence fence;
};

// One frame: acquire (the fence signalled when the image may be used), wait for and reset the
// fence, present the image unchanged (it stays in PRESENT_SRC_KHR from setup). `acquireNs` and
// `presentNs` receive the two calls' own wall and CPU times when `split`. The first VkResult
// other than VK_SUCCESS is kept in `failed` (step names it).
struct FrameClock {
  double acquireWall = 0, acquireCpu = 0, presentWall = 0, presentCpu = 0;
};
inline void PresentFrame(const PresentLoop& l, bool split, FrameClock& clock, VkResult& failed, const char*& step) {
  using bench::NowNs;
  uint32_t index = 0;
  double w0 = 0, c0 = 0;
  if (split) c0 = NowNs(CLOCK_THREAD_CPUTIME_ID), w0 = NowNs(CLOCK_MONOTONIC);
  VkResult r = l.acquire(l.device, l.swapchain, UINT64_MAX, VK_NULL_HANDLE, l.fence, &index);
  if (split) clock.acquireWall += NowNs(CLOCK_MONOTONIC) - w0, clock.acquireCpu += NowNs(CLOCK_THREAD_CPUTIME_ID) - c0;
  if (r != VK_SUCCESS) {
    if (failed == VK_SUCCESS) failed = r, step = "vkAcquireNextImageKHR";
    return;
  }
  l.waitForFences(l.device, 1, &l.fence, VK_TRUE, UINT64_MAX);
  l.resetFences(l.device, 1, &l.fence);
  const VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, nullptr, 0, nullptr, 1, &l.swapchain, &index, nullptr};
  if (split) c0 = NowNs(CLOCK_THREAD_CPUTIME_ID), w0 = NowNs(CLOCK_MONOTONIC);
  r = l.present(l.queue, &info);
  if (split) clock.presentWall += NowNs(CLOCK_MONOTONIC) - w0, clock.presentCpu += NowNs(CLOCK_THREAD_CPUTIME_ID) - c0;
  if (r != VK_SUCCESS && failed == VK_SUCCESS) failed = r, step = "vkQueuePresentKHR";
}

// `frames` frames: the pair timed as a whole (Command::AcquirePresent, the fence wait and reset
// between them included), or one of the two commands timed call by call (the clock reads around
// each call are the same for both loaders).
template <int Copy>
[[gnu::noipa]] Sample TimePresentFrames(const PresentLoop& loop, Command which, uint32_t frames, VkResult& failed, const char*& step) {
  asm volatile("" ::"i"(Copy));
  FrameClock clock;
  if (which == Command::AcquirePresent) return TimeCalls(frames, [&](uint32_t) { PresentFrame(loop, false, clock, failed, step); });
  for (uint32_t i = 0; i < frames; ++i) PresentFrame(loop, true, clock, failed, step);
  const double n = frames == 0 ? 1 : frames;
  return which == Command::AcquireNextImage ? Sample{clock.acquireWall / n, clock.acquireCpu / n} : Sample{clock.presentWall / n, clock.presentCpu / n};
}

// The presentation benchmark's window size: small, so the driver's copy to the X server stays cheap.
constexpr uint16_t kPresentWidth = 32;
constexpr uint16_t kPresentHeight = 32;

// Everything a command needs, created through one loader's exports and destroyed in reverse.
class Scenario {
 public:
  Scenario(const VulkanExports& x, Command command, uint32_t timingLoop, std::string display)
      : x_(x), command_(command), timingLoop_(timingLoop), display_(std::move(display)) {
    try {
      Setup();
    } catch (...) {
      Teardown();
      throw;
    }
  }
  ~Scenario() { Teardown(); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  const void* TimedPointer() const {
    switch (command_) {
      case Command::GetDeviceQueue: return reinterpret_cast<const void*>(pointerGetDeviceQueue_);
      case Command::CmdPushConstants: return reinterpret_cast<const void*>(pointerCmdPushConstants_);
      case Command::QueuePresent: return reinterpret_cast<const void*>(pointerQueuePresent_);
      case Command::AcquirePresent:
      case Command::AcquireNextImage: return reinterpret_cast<const void*>(pointerAcquireNextImage_);
    }
    return nullptr;
  }
  // The present mode the swapchain uses (presentation commands), else empty.
  const char* PresentMode() const {
    if (!Presents(command_)) return "";
    return presentMode_ == VK_PRESENT_MODE_IMMEDIATE_KHR ? "IMMEDIATE" : "MAILBOX";
  }
  // The loader's own export (its vkGetDeviceProcAddr): which shared object is the loader.
  const void* LoaderExport() const { return reinterpret_cast<const void*>(x_.GetDeviceProcAddr); }
  const std::string& deviceName() const { return deviceName_; }

  Sample Measure(bool pointer, uint32_t iterations) {
    if (Presents(command_)) {
      PresentLoop loop = presentLoop_;
      loop.acquire = pointer ? pointerAcquireNextImage_ : x_.AcquireNextImageKHR;
      loop.present = pointer ? pointerQueuePresent_ : x_.QueuePresentKHR;
      VkResult failed = VK_SUCCESS;
      const char* step = "";
      const Sample s = timingLoop_ == 0 ? TimePresentFrames<0>(loop, command_, iterations, failed, step)
                                        : TimePresentFrames<1>(loop, command_, iterations, failed, step);
      if (failed != VK_SUCCESS) throw StepError(failed, step);
      return s;
    }
    if (command_ == Command::GetDeviceQueue) {
      const PFN_vkGetDeviceQueue f = pointer ? pointerGetDeviceQueue_ : x_.GetDeviceQueue;
      VkQueue queue = VK_NULL_HANDLE;
      const Sample s = timingLoop_ == 0 ? TimeGetDeviceQueue<0>(f, device_, iterations, &queue) : TimeGetDeviceQueue<1>(f, device_, iterations, &queue);
      if (queue == VK_NULL_HANDLE) throw StepError(VK_ERROR_UNKNOWN, "vkGetDeviceQueue (no queue returned)");
      return s;
    }
    // A sample is two recordings of half the calls each, because a driver that allocates per
    // command (lavapipe) alternates between two states from one reset to the next: glibc's small
    // free lists (tcache, fastbins) hand freed chunks back last-freed first, and every other
    // recording measured ~20 ns a call more on lavapipe (no alternation with those lists off:
    // GLIBC_TUNABLES=glibc.malloc.mxfast=0:glibc.malloc.tcache_count=0). Two consecutive recordings
    // hold one of each, whichever state the process started in; with one recording a sample, the
    // trampoline/pointer interleaving gave one cell the slow state in 4 runs of 7 and the other in
    // 3, which of the two depending on the process, for either loader.
    const PFN_vkCmdPushConstants f = pointer ? pointerCmdPushConstants_ : x_.CmdPushConstants;
    const uint32_t firstHalf = iterations - iterations / 2;
    const Sample a = RecordPushConstants(f, firstHalf);
    if (firstHalf == iterations) return a;
    const Sample b = RecordPushConstants(f, iterations / 2);
    const double n = iterations;
    return {(a.wallNs * firstHalf + b.wallNs * (iterations / 2)) / n, (a.cpuNs * firstHalf + b.cpuNs * (iterations / 2)) / n};
  }

 private:
  // One recording (a fresh one: the command buffer holds only its commands) of `calls` timed calls.
  Sample RecordPushConstants(PFN_vkCmdPushConstants f, uint32_t calls) {
    Check(x_.ResetCommandBuffer(commandBuffer_, 0), "vkResetCommandBuffer");
    const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
    Check(x_.BeginCommandBuffer(commandBuffer_, &begin), "vkBeginCommandBuffer");
    const Sample s = timingLoop_ == 0 ? TimePushConstants<0>(f, commandBuffer_, layout_, calls) : TimePushConstants<1>(f, commandBuffer_, layout_, calls);
    Check(x_.EndCommandBuffer(commandBuffer_), "vkEndCommandBuffer");
    return s;
  }

  void Setup() {
    const VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, "khronos-loader bench", 1, nullptr, 0, VK_API_VERSION_1_1};
    const std::array<const char*, 2> surfaceExtensions{"VK_KHR_surface", "VK_KHR_xcb_surface"};
    const uint32_t instanceExtensions = Presents(command_) ? static_cast<uint32_t>(surfaceExtensions.size()) : 0;
    const VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, instanceExtensions, surfaceExtensions.data()};
    Check(x_.CreateInstance(&instanceInfo, nullptr, &instance_), "vkCreateInstance");
    uint32_t count = 1;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    const VkResult r = x_.EnumeratePhysicalDevices(instance_, &count, &physicalDevice);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) throw StepError(r == VK_SUCCESS ? VK_ERROR_INITIALIZATION_FAILED : r, "vkEnumeratePhysicalDevices (is a driver installed?)");
    VkPhysicalDeviceProperties properties{};
    x_.GetPhysicalDeviceProperties(physicalDevice, &properties);
    deviceName_ = properties.deviceName;
    if (Presents(command_)) SetupSurface(physicalDevice);
    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    const char* swapchainExtension = "VK_KHR_swapchain";
    const VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, nullptr, 0, 1, &queueInfo, 0, nullptr, Presents(command_) ? 1u : 0u, &swapchainExtension,
                                        nullptr};
    Check(x_.CreateDevice(physicalDevice, &deviceInfo, nullptr, &device_), "vkCreateDevice");
    pointerGetDeviceQueue_ = reinterpret_cast<PFN_vkGetDeviceQueue>(x_.GetDeviceProcAddr(device_, "vkGetDeviceQueue"));
    pointerCmdPushConstants_ = reinterpret_cast<PFN_vkCmdPushConstants>(x_.GetDeviceProcAddr(device_, "vkCmdPushConstants"));
    if (pointerGetDeviceQueue_ == nullptr || pointerCmdPushConstants_ == nullptr) throw StepError(VK_ERROR_INITIALIZATION_FAILED, "vkGetDeviceProcAddr");
    if (Presents(command_)) SetupSwapchain(physicalDevice);
    if (command_ != Command::CmdPushConstants) return;
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    const VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 0, nullptr, 1, &range};
    Check(x_.CreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_), "vkCreatePipelineLayout");
    const VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0};
    Check(x_.CreateCommandPool(device_, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
    const VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    Check(x_.AllocateCommandBuffers(device_, &allocateInfo, &commandBuffer_), "vkAllocateCommandBuffers");
  }

  template <typename Fn>
  Fn InstanceCommand(const char* name) const {
    auto fn = reinterpret_cast<Fn>(x_.GetInstanceProcAddr(instance_, name));
    if (fn == nullptr) throw StepError(VK_ERROR_EXTENSION_NOT_PRESENT, std::string("vkGetInstanceProcAddr(") + name + ")");
    return fn;
  }
  template <typename Fn>
  Fn DeviceCommand(const char* name) const {
    auto fn = reinterpret_cast<Fn>(x_.GetDeviceProcAddr(device_, name));
    if (fn == nullptr) throw StepError(VK_ERROR_EXTENSION_NOT_PRESENT, std::string("vkGetDeviceProcAddr(") + name + ")");
    return fn;
  }

  // The window on `display_`, its XCB surface, and the device's queue family 0 able to present to it.
  void SetupSurface(VkPhysicalDevice physicalDevice) {
    try {
      window_ = bench::XcbWindow::Open(display_, kPresentWidth, kPresentHeight);
    } catch (const std::runtime_error& e) {
      throw StepError(VK_ERROR_INITIALIZATION_FAILED, std::string("the window (") + e.what() + ")");
    }
    destroySurface_ = InstanceCommand<PFN_vkDestroySurfaceKHR>("vkDestroySurfaceKHR");
    const KlXcbSurfaceCreateInfoKHR info{vulkan::kXcbSurfaceCreateInfo, nullptr, 0, window_->connection(), window_->window()};
    Check(InstanceCommand<PFN_klCreateXcbSurfaceKHR>("vkCreateXcbSurfaceKHR")(instance_, &info, nullptr, &surface_), "vkCreateXcbSurfaceKHR");
    VkBool32 supported = VK_FALSE;
    Check(InstanceCommand<PFN_vkGetPhysicalDeviceSurfaceSupportKHR>("vkGetPhysicalDeviceSurfaceSupportKHR")(physicalDevice, 0, surface_, &supported),
          "vkGetPhysicalDeviceSurfaceSupportKHR");
    if (supported != VK_TRUE) throw StepError(VK_ERROR_FEATURE_NOT_PRESENT, "queue family 0 presenting to the window");
  }

  // A swapchain in a present mode that does not wait for a refresh (IMMEDIATE, else MAILBOX), one
  // image more than the minimum (so an acquire never waits for the presentation engine), each
  // image acquired once, moved to PRESENT_SRC_KHR and presented, so the timed frames present
  // images in the layout presentation needs.
  void SetupSwapchain(VkPhysicalDevice physicalDevice) {
    VkSurfaceCapabilitiesKHR caps{};
    Check(InstanceCommand<PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR>("vkGetPhysicalDeviceSurfaceCapabilitiesKHR")(physicalDevice, surface_, &caps),
          "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    std::array<VkSurfaceFormatKHR, 64> formats{};
    uint32_t formatCount = formats.size();
    const VkResult fr = InstanceCommand<PFN_vkGetPhysicalDeviceSurfaceFormatsKHR>("vkGetPhysicalDeviceSurfaceFormatsKHR")(physicalDevice, surface_, &formatCount,
                                                                                                                         formats.data());
    if ((fr != VK_SUCCESS && fr != VK_INCOMPLETE) || formatCount == 0) throw StepError(fr, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    std::array<VkPresentModeKHR, 16> modes{};
    uint32_t modeCount = modes.size();
    const VkResult mr = InstanceCommand<PFN_vkGetPhysicalDeviceSurfacePresentModesKHR>("vkGetPhysicalDeviceSurfacePresentModesKHR")(physicalDevice, surface_,
                                                                                                                                   &modeCount, modes.data());
    if (mr != VK_SUCCESS && mr != VK_INCOMPLETE) throw StepError(mr, "vkGetPhysicalDeviceSurfacePresentModesKHR");
    const auto offered = [&](VkPresentModeKHR m) { return std::find(modes.begin(), modes.begin() + modeCount, m) != modes.begin() + modeCount; };
    if (offered(VK_PRESENT_MODE_IMMEDIATE_KHR)) presentMode_ = VK_PRESENT_MODE_IMMEDIATE_KHR;
    else if (offered(VK_PRESENT_MODE_MAILBOX_KHR)) presentMode_ = VK_PRESENT_MODE_MAILBOX_KHR;
    else throw StepError(VK_ERROR_FEATURE_NOT_PRESENT, "a present mode that does not wait for a refresh (IMMEDIATE or MAILBOX)");

    createSwapchain_ = DeviceCommand<PFN_vkCreateSwapchainKHR>("vkCreateSwapchainKHR");
    destroySwapchain_ = DeviceCommand<PFN_vkDestroySwapchainKHR>("vkDestroySwapchainKHR");
    createFence_ = DeviceCommand<PFN_vkCreateFence>("vkCreateFence");
    destroyFence_ = DeviceCommand<PFN_vkDestroyFence>("vkDestroyFence");
    deviceWaitIdle_ = DeviceCommand<PFN_vkDeviceWaitIdle>("vkDeviceWaitIdle");
    pointerAcquireNextImage_ = DeviceCommand<PFN_vkAcquireNextImageKHR>("vkAcquireNextImageKHR");
    pointerQueuePresent_ = DeviceCommand<PFN_vkQueuePresentKHR>("vkQueuePresentKHR");
    uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount != 0) imageCount = std::min(imageCount, caps.maxImageCount);
    const VkExtent2D extent = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : VkExtent2D{kPresentWidth, kPresentHeight};
    VkSwapchainCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    info.surface = surface_;
    info.minImageCount = imageCount;
    info.imageFormat = formats[0].format;
    info.imageColorSpace = formats[0].colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) != 0 ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR : VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    info.presentMode = presentMode_;
    info.clipped = VK_TRUE;
    Check(createSwapchain_(device_, &info, nullptr, &swapchain_), "vkCreateSwapchainKHR");
    std::array<VkImage, 16> images{};
    uint32_t count = images.size();
    Check(DeviceCommand<PFN_vkGetSwapchainImagesKHR>("vkGetSwapchainImagesKHR")(device_, swapchain_, &count, images.data()), "vkGetSwapchainImagesKHR");
    const VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    Check(createFence_(device_, &fenceInfo, nullptr, &fence_), "vkCreateFence");
    VkQueue queue = VK_NULL_HANDLE;
    x_.GetDeviceQueue(device_, 0, 0, &queue);
    presentLoop_ = {x_.AcquireNextImageKHR, x_.QueuePresentKHR, DeviceCommand<PFN_vkWaitForFences>("vkWaitForFences"), DeviceCommand<PFN_vkResetFences>("vkResetFences"),
                    device_, queue, swapchain_, fence_};
    PrepareImages(images.data(), count);
  }

  // Each swapchain image once moved from UNDEFINED to PRESENT_SRC_KHR: as many images as the
  // swapchain hands out at once are acquired (timeout 0, so asking for one more than it can give
  // is valid: "VK_NOT_READY"), moved in one submission and presented, until every image has been.
  void PrepareImages(const VkImage* images, uint32_t count) {
    const VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0};
    Check(x_.CreateCommandPool(device_, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
    const VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    Check(x_.AllocateCommandBuffers(device_, &allocateInfo, &commandBuffer_), "vkAllocateCommandBuffers");
    const auto barrier = DeviceCommand<PFN_vkCmdPipelineBarrier>("vkCmdPipelineBarrier");
    const auto submit = DeviceCommand<PFN_vkQueueSubmit>("vkQueueSubmit");
    const PresentLoop& l = presentLoop_;
    std::vector<bool> prepared(count, false);
    uint32_t left = count;
    const auto waitFence = [&] {
      Check(l.waitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
      Check(l.resetFences(device_, 1, &fence_), "vkResetFences");
    };
    for (uint32_t round = 0; left > 0; ++round) {
      if (round == 4 * count) throw StepError(VK_ERROR_UNKNOWN, "preparing the swapchain images (an image was never acquired)");
      std::vector<uint32_t> held;
      while (held.size() < count) {
        uint32_t index = 0;
        const VkResult r = l.acquire(device_, swapchain_, 0, VK_NULL_HANDLE, fence_, &index);
        if (r == VK_NOT_READY || r == VK_TIMEOUT) break;
        Check(r, "vkAcquireNextImageKHR");
        waitFence();
        held.push_back(index);
      }
      if (held.empty()) continue;
      Check(x_.ResetCommandBuffer(commandBuffer_, 0), "vkResetCommandBuffer");
      const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
      Check(x_.BeginCommandBuffer(commandBuffer_, &begin), "vkBeginCommandBuffer");
      for (const uint32_t index : held) {
        if (index >= count || prepared[index]) continue;
        VkImageMemoryBarrier toPresent{};
        toPresent.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        toPresent.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        toPresent.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toPresent.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toPresent.image = images[index];
        toPresent.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        barrier(commandBuffer_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr, 1, &toPresent);
        prepared[index] = true;
        --left;
      }
      Check(x_.EndCommandBuffer(commandBuffer_), "vkEndCommandBuffer");
      const VkSubmitInfo submitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &commandBuffer_, 0, nullptr};
      Check(submit(l.queue, 1, &submitInfo, fence_), "vkQueueSubmit");
      waitFence();
      for (uint32_t index : held) {
        const VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, nullptr, 0, nullptr, 1, &swapchain_, &index, nullptr};
        Check(l.present(l.queue, &present), "vkQueuePresentKHR");
      }
    }
  }

  void Teardown() noexcept {
    if (device_ != VK_NULL_HANDLE && deviceWaitIdle_ != nullptr) deviceWaitIdle_(device_);
    if (fence_ != VK_NULL_HANDLE) destroyFence_(device_, fence_, nullptr);
    if (swapchain_ != VK_NULL_HANDLE) destroySwapchain_(device_, swapchain_, nullptr);
    fence_ = VK_NULL_HANDLE;
    swapchain_ = VK_NULL_HANDLE;
    if (pool_ != VK_NULL_HANDLE) x_.DestroyCommandPool(device_, pool_, nullptr);
    if (layout_ != VK_NULL_HANDLE) x_.DestroyPipelineLayout(device_, layout_, nullptr);
    if (device_ != VK_NULL_HANDLE) x_.DestroyDevice(device_, nullptr);
    if (surface_ != VK_NULL_HANDLE) destroySurface_(instance_, surface_, nullptr);
    surface_ = VK_NULL_HANDLE;
    if (instance_ != VK_NULL_HANDLE) x_.DestroyInstance(instance_, nullptr);
    window_.reset();  // after the surface: the driver's connection names the window
    pool_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
    device_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
  }

  VulkanExports x_;
  Command command_;
  uint32_t timingLoop_;  // which copy of the timed loops (below kTimingLoops)
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  PFN_vkGetDeviceQueue pointerGetDeviceQueue_ = nullptr;
  PFN_vkCmdPushConstants pointerCmdPushConstants_ = nullptr;
  std::string deviceName_;
  // The presentation commands' window, surface, swapchain and what destroys them.
  std::string display_;
  std::unique_ptr<bench::XcbWindow> window_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPresentModeKHR presentMode_ = VK_PRESENT_MODE_FIFO_KHR;
  PresentLoop presentLoop_{};
  PFN_vkAcquireNextImageKHR pointerAcquireNextImage_ = nullptr;
  PFN_vkQueuePresentKHR pointerQueuePresent_ = nullptr;
  PFN_vkDestroySurfaceKHR destroySurface_ = nullptr;
  PFN_vkCreateSwapchainKHR createSwapchain_ = nullptr;
  PFN_vkDestroySwapchainKHR destroySwapchain_ = nullptr;
  PFN_vkCreateFence createFence_ = nullptr;
  PFN_vkDestroyFence destroyFence_ = nullptr;
  PFN_vkDeviceWaitIdle deviceWaitIdle_ = nullptr;
};

std::string SupportedList() {
  std::string out;
  for (const auto& c : kCommands) out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

class VulkanBenchScenario : public Napi::ObjectWrap<VulkanBenchScenario> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "VulkanBenchScenario",
                       {
                           InstanceMethod<&VulkanBenchScenario::Measure>("measure"),
                           InstanceMethod<&VulkanBenchScenario::Destroy>("destroy"),
                           InstanceAccessor<&VulkanBenchScenario::PointerOrigin>("pointerOrigin"),
                           InstanceAccessor<&VulkanBenchScenario::LoaderOrigin>("loaderOrigin"),
                           InstanceAccessor<&VulkanBenchScenario::DeviceName>("deviceName"),
                           InstanceAccessor<&VulkanBenchScenario::PresentMode>("presentMode"),
                       });
  }

  explicit VulkanBenchScenario(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanBenchScenario>(info) {
    Napi::Env env = info.Env();
    const char* usage = "new VulkanBenchScenario({ command: string, loaderLibrary?: string, timingLoop?: 0 | 1, display?: string })";
    if (info.Length() < 1 || !info[0].IsObject()) throw ArgumentError(env, usage);
    const Napi::Object options = info[0].As<Napi::Object>();
    const Napi::Value commandValue = options.Get("command");
    if (!commandValue.IsString()) throw ArgumentError(env, usage);
    const std::string name = commandValue.As<Napi::String>().Utf8Value();
    const CommandInfo* command = nullptr;
    for (const auto& c : kCommands) {
      if (name == c.name) command = &c;
    }
    if (command == nullptr) throw ArgumentError(env, "the benchmark cannot time " + name + "; supported commands: " + SupportedList());
    const Napi::Value libraryValue = options.Get("loaderLibrary");
    if (!libraryValue.IsUndefined() && !libraryValue.IsString()) throw ArgumentError(env, usage);
    const Napi::Value loopValue = options.Get("timingLoop");
    uint32_t timingLoop = 0;
    if (!loopValue.IsUndefined()) {
      if (!loopValue.IsNumber()) throw ArgumentError(env, usage);
      const double n = loopValue.As<Napi::Number>().DoubleValue();
      if (n != 0 && n != 1) throw ArgumentError(env, "timingLoop must be 0 or 1 (one copy of the timed loops for each of two loaders in a process)");
      timingLoop = static_cast<uint32_t>(n);
    }
    static_assert(kTimingLoops == 2, "the check above names the copies");
    const Napi::Value displayValue = options.Get("display");
    if (!displayValue.IsUndefined() && !displayValue.IsString()) throw ArgumentError(env, usage);
    const std::string display = displayValue.IsString() ? displayValue.As<Napi::String>().Utf8Value() : "";
    if (Presents(command->command) && display.empty()) {
      throw ArgumentError(env, std::string(command->name) + " presents to a window: display (an X server's \":<n>\") is required");
    }
    try {
      if (libraryValue.IsString()) {
        library_ = DynamicLibrary::Open(libraryValue.As<Napi::String>().Utf8Value());
        scenario_ = std::make_unique<Scenario>(VulkanExports::From(*library_), command->command, timingLoop, display);
      } else {
        // This package's loader: its trampolines (native/vulkan/loader/trampolines.cc), exported by
        // the product addon.
        scenario_ = std::make_unique<Scenario>(VulkanExports::From(tools::LoaderAddon(env)), command->command, timingLoop, display);
      }
    } catch (const LibraryError& e) {
      throw LibraryErrorToJs(env, e);
    } catch (const StepError& e) {
      throw Napi::Error::New(env, std::string(command->name) + " benchmark setup: " + e.what());
    }
  }

 private:
  Scenario& Live(Napi::Env env) {
    if (!scenario_) throw Napi::Error::New(env, "the benchmark scenario has been destroyed");
    return *scenario_;
  }

  Napi::Value Measure(const Napi::CallbackInfo& info) {
    Scenario& s = Live(info.Env());
    try {
      return bench::MeasureRepeats(info, [&](bool pointer, uint32_t iterations) { return s.Measure(pointer, iterations); });
    } catch (const StepError& e) {
      throw Napi::Error::New(info.Env(), std::string("benchmark: ") + e.what());
    }
  }

  Napi::Value PointerOrigin(const Napi::CallbackInfo& info) { return bench::PointerOrigin(info.Env(), Live(info.Env()).TimedPointer()); }
  Napi::Value LoaderOrigin(const Napi::CallbackInfo& info) { return bench::PointerOrigin(info.Env(), Live(info.Env()).LoaderExport()); }

  Napi::Value DeviceName(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), Live(info.Env()).deviceName()); }
  Napi::Value PresentMode(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), Live(info.Env()).PresentMode()); }

  Napi::Value Destroy(const Napi::CallbackInfo& info) {
    scenario_.reset();
    library_.reset();
    return info.Env().Undefined();
  }

  // Declared first so it outlives the scenario: the scenario tears down through its functions.
  std::shared_ptr<DynamicLibrary> library_;
  std::unique_ptr<Scenario> scenario_;
};

}  // namespace

Napi::Function DefineVulkanBenchScenario(Napi::Env env) { return VulkanBenchScenario::Define(env); }

Napi::Value VulkanBenchCommands(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array out = Napi::Array::New(env, kCommands.size());
  for (uint32_t i = 0; i < kCommands.size(); ++i) out.Set(i, Napi::String::New(env, kCommands[i].name));
  return out;
}

}  // namespace kl::napi
