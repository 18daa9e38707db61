#include "tools/bench/vulkan_bench.h"

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/dynamic_library.h"
#include "tools/bench/bench_timing.h"
#include "addon/errors.h"
#include "tools/loader_addon.h"
#include "vulkan/loader/loader_interface.h"

// The loader's exported functions this benchmark uses (setup, timed commands, teardown).
#define KL_VK_BENCH_EXPORTS(X)                                                                                                     \
  X(CreateInstance) X(DestroyInstance) X(EnumeratePhysicalDevices) X(GetPhysicalDeviceProperties) X(CreateDevice) X(DestroyDevice) \
      X(GetDeviceProcAddr) X(GetDeviceQueue) X(CreatePipelineLayout) X(DestroyPipelineLayout) X(CreateCommandPool)                 \
          X(DestroyCommandPool) X(AllocateCommandBuffers) X(BeginCommandBuffer) X(EndCommandBuffer) X(ResetCommandBuffer)          \
              X(CmdPushConstants)

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

enum class Command { GetDeviceQueue, CmdPushConstants };
struct CommandInfo {
  Command command;
  const char* name;
};
constexpr std::array kCommands{
    CommandInfo{Command::GetDeviceQueue, "vkGetDeviceQueue"},
    CommandInfo{Command::CmdPushConstants, "vkCmdPushConstants"},
};

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

// Everything a command needs, created through one loader's exports and destroyed in reverse.
class Scenario {
 public:
  Scenario(const VulkanExports& x, Command command, uint32_t timingLoop) : x_(x), command_(command), timingLoop_(timingLoop) {
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
    return command_ == Command::GetDeviceQueue ? reinterpret_cast<const void*>(pointerGetDeviceQueue_)
                                               : reinterpret_cast<const void*>(pointerCmdPushConstants_);
  }
  // The loader's own export (its vkGetDeviceProcAddr): which shared object is the loader.
  const void* LoaderExport() const { return reinterpret_cast<const void*>(x_.GetDeviceProcAddr); }
  const std::string& deviceName() const { return deviceName_; }

  Sample Measure(bool pointer, uint32_t iterations) {
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
    const VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, nullptr, 0, &app, 0, nullptr, 0, nullptr};
    Check(x_.CreateInstance(&instanceInfo, nullptr, &instance_), "vkCreateInstance");
    uint32_t count = 1;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    const VkResult r = x_.EnumeratePhysicalDevices(instance_, &count, &physicalDevice);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) throw StepError(r == VK_SUCCESS ? VK_ERROR_INITIALIZATION_FAILED : r, "vkEnumeratePhysicalDevices (is a driver installed?)");
    VkPhysicalDeviceProperties properties{};
    x_.GetPhysicalDeviceProperties(physicalDevice, &properties);
    deviceName_ = properties.deviceName;
    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    const VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, nullptr, 0, 1, &queueInfo, 0, nullptr, 0, nullptr, nullptr};
    Check(x_.CreateDevice(physicalDevice, &deviceInfo, nullptr, &device_), "vkCreateDevice");
    pointerGetDeviceQueue_ = reinterpret_cast<PFN_vkGetDeviceQueue>(x_.GetDeviceProcAddr(device_, "vkGetDeviceQueue"));
    pointerCmdPushConstants_ = reinterpret_cast<PFN_vkCmdPushConstants>(x_.GetDeviceProcAddr(device_, "vkCmdPushConstants"));
    if (pointerGetDeviceQueue_ == nullptr || pointerCmdPushConstants_ == nullptr) throw StepError(VK_ERROR_INITIALIZATION_FAILED, "vkGetDeviceProcAddr");
    if (command_ != Command::CmdPushConstants) return;
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
    const VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 0, nullptr, 1, &range};
    Check(x_.CreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_), "vkCreatePipelineLayout");
    const VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 0};
    Check(x_.CreateCommandPool(device_, &poolInfo, nullptr, &pool_), "vkCreateCommandPool");
    const VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    Check(x_.AllocateCommandBuffers(device_, &allocateInfo, &commandBuffer_), "vkAllocateCommandBuffers");
  }

  void Teardown() noexcept {
    if (pool_ != VK_NULL_HANDLE) x_.DestroyCommandPool(device_, pool_, nullptr);
    if (layout_ != VK_NULL_HANDLE) x_.DestroyPipelineLayout(device_, layout_, nullptr);
    if (device_ != VK_NULL_HANDLE) x_.DestroyDevice(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) x_.DestroyInstance(instance_, nullptr);
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
                       });
  }

  explicit VulkanBenchScenario(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VulkanBenchScenario>(info) {
    Napi::Env env = info.Env();
    const char* usage = "new VulkanBenchScenario({ command: string, loaderLibrary?: string, timingLoop?: 0 | 1 })";
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
    try {
      if (libraryValue.IsString()) {
        library_ = DynamicLibrary::Open(libraryValue.As<Napi::String>().Utf8Value());
        scenario_ = std::make_unique<Scenario>(VulkanExports::From(*library_), command->command, timingLoop);
      } else {
        // This package's loader: its trampolines (native/vulkan/loader/trampolines.cc), exported by
        // the product addon.
        scenario_ = std::make_unique<Scenario>(VulkanExports::From(tools::LoaderAddon(env)), command->command, timingLoop);
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
