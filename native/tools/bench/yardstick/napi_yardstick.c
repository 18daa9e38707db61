/* The bench's yardstick (khronos_napi_yardstick.node): the cheapest N-API call there is, written
 * in plain C against node_api.h alone, without node-addon-api, in an addon of its own. The OpenXR
 * bench times `empty(a, b)` in the same process as space.locate, handTracker.locate and the
 * action-state reads and prints each per-call cost as a ratio to it (docs/performance.md, "The
 * per-call path at the N-API minimum"). It takes two numbers and returns one, the shape of an
 * empty two-argument call: napi_get_cb_info, two napi_get_value_double, napi_create_uint32. */
#include <node_api.h>

static napi_value Empty(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2] = {NULL, NULL};
  double a = 0, b = 0;
  napi_value result = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_get_value_double(env, argv[0], &a);
  napi_get_value_double(env, argv[1], &b);
  napi_create_uint32(env, a > b ? 1u : 0u, &result);
  return result;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn = NULL;
  if (napi_create_function(env, "empty", NAPI_AUTO_LENGTH, Empty, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "empty", fn) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(khronos_napi_yardstick, Init)
