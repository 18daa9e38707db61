// The tools addon (khronos_loader_tools.node): the natives of `khronos-loader bench` and of the
// doctor's probes, which the product addon does not ship in its surface. Only lib's tools load it,
// after the product addon (tools/loader_addon.h: how it reaches the loader it measures).
#include <napi.h>

#include "tools/bench/openxr_bench.h"
#include "tools/bench/openxr_frame_bench.h"
#include "tools/bench/openxr_paced_bench.h"
#include "tools/bench/vulkan_bench.h"
#include "tools/loader_addon.h"
#include "tools/probes/openxr_probe.h"
#include "tools/probes/vulkan_probe.h"

namespace kl::tools {
namespace {

// benchEmpty(a, b): the cheapest N-API call taking two numbers, the yardstick for the per-call
// cost of the per-frame calls (lib's frame bench). A raw napi_callback, as the product addon's
// per-frame calls are.
napi_value BenchEmpty(napi_env env, napi_callback_info info) {
  std::size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  double a = 0, b = 0;
  napi_get_value_double(env, argv[0], &a);
  napi_get_value_double(env, argv[1], &b);
  napi_value result = nullptr;
  napi_create_uint32(env, a > b ? 1 : 0, &result);
  return result;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("useLoaderAddon", Napi::Function::New<UseLoaderAddon>(env, "useLoaderAddon"));
  exports.Set("openxrProbeRuntime", Napi::Function::New<napi::OpenXrProbeRuntime>(env, "openxrProbeRuntime"));
  exports.Set("openxrProbeApiLayer", Napi::Function::New<napi::OpenXrProbeApiLayer>(env, "openxrProbeApiLayer"));
  exports.Set("vulkanProbeDriver", Napi::Function::New<napi::VulkanProbeDriver>(env, "vulkanProbeDriver"));
  exports.Set("vulkanProbeLayer", Napi::Function::New<napi::VulkanProbeLayer>(env, "vulkanProbeLayer"));
  exports.Set("benchOpenXrLocateSpace", Napi::Function::New<napi::BenchOpenXrLocateSpace>(env, "benchOpenXrLocateSpace"));
  exports.Set("OpenXrBenchScenario", napi::DefineOpenXrBenchScenario(env));
  exports.Set("benchOpenXrFrameNative", Napi::Function::New<napi::xr::BenchOpenXrFrameNative>(env, "benchOpenXrFrameNative"));
  exports.Set("benchOpenXrRuntimeCall", Napi::Function::New<napi::xr::BenchOpenXrRuntimeCall>(env, "benchOpenXrRuntimeCall"));
  exports.Set("OpenXrPacedRig", napi::xr::DefineOpenXrPacedRig(env));
  exports.Set("VulkanBenchScenario", napi::DefineVulkanBenchScenario(env));
  exports.Set("vulkanBenchCommands", Napi::Function::New<napi::VulkanBenchCommands>(env, "vulkanBenchCommands"));
  exports.Set("openxrBenchCommands", Napi::Function::New<napi::OpenXrBenchCommands>(env, "openxrBenchCommands"));
  napi_value empty = nullptr;
  NAPI_THROW_IF_FAILED(env, napi_create_function(env, "benchEmpty", NAPI_AUTO_LENGTH, BenchEmpty, nullptr, &empty), exports);
  exports.Set("benchEmpty", Napi::Value(env, empty));
  return exports;
}

}  // namespace
}  // namespace kl::tools

static Napi::Object InitToolsAddon(Napi::Env env, Napi::Object exports) { return kl::tools::Init(env, exports); }

NODE_API_MODULE(khronos_loader_tools, InitToolsAddon)
