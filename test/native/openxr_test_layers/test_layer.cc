// OpenXR API layers for the loader's tests, one source built into several libraries by
// compile definitions (test/native/openxr_test_layers/CMakeLists.txt):
//   KL_LAYER_NAME            the layer's name (checked against XrApiLayerNextInfo.layerName)
//   KL_LAYER_KIND            PASSTHROUGH intercepts xrLocateSpace only and forwards it (the
//                            benchmark's per-layer cost); INTERCEPT also intercepts
//                            xrGetInstanceProperties / xrGetSystem / xrDestroyInstance and traces
//                            them; WRAP hands the application its own XrInstance handle and
//                            unwraps it on the way down; EXTRA adds a command of its own
//                            (xrKlTestPingKL)
//   KL_LAYER_NEGOTIATE_FAIL  one way of failing xrNegotiateLoaderApiLayerInterface
//   KL_LAYER_CREATE_FAIL     xrCreateApiLayerInstance fails (without calling down)
//   KL_LAYER_NEGOTIATE_SYMBOL the exported name of the negotiate function
//   KL_LAYER_FAULTS          1: the environment chooses a fault to inject (KL_FAULT_IN=layer,
//                            ../fault_injection/fault_injection.h) in negotiation,
//                            xrCreateApiLayerInstance or xrGetInstanceProcAddr look-ups
// Every layer traces (trace.h) "layer:<name>:create", "layer:<name>:destroy" and each
// intercepted call, so tests can see the chain order.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "../fault_injection/fault_injection.h"
#include "../openxr_test_runtime/trace.h"
#include "generated/openxr_types.h"

#define KL_KIND_PASSTHROUGH 0
#define KL_KIND_INTERCEPT 1
#define KL_KIND_WRAP 2
#define KL_KIND_EXTRA 3

#define KL_NEG_OK 0
#define KL_NEG_ERROR_RESULT 1
#define KL_NEG_BAD_INTERFACE_VERSION 2
#define KL_NEG_BAD_API_VERSION 3
#define KL_NEG_NULL_GET_INSTANCE_PROC_ADDR 4
#define KL_NEG_NULL_CREATE_API_LAYER_INSTANCE 5
#define KL_NEG_BAD_STRUCT_SIZE 6
#define KL_NEG_BAD_STRUCT_TYPE 7
#define KL_NEG_BAD_STRUCT_VERSION 8

#ifndef KL_LAYER_NAME
#error KL_LAYER_NAME must be defined
#endif
#ifndef KL_LAYER_KIND
#define KL_LAYER_KIND KL_KIND_PASSTHROUGH
#endif
#ifndef KL_LAYER_NEGOTIATE_FAIL
#define KL_LAYER_NEGOTIATE_FAIL KL_NEG_OK
#endif
#ifndef KL_LAYER_CREATE_FAIL
#define KL_LAYER_CREATE_FAIL 0
#endif
#ifndef KL_LAYER_FAULTS
#define KL_LAYER_FAULTS 0
#endif
#ifndef KL_LAYER_NEGOTIATE_SYMBOL
#define KL_LAYER_NEGOTIATE_SYMBOL xrNegotiateLoaderApiLayerInterface
#endif

namespace {

const std::string kName = KL_LAYER_NAME;

void Trace(const std::string& what) { kl_test::Trace("layer:" + kName + ":" + what); }

// The fault the environment chose for this call (none unless this is the faults build).
kl_fault::Kind Fault(const char* command, bool lookup = false) {
  if constexpr (KL_LAYER_FAULTS == 0) return kl_fault::Kind::None;
  return kl_fault::Act(kl_fault::At("layer", command, lookup));
}

// What this layer calls next, per instance (keyed by the handle the layer hands upward).
struct Next {
  XrInstance instance = XR_NULL_HANDLE;  // the handle of the entity below
  PFN_xrGetInstanceProcAddr getInstanceProcAddr = nullptr;
  PFN_xrDestroyInstance destroyInstance = nullptr;
  PFN_xrGetInstanceProperties getInstanceProperties = nullptr;
  PFN_xrGetSystem getSystem = nullptr;
  PFN_xrCreateSession createSession = nullptr;
};

struct Wrapped {
  std::uint64_t magic = 0x6b6c7772617070ULL;
  Next next;
};

std::mutex g_mutex;
std::unordered_map<XrInstance, Next> g_instances;
// The benchmark path: one next pointer per layer library, set at instance creation, so the
// per-call cost of a pass-through layer is one load and one indirect call.
PFN_xrLocateSpace g_nextLocateSpace = nullptr;

bool FindNext(XrInstance instance, Next* out) {
  std::lock_guard lock(g_mutex);
  auto it = g_instances.find(instance);
  if (it == g_instances.end()) return false;
  *out = it->second;
  return true;
}

template <typename Fn>
Fn Resolve(PFN_xrGetInstanceProcAddr gipa, XrInstance instance, const char* name) {
  PFN_xrVoidFunction f = nullptr;
  if (XR_FAILED(gipa(instance, name, &f))) return nullptr;
  return reinterpret_cast<Fn>(f);
}

XRAPI_ATTR XrResult XRAPI_CALL LayerLocateSpace(XrSpace space, XrSpace base, XrTime time, XrSpaceLocation* location) {
  return g_nextLocateSpace(space, base, time, location);
}

[[maybe_unused]] XRAPI_ATTR XrResult XRAPI_CALL LayerDestroyInstance(XrInstance instance) {
  Trace("destroy");
  Next next;
  if (!FindNext(instance, &next)) return XR_ERROR_HANDLE_INVALID;
  const XrResult result = next.destroyInstance(next.instance);
  std::lock_guard lock(g_mutex);
  g_instances.erase(instance);
#if KL_LAYER_KIND == KL_KIND_WRAP
  delete reinterpret_cast<Wrapped*>(instance);
#endif
  return result;
}

[[maybe_unused]] XRAPI_ATTR XrResult XRAPI_CALL LayerGetInstanceProperties(XrInstance instance, XrInstanceProperties* props) {
  Trace("xrGetInstanceProperties");
  Next next;
  if (!FindNext(instance, &next)) return XR_ERROR_HANDLE_INVALID;
  return next.getInstanceProperties(next.instance, props);
}

[[maybe_unused]] XRAPI_ATTR XrResult XRAPI_CALL LayerGetSystem(XrInstance instance, const XrSystemGetInfo* info, XrSystemId* id) {
  Trace("xrGetSystem");
  Next next;
  if (!FindNext(instance, &next)) return XR_ERROR_HANDLE_INVALID;
  return next.getSystem(next.instance, info, id);
}

[[maybe_unused]] XRAPI_ATTR XrResult XRAPI_CALL LayerCreateSession(XrInstance instance, const XrSessionCreateInfo* info, XrSession* session) {
  Next next;
  if (!FindNext(instance, &next)) return XR_ERROR_HANDLE_INVALID;
  return next.createSession(next.instance, info, session);
}

}  // namespace

// The command this layer adds (KL_KIND_EXTRA); exported too, so a test can compare the address
// the loader resolves with the library's own symbol.
extern "C" __attribute__((visibility("default"))) XrResult XRAPI_CALL klTestLayerPing(XrInstance instance, uint32_t* value) {
  Trace("xrKlTestPingKL");
  if (value == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  Next next;
  if (!FindNext(instance, &next)) return XR_ERROR_HANDLE_INVALID;
  *value = 42;
  return XR_SUCCESS;
}

namespace {

XRAPI_ATTR XrResult XRAPI_CALL LayerGetInstanceProcAddr(XrInstance instance, const char* name, PFN_xrVoidFunction* function) {
  if (name == nullptr || function == nullptr) return XR_ERROR_VALIDATION_FAILURE;
  const std::string n = name;
  if (Fault(name, true) == kl_fault::Kind::Null) {
    *function = nullptr;  // malformed: success and no pointer
    return XR_SUCCESS;
  }
  if (n == "xrGetInstanceProcAddr") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerGetInstanceProcAddr);
    return XR_SUCCESS;
  }
  if (instance == XR_NULL_HANDLE) {
    // Functions that need no instance: none intercepted, ask the chain below. There is no
    // instance yet, so no next pointer either: answer what the application may call.
    *function = nullptr;
    return XR_ERROR_HANDLE_INVALID;
  }
  Next next;
  if (!FindNext(instance, &next)) {
    *function = nullptr;
    return XR_ERROR_HANDLE_INVALID;
  }
  if (n == "xrLocateSpace") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerLocateSpace);
    return XR_SUCCESS;
  }
#if KL_LAYER_KIND == KL_KIND_INTERCEPT || KL_LAYER_KIND == KL_KIND_WRAP || KL_LAYER_KIND == KL_KIND_EXTRA
  if (n == "xrDestroyInstance") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerDestroyInstance);
    return XR_SUCCESS;
  }
  if (n == "xrGetInstanceProperties") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerGetInstanceProperties);
    return XR_SUCCESS;
  }
  if (n == "xrGetSystem") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerGetSystem);
    return XR_SUCCESS;
  }
#endif
#if KL_LAYER_KIND == KL_KIND_WRAP
  if (n == "xrCreateSession") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(LayerCreateSession);
    return XR_SUCCESS;
  }
  // Lower layers must never see the wrapped handle: commands that take an XrInstance this layer
  // does not unwrap are not offered.
  static const char* const kNoInstanceParameter[] = {"xrDestroySession", "xrCreateReferenceSpace", "xrDestroySpace"};
  bool forwardable = false;
  for (const char* c : kNoInstanceParameter) forwardable = forwardable || n == c;
  if (!forwardable) {
    *function = nullptr;
    return XR_ERROR_FUNCTION_UNSUPPORTED;
  }
#endif
#if KL_LAYER_KIND == KL_KIND_EXTRA
  if (n == "xrKlTestPingKL") {
    *function = reinterpret_cast<PFN_xrVoidFunction>(klTestLayerPing);
    return XR_SUCCESS;
  }
#endif
  return next.getInstanceProcAddr(next.instance, name, function);
}

XRAPI_ATTR XrResult XRAPI_CALL LayerCreateApiLayerInstance(const XrInstanceCreateInfo* info, const XrApiLayerCreateInfo* layerInfo,
                                                           XrInstance* instance) {
  Trace("create");
  if (layerInfo == nullptr || layerInfo->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_CREATE_INFO ||
      layerInfo->structVersion != XR_API_LAYER_CREATE_INFO_STRUCT_VERSION || layerInfo->structSize != sizeof(XrApiLayerCreateInfo) ||
      layerInfo->nextInfo == nullptr || layerInfo->nextInfo->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_NEXT_INFO ||
      layerInfo->nextInfo->structVersion != XR_API_LAYER_NEXT_INFO_STRUCT_VERSION ||
      layerInfo->nextInfo->structSize != sizeof(XrApiLayerNextInfo)) {
    Trace("bad-create-info");
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (kName != layerInfo->nextInfo->layerName) {
    Trace(std::string("wrong-next-info:") + layerInfo->nextInfo->layerName);
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  if (Fault("xrCreateApiLayerInstance") == kl_fault::Kind::Fail) return XR_ERROR_INITIALIZATION_FAILED;
#if KL_LAYER_CREATE_FAIL
  Trace("create-fails");
  return XR_ERROR_INITIALIZATION_FAILED;
#endif
  const XrApiLayerNextInfo* mine = layerInfo->nextInfo;
  XrApiLayerCreateInfo down = *layerInfo;
  down.nextInfo = mine->next;
  XrInstance below = XR_NULL_HANDLE;
  const XrResult result = mine->nextCreateApiLayerInstance(info, &down, &below);
  if (XR_FAILED(result)) return result;

  Next next;
  next.instance = below;
  next.getInstanceProcAddr = mine->nextGetInstanceProcAddr;
  next.destroyInstance = Resolve<PFN_xrDestroyInstance>(next.getInstanceProcAddr, below, "xrDestroyInstance");
  next.getInstanceProperties = Resolve<PFN_xrGetInstanceProperties>(next.getInstanceProcAddr, below, "xrGetInstanceProperties");
  next.getSystem = Resolve<PFN_xrGetSystem>(next.getInstanceProcAddr, below, "xrGetSystem");
  next.createSession = Resolve<PFN_xrCreateSession>(next.getInstanceProcAddr, below, "xrCreateSession");
  g_nextLocateSpace = Resolve<PFN_xrLocateSpace>(next.getInstanceProcAddr, below, "xrLocateSpace");

  XrInstance handed = below;
#if KL_LAYER_KIND == KL_KIND_WRAP
  auto* wrapped = new Wrapped();
  wrapped->next = next;
  handed = reinterpret_cast<XrInstance>(wrapped);
  Trace("wrapped");
#endif
  {
    std::lock_guard lock(g_mutex);
    g_instances[handed] = next;
  }
  *instance = handed;
  return XR_SUCCESS;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) XrResult KL_LAYER_NEGOTIATE_SYMBOL(const XrNegotiateLoaderInfo* loaderInfo,
                                                                                    const char* layerName,
                                                                                    XrNegotiateApiLayerRequest* request) {
  Trace("negotiate");
  Trace("loaderInfo:" + kl_test::DescribeLoaderInfo(loaderInfo) + ":request:" + kl_test::DescribeHeader(request) + ":sizes:" +
        std::to_string(sizeof(XrNegotiateLoaderInfo)) + "," + std::to_string(sizeof(XrNegotiateApiLayerRequest)));
  if (Fault("negotiate") == kl_fault::Kind::Fail) return XR_ERROR_INITIALIZATION_FAILED;
  if (loaderInfo == nullptr || request == nullptr || layerName == nullptr || kName != layerName ||
      loaderInfo->structType != XR_LOADER_INTERFACE_STRUCT_LOADER_INFO || loaderInfo->structVersion != XR_LOADER_INFO_STRUCT_VERSION ||
      loaderInfo->structSize != sizeof(XrNegotiateLoaderInfo) || request->structType != XR_LOADER_INTERFACE_STRUCT_API_LAYER_REQUEST ||
      request->structVersion != XR_API_LAYER_INFO_STRUCT_VERSION || request->structSize != sizeof(XrNegotiateApiLayerRequest) ||
      loaderInfo->minInterfaceVersion > XR_CURRENT_LOADER_API_LAYER_VERSION ||
      loaderInfo->maxInterfaceVersion < XR_CURRENT_LOADER_API_LAYER_VERSION ||
      loaderInfo->minApiVersion > XR_MAKE_VERSION(1, 1, 0) || loaderInfo->maxApiVersion < XR_MAKE_VERSION(1, 0, 0)) {
    Trace("negotiate-rejects-loader");
    return XR_ERROR_INITIALIZATION_FAILED;
  }
  request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION;
  request->layerApiVersion = XR_MAKE_VERSION(1, 0, 0);
  request->getInstanceProcAddr = LayerGetInstanceProcAddr;
  request->createApiLayerInstance = LayerCreateApiLayerInstance;
#if KL_LAYER_NEGOTIATE_FAIL == KL_NEG_ERROR_RESULT
  return XR_ERROR_INITIALIZATION_FAILED;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_BAD_INTERFACE_VERSION
  request->layerInterfaceVersion = XR_CURRENT_LOADER_API_LAYER_VERSION + 1;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_BAD_API_VERSION
  request->layerApiVersion = XR_MAKE_VERSION(2, 0, 0);
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_NULL_GET_INSTANCE_PROC_ADDR
  request->getInstanceProcAddr = nullptr;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_NULL_CREATE_API_LAYER_INSTANCE
  request->createApiLayerInstance = nullptr;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_BAD_STRUCT_SIZE
  request->structSize = sizeof(XrNegotiateApiLayerRequest) + 16;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_BAD_STRUCT_TYPE
  request->structType = XR_LOADER_INTERFACE_STRUCT_RUNTIME_REQUEST;
#elif KL_LAYER_NEGOTIATE_FAIL == KL_NEG_BAD_STRUCT_VERSION
  request->structVersion = XR_API_LAYER_INFO_STRUCT_VERSION + 3;
#endif
  return XR_SUCCESS;
}
