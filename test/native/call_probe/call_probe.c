/* A tiny Node-API module that calls a native function pointer of the shape the Vulkan test
 * commands share, int32_t (*)(void* handle, uint32_t value, uint32_t* out), for tests that run
 * where koffi has no binary (the linux-arm64 prebuild under qemu-user): callHandleU32Out(fn,
 * handle, value) -> { result, out }. */
#include <node_api.h>
#include <stdint.h>

typedef int32_t (*HandleU32OutFn)(void* handle, uint32_t value, uint32_t* out);

static napi_value ThrowType(napi_env env, const char* message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static napi_value CallHandleU32Out(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) {
    return ThrowType(env, "callHandleU32Out(fn: bigint, handle: bigint, value: number)");
  }
  uint64_t fn = 0;
  uint64_t handle = 0;
  uint32_t value = 0;
  bool lossless = false;
  if (napi_get_value_bigint_uint64(env, argv[0], &fn, &lossless) != napi_ok || fn == 0) {
    return ThrowType(env, "callHandleU32Out: fn must be a non-zero bigint");
  }
  if (napi_get_value_bigint_uint64(env, argv[1], &handle, &lossless) != napi_ok) {
    return ThrowType(env, "callHandleU32Out: handle must be a bigint");
  }
  if (napi_get_value_uint32(env, argv[2], &value) != napi_ok) return ThrowType(env, "callHandleU32Out: value must be a number");
  uint32_t out = 0;
  const int32_t result = ((HandleU32OutFn)(uintptr_t)fn)((void*)(uintptr_t)handle, value, &out);
  napi_value object;
  napi_value resultValue;
  napi_value outValue;
  napi_create_object(env, &object);
  napi_create_int32(env, result, &resultValue);
  napi_create_uint32(env, out, &outValue);
  napi_set_named_property(env, object, "result", resultValue);
  napi_set_named_property(env, object, "out", outValue);
  return object;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "callHandleU32Out", NAPI_AUTO_LENGTH, CallHandleU32Out, NULL, &fn);
  napi_set_named_property(env, exports, "callHandleU32Out", fn);
  return exports;
}
